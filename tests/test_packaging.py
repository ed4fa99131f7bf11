"""pyproject.toml and environment.yml describe the same environment."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
import yaml
from packaging.specifiers import SpecifierSet

ROOT = Path(__file__).resolve().parent.parent
# Conda needs these to build the environment; they are not project dependencies.
CONDA_ONLY = {"python", "pip"}


def normalize(name: str) -> str:
    """PEP 503 name normalisation: ``PyYAML`` = ``pyyaml``, ``types_PyYAML`` = ``types-pyyaml``."""
    return re.sub(r"[-_.]+", "-", name).lower()


def split(requirement: str) -> tuple[str, str]:
    """(normalised name, version bounds without spaces) of ``name>=1,<2`` or ``name[extra]``."""
    match = re.fullmatch(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*(.*)", requirement)
    assert match, f"cannot read requirement {requirement!r}"
    return normalize(match[1]), match[2].replace(" ", "")


@pytest.fixture(scope="module")
def pyproject() -> dict:
    with (ROOT / "pyproject.toml").open("rb") as f:
        return tomllib.load(f)


@pytest.fixture(scope="module")
def environment() -> dict:
    return yaml.safe_load((ROOT / "environment.yml").read_text(encoding="utf-8"))


def pyproject_requirements(pyproject: dict) -> dict[str, str]:
    project = pyproject["project"]
    listed = [*project["dependencies"], *project["optional-dependencies"]["dev"]]
    return dict(split(r) for r in listed)


def environment_requirements(environment: dict) -> dict[str, str]:
    found: dict[str, str] = {}
    for entry in environment["dependencies"]:
        if isinstance(entry, dict):
            # pip-only packages; `-e .` (the project itself) is not a dependency.
            found.update(split(r) for r in entry.get("pip", []) if not r.startswith("-"))
        else:
            name, bounds = split(entry)
            if name not in CONDA_ONLY:
                found[name] = bounds
    return found


def test_environment_names_and_channel(environment: dict) -> None:
    assert environment["name"] == "nidavellir"
    assert environment["channels"] == ["conda-forge"]
    pythons = [d for d in environment["dependencies"]
               if isinstance(d, str) and split(d)[0] == "python"]
    assert pythons == ["python>=3.11"]


def test_environment_lists_the_same_packages_as_pyproject(
    pyproject: dict, environment: dict
) -> None:
    wanted = pyproject_requirements(pyproject)
    listed = environment_requirements(environment)
    assert sorted(set(wanted) - set(listed)) == [], "in pyproject.toml, not in environment.yml"
    assert sorted(set(listed) - set(wanted)) == [], "in environment.yml, not in pyproject.toml"


def test_environment_uses_the_same_version_bounds(pyproject: dict, environment: dict) -> None:
    wanted = pyproject_requirements(pyproject)
    listed = environment_requirements(environment)
    differ = {n: (wanted[n], listed[n]) for n in wanted.keys() & listed.keys()
              if wanted[n] != listed[n]}
    assert differ == {}, "(pyproject, environment.yml) bounds differ"


def test_pyproject_declares_the_console_script(pyproject: dict) -> None:
    assert pyproject["project"]["scripts"]["nidavellir"] == "nidavellir.cli:main"


def test_pyproject_requires_python_311(pyproject: dict) -> None:
    allowed = SpecifierSet(pyproject["project"]["requires-python"])
    assert "3.11" in allowed and "3.12" in allowed and "3.10" not in allowed


def test_split_reads_extras_and_bounds() -> None:
    assert split("ipywidgets>=8.1, <9") == ("ipywidgets", ">=8.1,<9")
    assert split("Types_PyYAML") == ("types-pyyaml", "")
    assert split("nidavellir[dev]") == ("nidavellir", "")
