"""Each theme's rule (nidavellir.bots.puzzle_themes) on one position that has it and one
that does not. The positions come from recorded bot games (tests/puzzle_positions.py);
their verdicts are judged on few deals (the rules read the answer, the runner-up and the
judged games, whatever their number)."""

from __future__ import annotations

import pytest
from puzzle_positions import at

from nidavellir.bots.puzzle import verify
from nidavellir.bots.puzzle_themes import THEMES, themes_of

DEALS = 24

#: theme -> ((game, index) with it, (game, index) without it), and what the positive
#: position shows.
CASES: dict[str, tuple[tuple[int, int], tuple[int, int], str]] = {
    "line": ((0, 110), (0, 133), "the answer completes a line of five, a hero follows"),
    "distinction": ((8, 4), (6, 53), "age 1: the answer changes who would hold a distinction"),
    "tie": ((6, 113), (6, 109), "the answer makes a tie at the top of a class"),
    "coins": ((6, 114), (6, 113), "the answer's coins change where the runner-up's do not"),
    "hero": ((6, 94), (6, 113), "Uline's coin: a hero's effect"),
    "artifact": ((0, 147), (0, 146), "Höfud's discard: an artifact's effect"),
    "mercenary": ((0, 146), (0, 147), "the column of a mercenary"),
    "camp": ((6, 85), (6, 90), "the answer takes from a tavern, the runner-up from the camp"),
    "exact": ((0, 146), (0, 133), "the last decisions, worked out exactly"),
    "points": ((0, 133), (6, 113), "the seat cannot win: its points decide"),
}


def test_every_theme_has_its_case() -> None:
    assert set(CASES) == set(THEMES)


@pytest.mark.parametrize("theme", sorted(CASES))
def test_the_theme_is_found_where_the_engine_shows_it(theme: str) -> None:
    (game, index), _without, _what = CASES[theme]
    position = at(game, index)
    assert theme in themes_of(position, verify(position, deals=DEALS))


@pytest.mark.parametrize("theme", sorted(CASES))
def test_the_theme_is_not_found_where_it_is_not(theme: str) -> None:
    _with, (game, index), _what = CASES[theme]
    position = at(game, index)
    assert theme not in themes_of(position, verify(position, deals=DEALS))


def test_the_themes_of_one_position_are_the_same_every_time() -> None:
    position = at(6, 110)
    verdict = verify(position, deals=DEALS)
    assert themes_of(position, verdict) == themes_of(position, verdict) == ["tie"]
