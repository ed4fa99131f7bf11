"""The Puzzles tab: find the best move in positions from real games, rated as Lichess rates.

A thin view over the trainer (:mod:`nidavellir.analysis.puzzles.trainer`): the position
from the deciding seat's view only (:func:`nidavellir.lessons.puzzles.puzzle_step`, shown by
the position question's view: no other seat's face-down coin, no unseen card), with the
Play tab's own control for the decision. The first answer is one rated game between the
learner and the puzzle (Glicko-2); after it: the judge's figures of every option, the
reason, both new ratings, and *The game it came from* (in Replay). *Next puzzle* draws one
near the learner's rating, by theme and edition. *Hint* names the puzzle's themes (the
attempt then counts as not solved). *Practise your mistakes* makes puzzles of the Play
tab's reviewed game's mistakes (:mod:`nidavellir.analysis.puzzles.personal`). A chart
shows the rating over time.

In class mode, when the teacher assigned a set of puzzles (the teacher page's *Puzzles*),
the tab serves that set, in its order; each answer goes to the class as any answer does
(held by the page until the database has it, stored once), and the ratings are the
class's (from the class database). Nothing is written to the server's data folder.

Works without a browser: ``tab.view.control.choose(action)``, then read
``tab.feedback.value``.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as W

from nidavellir import Game
from nidavellir.analysis.puzzles import Puzzle, PuzzleFileError, shipped
from nidavellir.analysis.puzzles.trainer import (
    Attempt,
    Learner,
    class_attempts,
    class_ratings,
    next_puzzle,
    rating_figure,
)
from nidavellir.bots.puzzle_themes import THEME_NAMES
from nidavellir.errors import NidavellirError
from nidavellir.i18n import _, count, number, percent, pgettext

from .console import guard
from .position_question import PositionQuestionApp
from .session import Console
from .style import css_widget

esc = html.escape
#: The lesson id of a class's puzzles (the class database's question ``puzzles/...``).
PUZZLES = "puzzles"


def rating_text(r: Any) -> str:
    """``1523 (± 87)``."""
    return _("{rating} (± {rd})").format(rating=number(r.r), rd=number(r.rd))


def change_text(before: Any, after: Any) -> str:
    return f"{after.r - before.r:+.0f}"


class PuzzlesTab(W.VBox):
    """The Puzzles tab (module docs). ``puzzles``: the pool (the shipped set by default);
    ``learner``: whose rating (the user's data folder's by default; in memory in class
    mode); ``link``: the page's class link; ``open_game(game, step)``: shows the game it
    came from (the dashboard's Replay); ``reviewed()``: the Play tab's reviewed game and
    its review, for *Practise your mistakes*."""

    def __init__(self, console: Console | None = None, learner: Learner | None = None,
                 puzzles: Sequence[Puzzle] | None = None, link: Any = None,
                 open_game: Callable[[Game, int], None] | None = None,
                 reviewed: Callable[[], tuple[Game, Any] | None] | None = None,
                 chart: bool = True, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.add_class("nid-puzzles")
        self.console = console or Console()
        self.link = link if link is not None and getattr(link, "active", False) else None
        self.learner = learner if learner is not None else (
            Learner(None) if self.link is not None else Learner.open())
        self.pool = list(puzzles) if puzzles is not None else shipped()
        self.open_game = open_game
        self.reviewed = reviewed
        self.draw_chart = chart
        self.puzzle: Puzzle | None = None
        self.view: PositionQuestionApp | None = None
        self.hinted = False
        self.tries = 0
        self.last: Attempt | None = None
        #: The teacher's set now: (its number, its name, its puzzles), or None.
        self.class_set: tuple[int, str, list[Puzzle]] | None = None
        self._class_answered: set[str] = set()
        def guarded(fn: Callable[..., Any]) -> Callable[..., Any]:
            return guard(self.console, fn, "puzzles")

        intro = W.HTML("<div class='nid-text'><b>" + esc(_("Puzzles")) + "</b> " + esc(_(
            "Positions from real games where one move is clearly the best, whatever the cards "
            "you cannot see: find it. Each first answer is rated, yours against the puzzle's "
            "(a hint or a wrong first answer counts as not solved).")) + "</div>")
        self.rating = W.HTML()
        self.rating.add_class("nid-pz-rating")
        self.theme = W.Dropdown(options=[(_("every theme"), "")] + [
            (_(name), key) for key, name in THEME_NAMES.items()], value="",
            description=_("Theme"), layout=W.Layout(width="300px"))
        self.theme.add_class("nid-pz-theme")
        self.edition = W.Dropdown(options=[(_("both editions"), "all"), (_("base game"), "base"),
                                           (_("Thingvellir"), "thingvellir")],
                                  value="all", description=_("Edition"),
                                  layout=W.Layout(width="260px"))
        self.edition.add_class("nid-pz-edition")
        self.source = W.Dropdown(description=_("Puzzles"), layout=W.Layout(width="320px"))
        self.source.add_class("nid-pz-source")
        self._set_sources()
        self.next_button = W.Button(description=_("Next puzzle"), button_style="primary",
                                    layout=W.Layout(width="auto"))
        self.next_button.add_class("nid-pz-next")
        self.next_button.on_click(guarded(lambda _b: self.next()))
        self.hint_button = W.Button(description=_("Hint"), layout=W.Layout(width="auto"))
        self.hint_button.add_class("nid-pz-hint")
        self.hint_button.on_click(guarded(lambda _b: self.hint()))
        self.game_button = W.Button(description=_("The game it came from"),
                                    layout=W.Layout(width="auto"))
        self.game_button.add_class("nid-pz-game")
        self.game_button.on_click(guarded(lambda _b: self.show_game()))
        self.mistakes_button = W.Button(description=_("Practise your mistakes"),
                                        layout=W.Layout(width="auto"),
                                        tooltip=_("puzzles from the mistakes of your game "
                                                  "reviewed in the Play tab"))
        self.mistakes_button.add_class("nid-pz-mistakes")
        self.mistakes_button.on_click(guarded(lambda _b: self.practise_mistakes()))
        self.mistakes_button.layout.display = "none" if reviewed is None else ""
        self.heading = W.HTML()
        self.heading.add_class("nid-pz-heading")
        self.hint_text = W.HTML()
        self.hint_text.add_class("nid-pz-hint-text")
        self.board = W.VBox()
        self.board.add_class("nid-pz-board")
        self.feedback = W.HTML()
        self.feedback.add_class("nid-pz-feedback")
        self.status = W.HTML()
        self.status.add_class("nid-pz-status")
        self.class_note = W.HTML()
        self.class_note.add_class("nid-pz-class")
        self.chart = W.Output()
        self.chart.add_class("nid-pz-chart")
        for control in (self.theme, self.edition, self.source):
            control.observe(lambda _c: self._filters_changed(), "value")
        self.children = [
            css_widget(), intro, self.class_note, self.rating,
            W.HBox([self.theme, self.edition, self.source],
                   layout=W.Layout(flex_flow="row wrap", align_items="center")),
            W.HBox([self.next_button, self.hint_button, self.game_button,
                    self.mistakes_button], layout=W.Layout(flex_flow="row wrap")),
            self.status, self.heading, self.hint_text, self.board, self.feedback, self.chart]
        if self.learner.problem:
            self._say(self.learner.problem)
        if self.link is not None:
            self.link.on_state(lambda _state: self.follow_class())
            self.link.listeners.append(self._class_changed)
        self._show_rating()
        self._redraw_chart()
        self.follow_class()
        if self.puzzle is None:
            self.next()

    # ------------------------------------------------------------------ the pool

    def _set_sources(self) -> None:
        personal = len(self.learner.personal)
        options = [(_("the lab's puzzles"), "lab")]
        if personal:
            options.append((count(personal, "your own mistakes ({n})",
                                  "your own mistakes ({n})"), "personal"))
        value = self.source.value if self.source.value in {v for _l, v in options} else "lab"
        self.source.options = options
        self.source.value = value
        self.source.layout.display = "" if personal else "none"

    def puzzles(self) -> list[Puzzle]:
        """The puzzles the tab draws from now (the teacher's set in class mode)."""
        if self.class_set is not None:
            return list(self.class_set[2])
        return list(self.learner.personal) if self.source.value == "personal" else self.pool

    def _filters_changed(self) -> None:
        if self.class_set is None:
            self.next()

    # ------------------------------------------------------------------ showing

    def next(self) -> bool:
        """Show the next puzzle (near the learner's rating; the teacher's set in order)."""
        if self.class_set is not None:
            number_, _name, puzzles = self.class_set
            left = [(i, p) for i, p in enumerate(puzzles)
                    if self._class_question(p) not in self._class_answered]
            after = self.puzzle.id if self.puzzle is not None else None
            pick = next(((i, p) for i, p in left if p.id != after), left[0] if left else None)
            if pick is None:
                self._say(_("You have answered every puzzle of your teacher's set."),
                          error=False)
                return False
            return self.show(pick[1], number=pick[0] + 1)
        found = next_puzzle(self.learner, self.puzzles(), self.theme.value or None,
                            self.edition.value,
                            after=self.puzzle.id if self.puzzle is not None else None)
        if found is None:
            self._say(_("No puzzle has this theme in this edition: choose another."))
            return False
        return self.show(found)

    def show(self, puzzle: Puzzle, number: int = 1) -> bool:
        """Show ``puzzle`` (``number``: its place in a teacher's set). A puzzle that cannot
        be shown (its record does not replay) is said in one sentence, and what was on
        screen stays."""
        key = self._class_key(puzzle)
        try:
            puzzle.game()
            from nidavellir.lessons.puzzles import puzzle_step

            step = puzzle_step(puzzle, key=key)
            view = PositionQuestionApp(PUZZLES, number, step,
                                       self.link if self.class_set is not None else None)
        except (PuzzleFileError, NidavellirError, ValueError) as exc:
            self._say(_("This puzzle cannot be shown: {error}").format(error=exc))
            return False
        old = self.view
        self.puzzle, self.view = puzzle, view
        self.hinted, self.tries, self.last = False, 0, None
        view.listeners.append(self._answered)
        self.board.children = [view]
        if old is not None:
            old.close()
        self.status.value = ""
        self.hint_text.value = ""
        self.feedback.value = ""
        self.hint_button.disabled = False
        self._heading()
        return True

    def _heading(self) -> None:
        p = self.puzzle
        assert p is not None
        edition = _("Thingvellir") if p.thingvellir else _("base game")
        rated = self.learner.rating_of(p) if self.class_set is None else p.rating
        said = _("Puzzle {id} · rated {rating} · {players} players, {edition} · decision "
                 "{decision}").format(id=p.id, rating=number(rated.r), players=p.players,
                                      edition=edition, decision=p.decision)
        if self.class_set is not None:
            n, name, puzzles = self.class_set
            place = next((i for i, q in enumerate(puzzles) if q.id == p.id), 0) + 1
            said = _("Your teacher's puzzle {place} of {total} ({name})").format(
                place=place, total=len(puzzles), name=name) + " · " + said
        self.heading.value = f"<div class='nid-pz-title'>{esc(said)}</div>"

    # ------------------------------------------------------------------ answering

    def hint(self) -> None:
        """The puzzle's themes; the attempt then counts as not solved."""
        p = self.puzzle
        if p is None:
            return
        if self.tries == 0:
            self.hinted = True
        themes = ", ".join(_(THEME_NAMES[t]) for t in p.themes) or _(
            "no theme: read every option's outcome")
        self.hint_text.value = ("<div class='nid-pz-hint-said'>" + esc(_(
            "Hint: {themes}. With a hint, this puzzle counts as not solved.").format(
            themes=themes)) + "</div>")
        self.hint_button.disabled = True

    def _answered(self) -> None:
        view, p = self.view, self.puzzle
        if view is None or p is None or view.chosen is None:
            return
        move = view.chosen
        first = self.tries == 0
        self.tries += 1
        if self.class_set is not None:
            self._class_answered.add(view.question_id)
            self.last = None
            self.feedback.value = self.feedback_html(p, move, None, first)
            self._class_changed()
            return
        self.last = self.learner.answer(p, move, hinted=self.hinted, first=first)
        self.feedback.value = self.feedback_html(p, move, self.last, first)
        self._show_rating()
        self._redraw_chart()

    def feedback_html(self, p: Puzzle, move: str, done: Attempt | None, first: bool,
                      class_ratings_text: str = "") -> str:
        """What the learner sees after an answer: solved or not, the ratings, the judge's
        figures of every option (the answers marked, the learner's move too) and the
        reason."""
        from nidavellir.lessons.puzzles import puzzle_step

        figures = puzzle_step(p).coach()
        words = {o["move"]: o["words"] for o in figures["options"]}
        for o in figures["options"]:
            for m in o["moves"]:
                words.setdefault(m, o["words"])
        said_move = words.get(move, move)
        answer = words.get(p.answers[0], p.answers[0])
        if p.solves(move):
            head = (_("✔ Found, with a hint: {move}. It counts as not solved.")
                    if self.hinted and first else
                    _("✔ Solved: {move} is the best move.") if first else
                    _("✔ Found at a further try: {move}."))
            tone = "nid-good"
        else:
            head = _("✘ Not the best move: {move}. The best: {answer}.").format(
                move="{move}", answer=answer)
            tone = "nid-bad"
        parts = [f"<div class='nid-pz-verdict {tone}'>"
                 + esc(head).replace("{move}", f"<b>{esc(said_move)}</b>") + "</div>"]
        if done is not None and done.rated:
            parts.append("<div class='nid-pz-ratings'>" + esc(_(
                "Your rating: {rating} ({change}) · the puzzle's: {puzzle} ({puzzle_change})"
            ).format(rating=rating_text(done.learner), change=change_text(
                done.learner_before, done.learner), puzzle=number(done.puzzle_rating.r),
                puzzle_change=change_text(done.puzzle_before, done.puzzle_rating))) + "</div>")
        elif done is not None:
            parts.append("<div class='nid-pz-ratings'>" + esc(_(
                "A further try is not rated.")) + "</div>")
        if class_ratings_text:
            parts.append(f"<div class='nid-pz-ratings'>{esc(class_ratings_text)}</div>")
        if p.exact:
            how = _("Exact: nothing hidden or random is left, every option played to the end.")
        else:
            how = _("Every option played out on the same {deals} deals of what you cannot "
                    "see; ± is one standard error.").format(deals=p.extra.get("deals", "?"))
        rows = []
        for o in figures["options"]:
            marks = []
            if o["answer"]:
                marks.append("✔")
            if move in o["moves"]:
                marks.append(pgettext("a puzzle's table: the move the learner played",
                                      "your move"))
            win = percent(o["win"]) if p.exact or o["win_se"] is None else \
                f"{percent(o['win'])} ± {percent(o['win_se'])}"
            score = number(o["score"]) if p.exact or o["score_se"] is None else \
                f"{number(o['score'], 1)} ± {number(o['score_se'], 1)}"
            rows.append(f"<tr class='{'nid-pz-answer' if o['answer'] else ''}'>"
                        f"<td>{esc(o['words'])} <code>{esc(o['move'])}</code></td>"
                        f"<td>{esc(win)}</td><td>{esc(score)}</td>"
                        f"<td>{esc(' · '.join(marks))}</td></tr>")
        table = ("<table class='nid-table-frame nid-pz-options'><thead><tr>"
                 + "".join(f"<th>{esc(c)}</th>" for c in (
                     _("option"), _("chance to win"), _("expected final score"), ""))
                 + "</tr></thead><tbody>" + "".join(rows) + "</tbody></table>")
        parts += [f"<div class='nid-note'>{esc(how)}</div>", table,
                  f"<div class='nid-pz-reason'>{esc(p.reason_text())}</div>"]
        return "".join(parts)

    def show_game(self) -> bool:
        """The game the puzzle came from, in Replay at the puzzle's decision."""
        if self.puzzle is None or self.open_game is None:
            return False
        try:
            game = self.puzzle.full_game()
        except PuzzleFileError as exc:
            self._say(str(exc))
            return False
        self.open_game(game, self.puzzle.decision - 1)
        return True

    # ------------------------------------------------------------------ ratings

    def _show_rating(self) -> None:
        if self.class_set is not None:
            return
        rated = sum(1 for a in self.learner.history if a.rated)
        solved = sum(1 for a in self.learner.history if a.rated and a.score)
        self.rating.value = "<div class='nid-pz-rating-line'>" + esc(_(
            "Your puzzle rating: {rating} · {tried}, {solved} solved").format(
            rating=rating_text(self.learner.rating),
            tried=count(rated, "{n} puzzle tried", "{n} puzzles tried"),
            solved=number(solved))) + "</div>"

    def _redraw_chart(self) -> None:
        if not self.draw_chart or self.class_set is not None:
            return
        fig = rating_figure(self.learner.history)
        # The outputs replaced as a whole (clear_output would print outside a kernel).
        self.chart.outputs = ({"output_type": "display_data", "data": {
            "application/vnd.plotly.v1+json": fig.to_plotly_json(),
            "text/plain": _("Your puzzle rating")}, "metadata": {}},)

    def chart_figure(self) -> Any:
        """The rating chart's figure (what the tab draws)."""
        return rating_figure(self.learner.history)

    # ------------------------------------------------------------------ mistakes

    def practise_mistakes(self) -> int:
        """Puzzles from the Play tab's reviewed game's mistakes and blunders that pass the
        only-move test; kept with the learner's. How many are new."""
        found = self.reviewed() if self.reviewed is not None else None
        if found is None:
            self._say(_("Review a game in the Play tab first (Review this game, after the "
                        "game): its mistakes become your puzzles."))
            return 0
        from nidavellir.analysis.puzzles.personal import personal_puzzles

        game, frame = found
        self._say(_("Looking for one clearly best move at each of your mistakes…"),
                  error=False)
        made = personal_puzzles(game, frame)
        new = self.learner.add_personal(made)
        self._set_sources()
        if made:
            self._say(count(len(made), "{n} of your mistakes is a puzzle now ({new} new): "
                            "choose 'your own mistakes'.",
                            "{n} of your mistakes are puzzles now ({new} new): choose 'your "
                            "own mistakes'.", new=new), error=False)
        else:
            self._say(_("None of your mistakes has one clearly best answer: nothing to "
                        "practise from this game."), error=False)
        return new

    # ------------------------------------------------------------------ the class

    def _class_key(self, puzzle: Puzzle) -> str:
        if self.class_set is None:
            return puzzle.id
        return f"s{self.class_set[0]}-{puzzle.id}"

    def _class_question(self, puzzle: Puzzle) -> str:
        return f"{PUZZLES}/{self._class_key(puzzle)}"

    def follow_class(self) -> None:
        """The teacher's set, as the class's state says (read from the class database):
        served in place of the free practice, until the teacher ends it."""
        if self.link is None:
            return
        wanted = getattr(self.link.state, "puzzles", None)
        current = self.class_set[0] if self.class_set is not None else None
        if wanted == current:
            return
        found = None
        if wanted is not None:
            try:
                found = self.link.store.puzzle_set(wanted)
            except Exception as exc:  # a busy database: the next change tries again
                self._say(_("Your teacher's puzzles cannot be read now: {error}").format(
                    error=getattr(exc, "public", exc)))
                return
        if found is None:
            self.class_set = None
            self.class_note.value = ""
            for control in (self.theme, self.edition, self.source):
                control.disabled = False
            self.next()
            return
        from nidavellir.analysis.puzzles import parse_puzzle

        puzzles = [parse_puzzle(p) for p in found.puzzles]
        self.class_set = (found.id, found.name, puzzles)
        self._class_answered = {self._class_question(p) for p in puzzles
                                if self.link.move_to(self._class_question(p)) is not None}
        for control in (self.theme, self.edition, self.source):
            control.disabled = True
        self.class_note.value = "<div class='nid-teacher-note'>" + esc(count(
            len(puzzles), "Your teacher gave the class {n} puzzle: {name}. Your answer goes "
            "to your teacher.", "Your teacher gave the class {n} puzzles: {name}. Your "
            "answers go to your teacher.", name=found.name)) + "</div>"
        self.puzzle = None
        self.next()

    def _class_changed(self) -> None:
        """An answer's state changed (sent, stored): the class's ratings once stored."""
        if self.class_set is None or self.view is None or self.puzzle is None \
                or self.link is None:
            return
        if self.link.state_of(self.view.question_id) != "stored" or self.tries == 0:
            return
        try:
            text = self.class_rating_text()
        except Exception:  # a busy database: said on the next change
            return
        move = self.view.chosen or ""
        self.feedback.value = self.feedback_html(self.puzzle, move, None, self.tries == 1,
                                                 text)

    def class_rating_text(self) -> str:
        """The student's and the puzzle's ratings in the class, from the class database."""
        assert self.class_set is not None and self.puzzle is not None
        assert self.link is not None
        from nidavellir.classroom.store import person_of

        _n, _name, puzzles = self.class_set
        answers = [{"person": person_of(a.student, a.name), "question": a.question,
                    "move": a.move, "at": a.at}
                   for a in self.link.store.answers()
                   if a.question.startswith(f"{PUZZLES}/s{self.class_set[0]}-")]
        people, rated = class_ratings(puzzles, class_attempts(
            puzzles, answers, self._class_question))
        me = person_of(self.link.student, self.link.typed_name())
        mine = people.get(me)
        if mine is None:
            return ""
        return _("Your rating in the class: {rating} · the puzzle's: {puzzle}").format(
            rating=rating_text(mine), puzzle=number(rated[self.puzzle.id].r))

    def _say(self, message: str, error: bool = True) -> None:
        tone = "nid-error" if error else "nid-note"
        self.status.value = f"<div class='{tone}'>{esc(message)}</div>"


def puzzles_tab(**kwargs: Any) -> PuzzlesTab:
    """The Puzzles tab (see :class:`PuzzlesTab`)."""
    return PuzzlesTab(**kwargs)


__all__ = ["PUZZLES", "PuzzlesTab", "puzzles_tab"]
