"""The whole suite: the Play tab's coach judges at a small budget.

Every Play app with a human seat starts judging each decision of that seat in the
background (the ``coach`` level: about a second of one core compiled, three in pure
Python). Tests that play whole games through the widgets would spend most of their time
there, so the suite sets the coach's level (``widgets.coach.LEVEL_VARIABLE``, read by
kernels started by the tests too) to a small search; tests of the coach itself name their
levels.

The suite reads English whatever the machine's locale: the command line and a server
without ``--language`` follow ``LANGUAGE``/``LC_ALL``/``LC_MESSAGES``/``LANG`` (a CI machine
set to German would otherwise see German output); tests of other languages say so.

The tests import each other as ``tests.…`` (``tests.test_class_view``): this folder is that
package, whatever else is installed under the name (dennis, the catalogues' linter, ships a
top-level package ``tests`` of its own, which would win over a folder without
``__init__.py``).

The learner's puzzle history (``NIDAVELLIR_DATA_DIR``, issue 54) lives in a temporary
folder of the run: no test, and no kernel of a test's server, reads or writes the user's
own.
"""

from __future__ import annotations

import atexit
import gc
import os
import shutil
import sys
import tempfile
import types
from pathlib import Path
from typing import Any

import pytest

_HERE = str(Path(__file__).resolve().parent)
if list(getattr(sys.modules.get("tests"), "__path__", [])) != [_HERE]:
    _package = types.ModuleType("tests")
    _package.__path__ = [_HERE]
    sys.modules["tests"] = _package

pytest_plugins = ["speed_guard"]

os.environ.setdefault("NIDAVELLIR_COACH_LEVEL", "search@6")
for _name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
    os.environ.pop(_name, None)
os.environ["LANG"] = "C.UTF-8"
_DATA = tempfile.mkdtemp(prefix="nidavellir-data-")
os.environ["NIDAVELLIR_DATA_DIR"] = _DATA
atexit.register(shutil.rmtree, _DATA, True)


#: Where the browser tests live (their node ids start with it).
BROWSER_TESTS = "tests/browser/"
#: The browser tests in two groups of about the same length, each run on one worker with
#: its own Voila servers and Chromium (a group's tests share them): the files of the second
#: group; every other browser test is in the first. One group alone was the run's long
#: pole (15 minutes of one worker while the other had finished).
SECOND_BROWSER_GROUP = frozenset({
    "test_dashboard.py", "test_language_walk.py", "test_play_tab.py",
    "test_order_under_load.py", "test_layout_german.py", "test_coach_first.py",
    "test_puzzles.py"})


def browser_group(nodeid: str) -> str | None:
    """The browser group of a test (None: not a browser test)."""
    if not nodeid.startswith(BROWSER_TESTS):
        return None
    name = nodeid[len(BROWSER_TESTS):].split("::", 1)[0]
    return "browser-2" if name in SECOND_BROWSER_GROUP else "browser-1"


def pytest_collection_finish(session: pytest.Session) -> None:
    """The collected modules and test items live as long as the run: the cyclic garbage
    collector need not walk them at each of its full collections. Frozen once collected,
    a test's cost (tests/speed_guard.py) no longer grows with what its worker holds: a
    hypothesis test cost 0.5 s of CPU alone and 2.9 s in a worker of the whole suite."""
    gc.collect()
    gc.freeze()


@pytest.hookimpl(optionalhook=True)  # pytest-xdist's hook: unknown with -p no:xdist
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """The browser tests (``tests/browser/``) share Voila servers and a Chromium: with
    ``--dist loadgroup`` each group (:func:`browser_group`) runs on one worker, one test
    after another (the groups are the first units of work, as they are collected first),
    while every other test spreads over the workers. pytest-xdist's own groups
    (``xdist_group`` marks) rename the tests' node ids, which pytest 9.2 no longer allows
    (the suffix is silently lost and the browser tests ran on both workers, each starting
    servers and a Chromium); this scheduler groups by path instead."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class BrowserGroups(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return browser_group(nodeid) or nodeid

    return BrowserGroups(config, log)

