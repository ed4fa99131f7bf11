"""Write environment.yml, the conda alternative to `make setup`, from pyproject.toml's
dependencies at the versions of requirements/lock.txt: the versions the suite passed with.

``python requirements/environment.py`` writes it (`make lock` and `make upgrade` run it);
``--check`` only says whether the file is in step (tests/test_packaging.py asks the same).
Standard library only.
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

from moved import pins

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "requirements" / "lock.txt"
ENVIRONMENT = ROOT / "environment.yml"
#: Published on PyPI only, not on conda-forge: installed by conda's pip.
PIP_ONLY = ("playwright", "pytest-playwright")

HEADER = """\
# A conda alternative to `make setup`: conda env create -f environment.yml
# Written by `make lock` (requirements/environment.py) from pyproject.toml's dependencies at
# the versions of requirements/lock.txt, the versions the suite passed with. Do not edit.
name: nidavellir
channels:
  - conda-forge
dependencies:
  - python>=3.11
  - pip
"""


def normalize(name: str) -> str:
    """PEP 503 name normalisation: ``PyYAML`` = ``pyyaml``, ``types_PyYAML`` = ``types-pyyaml``."""
    return re.sub(r"[-_.]+", "-", name).lower()


def requirement_name(requirement: str) -> str:
    """The name of ``name>=1,<2`` or ``name[extra]>=1``."""
    match = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", requirement)
    if not match:
        raise ValueError(f"cannot read requirement {requirement!r}")
    return match[1]


def render(pyproject: dict, locked: dict[str, str]) -> str:
    """environment.yml's text."""
    project = pyproject["project"]
    groups = [("runtime: [project] dependencies", project["dependencies"]),
              ("dev: [project.optional-dependencies] dev",
               project["optional-dependencies"]["dev"])]
    lines = [HEADER.rstrip("\n")]
    pip_only: list[str] = []
    for title, requirements in groups:
        lines.append(f"  # {title}")
        for requirement in requirements:
            name = requirement_name(requirement)
            key = normalize(name)
            if key not in locked:
                raise ValueError(f"{name} is not in requirements/lock.txt: run `make lock`")
            pin = f"{name}=={locked[key]}"
            if key in PIP_ONLY:
                pip_only.append(pin)
            else:
                lines.append(f"  - {pin}")
    lines.append("  - pip:")
    lines.append("      # Published on PyPI, not on conda-forge.")
    lines.extend(f"      - {pin}" for pin in pip_only)
    lines.append("      # The project itself, editable, with its `nidavellir` command.")
    lines.append("      - -e .")
    return "\n".join(lines) + "\n"


def expected() -> str:
    with (ROOT / "pyproject.toml").open("rb") as f:
        pyproject = tomllib.load(f)
    locked = {normalize(k): v for k, v in pins(LOCK).items()}
    return render(pyproject, locked)


def main(argv: list[str]) -> int:
    if argv not in ([], ["--check"]):
        print("usage: python requirements/environment.py [--check]", file=sys.stderr)
        return 2
    try:
        text = expected()
    except (OSError, ValueError, KeyError) as exc:
        print(f"cannot write environment.yml: {exc}", file=sys.stderr)
        return 2
    if argv == ["--check"]:
        same = ENVIRONMENT.read_text(encoding="utf-8") == text
        print("environment.yml is in step with the lock" if same
              else "environment.yml is not in step with the lock: run `make lock`")
        return 0 if same else 1
    ENVIRONMENT.write_text(text, encoding="utf-8")
    print(f"wrote {ENVIRONMENT.name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
