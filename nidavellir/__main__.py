"""``python -m nidavellir``: the command line (see :mod:`nidavellir.cli`).

The import sits under the guard so that importing this module (as the layering test
does) loads nothing from the upper layers.
"""

if __name__ == "__main__":
    import sys

    from nidavellir.cli import main

    sys.exit(main())
