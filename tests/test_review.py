"""Game review (issues 14 and 41): a planted blunder, forced moves, the summary (its
headline is the sum of its items), figures, the CLI, and saving a reviewed game."""

from __future__ import annotations

import html
import json
import random
from pathlib import Path

import pandas as pd
import pytest
from scripted import card_of, decision, set_army

from nidavellir import cards as C
from nidavellir.analysis.review import (
    LABEL_TEXT,
    LABELS,
    accuracy_figure,
    annotated_lines,
    headline,
    html_report,
    judge_move,
    label_for,
    load_review,
    review,
    review_from_dict,
    save_review,
    summary,
    to_json,
    win_chance_figure,
)
from nidavellir.bots import play_game
from nidavellir.bots.judge import judge
from nidavellir.cli import main
from nidavellir.errors import RecordError
from nidavellir.game import Game

LEVEL = "search@10"


@pytest.fixture(scope="module")
def game() -> Game:
    return play_game(2, ["greedy", "random"], seed=3)


@pytest.fixture(scope="module")
def frame(game: Game) -> pd.DataFrame:
    return review(game, level=LEVEL, seed=1)


def blunder_position() -> tuple[Game, str, str]:
    """The last pick of a game: one card completes the picker's only line (a hero), the
    other does not, and nothing comes after to make up for it. Returns (game, the card
    that completes the line, the other card)."""
    full = play_game(3, "random", seed=0)
    game = Game.new(players=3, seed=0)
    last = None
    for _, action in full.history:
        s = game.state
        if decision(game).kind == "pick" and s.age == 2 and s.round == game.config.rounds_per_age:
            suits = {card_of(a).suit for a in game.legal_actions()
                     if card_of(a).kind is C.Kind.DWARF}
            if len(suits) >= 2:
                last = game.clone()
        game.apply_fast(action)
    assert last is not None
    dwarves = [card_of(a) for a in last.legal_actions() if card_of(a).kind is C.Kind.DWARF]
    good = dwarves[0]
    bad = next(c for c in dwarves if c.suit is not good.suit)
    filler = {"W": "W3", "H": "H", "M": "M1", "B": "B", "E": "E5"}
    # One rank in every class but the good card's: taking it completes the first line.
    set_army(last, decision(last).player,
             {s.letter: [filler[s.letter]] for s in C.SUITS if s is not good.suit})
    return last, f"take {good.token}", f"take {bad.token}"


def test_a_planted_blunder_is_labelled_with_the_better_move() -> None:
    """Taking the other card throws away the complete line and its hero at the last pick:
    nothing hidden is left, so the judgement is exact, and the reason names the hero the
    line brings (read from the engine's own end of the game)."""
    game, good, bad = blunder_position()
    row = judge_move(game, bad, level="search@300", seed=2)
    assert row["best"] == good and row["exact"]
    assert row["label"] in ("good", "inaccuracy", "mistake", "blunder"), row
    assert row["loss_points"] >= 6
    assert "recruits" in row["reason"] and "in the end" in row["reason"], row["reason"]
    right = judge_move(game, good, level="search@300", seed=2)
    assert right["label"] == "best" and right["loss_points"] == 0 == right["loss_win"]


def test_a_forced_move_has_no_loss(frame: pd.DataFrame) -> None:
    forced = frame[frame["label"] == "forced"]
    assert len(forced) and (forced["options"] == 1).all()
    assert (forced["loss_points"] == 0).all() and (forced["loss_win"] == 0).all()
    assert (forced["played"] == forced["best"]).all()


@pytest.mark.slow(reason="one seat's decisions judged again on two worker processes (their "
                        "start included): about 4 s of CPU")
def test_the_frame(game: Game, frame: pd.DataFrame) -> None:
    assert len(frame) == len(game.history)
    assert frame["step"].tolist() == list(range(len(game.history)))
    # One numbering: decision N is history[N - 1], as in the log and the Replay slider.
    assert frame["number"].tolist() == [i + 1 for i in range(len(game.history))]
    assert set(frame["label"]) <= set(LABELS)
    assert (frame["loss_win"] >= 0).all()
    # Nothing within the noise is counted as a loss.
    calm = frame[frame["label"].isin(["best", "about", "forced"])]
    assert (calm["loss_win"] == 0).all() and (calm["loss_points"] == 0).all()
    wins = frame[["win_0", "win_1"]].sum(axis=1)
    assert ((wins - 1).abs() < 1e-9).all()
    for i, (player, action) in enumerate(game.history):
        assert frame.loc[i, "player"] == player and frame.loc[i, "played"] == str(action)
    # The same seed gives the same review; workers do not change it (one seat's
    # decisions, judged afresh on two processes).
    from nidavellir.bots.judge import no_cache

    with no_cache():
        again = review(game, level=LEVEL, seed=1, workers=2, seats=[1])
    mine = frame[frame["player"] == 1].reset_index(drop=True)
    pd.testing.assert_frame_equal(mine, again.reset_index(drop=True))


def test_labels_follow_the_thresholds() -> None:
    # By the chance to win given up beyond the noise (Lichess: 5/10/15 points of win %).
    assert label_for(0.0, 20.0) == "good" and label_for(0.049) == "good"
    assert label_for(0.05) == "inaccuracy" and label_for(0.099) == "inaccuracy"
    assert label_for(0.10) == "mistake" and label_for(0.15) == "blunder"


def test_summary(frame: pd.DataFrame) -> None:
    summ = summary(frame)
    assert summ["decisions"].sum() == len(frame)
    for r in summ.itertuples():
        mine = frame[(frame["player"] == r.player) & (frame["label"] != "forced")]
        assert r.best_share == pytest.approx(mine["label"].isin(["best", "about"]).mean())
        # The headline is the sum of its items.
        listed = mine[mine["label"].isin(["good", "inaccuracy", "mistake", "blunder"])]
        assert r.win_lost == pytest.approx(listed["loss_win"].sum())
        assert r.points_lost == pytest.approx(listed["loss_points"].sum())
        assert r.avg_loss_points == pytest.approx(listed["loss_points"].sum() / len(mine))
        assert sum(getattr(r, label) for label in LABELS) == r.decisions
        # Its words: points summed, the chance to win per decision (never over 100%).
        line = headline(r)
        assert f"{r.points_lost:.1f} points given up in all" in line
        assert f"on average {r.avg_loss_win:.1%} chance to win given up a decision" in line
        assert 0 <= r.avg_loss_win <= 1 and f"{r.win_lost:.0%} chance" not in line
        bad = mine["label"].isin(["inaccuracy", "mistake", "blunder"]).sum()
        groups = sum(getattr(r, f"mistakes_{g}") for g in ("bids", "picks", "heroes", "coins",
                                                           "Thingvellir"))
        assert groups == bad


def test_the_headline_counts_with_the_catalogues_plural_forms() -> None:
    """Issue 57: "1 blunder", never "1 blunders": each count of the review's headline
    takes its own plural form from the catalogue, in every language."""
    from types import SimpleNamespace

    from nidavellir.i18n import using

    r = SimpleNamespace(name="Ada", best_share=0.5, judged=10, avg_loss_win=0.02,
                        points_lost=12.0, good=1, inaccuracy=1, mistake=2, blunder=1)
    line = headline(r)
    assert line.endswith("; 1 a little worse, 1 inaccuracy, 2 mistakes, 1 blunder"), line
    r.blunder, r.inaccuracy = 2, 0
    assert headline(r).endswith("0 inaccuracies, 2 mistakes, 2 blunders")
    with using("de"):
        line = headline(r)
        assert line.endswith("0 Ungenauigkeiten, 2 Fehler, 2 grobe Fehler"), line
        r.blunder = 1
        assert headline(r).endswith(", 1 grober Fehler")
    with using("fr"):
        assert headline(r).endswith("0 imprécision, 2 erreurs, 1 gaffe"), headline(r)


def test_figures_on_a_known_frame() -> None:
    frame = pd.DataFrame({
        "step": [0, 1, 2], "number": [1, 2, 3], "player": [0, 1, 0], "name": ["Ada", "Bo", "Ada"],
        "kind": ["bid", "bid", "pick"], "played": ["bid 0 2 3", "bid 5 4 3", "take W3"],
        "best": ["bid 0 2 3", "bid 5 4 3", "take H"], "options": [60, 60, 3],
        "loss_points": [0.0, 0.0, 9.0], "loss_win": [0.0, 0.0, 0.15],
        "label": ["best", "best", "mistake"],
        "win_0": [0.5, 0.5, 0.3], "win_1": [0.5, 0.5, 0.7],
        "expected_0": [200, 200, 190], "expected_1": [200, 200, 210]})
    frame.attrs["names"] = ["Ada", "Bo"]
    fig = win_chance_figure(frame)
    lines = [t for t in fig.data if t.mode == "lines"]
    assert [t.name for t in lines] == ["Ada", "Bo"]
    assert list(lines[0].y) == [50, 50, 30]
    (marks,) = [t for t in fig.data if t.mode == "markers"]
    assert list(marks.x) == [3] and list(marks.customdata[0][:2]) == ["take W3", "take H"]
    acc = accuracy_figure(summary(frame))
    assert [t.name for t in acc.data] == [LABEL_TEXT[x] for x in LABELS]
    assert annotated_lines(frame)[2].startswith("3. Ada: take W3?")
    assert ("(mistake: 15% chance to win and 9.0 points given up; the coach: take H)"
            in annotated_lines(frame)[2])
    page = html_report(frame)
    assert page.startswith("<!DOCTYPE html>") and "cdn" not in page.lower().split("plotly.js")[0]
    data = to_json(frame)
    assert data["decisions"][2]["label"] == "mistake" and data["decisions"][2]["win"] == [0.3, 0.7]


def test_save_and_open_without_recomputing(game: Game, frame: pd.DataFrame,
                                           tmp_path: Path) -> None:
    path = tmp_path / "reviewed.json"
    save_review(path, game, frame)
    again, loaded = load_review(path)
    assert loaded is not None
    assert again.to_record() == game.to_record()
    cols = list(frame.columns)
    pd.testing.assert_frame_equal(loaded[cols], frame, check_dtype=False)
    data = json.loads(path.read_text())
    # One file format: a record, its review an optional part of it (docs/notation.md).
    assert data["format"] == "nidavellir-record" and data["review"]["level"] == LEVEL
    assert Game.load(path).review == data["review"]
    rows = data["review"]["decisions"]
    rows[3]["played"] = "take W10"
    with pytest.raises(RecordError, match=r"review\.decisions\[3\]"):
        review_from_dict(data)
    data = json.loads(path.read_text())
    rows = data["review"]["decisions"]
    rows[2], rows[3] = rows[3], rows[2]
    with pytest.raises(RecordError, match=r"review\.decisions\[3\]\.step"):
        review_from_dict(data)
    # A review of some seats only (the page reviews the learner's) opens too.
    data = json.loads(path.read_text())
    data["review"]["decisions"] = [r for r in data["review"]["decisions"] if r["player"] == 0]
    reviewed = review_from_dict(data)[1]
    assert reviewed is not None and len(reviewed) == len(data["review"]["decisions"])
    # Without its review, the same file is the game's record.
    del data["review"]
    assert review_from_dict(data)[1] is None


def test_an_old_reviewed_game_opens_as_a_record_with_its_review(
        game: Game, frame: pd.DataFrame, tmp_path: Path) -> None:
    """Files saved before issue 57 (``format: nidavellir-review``: the record and the
    review side by side) are migrated on reading, by every reader of a record."""
    old = {"format": "nidavellir-review", "version": 2, "record": game.to_record(),
           "level": LEVEL, "review": json.loads(frame.to_json(orient="records"))}
    path = tmp_path / "old.json"
    path.write_text(json.dumps(old))
    loaded = Game.load(path)
    assert loaded.to_record() == game.to_record()
    assert loaded.review == {"level": LEVEL, "decisions": old["review"]}
    again, review = load_review(path)
    assert review is not None and review["played"].tolist() == frame["played"].tolist()
    old["version"] = 9
    path.write_text(json.dumps(old))
    with pytest.raises(RecordError, match="version"):
        Game.load(path)


@pytest.mark.slow(reason="seven reviews of a whole game from the command line, one per "
                        "output: about 5 s of CPU")
def test_cli(game: Game, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "game.json"
    game.save(record)
    assert main(["review", str(record), "--level", "search@4", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "1. Player 1:" in out and "best moves" in out
    assert main(["review", str(record), "--level", "search@4", "--seats", "2",
                 "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "Player 2:" in out and "Player 1:" not in out
    assert main(["review", str(record), "--level", "search@4", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data["decisions"]) == len(game.history)
    assert {"step", "number", "player", "kind", "played", "best", "reason", "reason_data",
            "loss_points", "loss_win", "label", "exact", "win", "expected"} == set(
        data["decisions"][0])
    assert len(data["summary"]["players"]) == 2
    for suffix in (".csv", ".parquet", ".html", ".json"):
        out_file = tmp_path / f"review{suffix}"
        assert main(["review", str(record), "--level", "search@4",
                     "--out", str(out_file), "--no-progress"]) == 0
        assert out_file.stat().st_size > 0
    capsys.readouterr()
    assert load_review(tmp_path / "review.json")[0].to_record() == game.to_record()


def test_the_cli_reviews_the_seats_people_played_by_default(
        game: Game, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A record saved from the Play tab names the seats people played (``learners``):
    ``nidavellir review`` reviews those, as the page does; ``--seats`` chooses others. (One
    worker: the seats are the point here, and a pool of processes per review would cost more
    than the reviews.)"""
    from nidavellir.play import Session

    begun = game.clone()
    begun.undo_to(16)  # a record in progress: fewer decisions to judge, the same seats
    session = Session(begun, ["greedy", "human"])
    assert session.game.learners == (1,)  # the Play tab's session says who is a person
    record = tmp_path / "played.json"
    session.game.save(record)
    assert main(["review", str(record), "--level", "search@4", "--workers", "1",
                 "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Reviewing the decisions of Player 2: the seats people played")
    assert "Player 2:" in out and "Player 1:" not in out
    assert main(["review", str(record), "--level", "search@4", "--workers", "1",
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {d["player"] for d in data["decisions"]} == {1}
    assert main(["review", str(record), "--level", "search@4", "--workers", "1", "--seats", "1",
                 "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "Reviewing" not in out and "Player 1:" in out and "Player 2:" not in out


@pytest.mark.parametrize("args,message", [
    (["{missing}"], "cannot read"),
    (["{bad}"], "not JSON"),
    (["{record}", "--level", "greedy"], "unknown level"),
    (["{record}", "--level", "search@0"], "--level"),
    (["{record}", "--out", "x.txt"], ".csv, .parquet, .html or .json"),
    (["{record}", "--workers", "0"], "--workers"),
    (["{record}", "--seats", "3"], "no seat 3"),
    (["{record}", "--seats", "one"], "not a seat number"),
    (["{empty}"], "no decision"),
])
def test_cli_bad_input(args: list[str], message: str, tmp_path: Path,
                       capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "game.json"
    play_game(2, "random", seed=1).save(record)
    (tmp_path / "bad.json").write_text("{nope", encoding="utf-8")
    Game.new(players=2, seed=1).save(tmp_path / "empty.json")
    files = {"record": str(record), "bad": str(tmp_path / "bad.json"),
             "missing": str(tmp_path / "missing.json"), "empty": str(tmp_path / "empty.json")}
    argv = ["review", *(a.format(**files) for a in args), "--no-progress"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and message in err and len(err.strip().splitlines()) == 1


def test_the_review_names_the_move_played_as_it_was_clicked() -> None:
    """Issue 57: the review said "Dwerg Ymir" for the Jungir a learner clicked (the move
    that stands for the brothers' option). Its row keeps the move clicked, and the review's
    list says it in words as clicked, with one decision number (the N-th of the record)."""
    from widgets.review_view import ReviewView

    game = Game.new(players=2, seed=0)  # 24 random moves: a hero hall with Dwerg brothers
    rng = random.Random(0)
    for _ in range(24):
        game.apply(rng.choice(game.legal_actions()))
    assert game.decision is not None and game.decision.kind == "hero"
    j = judge(game, level="search@4")
    brothers = next(o for o in j.options if len(o.actions) > 1)
    clicked = next(a for a in brothers.actions if a != brothers.action)
    say = game.decision.task.say
    assert say(game.engine, clicked) != say(game.engine, brothers.action)
    row = judge_move(game, str(clicked), "search@4", judgement=j)
    assert row["played"] == str(clicked) and row["number"] == len(game.history) + 1
    played = game.clone()
    played.apply(clicked)
    # Shown in the list whatever its label (here as if it had cost something).
    row.update(label="mistake", loss_win=0.1, loss_points=5.0, best=str(j.best))
    view = ReviewView()
    view.show(played, pd.DataFrame([row]))
    # The list: a section per label (its heading, then a box per move: its text first).
    text = "".join(move.children[0].value for section in view.moves.children
                   for move in section.children[1:])
    assert f"played: {say(game.engine, clicked)}" in html.unescape(text)
    assert say(game.engine, brothers.action) not in html.unescape(text).split("the coach:")[0]
    assert [b.number for b in view.replay_buttons] == [row["number"]]


REVIEWED = Path(__file__).resolve().parents[1] / "examples/records/three_players_reviewed.json"


def test_a_saved_review_says_its_reasons_in_the_reader_s_language() -> None:
    """The shipped review (made in English, its first seat at search@20) opened on a German
    or French page says each reason in the reader's language (they stayed English on every
    page): the reason is kept as data (``reason_data``) and said again, the same sentence
    the coach says when the review is made in that language; the moves with reasons for
    and against, a category's points, the other categories' and a hero recruited among
    them. The command line and the HTML report say them so too."""
    from nidavellir.analysis.review import move_words, reason_text
    from nidavellir.i18n import using

    game, loaded = load_review(REVIEWED)
    assert loaded is not None
    data = [json.loads(d) if d else {} for d in loaded["reason_data"]]
    reasoned = loaded[[bool(d.get("why") or d.get("but")) for d in data]].head(2)
    shown = [json.loads(d) for d in reasoned["reason_data"]]
    kinds = {next(iter(x)) for d in shown for x in (*d["why"], *d["but"])}
    assert {"line", "rest", "held"} <= kinds and any(d["why"] and d["but"] for d in shown)
    for language in ("en", "de", "fr"):
        with using(language):
            words = move_words(game, {int(r.step): (str(r.played), str(r.best))
                                      for r in reasoned.itertuples()})
            for r in reasoned.itertuples():
                played, best = words[int(r.step)]
                said = reason_text(r, played, best)
                position = Game.from_record(game.to_record())
                position.undo_to(int(r.step))
                live = judge_move(position, str(r.played), level="search@20")
                assert said == live["reason"], (language, r.step, said)
                # What a review keeps of a reason says the whole of it again.
                assert reason_text(live, played, best) == live["reason"]
                assert (said == r.reason) == (language == "en"), (language, r.step)
            lines = "\n".join(annotated_lines(loaded, game))
            assert said in lines and (language == "en" or r.reason not in lines)
            assert html.escape(said) in html_report(loaded, game=game)
    # A review saved before reasons were kept as data says its text as written.
    row = {"reason": "as it was written", "reason_data": "", "best": "take W3",
           "played": "take W4"}
    assert reason_text(row) == "as it was written"


def test_a_held_reason_said_from_its_data_is_the_coach_s_sentence() -> None:
    """Every way a distinction held or a hero recruited is said (for the move or against
    it, exact or in a share of the games), from data as from the coach's own call."""
    from nidavellir.bots.judgement import held_reason, reason_words
    from nidavellir.events import origin
    from nidavellir.i18n import using

    for language in ("en", "de", "fr"):
        with using(language):
            for verb, card in (("holds", C.HUNTING_MASTER.name), ("recruits", "Aral"),
                               ("recruits", "a Dwerg brother")):
                for exact in (False, True):
                    for for_it in (False, True):
                        a, b = 0.6, 0.25  # the move's share, the other move's
                        item = {"held": verb, "card": card, "exact": exact, "for": for_it,
                                "share": a if for_it else b, "instead": b if for_it else a}
                        assert reason_words(item) == held_reason(
                            verb, origin(card), exact, for_it, a, b), (language, item)


@pytest.mark.parametrize(("data", "message"), [
    ("so", "must be an object"),
    ([1, 2], "must be an object"),
    ({"win": [0.1], "points": [1, 2], "exact": False, "why": [], "but": []}, "win"),
    ({"win": [0.1, 0.0], "points": [1, 2], "exact": "no", "why": [], "but": []}, "exact"),
    ({"win": [0.1, 0.0], "points": [1, 2], "exact": False, "why": [{"line": "dragons",
                                                                      "points": 2}],
      "but": []}, "not a reason"),
    ({"win": [0.1, 0.0], "points": [1, 2], "exact": False, "why": [{"line": ["warriors"],
                                                                      "points": 2}],
      "but": []}, "not a reason"),
    ({"win": [0.1, 0.0], "points": [1, 2], "exact": False, "but": [], "why": [{
        "held": "holds", "card": "Nonexistent Card", "exact": False, "for": True,
        "share": 0.5, "instead": 0.1}]}, "not a reason"),
    ({"win": [0.1, 0.0], "points": [1, 2], "exact": False, "but": [], "why": [{
        "held": "recruits", "card": "Aral", "exact": False, "for": True, "share": 7,
        "instead": -3}]}, "not a reason"),
    ({"win": [0.1, 0.0], "points": [1, 2], "exact": False, "but": [],
      "why": [{"rest": 1e308}]}, "not a reason"),
    # A list where a name is (the fuzzing found it raised a TypeError).
    ({"win": [0.1, 0.0], "points": [1, 2], "exact": False, "but": [], "why": [{
        "held": ["holds"], "card": ["Aral"], "exact": False, "for": True, "share": 0.5,
        "instead": 0.1}]}, "not a reason"),
])
def test_a_malformed_reason_is_named_when_a_review_is_read(
        game: Game, frame: pd.DataFrame, tmp_path: Path, data: object, message: str) -> None:
    path = tmp_path / "reviewed.json"
    save_review(path, game, frame)
    record = json.loads(path.read_text())
    rows = record["review"]["decisions"]
    i = next(i for i, r in enumerate(rows) if "reason_data" in r)
    rows[i]["reason_data"] = data
    with pytest.raises(RecordError, match=rf"review\.decisions\[{i}\]\.reason_data.*{message}"):
        review_from_dict(record)


def test_a_review_s_unreadable_better_move_is_named(game: Game, frame: pd.DataFrame,
                                                      tmp_path: Path) -> None:
    path = tmp_path / "reviewed.json"
    save_review(path, game, frame)
    record = json.loads(path.read_text())
    record["review"]["decisions"][0]["best"] = "zzz"
    with pytest.raises(RecordError, match=r"review\.decisions\[0\]\.best"):
        review_from_dict(record)
