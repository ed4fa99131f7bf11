"""Name the suite's failed tests again as the last lines of ``make test``.

``make test`` prints the whole suite's report first and then the outputs of the parts that
ran beside it (the type check, the documentation build, the engine's tests on the pure
Python), so a failed test's name is far above the end of the output; a CI page that keeps
only the output's tail showed a failed run with no failure in it (exit 2 after 571 s,
every line of the tail from a part that passed). The suite writes pytest's JUnit XML
report, and this module prints each failed or erroring test from it, with the first line
of its message, after everything else:

    make test: FAILED tests/test_coach.py::test_x - AssertionError: ...

    python tests/failure_summary.py REPORT.xml   (prints nothing when nothing failed)

A report that is missing or cannot be read is said in one line (the suite's own exit
status still fails ``make test``).
"""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from pathlib import Path

#: The longest message line printed; a failure's message can be a whole page.
WIDTH = 200


def node_id(classname: str, name: str) -> str:
    """pytest's node id from a JUnit test case's classname and name.

    The classname is the module's dotted path, then any test classes
    (``tests.browser.test_x.TestY``); the module is the longest prefix that is a file.
    """
    parts = classname.split(".") if classname else []
    for cut in range(len(parts), 0, -1):
        path = Path(*parts[:cut]).with_suffix(".py")
        if path.is_file():
            return "::".join([path.as_posix(), *parts[cut:], name])
    if parts:
        return "::".join(["/".join(parts) + ".py", name])
    return name


def failures(report: Path) -> list[str]:
    """One line for each failed or erroring test case in the report, in its order."""
    lines = []
    for case in ET.parse(report).getroot().iter("testcase"):
        for kind, word in (("failure", "FAILED"), ("error", "ERROR")):
            for found in case.findall(kind):
                message = (found.get("message") or found.text or "").strip()
                first = message.splitlines()[0] if message else ""
                if len(first) > WIDTH:
                    first = first[: WIDTH - 1] + "…"
                test = node_id(case.get("classname", ""), case.get("name", ""))
                lines.append(f"{word} {test}" + (f" - {first}" if first else ""))
    return lines


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python tests/failure_summary.py REPORT.xml", file=sys.stderr)
        return 2
    report = Path(argv[0])
    try:
        found = failures(report)
    except (OSError, ET.ParseError) as exc:
        print(f"make test: the suite's report {report} could not be read ({exc})")
        return 1
    for line in found:
        print(f"make test: {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
