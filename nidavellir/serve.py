"""``python -m nidavellir.serve`` (``make run``): serve the notebooks to a class.

The command line is the classroom's (:mod:`nidavellir.classroom.command`; ``--help`` lists
its options, docs/serving.md explains them); this module is its name on the command line.
Standard library only.
"""

from __future__ import annotations

import sys

from .classroom.command import main

__all__ = ["main"]

if __name__ == "__main__":
    sys.exit(main())
