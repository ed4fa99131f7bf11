"""Every ``>>>`` example in the packages runs (issue 24: the docs' examples are tested).

Each module of ``nidavellir`` and ``widgets`` is collected without listing it; a module's
examples run in a fresh namespace, as ``python -m doctest`` would. A module that runs
compiled here (nidavellir.compiled) hides its functions' examples from doctest: the examples
of those modules run in a fresh interpreter on the pure-Python build (the same source).
"""

from __future__ import annotations

import doctest
import importlib
import json
import os
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

from nidavellir import compiled

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


def run_examples(name: str) -> tuple[int, int, int]:
    """(doctests found, examples attempted, examples failed) of module ``name``."""
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    tests = finder.find(module, name)
    for test in tests:
        runner.run(test)
    result = runner.summarize(verbose=False)
    return len(tests), result.attempted, result.failed


@pytest.fixture(scope="module")
def on_the_pure_build() -> dict[str, list[int]]:
    """:func:`run_examples` of the modules compiled here, in a fresh pure-Python interpreter."""
    names = [n for n in WITH_EXAMPLES if n in compiled.status().modules]
    code = ("import json, sys; sys.path.insert(0, 'tests'); from test_doctests import "
            f"run_examples; print(json.dumps({{n: run_examples(n) for n in {names!r}}}))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, env=dict(os.environ, NIDAVELLIR_COMPILED="pure"),
                          timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, list[int]] = json.loads(done.stdout.splitlines()[-1])
    return result


@pytest.mark.parametrize("name", [
    pytest.param(n, marks=pytest.mark.slow(reason=COSTLY[n])) if n in COSTLY else n
    for n in WITH_EXAMPLES])
def test_examples_run(name: str, request: pytest.FixtureRequest) -> None:
    if name in compiled.status().modules:
        found, attempted, failed = request.getfixturevalue("on_the_pure_build")[name]
    else:
        found, attempted, failed = run_examples(name)
    assert found, f"{name} has '>>>' in its source but doctest finds no example"
    assert failed == 0, f"{failed} of {attempted} examples of {name} fail"


def test_every_module_with_examples_is_collected() -> None:
    assert len(WITH_EXAMPLES) >= 30
    assert "nidavellir.game" in WITH_EXAMPLES and "widgets.session" in WITH_EXAMPLES
