"""A game's review, whole: the headline of each reviewed player, the win-chance graph and
every move that was not the coach's, grouped by what it gave up, each with its cost, its
reason and two buttons (the position before it in Replay; a branch to try the better move).

The Play tab's coach shows it after "Review this game", and Replay shows the same when a
reviewed game is opened (the review is a part of the record: docs/notation.md). Moves are
said in words as their decision says them to the player, the move played as it was
clicked (an equivalent move as the player chose it, never the one that stands for it);
decisions are numbered from 1 everywhere (decision N is the N-th of the record).
"""

from __future__ import annotations

import html
from collections.abc import Callable, Collection
from typing import Any

import ipywidgets as W

from nidavellir import Game
from nidavellir.i18n import N_, _, count

esc = html.escape

#: The groups of the list, from the costliest (label, its heading).
GROUPS = (("blunder", N_("Blunders")), ("mistake", N_("Mistakes")),
          ("inaccuracy", N_("Inaccuracies")),
          ("good", N_("A little worse")),
          ("about", N_("About as good as the coach's move (within the noise)")))


class ReviewView(W.VBox):
    """The review of a game (:meth:`show`); ``on_replay(step)`` and ``on_branch(step)`` open
    the position before decision ``step`` (0-based) in Replay and as a branch."""

    def __init__(self, on_replay: Callable[[int], Any] | None = None,
                 on_branch: Callable[[int], Any] | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.add_class("nid-review-view")
        self.on_replay = on_replay
        self.on_branch = on_branch
        self.headline = W.HTML()
        self.headline.add_class("nid-review-status")
        self.graph = W.Output()
        self.graph.add_class("nid-review-graph")
        self.moves = W.VBox()
        self.moves.add_class("nid-review-moves-list")
        self.replay_buttons: list[W.Button] = []
        self.branch_buttons: list[W.Button] = []
        self.children: tuple[W.Widget, ...] = ()

    def clear(self) -> None:
        self.headline.value = ""
        self.graph.outputs = ()
        self.moves.children = []
        self.children = ()

    def show(self, game: Game, frame: Any, seats: Collection[int] = ()) -> None:
        """The review ``frame`` of ``game`` (:func:`nidavellir.analysis.review.review`),
        for the players of ``seats`` (all when empty)."""
        from nidavellir.analysis.review import (
            SYMBOLS,
            cost_text,
            headline,
            move_words,
            reason_text,
            summary,
            win_chance_figure,
        )

        from .charts import show_figure

        seats = set(seats)
        summ = summary(frame)
        lines = [esc(headline(r)) for r in summ.itertuples() if r.player in seats or not seats]
        self.headline.value = "<b>" + esc(_("Review")) + "</b><br>" + "<br>".join(lines)
        show_figure(self.graph, win_chance_figure(frame))
        shown = frame[~frame["label"].isin(["best", "forced"])]
        if seats:
            shown = shown[shown["player"].isin(list(seats))]
        words = move_words(game, {int(r.step): (str(r.played), str(r.best))
                                  for r in shown.itertuples()})
        self.replay_buttons, self.branch_buttons = [], []
        sections: list[W.Widget] = []
        for label, title in GROUPS:
            rows: list[W.Widget] = []
            for r in shown[shown["label"] == label].itertuples():
                step = int(r.step)
                played, best = words.get(step, [str(r.played), str(r.best)])
                # Translators: a reviewed move, "Decision 7: 15% chance to win given up".
                head = _("Decision {number}: {cost}").format(number=r.number,
                                                            cost=cost_text(r))
                replay = W.Button(description=_("Decision {number} in Replay").format(
                                      number=r.number), icon="play",
                                  layout=W.Layout(width="auto"),
                                  tooltip=_("open Replay just before this decision"))
                replay.add_class("nid-mistake")
                replay.number = int(r.number)  # type: ignore[attr-defined]
                replay.on_click(lambda _b, s=step: self._replay(s))
                branch = W.Button(description=_("Try the better move"), icon="code-fork",
                                  layout=W.Layout(width="auto"),
                                  tooltip=_("play on from just before this decision "
                                            "(What-if)"))
                branch.add_class("nid-mistake-branch")
                branch.number = int(r.number)  # type: ignore[attr-defined]
                branch.on_click(lambda _b, s=step: self._branch(s))
                self.replay_buttons.append(replay)
                self.branch_buttons.append(branch)
                why = reason_text(r, played, best)  # in the page's language
                symbol = SYMBOLS.get(r.label, "")
                # The move played, as it was clicked, and the coach's, in words.
                # Translators: in the review's list, the move played ("you: Take the
                # warrior 7 ??") and the coach's.
                moves = ("<div class='nid-review-moves'>"
                         + esc(_("played: {move}").format(move=played))
                         + (f" <b>{esc(symbol)}</b>" if symbol else "") + "<br>"
                         + esc(_("the coach: {move}").format(move=best)) + "</div>")
                text = W.HTML("<div class='nid-mistake-text'>"
                              f"<b>{esc(head)}</b>{moves}"
                              + (f"<div class='nid-review-why'>{esc(why)}</div>" if why
                                 else "") + "</div>")
                rows.append(W.VBox([text, W.HBox([replay, branch],
                                                 layout=W.Layout(flex_flow="row wrap"))]))
            if rows:
                moves_count = count(len(rows), "({n} move)", "({n} moves)")
                heading = W.HTML(f"<div class='nid-review-group'><b>{esc(_(title))}</b> "
                                 f"{moves_count}</div>")
                sections.append(W.VBox([heading, *rows]))
        if not sections:
            sections = [W.HTML("<i>" + _("Every move was the coach's own: well played.")
                               + "</i>")]
        self.moves.children = sections
        self.children = (self.headline, self.graph, self.moves)

    def _replay(self, step: int) -> None:
        if self.on_replay is not None:
            self.on_replay(step)

    def _branch(self, step: int) -> None:
        if self.on_branch is not None:
            self.on_branch(step)


__all__ = ["GROUPS", "ReviewView"]
