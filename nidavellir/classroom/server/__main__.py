"""``python -m nidavellir.classroom.server``: the lab's Voila (what ``python -m
nidavellir.serve`` starts, with the lab's options). A class's kernel fork server is started
first, so that its imports run beside the server's (:func:`.forks.start_early`)."""

import sys

from .forks import start_early

if __name__ == "__main__":
    start_early(sys.argv[1:])

from .app import main  # noqa: E402 - after the fork server's start, on purpose

if __name__ == "__main__":
    main()
