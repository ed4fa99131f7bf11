"""The repository stands alone (issue 43, item 6): nothing names a path outside it, the code
cites only contracts that live in docs/, and no test reaches a folder beside the clone.

The rulebooks are cited by title and section; the few tests that check quotations against
their text read its folder from a setting (tests/rulebooks.py).
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: Where a path outside the repository may be named: the docs (which explain the settings)
#: and the tests, and the packages (whose paths are their own files').
EXEMPT = ("docs/", "tests/", "nidavellir/", "widgets/")
#: Paths of this machine's workspace and homes.
MACHINE = re.compile(r"(?<![\w.])(/work/|/home/|/root/|~/)")
PARENT = re.compile(r"(?<![\w.])((?:\.\./)+)([\w.-]+)")
#: Documents that are not in the repository: a citation of one points nowhere.
MISSING = re.compile(r"\b(?:ARCHITECTURE|STYLE|VOILA|AI|INSTALL|CLASSROOM)\.md\b|\bcards\.md\b"
                     r"|rules-edge-cases|glossary-de-fr|\bshared/(?:docs|seeds|reference|hooks)"
                     r"|\.\./shared\b")
#: Files that may name the binding rulings' file (the setting that finds it).
RULINGS_NAMED = ("tests/rulebooks.py", "tests/test_standalone.py", "docs/development.md")


def tracked() -> list[str]:
    done = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                          check=True)
    return [f for f in done.stdout.splitlines() if (ROOT / f).is_file()]


def _text(name: str) -> str | None:
    data = (ROOT / name).read_bytes()
    if b"\0" in data[:4096]:
        return None
    return data.decode("utf-8", errors="replace")


def outside_paths(name: str, text: str) -> list[str]:
    """The paths outside the repository that ``text`` (the file ``name``) names: a machine's
    path, or ``../name`` that is no file of the repository from the file's folder and
    leaves the repository from the file's folder or from the root (where the Makefile and
    the CI script run)."""
    found = [m.group(0) for m in MACHINE.finditer(text)]
    folder = (ROOT / name).parent
    for m in PARENT.finditer(text):
        here = (folder / m.group(1) / m.group(2)).resolve()
        if here.is_relative_to(ROOT) and here.exists():
            continue
        from_root = (ROOT / m.group(1) / m.group(2)).resolve()
        if not here.is_relative_to(ROOT) or not from_root.is_relative_to(ROOT):
            found.append(m.group(0))
    return found


def test_no_file_outside_docs_tests_and_the_package_names_a_path_outside() -> None:
    offenders = {}
    for name in tracked():
        if name.startswith(EXEMPT) or "labextensions" in name:
            continue
        text = _text(name)
        if text is not None and (hits := outside_paths(name, text)):
            offenders[name] = hits
    assert offenders == {}


def test_the_code_tests_and_docs_cite_only_what_the_repository_holds() -> None:
    offenders = {}
    for name in tracked():
        text = _text(name)
        if text is None or "labextensions" in name:
            continue
        hits = [m.group(0) for m in MISSING.finditer(text)]
        if name not in RULINGS_NAMED:
            hits += re.findall(r"\bRULINGS\.md\b", text)
        if hits and name != "tests/test_standalone.py":
            offenders[name] = sorted(set(hits))
    assert offenders == {}


def test_no_test_reaches_a_folder_beside_the_clone() -> None:
    offenders = {}
    for path in sorted((ROOT / "tests").rglob("*.py")):
        depth = len(path.relative_to(ROOT).parts) - 1  # tests/x.py: 1
        text = path.read_text(encoding="utf-8")
        hits = [m.group(0) for m in re.finditer(r"parents\[(\d+)\]", text)
                if int(m.group(1)) >= depth + 1]
        hits += re.findall(r"ROOT\.parent\b", text)
        if hits and path.name != "test_standalone.py":
            offenders[str(path.relative_to(ROOT))] = hits
    assert offenders == {}


def test_the_checks_find_what_they_look_for() -> None:
    assert outside_paths(".ci/run", 'if [ ! -d ../shared ]; then') == ["../shared"]
    assert outside_paths("notebooks/x.ipynb", '"../nidavellir/cards.py"') == []
    assert outside_paths("notebooks/x.ipynb", '"../../lab/x.csv"') == ["../../lab"]
    assert outside_paths("Makefile", "cd /work/main && make") == ["/work/"]
    assert MISSING.search("the contract of ARCHITECTURE.md")
    assert MISSING.search("see shared/seeds/003_x.txt")
    assert not MISSING.search("docs/rulings.md, docs/serving.md")
