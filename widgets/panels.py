"""The play panels: thin views over a :class:`~widgets.session.Session`.

Each panel observes ``session.version`` and re-renders from
``game.observation(session.viewer)``; the only way they change the game is through
``session.submit`` / ``undo`` / ``undo_to`` / ``new_game``.
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as W

from nidavellir.cards import TAVERNS

from . import render
from .controls import Context, Control, build_control
from .session import HUMAN, LEVEL_OF, SEAT_MENU, Session

esc = html.escape
MAX_PLAYERS = 5


class _View(W.VBox):
    """A panel bound to a session: ``refresh()`` on every version bump."""

    def __init__(self, session: Session, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.session = session
        session.observe(lambda _c: self.refresh(), "version")

    def refresh(self) -> None:
        raise NotImplementedError


def status_text(session: Session) -> str:
    """One line: age, round, tavern, and who must decide what."""
    game = session.game
    s = game.state
    where = f"Age {s.age}, round {s.round}"
    if s.tavern is not None:
        where += f", {TAVERNS[s.tavern]}"
    d = game.decision
    if d is None:
        sheet = game.scores()
        return f"Game over. Winner(s): {', '.join(sheet.winners)} with {max(sheet.totals)} points."
    who = game.names[d.player]
    kind = "you" if session.is_human(d.player) else f"{session.seats[d.player]} bot"
    return f"{where} — {who} ({kind}): {d.prompt}"


# ====================================================================== new game

class NewGamePanel(W.VBox):
    """Players (2-5), names, human or bot per seat, expansions, first-game variant,
    seed, bot pause; Start."""

    def __init__(self, session: Session, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.session = session
        game = session.game
        n = game.config.players
        self.players = W.Dropdown(options=[2, 3, 4, 5], value=n, description="Players")
        self.names = [W.Text(value=game.names[i] if i < n else f"Player {i + 1}",
                             description=f"Seat {i + 1}", layout=W.Layout(width="240px"))
                      for i in range(MAX_PLAYERS)]
        self.seat_kinds = [W.Dropdown(options=list(SEAT_MENU),
                                      value=(LEVEL_OF.get(session.seats[i], session.seats[i])
                                             if i < n else "easy"),
                                      layout=W.Layout(width="200px"))
                           for i in range(MAX_PLAYERS)]
        for i, (text, kind) in enumerate(zip(self.names, self.seat_kinds, strict=True)):
            text.add_class(f"nid-seat-name-{i}")
            kind.add_class(f"nid-seat-kind-{i}")
        self.rows = [W.HBox([t, k]) for t, k in zip(self.names, self.seat_kinds, strict=True)]
        self.thingvellir = W.Checkbox(value=game.config.thingvellir,
                                      description="Thingvellir expansion")
        self.first_game = W.Checkbox(value=game.config.options.first_game,
                                     description="First game (no Thrud, Ylud, Uline; R25)",
                                     layout=W.Layout(width="360px"))
        self.seed = W.IntText(value=game.seed, description="Seed")
        self.bot_delay = W.FloatText(value=session.bot_delay, description="Bot pause (s)",
                                     step=0.1, style={"description_width": "initial"})
        self.players.add_class("nid-new-players")
        self.bot_delay.add_class("nid-new-bot-delay")
        self.start = W.Button(description="Start", button_style="success", icon="play")
        self.start.add_class("nid-new-start")
        self.start.on_click(lambda _b: self.start_game())
        self.players.observe(lambda _c: self._show_rows(), "value")
        self._show_rows()
        self.children = [self.players, *self.rows, self.thingvellir, self.first_game,
                         W.HBox([self.seed, self.bot_delay]), self.start]

    def _show_rows(self) -> None:
        for i, row in enumerate(self.rows):
            row.layout.display = "" if i < self.players.value else "none"

    def config(self) -> dict[str, Any]:
        n = self.players.value
        names = [t.value.strip() or f"Player {i + 1}" for i, t in enumerate(self.names[:n])]
        return {
            "players": n, "names": names, "seats": [k.value for k in self.seat_kinds[:n]],
            "expansions": ["thingvellir"] if self.thingvellir.value else [],
            "first_game": bool(self.first_game.value), "seed": int(self.seed.value),
            "bot_delay": max(0.0, float(self.bot_delay.value)),
        }

    def start_game(self) -> bool:
        return self.session.new_game(self.config())


# ====================================================================== table and boards

class TableView(_View):
    """Taverns (and camp), decks, treasury, hero hall, distinctions."""

    def __init__(self, session: Session, **kwargs: Any) -> None:
        super().__init__(session, **kwargs)
        self.status = W.HTML()
        self.html = W.HTML()
        self.children = [self.status, self.html]
        self.refresh()

    def refresh(self) -> None:
        obs = self.session.observation()
        self.status.value = f"<div style='font:bold 14px sans-serif'>{esc(status_text(self.session))}</div>"
        self.html.value = render.table_html(obs)


class PlayerBoards(_View):
    """Every player's army columns, ranks, bravery points, lines, command zone, gem and
    coins as the viewer may see them (others' bids stay '?' until revealed)."""

    def __init__(self, session: Session, **kwargs: Any) -> None:
        super().__init__(session, **kwargs)
        self.boards: list[W.HTML] = []
        self.refresh()

    def refresh(self) -> None:
        session = self.session
        game = session.game
        obs = session.observation()
        players = obs["players"]
        if len(self.boards) != len(players):
            self.boards = [W.HTML() for _ in players]
            self.children = self.boards
        d = game.decision
        totals = game.scores().totals
        for i, p in enumerate(players):
            # Only the viewer's own score: the others' coins are hidden until the end.
            score = totals[i] if (i == session.viewer or game.is_over) else None
            self.boards[i].value = render.board_html(
                p, to_move=d is not None and d.player == i, viewer=i == session.viewer,
                score=score)


# ====================================================================== decisions

class DecisionPanel(_View):
    """The current decision: its prompt, the control for its kind, and a notation box
    that accepts any action in text (``take W7``)."""

    def __init__(self, session: Session, **kwargs: Any) -> None:
        super().__init__(session, **kwargs)
        self.prompt = W.HTML()
        self.control: Control | None = None
        self.control_box = W.VBox()
        self.notation = W.Text(placeholder="or type an action, e.g. take W7",
                               layout=W.Layout(width="280px"))
        self.apply = W.Button(description="Apply", tooltip="apply the action typed on the left")
        self.apply.on_click(lambda _b: self.submit_text())
        self.text_row = W.HBox([self.notation, self.apply])
        self.children = [self.prompt, self.control_box, self.text_row]
        self.refresh()

    @property
    def kind(self) -> str | None:
        d = self.session.game.decision
        return None if d is None else d.kind

    def submit_text(self) -> bool:
        text = self.notation.value.strip()
        if not text:
            self.session.console.error("type an action first, e.g. take W7")
            return False
        ok = self.session.submit(text)
        if ok:
            self.notation.value = ""
        return ok

    def refresh(self) -> None:
        session = self.session
        game = session.game
        d = game.decision
        old = self.control
        self.control = None
        self.text_row.layout.display = "none"
        if d is None:
            self.prompt.value = "<b>The game is over.</b>"
            self.control_box.children = []
        elif not session.is_human(d.player):
            self.prompt.value = (f"<i>Waiting for {esc(game.names[d.player])} "
                                 f"({esc(session.seats[d.player])} bot)…</i>")
            self.control_box.children = []
        else:
            obs = game.observation(d.player)
            ctx = Context(kind=d.kind, player=d.player, actions=game.legal_actions(), obs=obs,
                          submit=session.submit, report=session.console.error, game=game,
                          prompt=d.prompt)
            self.control = build_control(ctx)
            self.prompt.value = (f"<div style='font:bold 14px sans-serif'>{esc(game.names[d.player])}"
                                 f": {esc(d.prompt)}</div>"
                                 f"<div style='font:11px sans-serif;color:#666'>decision "
                                 f"<code>{esc(d.kind)}</code>, {len(ctx.actions)} legal "
                                 f"action(s)</div>")
            self.control_box.children = [self.control.widget]
            self.text_row.layout.display = ""
        if old is not None:
            old.close()


# ====================================================================== log and undo

class LogPanel(_View):
    """The log in notation with plain-language lines; undo one human decision, or
    back to any earlier decision."""

    def __init__(self, session: Session, last: int = 300, **kwargs: Any) -> None:
        super().__init__(session, **kwargs)
        self.last = last
        self.log_html = W.HTML()
        self.undo_button = W.Button(description="Undo", icon="undo",
                                    tooltip="back to your previous decision")
        self.undo_button.on_click(lambda _b: self.session.undo())
        self.history = W.Dropdown(description="Back to", options=[],
                                  layout=W.Layout(width="420px"))
        self.undo_to_button = W.Button(description="Undo to here",
                                       tooltip="back to the state before this decision")
        self.undo_to_button.on_click(lambda _b: self.undo_to_selected())
        self.children = [W.HBox([self.undo_button, self.history, self.undo_to_button]), self.log_html]
        self.refresh()

    def undo_to_selected(self) -> bool:
        index = self.history.value
        if index is None:
            self.session.console.error("choose a decision to go back to")
            return False
        return self.session.undo_to(int(index))

    def refresh(self) -> None:
        session = self.session
        game = session.game
        options = [(f"[{i}] {game.names[p]}"
                    f"{'' if session.is_human(p) else ' (bot)'}: {a}", i)
                   for i, (p, a) in enumerate(game.history)]
        humans = [i for i, (p, _) in enumerate(game.history) if session.is_human(p)]
        self.history.options = options
        self.history.value = humans[-1] if humans else (options[-1][1] if options else None)
        self.undo_button.disabled = not humans
        self.undo_to_button.disabled = not options
        self.log_html.value = render.log_html(game.log(), self.last)


class ResultPanel(_View):
    """The final score sheet (and the winner) once the game is over."""

    def __init__(self, session: Session, **kwargs: Any) -> None:
        super().__init__(session, **kwargs)
        self.html = W.HTML()
        self.sheet = None
        self.children = [self.html]
        self.refresh()

    def refresh(self) -> None:
        game = self.session.game
        if not game.is_over:
            self.sheet = None
            self.html.value = ""
            return
        self.sheet = game.scores()
        winners = ", ".join(self.sheet.winners)
        self.html.value = (f"<div style='font:bold 15px sans-serif'>Final scores — winner(s): "
                           f"{esc(winners)}</div>" + self.sheet._repr_html_())


__all__ = ["NewGamePanel", "TableView", "PlayerBoards", "DecisionPanel", "LogPanel",
           "ResultPanel", "status_text", "HUMAN"]
