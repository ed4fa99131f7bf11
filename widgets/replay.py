"""Replay a recorded game: load a record, step through it with a slider, branch a what-if.

The record comes from a file upload, a path, or the walkthrough's scripted game. The slider
runs over the history (0 = before the first decision); the table, every player's board
(a finished game hides nothing; an unfinished record shows what the table may see: bids
face down, purses counted), the decision and its events, and the live charts follow it.
A position is named by the decision about to be taken, "Decision N", as the review, What-if
and ``nidavellir hint --at N`` name it. *What if… (branch here)* hands a copy of the game
at that position to ``on_branch`` (the dashboard opens it in the What-if tab, to play on
differently). A reviewed game (a record with its review) shows its review whole: the
headline, the graph and every listed move with its buttons.

>>> panel = ReplayPanel()
>>> panel.load_walkthrough()
True
>>> panel.slider.max, panel.slider.value
(110, 110)
>>> panel.slider.value = 3
>>> len(panel.view.game.history), panel.position_text(3)
(3, 'Decision 4 of 110')
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import ipywidgets as W
import traitlets as T

from nidavellir import Game
from nidavellir.errors import NidavellirError
from nidavellir.i18n import _, count
from nidavellir.observer import SPECTATOR

from . import render
from .charts import LiveCharts
from .console import guard
from .session import Console
from .style import css_widget

esc = html.escape

#: A record shipped with the project (examples/records/): the path placeholder names it.
EXAMPLE_RECORD = "examples/records/three_players.json"


class ReplayView(T.HasTraits):
    """Session-like holder of the game shown (what LiveCharts observes)."""

    version = T.Int(0)

    def __init__(self, game: Game) -> None:
        super().__init__()
        self.game = game
        self.viewer: int | None = None

    def show(self, game: Game) -> None:
        self.game = game
        self.version += 1


def _empty_game() -> Game:
    """What the charts show before a record is loaded (seats named in the page's
    language)."""
    from nidavellir.play.session import default_name

    return Game.new(players=2, seed=0, names=[default_name(i) for i in range(2)])


class ReplayPanel(W.VBox):
    """Load a record, a slider over its decisions, board and charts that follow, branch."""

    def __init__(self, console: Console | None = None,
                 on_branch: Callable[[Game, Game, int], Any] | None = None,
                 charts: tuple[str, ...] = ("coins", "ranks"), **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.add_class("nid-replay")
        self.console = console if console is not None else Console()
        self.on_branch = on_branch
        self.full: Game | None = None
        self.review: Any = None
        self.source = ""
        self.upload = W.FileUpload(accept=".json", multiple=False, description=_("Upload record"),
                                   tooltip=_("open a game record (.json) from your computer"))
        self.upload.add_class("nid-replay-upload")
        self.upload.add_class("nid-upload")
        self.upload.observe(guard(self.console, self._uploaded, "replay"), "value")
        self.path = W.Text(placeholder=_("or a path, e.g. {path}").format(path=EXAMPLE_RECORD),
                           layout=W.Layout(width="380px"))
        self.path.add_class("nid-replay-path")
        self.load_button = W.Button(description=_("Load path"))
        self.load_button.add_class("nid-replay-load")
        self.load_button.on_click(guard(self.console, lambda _b: self.load_path(self.path.value),
                                        "replay"))
        # Enter in the path box loads it, as the button does.
        self.path.on_msg(guard(self.console, lambda _w, content, _b: self.load_path(
            self.path.value) if content.get("event") == "submit" else None, "replay"))
        self.example = W.Button(description=_("The walkthrough's game"),
                                tooltip=_("the scripted game of the rules walkthrough"),
                                layout=W.Layout(width="auto"))
        self.example.add_class("nid-replay-example")
        self.example.on_click(guard(self.console, lambda _b: self.load_walkthrough(), "replay"))
        self.status = W.HTML("<i>" + _("Load a record (.json) to replay it.") + "</i>")
        self.status.add_class("nid-replay-status")
        # The slider counts the decisions played (0 = before the first); the position is
        # named by the decision about to be taken, "Decision N" beside it, as the review,
        # What-if and `nidavellir hint --at N` name it (position_text): 84 played, the
        # position of decision 85.
        self.slider = W.IntSlider(min=0, max=0, value=0, description=_("Decisions played"),
                                  continuous_update=False, layout=W.Layout(width="440px"),
                                  style={"description_width": "initial"})
        self.slider.add_class("nid-replay-slider")
        self.position = W.HTML()
        self.position.add_class("nid-replay-position")
        self.slider.observe(guard(self.console, lambda _c: self.show(self.slider.value),
                                  "replay"), "value")
        self.prev = W.Button(description="◀", layout=W.Layout(width="44px"), tooltip=_("previous"))
        self.prev.add_class("nid-replay-prev")
        self.prev.on_click(lambda _b: self.step(-1))
        self.next = W.Button(description="▶", layout=W.Layout(width="44px"), tooltip=_("next"))
        self.next.add_class("nid-replay-next")
        self.next.on_click(lambda _b: self.step(+1))
        self.branch_button = W.Button(description=_("What if… (branch here)"),
                                      tooltip=_("play on from this decision in the What-if "
                                                "tab"),
                                      layout=W.Layout(width="auto"))
        self.branch_button.add_class("nid-replay-branch")
        self.branch_button.on_click(guard(self.console, lambda _b: self.branch(), "replay"))
        self.info = W.HTML()
        self.info.add_class("nid-replay-info")
        self.board = W.HTML()
        self.board.add_class("nid-replay-board")
        from .review_view import ReviewView

        # A reviewed game's review, whole: its headline, graph and listed moves, whose
        # buttons move the slider and branch here.
        self.review_view = ReviewView(on_replay=self.go_to, on_branch=self.branch_at)
        self.review_view.add_class("nid-replay-review-view")
        self.view = ReplayView(_empty_game())
        self.charts: LiveCharts | None = (LiveCharts(self.view, charts, hide_bids=False)
                                          if charts else None)
        """The live charts (None: built with ``charts=()``)."""
        self.children = [
            css_widget(),
            W.HBox([self.upload, self.path, self.load_button, self.example],
                   layout=W.Layout(flex_flow="row wrap")),
            self.status,
            W.HBox([self.prev, self.slider, self.next, self.position, self.branch_button],
                   layout=W.Layout(flex_flow="row wrap", align_items="center")),
            self.info, self.board, self.review_view,
            *([self.charts] if self.charts is not None else []),
        ]
        self._set_enabled(False)

    # ------------------------------------------------------------------ loading

    def _set_enabled(self, on: bool) -> None:
        for w in (self.slider, self.prev, self.next, self.branch_button):
            w.disabled = not on

    def load_record(self, record: Mapping[str, Any], source: str = "record") -> bool:
        """Replay ``record`` (a game record, or a reviewed game: its annotations show at
        every decision); a bad one is reported in the console and nothing changes."""
        from nidavellir.analysis.review import review_from_dict

        try:
            # One file format: a record, with or without its review (an old reviewed game
            # is migrated as it is read).
            game, review = review_from_dict(record)
        except (NidavellirError, ValueError, TypeError) as exc:
            if isinstance(record, Mapping) and "players" in record and "actions" not in record:
                return self._failed(_(
                    "cannot replay {source}: {error} — this looks like a score-sheet scenario "
                    "(a table of armies), not a game record: score it with `nidavellir "
                    "score`").format(source=source, error=exc))
            # Translators: a record that cannot be replayed; {error} says why (English).
            return self._failed(_("cannot replay {source}: {error}").format(source=source,
                                                                           error=exc))
        return self.load_game(game, source, review)

    def _failed(self, message: str) -> bool:
        """A load that failed: said on the status line next to the controls (and in the
        console); what was shown before stays."""
        self.console.error(message)
        shown = (" " + _("Still showing {source}.").format(source=f"<b>{esc(self.source)}</b>")
                 if self.full is not None else "")
        self.status.value = (f"<div class='nid-error'>⚠ {esc(message)}"
                             f"</div>{shown}")
        return False

    def load_game(self, game: Game, source: str | None = None, review: Any = None,
                  step: int | None = None) -> bool:
        """Replay ``game`` (its whole history), with a review's annotations when given, at
        decision ``step`` (default: the end)."""
        if source is None:
            source = _("game")
        self.review = review
        self.full = game
        self.source = source
        n = len(game.history)
        values = {"source": f"<b>{esc(source)}</b>", "players": game.config.players,
                  "names": esc(", ".join(game.names))}
        # Translators: Replay's status line, "game.json: 3 players (Ada, Bo, Cy), 48
        # decisions, game over." ({source} is in HTML bold).
        if game.is_over and review is not None:
            status = count(n, "{source}: {players} players ({names}), {n} decision, game over, "
                              "reviewed.",
                           "{source}: {players} players ({names}), {n} decisions, game over, "
                           "reviewed.", **values)
        elif game.is_over:
            status = count(n, "{source}: {players} players ({names}), {n} decision, game over.",
                           "{source}: {players} players ({names}), {n} decisions, game over.",
                           **values)
        elif review is not None:
            status = count(n, "{source}: {players} players ({names}), {n} decision, "
                              "unfinished, reviewed.",
                           "{source}: {players} players ({names}), {n} decisions, "
                           "unfinished, reviewed.", **values)
        else:
            status = count(n, "{source}: {players} players ({names}), {n} decision, "
                              "unfinished.",
                           "{source}: {players} players ({names}), {n} decisions, "
                           "unfinished.", **values)
        self.status.value = status
        self._set_enabled(True)
        if review is not None:
            self.review_view.show(game, review, game.learners or ())
        else:
            self.review_view.clear()
        target = n if step is None else max(0, min(n, step))
        with self.slider.hold_trait_notifications():
            self.slider.max = n
            self.slider.min = 0
        if self.slider.value != target:
            self.slider.value = target  # the observer shows it
        else:
            self.show(target)
        self.console.info(count(n, "Replaying {source}: {n} decision",
                                "Replaying {source}: {n} decisions", source=source))
        return True

    def load_text(self, text: str | bytes, source: str = "record") -> bool:
        try:
            record = json.loads(text)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            return self._failed(_("cannot replay {source}: not JSON ({error})").format(
                source=source, error=exc))
        return self.load_record(record, source)

    def load_path(self, path: str | Path) -> bool:
        text = str(path).strip()
        if not text:
            return self._failed(_("type the path of a record file first, e.g. {path}").format(
                path=EXAMPLE_RECORD))
        p = Path(text).expanduser()
        if not p.is_absolute() and not p.exists():
            root = Path(__file__).resolve().parent.parent
            if (root / p).exists():
                p = root / p
        try:
            content = p.read_text(encoding="utf-8")
        except (OSError, ValueError) as exc:
            return self._failed(_("cannot read {path}: {error}").format(
                path=text, error=getattr(exc, "strerror", None) or exc))
        return self.load_text(content, p.name)

    def load_walkthrough(self) -> bool:
        from nidavellir.lessons import builtin

        return self.load_record(builtin("base").record(), _("the walkthrough's game"))

    def _uploaded(self, change: Mapping[str, Any]) -> None:
        files = change["new"]
        if not files:
            return
        item = files[0]
        content = item["content"]
        self.load_text(bytes(content), item.get("name", "upload"))
        # Forget the upload: the same file can be chosen again, and nothing big stays synced.
        self.upload.value = ()

    # ------------------------------------------------------------------ stepping

    def step(self, delta: int) -> None:
        if self.full is None:
            return
        self.slider.value = max(0, min(self.slider.max, self.slider.value + delta))

    def game_at(self, index: int) -> Game:
        """A copy of the loaded game after ``index`` decisions."""
        assert self.full is not None
        g = self.full.clone()
        g.undo_to(index)
        return g

    def go_to(self, step: int) -> None:
        """Show the position before decision ``step`` (0-based): "Decision step + 1"."""
        if self.full is not None:
            self.slider.value = max(0, min(self.slider.max, step))

    def position_text(self, index: int) -> str:
        """The slider's position in words: the decision about to be taken ("Decision 85 of
        110", numbered as the review and `nidavellir hint --at` number them), or the end."""
        n = len(self.full.history) if self.full is not None else 0
        if self.full is not None and index >= n:
            # Translators: Replay's position at the end of a record.
            return _("the end, after decision {n}").format(n=n) if n else ""
        # Translators: Replay's position: the decision about to be taken, of the record's.
        return _("Decision {number} of {n}").format(number=index + 1, n=n)

    def show(self, index: int) -> None:
        if self.full is None:
            return
        game = self.game_at(index)
        self.view.show(game)
        full = self.full
        viewer = None if full.is_over else SPECTATOR
        self.position.value = f"<b class='nid-replay-position-text'>{esc(self.position_text(index))}</b>"
        lines = []
        d = game.decision
        if d is not None:
            # The position is the decision about to be taken, numbered as the review numbers
            # it; the review's note on it (the move played, what it gave up, the better
            # move: What if… branches here to try it).
            # Translators: Replay's heading, "Decision 85: Ada — Choose a card ...".
            lines.append("<b>" + _("Decision {number}: {name} — {prompt}").format(
                number=index + 1, name=esc(game.names[d.player]), prompt=esc(d.prompt))
                + "</b>")
            note = self.annotation(index, played=True)
            if note:
                lines.append(f"<div class='nid-replay-review'>{note}</div>")
        else:
            lines.append("<b>" + esc(_("game over")) + "</b>")
        if index > 0:
            player, _action = full.history[index - 1]
            said = full.history_words(viewer, start=index - 1)[:1]
            # Translators: Replay's line about the decision just taken, "Decision 84: Bo:
            # Take the warrior 7" (the move in words).
            lines.append("<div class='nid-muted'>" + esc(_(
                "Decision {number}: {name}: {move}").format(
                number=index, name=full.names[player], move=said[0] if said else ""))
                + "</div>")
            before = self.game_at(index - 1)
            for e in game.events[len(before.events):]:
                lines.append(f"<div class='nid-replay-event'>"
                             f"{esc(e.describe(game.names))}</div>")
        else:
            lines.append("<div class='nid-muted'>" + esc(_("Before the first decision"))
                         + "</div>")
        self.info.value = "<div class='nid-replay-info'>" + "".join(lines) + "</div>"
        boards = []
        n = game.config.players
        sheet = game.scores()
        for seat in range(n):
            # A finished game hides nothing. An unfinished record holds face-down bids and
            # purses never revealed: each board as the other players see it, no score.
            viewer = seat if full.is_over else (seat + 1) % n
            obs = game.observation(viewer)
            boards.append(render.board_html(obs["players"][seat], to_move=d is not None
                                            and d.player == seat,
                                            score=sheet.totals[seat]
                                            if full.is_over else None,
                                            points=render.sheet_points(sheet[seat].breakdown)))
        self.board.value = (render.table_html(game.observation(0)) + "".join(boards))

    def annotation(self, step: int, played: bool = False) -> str:
        """The review's judgement of decision ``step`` (0-based; empty when it was not
        reviewed); ``played``: say the move played too. Moves in words, the move played
        as it was chosen."""
        review = self.review
        if review is None or self.full is None:
            return ""
        found = review[review["step"] == step]
        if not len(found):
            return ""
        r = found.iloc[0]
        from nidavellir.analysis.review import (
            LABEL_TEXT,
            SYMBOLS,
            cost_text,
            move_words,
            reason_text,
        )

        label = str(r["label"])
        symbol = SYMBOLS.get(label, "")
        said, better = move_words(self.full, {step: (str(r["played"]), str(r["best"]))})[step]
        text = (" <span class='nid-annotation'>"
                + (_("(played: {move})").format(move=esc(said)) + " " if played else "")
                + f"{esc(symbol)} {esc(_(LABEL_TEXT[label]) if label in LABEL_TEXT else label)}")
        if label not in ("best", "forced"):
            # Translators: a reviewed move's cost and the better move (in words).
            text += _(": {cost}; better: {move}").format(cost=esc(cost_text(r)),
                                                        move=esc(better))
            reason = reason_text(r.to_dict(), said, better)  # in the page's language
            if reason:
                text += f"<br><span class='nid-annotation-why'>{esc(reason)}</span>"
        return text + "</span>"

    def branch_at(self, step: int) -> Game | None:
        """The slider at the position before decision ``step`` (0-based), branched there."""
        self.go_to(step)
        return self.branch()

    def branch(self) -> Game | None:
        """A copy of the game at the slider's position, handed to ``on_branch``."""
        if self.full is None:
            self.console.error(_("load a record first"))
            return None
        index = self.slider.value
        from nidavellir.analysis.whatif import branch

        game = branch(self.full, index, [])
        if game.is_over:
            self.console.error(_("the game is over at this decision: move the slider back to "
                                 "branch"))
            return None
        if self.on_branch is not None:
            self.on_branch(game, self.full, index)
        self.console.info(_("Branched {source} at decision {number}").format(
            source=self.source, number=index + 1))
        return game


__all__ = ["ReplayPanel", "ReplayView"]
