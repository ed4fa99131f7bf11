"""``python -m nidavellir``: the command line (see :mod:`nidavellir.cli`)."""

import sys

from .cli import main

sys.exit(main())
