"""The catalogues through the translators' own checkers: translate-toolkit's ``pofilter``
(its critical checks: placeholders, printf and brace formats, escapes, newlines, tabs, XML
tags, the number of plural forms) and ``dennis-cmd lint --errorsonly`` (variables, malformed
formats, blank or unchanged strings, HTML). A pofilter finding that is not an error is
listed once, with the reason, in ``tests/catalogue_false_positives.csv``; every other one
fails, and so does a listed one that no longer occurs. dennis finds no error at all, and
must not (docs/translating.md, "Checks").
"""

from __future__ import annotations

import csv
import re
import subprocess
import sys
from pathlib import Path

import pytest
from translate.filters import checks
from translate.storage import factory

from nidavellir.tools import catalogues

HERE = Path(__file__).resolve().parent
ALLOWED = HERE / "catalogue_false_positives.csv"
LANGUAGES = catalogues.TRANSLATED
#: pofilter's critical checks (translate.filters: the tests marked @critical).
CRITICAL = ("escapes", "newlines", "tabs", "printf", "pythonbraceformat", "variables",
            "xmltags", "nplurals")


def allowed() -> list[dict[str, str]]:
    with ALLOWED.open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(line for line in f if not line.startswith("#")))


def explained(language: str, check: str, msgid: str) -> bool:
    return any(row["language"] in ("*", language) and row["check"] == check
               and row["msgid"] == msgid for row in allowed())


def pofilter(language: str) -> list[tuple[str, str, str]]:
    """(check, msgid, message) for every critical failure of a catalogue."""
    store = factory.getobject(str(catalogues.po_path(language)))
    checker = checks.StandardChecker(
        checkerconfig=checks.CheckerConfig(targetlanguage=language),
        limitfilters=list(CRITICAL))
    out = []
    for unit in store.units:
        if unit.isheader() or not unit.istranslated():
            continue
        for check, failure in checker.run_filters(unit, categorised=True).items():
            # categorised: each failure is a mapping with its message
            assert not isinstance(failure, str)
            out.append((check, str(unit.source), str(failure["message"])))
    return out


@pytest.mark.parametrize("language", LANGUAGES)
def test_pofilter_s_critical_checks(language: str) -> None:
    found = pofilter(language)
    wrong = [f for f in found if not explained(language, f[0], f[1])]
    assert not wrong, f"pofilter ({language}): " + "; ".join(map(str, wrong))
    stale = [row for row in allowed() if row["language"] in ("*", language)
             and row["check"] in CRITICAL
             and not any(f[:2] == (row["check"], row["msgid"]) for f in found)]
    assert not stale, f"{ALLOWED.name} lists what pofilter no longer finds: {stale}"


def test_dennis_finds_no_error() -> None:
    dennis = Path(sys.executable).with_name("dennis-cmd")
    paths = [str(catalogues.po_path(language)) for language in LANGUAGES]
    run = subprocess.run([str(dennis), "lint", "--errorsonly", *paths], capture_output=True,
                         text=True, check=False)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-1000:]
    assert re.search(r"Total number of errors:\s+0\n", run.stdout), run.stdout[-2000:]
