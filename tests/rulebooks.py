"""The rulebooks' text and the binding rulings, for the few tests that check quotations
against them (the lessons' section citations, the rulings page).

They are not part of the repository. Set ``NIDAVELLIR_RULEBOOKS`` to a folder that holds
them (its subfolders are searched): the French rulebook with Thingvellir as text (the file
that names the Royal Offerings, « Offrande Royale ») and the binding table of rulings, a
file named ``RULINGS.md``. Without the setting, or without the file a test needs, the test
skips and says so (docs/development.md, "Tests").
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ENV = "NIDAVELLIR_RULEBOOKS"


def folder() -> Path:
    """The folder the setting names (the test skips, saying why, without it)."""
    value = os.environ.get(ENV, "").strip()
    if not value:
        pytest.skip(f"{ENV} is not set: set it to the folder of the rulebooks' text to check "
                    "the quotations against them")
    path = Path(value).expanduser()
    if not path.is_dir():
        pytest.skip(f"{ENV}={value!r} is not a folder")
    return path


def french_rulebook() -> str:
    """The French rulebook with Thingvellir, as text."""
    where = folder()
    for path in sorted(where.rglob("*.txt")):
        text = path.read_text(encoding="utf-8", errors="replace")
        if "Offrande" in text and "Thingvellir" in text:
            return text
    pytest.skip(f"{ENV}={str(where)!r} holds no French rulebook with Thingvellir (a .txt file)")


def binding_rulings() -> str:
    """The binding table of rulings (``RULINGS.md``)."""
    where = folder()
    for path in sorted(where.rglob("RULINGS.md")):
        return path.read_text(encoding="utf-8")
    pytest.skip(f"{ENV}={str(where)!r} holds no RULINGS.md")
