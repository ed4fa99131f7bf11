"""Does the coach agree with itself? Whole games through the Play tab's model, every surface
read at every decision of the learner, who follows the Hint (issue 41).

    python benchmarks/bench_coach_consistency.py --games N [--first K] [--json] [--level coach]

Games, in turn: 3 players (base) against two ``hard``; 3 players against two ``expert``; 2
players with Thingvellir against ``hard`` (the bots at their iteration budgets, so that a
run is reproducible). The learner's seat is driven through :func:`widgets.app.play_app` as a
page would drive it: the judgement starts when the decision appears, the Hint is asked,
the move it recommends is played. At every decision of the learner the script reads every
surface: the decision's buttons (their "now" and their coach's figures), the Hint, the
win-chance bar, the What-if table (:class:`widgets.dashboard.WhatIfPanel`), ``nidavellir
hint`` on the saved record (judged afresh, nothing kept), and, after the game, the review
(the coach's "Review this game"). It counts:

- ``a``: a recommended move not first in a surface's order (the buttons: not starred or
  not the highest chance to win shown; What-if: not the first row; ``nidavellir hint``: not
  the first option; the Hint: not named; the review: not its better move);
- ``b``: a reason contradicted by its own figures (the categories listed do not add up to
  the headline's points, a "why" against the move, a "why" when the difference is within
  the noise) or by the game (a majority note or a next decision that the board, after the
  move, does not show);
- ``c``: a "now" different from the change of the board's score sheet after the move (every
  option, applied to a copy of the real game, and the move played);
- ``d``: two surfaces with different figures or orders for the same position and level;
- ``e``: moves that lead to the same position shown with different values;
- ``f``: an "about as good" group that is not the first options of the order, or that holds
  a move clearly better (beyond the paired noise) on points or on the chance to win than the
  recommended one; a Hint whose "next best move" is not the first option outside the group;
- ``g``: a note about a distinction or the warrior bonus that the game's state makes
  impossible (a distinction already awarded, read from the game's events, or any
  distinction in age 2).

The learner plays the recommended move by clicking the first button of the decision's
controls, the coach's own row (``a`` when it is not the recommended move, or when a bid's
menus start on a bid nobody chose).

``--json`` prints one object: ``a`` to ``g``, ``games``, ``decisions``, the problems found
(``problems``, the first 50) and the timings (``ready``: seconds from the decision to its
judgement; ``shown``: from the Hint's click to its text; ``review``: the page's review of each
game, its decisions already hinted). A line per game on stderr, a JSON object with the
counts, problems and timings so far, says how far a long run is.
"""

from __future__ import annotations

import argparse
import contextlib
import html
import io
import json
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from nidavellir import cards as C
from nidavellir.bots import make_bot
from nidavellir.bots.immediate import at_stake, awarded, prizes
from nidavellir.bots.judge import (
    DEFAULT_LEVEL,
    Judgement,
    _canonical,
    knowledge_key,
    no_cache,
)
from nidavellir.cli import main as cli
from nidavellir.events import DistinctionAwarded
from nidavellir.game import Game
from nidavellir.names import card_name

#: (players, expansions, opponents' level): the games played, in turn.
TABLES: tuple[tuple[int, tuple[str, ...], str], ...] = (
    (3, (), "hard"), (3, (), "expert"), (2, ("thingvellir",), "hard"))
#: The opponents' levels as iteration budgets (0.75 s and 3 s of search on one core of the
#: reference machine): the same games on any machine.
OPPONENTS: dict[str, int | str] = {"hard": 900, "expert": 3600}

_FIGURES = re.compile(r"(\d+)% · ([≈=])(\d+)")
_NOW = re.compile(r"\(([+-]\d+) now")
_POINTS = re.compile(r"(?:your [a-z 6]+|the other categories together) ([+-][\d.]+) points")


class Counts:
    def __init__(self) -> None:
        self.counts = dict.fromkeys("abcdefg", 0)
        self.problems: list[str] = []

    def fail(self, key: str, where: str, what: str) -> None:
        self.counts[key] += 1
        if len(self.problems) < 50:
            self.problems.append(f"({key}) {where}: {what}")


def play(index: int, level: str, counts: Counts, opponents: dict[str, int | str],
         timings: dict[str, list[float]], seed: int = 0,
         tables: Sequence[tuple[int, tuple[str, ...], str]] = (), cli_every: int = 1,
         decisions_at_most: int | None = None) -> int:
    """One game; returns the learner's decisions checked. ``cli_every``: ``nidavellir hint``
    judges every that many of the learner's decisions afresh (1: each); a game that
    stops after ``decisions_at_most`` decisions skips the command line and the review."""
    from widgets.app import play_app
    from widgets.dashboard import WhatIfPanel

    tables = tables or TABLES
    players, expansions, opponent = tables[index % len(tables)]
    game_seed = seed + 1000 + index
    app = play_app(players=players, seats=["human"] + [opponent] * (players - 1),
                   seed=game_seed, expansions=expansions, bot_delay=0,
                   coach={"level": level, "review_level": level, "review_workers": 1})
    session = app.session
    budget = opponents[opponent]
    for seat in range(1, players):  # the learner bids first: no bot has moved yet
        session.bots[seat] = (make_bot(opponent, game_seed * 10 + seat, iterations=budget)
                              if isinstance(budget, int) else make_bot(budget,
                                                                       game_seed * 10 + seat))
    coach = app.coach
    whatif = WhatIfPanel(session.console, lambda: session.game)
    whatif.level.options = [(level, level)]
    whatif.level.value = level
    judged: dict[int, Judgement] = {}
    decisions = 0
    while not session.game.is_over:
        if decisions_at_most is not None and decisions >= decisions_at_most:
            return decisions
        game = session.game
        if session.summary_age:
            session.read_summary()  # the end of an age: the learner reads it, then decides
            continue
        d = game.decision
        assert d is not None and session.is_human(d.player), "the bots stop at the learner"
        coach.wait()
        j = coach.judgement
        where = f"game {index + 1}, decision {len(game.history) + 1} ({d.kind})"
        if j is None:
            counts.fail("d", where, "no judgement of the position")
            break
        timings["ready"].append(coach.timings["ready"] - coach.timings["decision"])
        coach.hint_button.click()
        timings["shown"].append(coach.timings["hint_shown"] - coach.timings["hint_asked"])
        coach.show_bar.value = True
        check_position(where, game, j, app, coach, whatif, counts)
        judged[len(game.history)] = j
        decisions += 1
        # The learner follows the coach: the first button of the decision's controls (the
        # coach's own row); "now" is checked against the board.
        before = game.scores()[d.player].total
        preview = j.option(j.best).now
        played = j.best
        step = len(game.history)
        picks = app.decision.control.coach_buttons
        if len(j.options) > 1 and picks:
            picks[str(j.best)].click()
        elif not session.submit(played):
            counts.fail("d", where, f"the recommended move {played} was refused")
            break
        if len(session.game.history) <= step or str(session.game.history[step][1]) != \
                str(played):
            counts.fail("d", where, f"the recommended move {played} was not played")
            break
        # The board right after the move: the session has played the bots on since, so
        # the change is read on a copy of the game at that point.
        after_move = session.game.clone()
        after_move.undo_to(step + 1)
        if preview is not None and after_move.scores()[d.player].total - before != \
                preview.total:
            counts.fail("c", where, f"{played}: {preview.total:+d} now, the board "
                        f"{after_move.scores()[d.player].total - before:+d}")
        coach.show_bar.value = False
    game = session.game
    if game.is_over:
        check_cli(index, game, level,
                  {step: j for i, (step, j) in enumerate(judged.items()) if i % cli_every == 0},
                  counts)
        started = time.perf_counter()
        coach.start_review()
        coach.wait()
        timings["review"].append(time.perf_counter() - started)
        check_review(index, game, judged, coach.review_frame, counts)
    return decisions


def check_position(where: str, game: Game, j: Judgement, app: Any, coach: Any,
                   whatif: Any, counts: Counts) -> None:
    me = j.player
    # The Hint names the recommended move (in words: widgets.coach.hint_html), and the
    # moves about as good.
    hint = coach.hint_text.value
    if f"Hint: {html.escape(j.say(j.best))}<" not in hint:
        counts.fail("a", where, f"the Hint does not recommend {j.best}")
    if len(j.about_best) > 1 and f"These {len(j.about_best)} are about equally good" not in hint:
        counts.fail("d", where, "the Hint crowns one of moves about as good")
    check_group(where, j, hint, counts)
    # Its reason agrees with its own figures.
    if len(j.options) > 1:
        check_reason(where, j, counts)
    # The win bar: the recommended move's chance to win.
    bar = coach.bar.value
    name = game.names[me]
    if j.win[me] > 0 and f"{name} {j.win[me]:.0%}" not in bar:
        counts.fail("d", where, f"the win bar does not show {j.win[me]:.0%} for {name}")
    # The buttons.
    control = app.decision.control
    shown: dict[str, tuple[int, str, int] | None] = {}
    for notation, button in control.buttons.items():
        text = button.description
        m = _FIGURES.search(text)
        if m is None:
            continue
        figures = (int(m.group(1)), m.group(2), int(m.group(3)))
        shown[notation] = figures
        o = j.option(notation)
        sign = "=" if j.exact else "≈"
        if figures != (round(o.win * 100), sign, round(o.score)):
            counts.fail("d", where, f"button {notation} shows {figures}, the judgement "
                        f"{o.win:.0%} {o.score:.0f}")
        starred = text.startswith("★")
        if starred != (o.about_best and len(j.options) > 1):
            counts.fail("d", where, f"button {notation}: star {starred}, about as good "
                        f"{o.about_best}")
    # The coach's move is the first control: the first button of the coach's row, and a
    # bid's menus start on nothing.
    picks = list(control.coach_buttons)
    if len(j.options) > 1 and (not picks or picks[0] != str(j.best)):
        counts.fail("a", where, f"the first control is {picks[:1]}, not {j.best}")
    if len(j.options) > 1 and [j.option(n) for n in picks] != j.about_best[:len(picks)]:
        counts.fail("f", where, "the coach's row is not the first moves about as good")
    if any(dropdown.value is not None for dropdown in getattr(control, "dropdowns", [])):
        counts.fail("a", where, "a bid menu starts on a coin nobody chose")
    # "Now": every option applied to a copy of the real game.
    for o in j.options:
        for action in o.actions:
            branch = game.clone()
            branch.apply(action)
            change = branch.scores()[me].total - game.scores()[me].total
            if o.now is None or (action == o.action and o.now.total != change):
                counts.fail("c", where, f"{action}: now {o.now and o.now.total}, the board "
                            f"{change:+d}")
            if action == o.action and o.now is not None:
                check_notes(where, game, branch, me, o, counts)
                check_stakes(where, game, o, counts)
    for notation, button in control.buttons.items():
        m = _NOW.search(button.description)
        if m is None:
            continue
        branch = game.clone()
        branch.apply(notation)
        change = branch.scores()[me].total - game.scores()[me].total
        if int(m.group(1)) != change:
            counts.fail("c", where, f"button {notation} says {m.group(1)} now, the board "
                        f"{change:+d}")
    # Moves that lead to the same position: one value (read on the real game).
    groups: dict[object, list[str]] = {}
    for action in game.legal_actions():
        branch = game.clone()
        branch.apply(action)
        groups.setdefault(_canonical(branch.state.fingerprint()[:-1]), []).append(str(action))
    for same in groups.values():
        values = {(j.option(a).win, j.option(a).score) for a in same}
        labels = {shown[a] for a in same if a in shown}
        if len(values) > 1 or len(labels) > 1:
            counts.fail("e", where, f"{same} lead to one position and show {values}")
    # What-if, in the same order with the same figures.
    whatif.study(game.clone())
    whatif.wait()
    shown_j = whatif._last[1][1] if whatif._last is not None else None
    table = whatif.table.value
    # The rows' options as the page shows them (the table's HTML escapes "&": Vidofnir &
    # Vedrfölnir).
    rows = [html.unescape(r)
            for r in re.findall(r"<tr><td>(?:★ )?([^<]+?)(?: <span|</td>)", table)]
    if rows[:1] != [str(j.best)]:
        counts.fail("a", where, f"What-if puts {rows[:1]} first, not {j.best}")
    if shown_j is None or knowledge_key(game, shown_j.level) != j.key:
        counts.fail("d", where, "What-if shows another judgement")
    elif rows != [str(o.action) for o in j.options]:
        counts.fail("d", where, "What-if orders the options differently")
    for o in j.options:
        cell = (f"{o.win:.0%}" if j.exact else f"{o.win:.0%} ± {o.win_se:.0%}")
        if f"<td>{cell}</td>" not in table:
            counts.fail("d", where, f"What-if does not show {o.action} at {cell}")
            break


def check_group(where: str, j: Judgement, hint: str, counts: Counts) -> None:
    """(f) The moves about as good are the first options of the order, none clearly better
    than the recommended move in either currency (the paired differences, recomputed),
    and the Hint compares with the first option outside them. (a) No option is clearly
    more likely to win than the recommended one."""
    best = j.options[0]
    flags = [o.about_best for o in j.options]
    if flags != sorted(flags, reverse=True):
        counts.fail("f", where, "the moves about as good are not the first of the order")
    for o in j.options[1:]:
        win, points = j.gaps(o, best)  # the option's figures less the recommended one's
        if o.about_best and ((win.clear and win.value > 0) or (points.clear and
                                                              points.value > 0)):
            counts.fail("f", where, f"{o.action} is about as good yet clearly better "
                        f"({win.value:+.1%} ± {win.se:.1%}, {points.value:+.1f} ± "
                        f"{points.se:.1f} points)")
        if win.clear and win.value > 0:
            counts.fail("a", where, f"{o.action} is clearly more likely to win than "
                        f"{best.action} ({win.value:+.1%} ± {win.se:.1%})")
    outside = next((o for o in j.options if not o.about_best), None)
    if len(j.options) > 1:
        nxt = outside if outside is not None else j.options[1]
        said = html.escape(j.say(nxt.action))
        if f"Compared with the next best move ({said})" not in hint:
            counts.fail("f", where, f"the Hint's next best move is not {nxt.action}")


#: The distinctions by their names in the notes (the source language).
_DISTINCTION_NAMES = {card_name(card): card for card in C.DISTINCTIONS}


def check_stakes(where: str, game: Game, o: Any, counts: Counts) -> None:
    """(g) Every majority note names a prize that can still change hands: a distinction
    not yet awarded (the game's own events), in age 1; the warrior bonus in age 2."""
    awarded = {e.distinction for e in game.events if isinstance(e, DistinctionAwarded)}
    for note in o.now.majority:
        named = [card for name, card in _DISTINCTION_NAMES.items() if name in note]
        if game.state.age == 2 and named:
            counts.fail("g", where, f"{o.action}: {note!r} in age 2")
        for card in named:
            if card in awarded:
                counts.fail("g", where, f"{o.action}: {note!r}, but {card.name} was "
                            "awarded already")
        if not named and "the warrior bonus" not in note:
            counts.fail("g", where, f"{o.action}: {note!r} names no prize")
        if "the warrior bonus" in note and game.state.age != 2:
            counts.fail("g", where, f"{o.action}: {note!r} in age 1")


def check_reason(where: str, j: Judgement, counts: Counts) -> None:
    cmp = j.compare()
    if not cmp.win.clear and not cmp.points.clear and (cmp.why or cmp.but):
        counts.fail("b", where, "a reason for a difference within the noise")
    total = 0.0
    listed = False
    for text in cmp.why + cmp.but:
        m = _POINTS.fullmatch(text)
        if m:
            listed = True
            value = float(m.group(1))
            total += value
            if (value > 0) != (text in cmp.why):
                counts.fail("b", where, f"{text!r} listed on the wrong side")
    if listed and abs(total - cmp.points.value) > 0.06 * (1 + len(cmp.why) + len(cmp.but)):
        counts.fail("b", where, f"the categories add up to {total:+.1f}, the headline says "
                    f"{cmp.points.value:+.1f}")


def check_notes(where: str, game: Game, branch: Game, me: int, o: Any, counts: Counts) -> None:
    """The majority notes and the next decision of a preview, against the real board."""
    age = game.state.age
    stake = at_stake(game.state)
    mark = len(game.events)
    before = prizes(game.state, age, stake)
    after = awarded(prizes(branch.state, age, stake), branch.events[mark:])
    for (suit, _, old), (_, _, new) in zip(before, after, strict=True):
        cls = suit.column_name  # the notes are read in English (the source language)
        said = [n for n in o.now.majority if f"the {cls} majority" in n]
        if old == new and said:
            counts.fail("b", where, f"{o.action}: {said} but the majority does not change")
        if old != new and not said:
            counts.fail("b", where, f"{o.action}: the {cls} majority changes, unsaid")
        for note in said:
            if "nobody gets" in note and new:
                counts.fail("b", where, f"{o.action}: {note!r} but {sorted(new)} get it")
            if "for you and" in note and (me not in new or len(new) < 2):
                counts.fail("b", where, f"{o.action}: {note!r} but {sorted(new)} get it")
            if note.startswith("takes") and new != {me}:
                counts.fail("b", where, f"{o.action}: {note!r} but {sorted(new)} get it")
    nxt = branch.decision
    follow = nxt.prompt if nxt is not None and nxt.player == me and \
        str(nxt.kind) not in ("bid", "pick") else ""
    if o.now.follow_up != follow:
        counts.fail("b", where, f"{o.action}: then {o.now.follow_up!r}, the board {follow!r}")


def check_cli(index: int, game: Game, level: str, judged: dict[int, Judgement],
              counts: Counts) -> None:
    """``nidavellir hint`` on the saved record, judged afresh: the same judgement."""
    with tempfile.TemporaryDirectory() as folder:
        record = Path(folder) / "game.json"
        game.save(record)
        for step, j in judged.items():
            where = f"game {index + 1}, decision {step + 1} (nidavellir hint)"
            out = io.StringIO()
            with no_cache(), contextlib.redirect_stdout(out):
                code = cli(["hint", str(record), "--at", str(step + 1), "--level", level,
                            "--json"])
            if code != 0:
                counts.fail("d", where, f"exit code {code}")
                continue
            data = json.loads(out.getvalue())
            if data["options"][0]["action"] != str(j.best):
                counts.fail("a", where, f"recommends {data['options'][0]['action']}")
            expected = j.to_dict()
            for key in ("seconds", "decision", "name"):
                data.pop(key, None)
                expected.pop(key, None)
            if data != json.loads(json.dumps(expected)):
                counts.fail("d", where, "another judgement than the page's")


def check_review(index: int, game: Game, judged: dict[int, Judgement], frame: Any,
                 counts: Counts) -> None:
    if frame is None:
        counts.fail("d", f"game {index + 1}", "no review")
        return
    rows = {int(r.step): r for r in frame.itertuples()}
    for step, j in judged.items():
        where = f"game {index + 1}, decision {step + 1} (review)"
        r = rows.get(step)
        if r is None:
            counts.fail("d", where, "not reviewed")
            continue
        if r.best != str(j.best):
            counts.fail("a", where, f"the review's better move {r.best}, the Hint's {j.best}")
        if r.label not in ("best", "forced"):
            counts.fail("d", where, f"the Hint's move is labelled {r.label}")
        if [getattr(r, f"win_{i}") for i in range(len(j.win))] != j.win:
            counts.fail("d", where, "other chances to win than the Hint's")


def run(games: int, level: str = DEFAULT_LEVEL, seed: int = 0,
        opponents: dict[str, int | str] | None = None, log: Any = None,
        tables: Sequence[tuple[int, tuple[str, ...], str]] = (), cli_every: int = 1,
        decisions_at_most: int | None = None, first: int = 0) -> dict[str, Any]:
    """Play ``games`` games (module docs), cycling over ``tables`` (default
    :data:`TABLES`), from the game numbered ``first`` (0: the first; a run stopped early
    goes on from where it was); the counts, problems and timings. ``cli_every`` and
    ``decisions_at_most``: :func:`play` (the test suite's small version)."""
    counts = Counts()
    timings: dict[str, list[float]] = {"ready": [], "shown": [], "review": []}
    decisions = 0
    for index in range(first, first + games):
        decisions += play(index, level, counts, opponents or OPPONENTS, timings, seed,
                          tables, cli_every, decisions_at_most)
        if log is not None:  # a long run says how far it is, and keeps what it found
            so_far = {"game": index + 1, "of": first + games, "decisions": decisions,
                      **counts.counts, "problems": counts.problems}
            so_far.update(_timings(timings))
            print(json.dumps(so_far, ensure_ascii=False), file=log, flush=True)
    out: dict[str, Any] = dict(counts.counts)
    out.update(games=games, decisions=decisions, level=level, problems=counts.problems)
    out.update(_timings(timings))
    return out


def _timings(timings: dict[str, list[float]]) -> dict[str, float]:
    out = {}
    for key, values in timings.items():
        if values:
            out[f"{key}_median"] = round(statistics.median(values), 3)
            out[f"{key}_max"] = round(max(values), 3)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--level", default=DEFAULT_LEVEL)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--first", type=int, default=0,
                        help="the number of games to skip (a stopped run goes on: --first 5 "
                             "plays games 6 onwards)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    if args.first < 0:
        parser.error("--first must be 0 or more")
    started = time.perf_counter()
    result = run(args.games, args.level, args.seed, log=sys.stderr, first=args.first)
    result["seconds"] = round(time.perf_counter() - started, 1)
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
        return 0
    print(f"{result['games']} games, {result['decisions']} decisions of the learner at the "
          f"{args.level} level, {result['seconds']} s")
    for key, what in (("a", "recommended move not first"), ("b", "reason contradicted"),
                      ("c", "'now' not the score sheet's change"),
                      ("d", "surfaces that disagree"), ("e", "equivalent moves valued apart"),
                      ("f", "'about as good' not a prefix / clearer"),
                      ("g", "a note about a prize no longer at stake")):
        print(f"  ({key}) {what:<38} {result[key]}")
    for key in ("ready", "shown", "review"):
        if f"{key}_median" in result:
            print(f"  {key}: median {result[f'{key}_median']} s, max {result[f'{key}_max']} s")
    for problem in result["problems"]:
        print("  " + problem)
    return 0


if __name__ == "__main__":
    sys.exit(main())
