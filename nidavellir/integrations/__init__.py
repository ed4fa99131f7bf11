"""Adapters for game-AI libraries (the only place that imports them): PettingZoo and
OpenSpiel.

``pip install 'nidavellir[rl]'`` (``make test`` installs it). The action index table and
the observation encoding live in :mod:`nidavellir.integrations.encoding` and are shared by
the adapters.
"""
