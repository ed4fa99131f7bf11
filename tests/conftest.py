"""The whole suite: the Play tab's coach judges at a small budget.

Every Play app with a human seat starts judging each decision of that seat in the
background (the ``coach`` level: about two seconds of one core). Tests that play whole games
through the widgets would spend most of their time there, so the suite sets the coach's
level (``widgets.coach.LEVEL_VARIABLE``, read by kernels started by the tests too) to a
small search; tests of the coach itself name their levels.

The suite reads English whatever the machine's locale: the command line and a server
without ``--language`` follow ``LANGUAGE``/``LC_ALL``/``LC_MESSAGES``/``LANG`` (a CI machine
set to German would otherwise see German output); tests of other languages say so.

The learner's puzzle history (``NIDAVELLIR_DATA_DIR``, issue 54) lives in a temporary
folder of the run: no test, and no kernel of a test's server, reads or writes the user's
own.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

import pytest

pytest_plugins = ["speed_guard"]

os.environ.setdefault("NIDAVELLIR_COACH_LEVEL", "search@6")
for _name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
    os.environ.pop(_name, None)
os.environ["LANG"] = "C.UTF-8"
_DATA = tempfile.mkdtemp(prefix="nidavellir-data-")
os.environ["NIDAVELLIR_DATA_DIR"] = _DATA
atexit.register(shutil.rmtree, _DATA, True)


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The browser tests share one Voila server and one browser per kind of server: with
    pytest-xdist's ``--dist loadgroup`` they all run on one worker, one after another, while
    the other tests spread over every worker."""
    for item in items:
        if item.get_closest_marker("browser") is not None:
            item.add_marker(pytest.mark.xdist_group("browser"))
