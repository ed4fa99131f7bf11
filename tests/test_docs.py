"""The README and the documentation site (issue 24): short README, links that resolve, the
rulings in the repository equal to the binding ones."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from rulebooks import binding_rulings

ROOT = Path(__file__).resolve().parent.parent


def test_the_readme_is_short_and_shows_the_two_commands_first() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 300
    first_block = text.split("```")[1]
    commands = [line.split("#")[0].strip() for line in first_block.splitlines()[1:] if line]
    assert commands == ["make run", "make test"]


@pytest.mark.parametrize("page", ["README.md", *sorted(str(p.relative_to(ROOT))
                                                         for p in (ROOT / "docs").glob("*.md"))])
def test_relative_links_and_pictures_resolve(page: str) -> None:
    path = ROOT / page
    text = path.read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
        if "://" in target or target.startswith("mailto:"):
            continue
        assert (path.parent / target).exists(), f"{page} links to a missing {target}"


def _rulings_table(text: str) -> list[str]:
    start = text.index("| # | Question | Ruling |")
    return [line.strip() for line in text[start:].splitlines() if line.startswith("|")]


def test_the_rulings_page_is_the_binding_table() -> None:
    """Against the binding table, from the NIDAVELLIR_RULEBOOKS setting (tests/rulebooks.py:
    the test skips and says so without it)."""
    ours = _rulings_table((ROOT / "docs" / "rulings.md").read_text(encoding="utf-8"))
    binding = _rulings_table(binding_rulings())
    assert ours == binding
    assert len(ours) == 2 + 25


def test_the_rl_figures_of_the_docs_are_read_from_the_code() -> None:
    """docs/integrations.md's figures (issue 59): the action space, the published table's
    first version and the observation vector's length, as the code has them."""
    from nidavellir.integrations.encoding import ACTIONS, observation_size, read_published

    text = (ROOT / "docs" / "integrations.md").read_text(encoding="utf-8")

    def figures(pattern: str) -> list[int]:
        return [int(x.replace(",", "")) for x in re.findall(pattern, text)]

    assert figures(r"`Discrete\((\d+)\)`") == [len(ACTIONS)]
    assert figures(r"version 1: ([\d,]+)\s+actions") == [read_published()[0][0].size]
    assert figures(r"`Box` vector of ([\d,]+)\s+numbers") == [observation_size()]
