"""Issue 44: Play, Replay and What-if draw the same position with the same figures (and
so does a position question: the class's "What would you play here?" and the puzzles).

Every decision of three games (base 3 players, Thingvellir 4 players, base 2 players played
by seeded random moves) is shown by the three surfaces the learner sees: the Play tab's
boards (a hot-seat session following the record), the Replay tab at the slider's position,
and a What-if branch played on from the first decision. Each board's column headers and
"score now" are read from the HTML, as a learner reads them, and compared with the score
sheet and with each other; the sheet's parts add up to its total.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from nidavellir import Game
from widgets.dashboard import Dashboard
from widgets.panels import PlayerBoards
from widgets.replay import ReplayPanel
from widgets.session import HUMAN, Session

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "records"
LINES = ("warriors", "hunters", "miners", "blacksmiths", "explorers")
BOARD = re.compile(r"<b class='nid-board-name'>([^<]*)</b>")
COLUMN = re.compile(r"nid-column-score[^>]*>\d+ ranks? · (\d+) points?<")
SCORE = re.compile(r"score now: <b>(\d+)</b>")


def shown(html: str) -> dict[str, tuple[list[int], int | None]]:
    """Each board in ``html`` by player name: its five column figures, its score if shown."""
    marks = list(BOARD.finditer(html))
    out = {}
    for i, m in enumerate(marks):
        chunk = html[m.end(): marks[i + 1].start() if i + 1 < len(marks) else len(html)]
        score = SCORE.search(chunk)
        out[m.group(1)] = ([int(x) for x in COLUMN.findall(chunk)],
                           int(score.group(1)) if score else None)
    return out


def seeded_game() -> dict:
    game = Game.new(players=2, seed=11)
    rng = random.Random(11)
    while game.decision is not None:
        game.apply(rng.choice(game.legal_actions()))
    return game.to_record()


RECORDS = {
    "three_players": lambda: json.loads((EXAMPLES / "three_players.json").read_text()),
    "thingvellir_four_players":
        lambda: json.loads((EXAMPLES / "thingvellir_four_players.json").read_text()),
    "seeded_two_players": seeded_game,
}


@pytest.mark.slow(reason="every position of a whole game drawn on three surfaces (Play, "
                        "Replay, What-if): 2 to 4 s of CPU")
@pytest.mark.parametrize("name", RECORDS)
def test_play_replay_and_whatif_show_the_score_sheet_of_every_position(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # The charts beside the boards are not what this test reads, and redrawing them at
    # every position is most of its time: they are left undrawn.
    import widgets.charts
    import widgets.replay

    monkeypatch.setattr(widgets.charts.LiveCharts, "refresh", lambda self, *a, **k: None)
    monkeypatch.setattr(widgets.replay.ReplayView, "show", lambda self, game: None)
    record = RECORDS[name]()
    full = Game.from_record(record)
    actions = [a for _, a in full.history]
    start = Game.from_record(dict(record, actions=[]))

    play = Session(start.clone(), [HUMAN] * start.config.players)
    boards = PlayerBoards(play)
    replay = ReplayPanel()
    assert replay.load_record(record)
    # What-if's branch as the dashboard opens it, less its chart and the coach's judgement
    # of every decision as it appears (neither draws a board).
    dash = Dashboard(players=2, seats=("human", "human"), build_all=False, charts=False,
                     coach={"ahead": False})
    dash.open_tab("whatif")
    assert dash.whatif is not None
    branch = dash.whatif.open_branch(start.clone(), full, 0)

    for index in range(len(actions) + 1):
        game = play.game
        sheet = game.scores()
        names = game.names
        replay.slider.value = index
        surfaces = {
            "Play": "".join(b.value for b in boards.boards),
            "Replay": replay.board.value,
            "What-if": "".join(b.value for b in branch.boards.boards),
        }
        for seat, name_ in enumerate(names):
            row = sheet[seat].breakdown
            assert sum(row.values()) == sheet.totals[seat], (index, name_)
            want = [row[line] for line in LINES]
            for surface, html in surfaces.items():
                columns, score = shown(html)[name_]
                assert columns == want, (name, index, surface, name_, columns, want)
                if score is not None:
                    assert score == sheet.totals[seat], (name, index, surface, name_)
        if index < len(actions):
            assert play.submit(actions[index])
            assert branch.session.submit(actions[index])
    assert play.game.is_over and branch.session.game.is_over
    # At the end every surface shows every score.
    for surface, html in (("Replay", replay.board.value),
                          ("What-if", "".join(b.value for b in branch.boards.boards))):
        assert [s for _, s in shown(html).values()] == list(full.scores().totals), surface


@pytest.mark.parametrize("name", RECORDS)
def test_a_position_question_shows_the_score_sheet_of_its_position(name: str) -> None:
    """The boards of a position question (a class's "What would you play here?", a
    puzzle) show each column's figure from the position's score sheet, as the Play tab
    does: every eighth decision of the game."""
    from nidavellir.lessons.position import PositionStep
    from widgets.position_question import PositionQuestionApp

    record = RECORDS[name]()
    full = Game.from_record(record)
    for index in range(0, len(full.history), 8):
        seat = full.history[index][0]
        step = PositionStep(key="k", title="t", situation="", question="q", seat=seat,
                            record=record, decision=index + 1)  # numbered from 1
        game = step.game()
        sheet = game.scores()
        app = PositionQuestionApp("lesson", 1, step)
        boards = shown(app.boards.value)
        assert set(boards) == set(game.names), (name, index)
        for i, name_ in enumerate(game.names):
            assert boards[name_][0] == [sheet[i].breakdown[line] for line in LINES], \
                (name, index, name_)
        app.close()
