"""The maintainers' tools: nothing a game, a lesson or a class page runs.

- :mod:`.catalogues`: the message catalogues (``make i18n``, ``python -m
  nidavellir.tools.catalogues``; docs/translating.md);
- :mod:`.browser`: Debian's chromium and the flags of every headless run (the browser tests,
  the class benchmarks, the docs' screenshots, the first-paint recorder).
"""
