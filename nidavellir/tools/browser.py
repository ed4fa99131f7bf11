"""Debian's chromium and the flags of every headless run in the lab: the browser tests,
the class benchmarks, the docs' screenshots and the first-paint recorder
(:mod:`nidavellir.classroom.server.first_paint`). No request may leave the machine, so
everything that phones home is off."""

from __future__ import annotations

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
]

__all__ = ["CHROMIUM", "CHROMIUM_ARGS"]
