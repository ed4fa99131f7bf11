"""Replay: load a record (upload, path, the walkthrough's game), step with the slider
(board and charts follow), bad records reported, branch into a what-if."""

from __future__ import annotations

import datetime as dt
import doctest
import json
from pathlib import Path

import pytest

import widgets.replay as replay_module
from nidavellir import Game
from nidavellir.lessons import builtin
from widgets.replay import ReplayPanel

ROOT = Path(__file__).resolve().parent.parent


def test_doctests() -> None:
    result = doctest.testmod(replay_module)
    assert result.failed == 0 and result.attempted > 0


@pytest.mark.slow(reason="the charts drawn again at each move of Replay's slider: about 2 s of CPU")
def test_slider_moves_board_info_and_charts() -> None:
    panel = ReplayPanel()
    assert panel.slider.disabled and panel.branch_button.disabled
    assert panel.load_walkthrough()
    assert panel.slider.max == 110 and not panel.slider.disabled
    assert "Game over" in panel.board.value or "game over" in panel.info.value
    panel.slider.value = 0
    assert len(panel.view.game.history) == 0
    assert "Before the first decision" in panel.info.value
    assert panel.charts is not None and panel.charts.drawn_at == 0
    panel.slider.value = 4
    # The position before decision 5, named so (as the review and `nidavellir hint --at`
    # name it); the decision just taken in words (the notation is the files').
    assert panel.position_text(4) == "Decision 5 of 110"
    assert "Decision 5: " in panel.info.value
    assert "Decision 4: Bo: Take the hunter" in panel.info.value
    assert "Bo places Hunter" in panel.info.value
    assert panel.charts.drawn_at == 4
    coins = panel.charts.figure("coins")
    assert coins["data"]
    panel.next.click()
    assert panel.slider.value == 5 and panel.charts.drawn_at == 5
    panel.prev.click()
    panel.prev.click()
    assert panel.slider.value == 3
    # every player's coins are shown in a replay: no '?'
    panel.slider.value = 1
    assert ">?<" not in panel.board.value


def test_load_from_path_and_upload(tmp_path: Path) -> None:
    game = Game.new(players=2, seed=5)
    game.apply("bid 0 2 3")
    path = tmp_path / "game.json"
    game.save(path)
    panel = ReplayPanel()
    panel.path.value = str(path)
    panel.load_button.click()
    assert panel.full is not None and len(panel.full.history) == 1
    assert panel.slider.max == 1
    content = json.dumps(builtin("base").record()).encode()
    panel.upload.value = ({"name": "walk.json", "type": "application/json", "size": len(content),
                           "content": memoryview(content),
                           "last_modified": dt.datetime.now(dt.UTC)},)
    assert panel.slider.max == 110
    assert "walk.json" in panel.status.value
    # a path relative to the project; a scenario file is not a record
    assert not panel.load_path("examples/two_players_table.json")
    assert "field 'version'" in panel.console.last
    # the failure shows next to the controls too, and says what the file is
    assert "score-sheet scenario" in panel.status.value and "nid-error" in panel.status.value
    assert "walk.json" in panel.status.value  # still showing the game loaded before
    assert panel.upload.value == ()  # the upload is forgotten once read


def test_bad_records_are_reported_and_change_nothing(tmp_path: Path) -> None:
    panel = ReplayPanel()
    panel.load_walkthrough()
    before = panel.full
    assert not panel.load_path(tmp_path / "missing.json")
    assert "cannot read" in panel.console.last
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert not panel.load_path(bad)
    assert "not JSON" in panel.console.last
    rec = builtin("base").record()
    rec["actions"] = rec["actions"][:5] + ["take W10"]
    assert not panel.load_record(rec, "broken")
    assert "action 5" in panel.console.last
    assert not panel.load_path("  ")
    assert panel.full is before


def test_branch_hands_a_copy_at_the_slider_position() -> None:
    got = []
    panel = ReplayPanel(on_branch=lambda g, original, i: got.append((g, original, i)))
    panel.load_walkthrough()
    panel.slider.value = 110
    panel.branch_button.click()
    assert not got and "is over" in panel.console.last
    panel.slider.value = 12
    panel.branch_button.click()
    game, original, index = got[0]
    assert index == 12 and len(game.history) == 12 and original.is_over
    game.apply(game.legal_actions()[0])
    assert panel.full is not None and len(panel.full.history) == 110


def test_enter_in_the_path_box_loads_the_record() -> None:
    """Enter in the Replay tab's path box loads it, as *Load path* does."""
    from widgets.replay import ReplayPanel

    panel = ReplayPanel()
    panel.path.value = str(Path(__file__).resolve().parents[1] / "examples" / "records"
                           / "three_players.json")
    panel.path._handle_custom_msg({"event": "submit"}, [])
    assert panel.full is not None and panel.full.is_over
    assert panel.slider.max == len(panel.full.history)
