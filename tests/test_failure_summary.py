"""tests/failure_summary.py: ``make test`` names its failed tests again in its last lines,
read from the suite's own JUnit report (issue 55: a CI tail with no failure in it)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import failure_summary
import pytest

pytest_plugins = ["pytester"]

SUITE = '''
import pytest

def test_passes():
    assert True

def test_fails():
    seen = [1, 2]
    assert seen == [1, 3], "the ledger moved"

class TestGroup:
    def test_fails_in_a_class(self):
        raise ValueError("a card left the market")

@pytest.fixture
def broken():
    raise RuntimeError("no server")

def test_errors_in_its_fixture(broken):
    pass

@pytest.mark.parametrize("n", [2, 3])
def test_long(n):
    assert n == 2, "x" * 500
'''


def report_of(pytester: pytest.Pytester) -> Path:
    pytester.mkpydir("tests")
    (pytester.path / "tests" / "test_demo.py").write_text(SUITE)
    result = pytester.runpytest_subprocess(
        "-p", "no:xdist", "-p", "no:cacheprovider", "--junitxml=report.xml", "tests")
    result.assert_outcomes(passed=2, failed=3, errors=1)
    return pytester.path / "report.xml"


def test_each_failure_is_named_with_its_node_id_and_message(pytester: pytest.Pytester) -> None:
    report = report_of(pytester)  # one inner run: about 1.5 s of CPU
    lines = failure_summary.failures(report)
    assert [line.split(" - ")[0] for line in lines] == [
        "FAILED tests/test_demo.py::test_fails",
        "FAILED tests/test_demo.py::TestGroup::test_fails_in_a_class",
        "ERROR tests/test_demo.py::test_errors_in_its_fixture",
        "FAILED tests/test_demo.py::test_long[3]",
    ]
    assert "the ledger moved" in lines[0]
    assert "a card left the market" in lines[1]
    assert "no server" in lines[2]
    assert len(lines[3]) < failure_summary.WIDTH + 60  # a page of message cut to a line
    assert lines[3].endswith("…")

    # the command, as make test runs it: one line each, and nothing when all passed
    script = str(Path(failure_summary.__file__))
    done = subprocess.run([sys.executable, script, str(report)], capture_output=True,
                          text=True, cwd=pytester.path, check=True)
    assert done.stdout.splitlines()[0].startswith(
        "make test: FAILED tests/test_demo.py::test_fails - ")
    assert len(done.stdout.splitlines()) == 4

    green = pytester.path / "green.xml"
    green.write_text('<testsuites><testsuite name="pytest" tests="1">'
                     '<testcase classname="tests.test_demo" name="test_passes"/>'
                     '</testsuite></testsuites>')
    done = subprocess.run([sys.executable, script, str(green)], capture_output=True,
                          text=True, cwd=pytester.path, check=True)
    assert done.stdout == ""


def test_a_missing_or_broken_report_is_said_in_one_line(tmp_path: Path) -> None:
    script = str(Path(failure_summary.__file__))
    broken = tmp_path / "broken.xml"
    broken.write_text("<testsuites><testcase")
    for report in (tmp_path / "missing.xml", broken):
        done = subprocess.run([sys.executable, script, str(report)], capture_output=True,
                              text=True)
        assert done.returncode == 1
        assert done.stdout.startswith(f"make test: the suite's report {report} could not")
        assert "Traceback" not in done.stdout + done.stderr
    done = subprocess.run([sys.executable, script], capture_output=True, text=True)
    assert done.returncode == 2 and done.stderr.startswith("usage:")
