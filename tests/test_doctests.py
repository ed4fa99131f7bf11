"""Every ``>>>`` example in the packages runs (issue 24: the docs' examples are tested).

Each module of ``nidavellir`` and ``widgets`` is collected without listing it; a module's
examples run in a fresh namespace, as ``python -m doctest`` would.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def modules(package: str) -> list[str]:
    path = ROOT / package
    found = [package]
    for info in pkgutil.walk_packages([str(path)], prefix=package + "."):
        found.append(info.name)
    return sorted(found)


ALL = modules("nidavellir") + modules("widgets")
#: The modules whose source holds an example.
WITH_EXAMPLES: list[str] = []
for _name in ALL:
    _source = (ROOT / _name.replace(".", "/")).with_suffix(".py")
    if not _source.exists():
        _source = ROOT / _name.replace(".", "/") / "__init__.py"
    if ">>>" in _source.read_text(encoding="utf-8"):
        WITH_EXAMPLES.append(_name)


#: Modules whose examples cost more than the speed guard's limit, and why.
COSTLY: dict[str, str] = {
    "nidavellir.analysis.review": "its example reviews a whole 2-player game: about 4 s of CPU",
}


@pytest.mark.parametrize("name", [
    pytest.param(n, marks=pytest.mark.slow(reason=COSTLY[n])) if n in COSTLY else n
    for n in WITH_EXAMPLES])
def test_examples_run(name: str) -> None:
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    tests = finder.find(module, name)
    assert tests, f"{name} has '>>>' in its source but doctest finds no example"
    for test in tests:
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples of {name} fail"


def test_every_module_with_examples_is_collected() -> None:
    assert len(WITH_EXAMPLES) >= 30
    assert "nidavellir.game" in WITH_EXAMPLES and "widgets.session" in WITH_EXAMPLES
