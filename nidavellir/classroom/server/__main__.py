"""``python -m nidavellir.classroom.server``: the lab's Voila (what ``python -m
nidavellir.serve`` starts, with the lab's options)."""

from .app import main

if __name__ == "__main__":
    main()
