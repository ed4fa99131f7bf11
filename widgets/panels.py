"""The play panels: thin views over a :class:`~widgets.session.Session`.

Each panel observes ``session.version`` and re-renders from
``game.observation(session.viewer)``; the only way they change the game is through
``session.submit`` / ``undo`` / ``undo_to`` / ``new_game``.
"""

from __future__ import annotations

import html
from typing import Any, cast

import ipywidgets as W

from nidavellir import Game, ScoreSheet
from nidavellir import cards as C
from nidavellir import events as ev
from nidavellir.bots.judge import judges
from nidavellir.card_text import ability
from nidavellir.i18n import N_, _, count, join, labelled
from nidavellir.names import card_name, tavern_name
from nidavellir.observer import Observer
from nidavellir.play.session import default_name, level_name, seat_label

from . import render
from .controls import Context, Control, build_control
from .session import HUMAN, LEVEL_HELP, LEVEL_OF, SEAT_MENU, Session
from .style import button

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
    where = _("Age {age}, round {round}").format(age=s.age, round=s.round)
    if s.tavern is not None:
        where += f", {tavern_name(s.tavern)}"
    d = game.decision
    if session.summary_age:
        # The summary first: the line does not run ahead to the next age (or the result)
        # while the summary of the age that ended waits to be read.
        if d is None:
            # Translators: the status line when the last age ended and its summary waits.
            return _("End of age {age} and of the game: read the summary, then "
                     "continue.").format(age=session.summary_age)
        # Translators: the status line when an age ended and its summary waits.
        return _("End of age {age}: read the summary, then continue.").format(
            age=session.summary_age)
    if d is None:
        sheet = game.scores()
        return count(len(sheet.winners), "Game over. The winner: {names}, with {points} points.",
                     "Game over. The winners: {names}, with {points} points each.",
                     names=join(sheet.winners), points=max(sheet.totals))
    who = game.names[d.player]
    # Translators: who decides: a person at this screen, or a bot of a level (shown as is).
    kind = _("you") if session.is_human(d.player) else _("{level} bot").format(
        level=session.seats[d.player])
    # Translators: the status line: where the game is, who decides, what ({prompt}).
    return _("{where} — {who} ({kind}): {prompt}").format(where=where, who=who, kind=kind,
                                                          prompt=d.prompt)


# ====================================================================== end of age

#: Events that frame an age's end rather than happen in it.
_FRAME_EVENTS = (ev.AgeEnded, ev.GameEnded, ev.RoundStarted)


def _age_window(game: Game, age: int) -> list[ev.Event]:
    """The events from the end of ``age`` (its AgeEnded) to the start of the next age."""
    out: list[ev.Event] = []
    inside = False
    for e in game.events:
        if isinstance(e, ev.AgeEnded) and e.age == age:
            inside = True
            continue
        if inside and isinstance(e, ev.RoundStarted | ev.GameEnded):
            break
        if inside:
            out.append(e)
    return out


def _ranks_text(names: list[str], ranks: tuple[int, ...]) -> str:
    order = sorted(range(len(ranks)), key=lambda i: -ranks[i])
    return ", ".join(f"{names[i]} {ranks[i]}" for i in order)


def _event_line(e: ev.Event, names: list[str]) -> str:
    text = e.describe(names)
    if isinstance(e, ev.CardPlaced) and e.card is C.YLUD:
        text += " " + _("(Ylud is placed at the end of the age, R14)")
    elif isinstance(e, ev.CardPlaced) and e.card.kind is C.Kind.MERCENARY:
        text += " " + _("(enlistment, FR Thingvellir p.24)")
    return f"<li>{esc(text)}</li>"


#: "warrior ranks:" ... for the end-of-age summary, one whole phrase per class.
CLASS_RANKS = {C.Suit.WARRIOR: N_("warrior ranks:"), C.Suit.HUNTER: N_("hunter ranks:"),
               C.Suit.MINER: N_("miner ranks:"), C.Suit.BLACKSMITH: N_("blacksmith ranks:"),
               C.Suit.EXPLORER: N_("explorer ranks:")}


def _award_line(e: ev.DistinctionAwarded, names: list[str]) -> str:
    suit = e.distinction.suit  # Suit.WARRIOR is 0: compare with None
    # Translators: the ranks each player had when a distinction was awarded ("Warrior
    # ranks: Ada 4, Bo 2").
    cls = _(CLASS_RANKS[suit]) if suit is not None else _("ranks:")
    ranks = f" ({cls} {_ranks_text(names, e.ranks)})" if e.ranks else ""
    title = esc(card_name(e.distinction))
    if e.player is None:
        best = max(e.ranks) if e.ranks else 0
        tied = [names[i] for i, r in enumerate(e.ranks) if r == best]
        others = [n for n in tied if not ev.is_you(n)]
        if not (len(tied) < len(names) or best):
            why = _("everyone has {ranks}").format(ranks=best)
        elif others and len(others) < len(tied):
            # Translators: a tie for a distinction that includes the learner's own seat
            # (named You): "You and Bo tie with 2".
            why = _("You and {others} tie with {ranks}").format(others=join(others),
                                                                 ranks=best)
        else:
            why = _("{players} tie with {ranks}").format(players=join(tied), ranks=best)
        # Translators: a distinction nobody wins at the end of age 1.
        text = _("nobody wins it — {why}; it needs a strict majority and gems do not break "
                 "the tie (R23)").format(why=why)
        return labelled(f"<b>{title}</b>", esc(text) + esc(ranks))
    return labelled(f"<b>{title}</b>", f"{esc(names[e.player])}{esc(ranks)} — "
                    f"{esc(ability(e.distinction))}")


def age_summary_html(game: Game, age: int) -> str:
    """What happened at the end of ``age``, in the order it happened, every event the
    engine recorded there: enlistment and Ylud (and what they brought: a hero, Dagda's
    discards), then the distinctions (who won each with the ranks, a tie explained, and
    what each brought), then the rest (Thrud, Brisingamens, the camp cleared). While the
    distinctions are still being awarded (a player decides in between: the King's Hand's
    coin, the Pioneer's card), it says so. Only public events: the end of an age comes
    after every bid was revealed."""
    names = list(game.names)
    events = [e for e in _age_window(game, age) if not isinstance(e, _FRAME_EVENTS)]
    before: list[str] = []
    awards: list[tuple[ev.DistinctionAwarded, list[str]]] = []
    for e in events:
        if isinstance(e, ev.DistinctionAwarded):
            awards.append((e, []))
        elif awards:
            awards[-1][1].append(_event_line(e, names))  # what the distinction brought
        else:
            before.append(_event_line(e, names))
    rows: list[str] = []
    if before:
        title = _("Before the distinctions") if age == 1 else _("Before the final count")
        rows.append(f"<li><b>{esc(title)}</b> (R14)<ul>{''.join(before)}</ul></li>")
    if awards:
        items = "".join(f"<li>{_award_line(e, names)}"
                        + (f"<ul>{''.join(after)}</ul>" if after else "") + "</li>"
                        for e, after in awards)
        rows.append("<li><b>" + esc(_("Distinctions")) + "</b> "
                    + esc(_("(FR p.12, troop evaluation: the strict majority of a class's "
                            "ranks)")) + f"<ul class='nid-summary-awards'>{items}</ul></li>")
    if not rows:
        rows.append("<li>" + esc(_("No card moved and no coin changed at the end of the age."))
                    + "</li>")
    pending = age == 1 and game.state.age == 1 and game.decision is not None
    if pending and len(awards) < len(C.DISTINCTIONS):
        head = _("End of age 1: the distinctions so far")
        nxt = count(len(C.DISTINCTIONS) - len(awards),
                    "{n} more distinction follows once this choice is made; then age 2 begins.",
                    "{n} more distinctions follow once this choice is made; then age 2 begins.")
    elif pending:
        head = _("End of age 1")
        nxt = _("Once this choice is made, age 2 begins with the age 2 deck and a new bid.")
    elif age == 1:
        head = _("End of age 1")
        nxt = _("Age 2 begins with the age 2 deck: the same rules, a new bid.")
    else:
        head = _("End of age 2 and of the game") if game.is_over else _("End of age 2")
        nxt = _("The final score sheet follows.")
    return (f"<div class='nid-age-summary'><div class='nid-summary-head'>{esc(head)}</div>"
            f"<ul>{''.join(rows)}</ul><div class='nid-summary-next'>{esc(nxt)}</div></div>")


# ====================================================================== new game

def levels_html() -> str:
    """What each seat of the menu means, one line each."""
    rows = "".join(f"<li><b>{esc(level_name(k))}</b>: {esc(_(text))}</li>"
                   for k, text in LEVEL_HELP.items())
    return f"<ul class='nid-levels'>{rows}</ul>"


def opponents_text(session: Session) -> str:
    """Who plays against whom, in words: 'You are Ada. You play against Bo (hard: ...)'."""
    game = session.game
    names, seats = game.names, session.seats

    def who(i: int) -> str:
        return seat_label(names[i], LEVEL_OF.get(seats[i], seats[i]))

    humans = [i for i, k in enumerate(seats) if k == HUMAN]
    bots = [i for i, k in enumerate(seats) if k != HUMAN]
    rules = "Thingvellir" if game.config.thingvellir else _("base game")
    if game.config.options.first_game:
        rules = _("{rules}, first-game heroes").format(rules=rules)
    # Translators: the end of the line that says who plays: the table and the deal's seed.
    tail = " " + _("{players} players, {rules}, deal {seed}.").format(
        players=game.config.players, rules=rules, seed=game.seed)
    if not humans:
        return _("Bots only: {bots}.").format(bots=", ".join(who(i) for i in bots)) + tail
    you = join([names[i] for i in humans])
    if not bots:
        return _("{you}: humans only, passing the screen.").format(you=you) + tail
    them = join([who(i) for i in bots])
    if len(humans) == 1 and ev.is_you(names[humans[0]]):
        # Translators: who plays, when the learner's seat is named You ("You are You"
        # would say nothing).
        return _("You play against {them}.").format(them=them) + tail
    return _("You are {you}. You play against {them}.").format(you=you, them=them) + tail


class SetupCard(W.VBox):
    """The top of the Play tab: who plays against whom, what the levels mean, and a new
    game (players, levels, rules) one click away."""

    def __init__(self, session: Session, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.add_class("nid-setup")
        self.session = session
        self.summary = W.HTML()
        self.summary.add_class("nid-setup-summary")
        self.levels = W.HTML()
        self.levels.add_class("nid-setup-levels")
        self.toggle = W.Button(description=_("New game…"), icon="cog",
                               tooltip=_("choose the players, their levels and the rules, "
                                         "then start"), layout=W.Layout(width="auto"))
        self.toggle.add_class("nid-setup-toggle")
        self.form = NewGamePanel(session, layout=W.Layout(display="none", padding="4px 0"))
        self.toggle.on_click(lambda _b: self.show_form(self.form.layout.display == "none"))
        self._game = session.game
        self.children = [W.HBox([self.summary, self.toggle], layout=W.Layout(
            align_items="center", justify_content="space-between", width="100%")),
            self.levels, self.form]
        session.observe(lambda _c: self.refresh(), "version")
        self.refresh()

    def show_form(self, shown: bool) -> None:
        self.form.layout.display = "" if shown else "none"
        self.toggle.description = _("Hide") if shown else _("New game…")
        self.toggle.icon = "times" if shown else "cog"
        self.levels.layout.display = "none" if shown else ""

    def refresh(self) -> None:
        if self.session.game is not self._game:  # a new game started: the form folds
            self._game = self.session.game
            self.show_form(False)
        self.summary.value = f"<div>{esc(opponents_text(self.session))}</div>"
        seats = self.session.seats
        shown = []
        for kind in dict.fromkeys(LEVEL_OF.get(k, k) for k in seats if k != HUMAN):
            if kind in LEVEL_HELP:
                shown.append(f"<b>{esc(level_name(kind))}</b>: {esc(_(LEVEL_HELP[kind]))}")
        self.levels.value = ("<div>" + "<br>".join(shown) + "</div>") if shown else ""


class NewGamePanel(W.VBox):
    """Players (2-5), names, human or bot per seat, expansions, first-game variant,
    seed, bot pause; Start."""

    def __init__(self, session: Session, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.session = session
        game = session.game
        n = game.config.players
        self.players = W.Dropdown(options=list(C.PLAYER_COUNTS), value=n, description=_("Players"))
        self.names = [W.Text(value=game.names[i] if i < n else default_name(i),
                             description=_("Seat {n}").format(n=i + 1),
                             layout=W.Layout(width="240px"))
                      for i in range(MAX_PLAYERS)]
        self.seat_kinds = [W.Dropdown(options=[(_(label), kind) for label, kind in SEAT_MENU],
                                      value=(LEVEL_OF.get(session.seats[i], session.seats[i])
                                             if i < n else "easy"),
                                      layout=W.Layout(width="260px"))
                           for i in range(MAX_PLAYERS)]
        for i, (text, kind) in enumerate(zip(self.names, self.seat_kinds, strict=True)):
            text.add_class(f"nid-seat-name-{i}")
            kind.add_class(f"nid-seat-kind-{i}")
        self.rows = [W.HBox([t, k]) for t, k in zip(self.names, self.seat_kinds, strict=True)]
        self.thingvellir = W.Checkbox(value=game.config.thingvellir,
                                      description=_("Thingvellir expansion"), indent=False,
                                      layout=W.Layout(width="auto", margin="2px 0 2px 90px"))
        self.first_game = W.Checkbox(value=game.config.options.first_game,
                                     description=_("First game: no Thrud, Ylud or Uline (R25)"),
                                     indent=False,
                                     layout=W.Layout(width="auto", margin="2px 0 2px 90px"))
        # A described widget without a tooltip shows "null" over its label (ipywidgets 8).
        self.seed = W.IntText(value=game.seed, description=_("Seed"),
                              tooltip=_("the same seed deals the same cards"))
        self.bot_delay = W.FloatText(value=session.bot_delay, description=_("Bot pause (s)"),
                                     step=0.1,
                                     tooltip=_("seconds between the bots' moves, so that you "
                                               "can follow them"))
        self.players.add_class("nid-new-players")
        self.bot_delay.add_class("nid-new-bot-delay")
        self.bot_delay.add_class("nid-label-fit")
        self.start = button(_("Start"), "success", icon="play")
        self.start.add_class("nid-new-start")
        self.start.on_click(lambda _b: self.start_game())
        self.players.observe(lambda _c: self._show_rows(), "value")
        self._show_rows()
        self.legend = W.HTML(levels_html())
        self.legend.add_class("nid-level-legend")
        self.children = [self.players, *self.rows, self.legend, self.thingvellir,
                         self.first_game, W.HBox([self.seed, self.bot_delay]), self.start]

    def _show_rows(self) -> None:
        for i, row in enumerate(self.rows):
            row.layout.display = "" if i < self.players.value else "none"

    def config(self) -> dict[str, Any]:
        n = self.players.value
        names = [t.value.strip() or default_name(i) for i, t in enumerate(self.names[:n])]
        return {
            "players": n, "names": names, "seats": [k.value for k in self.seat_kinds[:n]],
            "expansions": ["thingvellir"] if self.thingvellir.value else [],
            "first_game": bool(self.first_game.value), "seed": int(self.seed.value),
            "bot_delay": max(0.0, float(self.bot_delay.value)),
        }

    def start_game(self) -> bool:
        return self.session.new_game(self.config())


# ====================================================================== table and boards

class StatusBar(_View):
    """One line where the game stands (age, round, tavern, who decides what), who is
    thinking and how far, and the last move made."""

    def __init__(self, session: Session, **kwargs: Any) -> None:
        super().__init__(session, **kwargs)
        self.add_class("nid-status")
        self.html = W.HTML()
        self.thinking = W.HTML()
        self.thinking.add_class("nid-thinking")
        self.last = W.HTML()
        self.last.add_class("nid-last-move")
        self.children = [self.html, W.HBox([self.thinking, self.last], layout=W.Layout(
            flex_flow="row wrap", align_items="center"))]
        session.observe(lambda _c: self._show_thinking(), "thinking")
        self.refresh()

    def _show_thinking(self) -> None:
        text = self.session.thinking
        self.thinking.value = (f"<span class='nid-thinking-text'><span class='nid-spinner'>"
                               f"</span>{esc(text)}</span>" if text else "")

    def refresh(self) -> None:
        session = self.session
        game = session.game
        self.html.value = f"<div class='nid-status-text'>{esc(status_text(session))}</div>"
        self._show_thinking()
        if game.history:
            player = game.history[-1][0]
            # In words, as the log says it (the notation is the files' and the commands').
            text = game.history_words(session.viewer, start=len(game.history) - 1)[0]
            # Translators: the line above the board: who moved last, and the move.
            self.last.value = ("<span class='nid-last-move-text'>" + esc(_(
                "Last move: {player}: {move}").format(player=game.names[player], move=text))
                + "</span>")
        else:
            self.last.value = ""


class TableView(_View):
    """Taverns (and camp), decks, treasury, hero hall, distinctions; with
    ``show_status``, the status line above them. With ``split``, ``html`` holds the
    taverns and the camp (what a player chooses from) and ``rest`` the hero hall, the
    distinctions, the treasury and the decks, for a layout that puts them apart."""

    def __init__(self, session: Session, show_status: bool = True, split: bool = False,
                 **kwargs: Any) -> None:
        super().__init__(session, **kwargs)
        self.status = W.HTML()
        self.html = W.HTML()
        self.rest = W.HTML()
        self.rest.add_class("nid-table-rest")
        self.show_status = show_status
        self.split = split
        self.children = ([self.status] if show_status else []) + [self.html]
        self.refresh()

    def refresh(self) -> None:
        obs = self.session.observation()
        self.status.value = (f"<div class='nid-status-text'>{esc(status_text(self.session))}"
                             "</div>")
        if self.split:
            self.html.value = render.table_html(obs, ("taverns", "camp"))
            self.rest.value = render.table_html(obs, ("hall", "distinctions", "treasury",
                                                      "decks"))
        else:
            self.html.value = render.table_html(obs)


class PlayerBoards(_View):
    """Every player's army columns, ranks, bravery points, lines, command zone, gem and
    coins as the viewer may see them (others' bids stay '?' until revealed).

    ``boards[i]`` is seat ``i``'s board. With ``split``, the panel shows nothing itself:
    ``own`` holds the viewer's board in full and ``others`` the others' boards in their
    compact form, for a layout that puts them in different places."""

    def __init__(self, session: Session, split: bool = False, **kwargs: Any) -> None:
        super().__init__(session, **kwargs)
        self.boards: list[W.HTML] = []
        self.split = split
        self.own = W.VBox()
        self.own.add_class("nid-own-board")
        self.others = W.VBox()
        self.others.add_class("nid-other-boards")
        self.refresh()

    def refresh(self) -> None:
        session = self.session
        game = session.game
        obs = session.observation()
        players = obs["players"]
        if len(self.boards) != len(players):
            self.boards = [W.HTML() for _ in players]
            if not self.split:
                self.children = self.boards
        d = game.decision
        sheet = game.scores()
        viewer = session.viewer
        for i, p in enumerate(players):
            # Only the viewer's own score: the others' coins are hidden until the end.
            score = sheet.totals[i] if (i == viewer or game.is_over) else None
            self.boards[i].value = render.board_html(
                p, to_move=d is not None and d.player == i, viewer=i == viewer,
                score=score, points=render.sheet_points(sheet[i].breakdown),
                compact=self.split and i != viewer)
        if self.split:
            own = (self.boards[viewer],)
            # The others in the order they play after the viewer.
            others = tuple(self.boards[(viewer + k) % len(players)]
                           for k in range(1, len(players)))
            if self.own.children != own:
                self.own.children = own
            if self.others.children != others:
                self.others.children = others


# ====================================================================== decisions

class DecisionPanel(_View):
    """The current decision: its prompt, the control for its kind, the error of a refused
    move right under it, a notation box that accepts any action in text (``take W7``; Enter
    submits), Undo, and the option to have forced moves played. Between two ages it shows
    the end-of-age summary until the player continues; at the end, *Play again*."""

    def __init__(self, session: Session, **kwargs: Any) -> None:
        super().__init__(session, **kwargs)
        self.add_class("nid-decision")
        self.prompt = W.HTML()
        self.control: Control | None = None
        self.control_box = W.VBox()
        # A long list of options (the 26 heroes of a Thingvellir hall) scrolls in its own
        # box, so the coach's Hint and win bar under the panel stay on the first screen.
        self.control_box.add_class("nid-decision-options")
        self.error = W.HTML()
        self.error.add_class("nid-decision-error")
        self.summary = W.HTML()
        self.summary.add_class("nid-summary")
        self.continue_button = button(_("Continue"), "primary",
                                      tooltip=_("close the summary and go on playing"))
        self.continue_button.add_class("nid-summary-continue")
        self.continue_button.on_click(lambda _b: self.session.read_summary())
        self.summary_box = W.VBox([self.summary, self.continue_button], layout=W.Layout(
            border="1px solid #b7950b", padding="6px", margin="4px 0"))
        # Translators: the notation box; "take W7" is notation (the same in every language).
        self.notation = W.Text(placeholder=_("or type an action, e.g. take W7"),
                               layout=W.Layout(width="280px"))
        self.notation.add_class("nid-notation")
        self.notation.on_msg(self._text_message)
        self.apply = W.Button(description=_("Apply"),
                              tooltip=_("apply the action typed on the left"))
        self.apply.on_click(lambda _b: self.submit_text())
        self.text_row = W.HBox([self.notation, self.apply])
        self.undo_button = W.Button(description=_("Undo"), icon="undo",
                                    tooltip=_("back to your previous decision"))
        self.undo_button.add_class("nid-undo")
        self.undo_button.on_click(lambda _b: self.session.undo())
        self.auto = W.Checkbox(value=session.auto_forced,
                               description=_("Play forced moves for me"),
                               tooltip=_("when only one move is legal, play it and say so"),
                               indent=False, layout=W.Layout(width="auto", margin="0 0 0 12px"))
        self.auto.add_class("nid-auto-forced")
        self.auto.observe(self._auto_changed, "value")
        self.again = button(_("Play again (new deal)"), "success",
                            tooltip=_("the same players and rules, a new random seed"))
        self.again.layout.width = "auto"
        self.again.add_class("nid-play-again")
        self.again.on_click(lambda _b: self.session.play_again())
        self.tools = W.HBox([self.undo_button, self.again, self.auto],
                            layout=W.Layout(align_items="center", flex_flow="row wrap"))
        self.children = [self.prompt, self.summary_box, self.control_box, self.error,
                         self.text_row, self.tools]
        session.observe(lambda _c: self._show_error(), "error")
        session.observe(lambda _c: self._show_waiting(), "thinking")
        self._rendered: tuple[Any, ...] | None = None
        self.judgement_for: Any = lambda: None
        """The coach's judgement of the position on the table, if any (set by the app)."""
        self.judgement_coming: Any = lambda: False
        """Whether the coach judges each decision as it appears (set by the app): the place
        of its move is kept from the start."""
        self.refresh()

    def rebuild(self) -> None:
        """Draw the decision's control again (the app has wired the coach in)."""
        self._rendered = None
        self.refresh()

    def show_estimates(self, judgement: Any) -> None:
        """The coach judged the decision: its numbers go on the buttons. Only a judgement of
        the position on the table, checked and drawn with the game held still: the coach's
        thread adopts a judgement after checking that its position is still on the table,
        and a click that came in between drew the judgement of the decision just played on
        the next one's buttons, when the same player decides again (a bid, then a card to
        take: the coach's row offered bids, buttons that did nothing)."""
        with self.session.holding():
            game = self.session.game
            d = game.decision
            control = self.control
            if control is None or d is None or judgement.player != d.player:
                return
            if not judges(judgement, game):
                return  # a judgement of another position
            control.show_estimates(judgement)

    def selected_action(self) -> Any:
        """The option the player selected in the controls but not played yet (a bid), if
        any: a control's starting value is nobody's choice."""
        return self.control.player_choice() if self.control is not None else None

    @property
    def kind(self) -> str | None:
        d = self.session.game.decision
        return None if d is None else d.kind

    def _auto_changed(self, change: dict[str, Any]) -> None:
        self.session.auto_forced = bool(change["new"])
        if change["new"]:
            self.session.play_bots()

    def _text_message(self, _widget: Any, content: dict[str, Any], _buffers: Any) -> None:
        if content.get("event") == "submit":  # Enter in the notation box
            self.submit_text()

    def submit_text(self) -> bool:
        text = self.notation.value.strip()
        if not text:
            self.session.report_error(_("type an action first, e.g. take W7"))
            return False
        ok = self.session.submit(text)
        if ok:
            self.notation.value = ""
        return ok

    def _show_error(self) -> None:
        message = self.session.error
        self.error.value = f"<div class='nid-error'>⚠ {esc(message)}</div>" if message else ""

    def _show_waiting(self) -> None:
        """While a bot decides: who, and how far its thinking is (background bots)."""
        session = self.session
        d = session.game.decision
        if d is None or session.is_human(d.player) or session.summary_age:
            return
        text = session.thinking or _("Waiting for {player} ({level} bot)…").format(
            player=session.game.names[d.player], level=session.seats[d.player])
        more = _("You can look around meanwhile: the cards, the boards, the log.")
        self.prompt.value = (f"<div class='nid-waiting'><span class='nid-spinner'></span>"
                             f"{esc(text)}<div class='nid-waiting-more'>{esc(more)}</div></div>")

    def refresh(self) -> None:
        session = self.session
        game = session.game
        d = game.decision
        self._show_error()
        humans = session.humans
        self.undo_button.disabled = not any(session.is_human(p) for p, _ in game.history)
        self.undo_button.layout.display = "" if humans else "none"
        if self.auto.value != session.auto_forced:
            self.auto.value = session.auto_forced
        if session.summary_age:
            self.summary.value = age_summary_html(game, session.summary_age)
            self.summary_box.layout.display = ""
        else:
            self.summary_box.layout.display = "none"
        # After the summary (the page draws in the order the kernel sends): at the game's
        # end the last age's summary comes before "Play again", never after it.
        self.again.layout.display = "" if d is None else "none"
        # The control is rebuilt only when the position or the viewer changed.
        key = (game, len(game.history), d.player if d else None, d.kind if d else None,
               bool(session.summary_age), tuple(session.seats))
        if self._rendered is not None and all(
                a is b or a == b for a, b in zip(key, self._rendered, strict=True)):
            return
        if self._rendered is not None and self._rendered[0] is not game:
            self.notation.value = ""  # a new game: nothing typed for the old one stays
        self._rendered = key
        # The number of decisions taken, for a page (or a browser test) to see a move land.
        classes: tuple[str, ...] = cast(Any, self)._dom_classes
        self._dom_classes = tuple(c for c in classes if not c.startswith("nid-moves-")) + (
            f"nid-moves-{len(game.history)}",)
        old = self.control
        self.control = None
        self.text_row.layout.display = "none"
        if session.summary_age:
            self.prompt.value = ("<div class='nid-prompt'>"
                                 + esc(_("The age is over: read the summary, then continue."))
                                 + "</div>")
            self.control_box.children = []
        elif d is None:
            self.prompt.value = "<b>" + esc(_("The game is over.")) + "</b>"
            self.control_box.children = []
            self.notation.value = ""
        elif not session.is_human(d.player):
            self._show_waiting()
            self.control_box.children = []
        else:
            obs = game.observation(d.player)
            ctx = Context(kind=d.kind, player=d.player, actions=game.legal_actions(), obs=obs,
                          submit=session.submit, report=session.report_error, game=game,
                          prompt=d.prompt, coach_coming=bool(self.judgement_coming()),
                          submit_offered=session.submit)
            self.control = build_control(ctx)
            n = len(ctx.actions)
            # Translators: under the decision's prompt.
            help_text = (_("Click a button below; a card's tile explains it when clicked.")
                         if d.kind == "bid" else
                         count(n, "Click a button below (one possible move); a card's tile "
                               "explains it when clicked.", "Click a button below ({n} "
                               "possible moves); a card's tile explains it when clicked."))
            self.prompt.value = (f"<div class='nid-prompt'>"
                                 f"{esc(labelled(game.names[d.player], d.prompt))}</div>"
                                 f"<div class='nid-prompt-help'>{esc(help_text)}</div>")
            self.control_box.children = [self.control.widget]
            self.text_row.layout.display = ""
            judgement = self.judgement_for()
            if judgement is not None:
                self.show_estimates(judgement)
        if old is not None:
            old.close()


# ====================================================================== save and open

#: Why a game in progress does not open in Replay (its button's tooltip and message).
UNFINISHED = N_("finish the game first: a replay shows every coin, the other players' "
                "face-down bids too")


def record_download_html(record: Game | dict[str, Any], filename: str) -> str:
    """A link that downloads a game's record (or a reviewed game's data) as a file (a
    data: URL: no server round trip)."""
    import base64
    import json

    if isinstance(record, Game):
        record = record.to_record()
    data = json.dumps(record, indent=1, ensure_ascii=False).encode("utf-8")
    href = "data:application/json;base64," + base64.b64encode(data).decode("ascii")
    return (f"<a class='nid-save-download' download='{esc(filename)}' href='{href}'>"
            + esc(_("⬇ Save game (download)")) + "</a>")


class GameFilePanel(_View):
    """Save the game: a record file to download, or written to a path; open it in the
    Replay tab (``on_open_replay(game)``, set by the dashboard) once the game is over: a
    replay shows every coin, the bots' face-down bids too."""

    def __init__(self, session: Session, **kwargs: Any) -> None:
        super().__init__(session, **kwargs)
        self.add_class("nid-game-files")
        self.on_open_replay: Any = None
        self.download = W.HTML()
        self.path = W.Text(placeholder=_("or save to a path, e.g. my_game.json"),
                           layout=W.Layout(width="260px"))
        self.path.add_class("nid-save-path")
        # width auto: the buttons as wide as their words (German and French are longer)
        self.save_button = W.Button(description=_("Save to path"), icon="save",
                                    layout=W.Layout(width="auto"))
        self.save_button.add_class("nid-save-button")
        self.save_button.on_click(lambda _b: self.save_to(self.path.value))
        self.open_button = W.Button(description=_("Open in Replay"), icon="play",
                                    tooltip=_("step through this game in the Replay tab"),
                                    layout=W.Layout(width="auto"))
        self.open_button.add_class("nid-open-replay")
        self.open_button.on_click(lambda _b: self.open_in_replay())
        self.message = W.HTML()
        self.message.add_class("nid-save-message")
        self.review_of: Any = lambda game: None
        """The coach's review of this game, if any (set by the dashboard): a reviewed game
        is saved with its review, and opens in Replay with its annotations."""
        self._game: Game | None = None
        self.children = [W.HBox([self.download, self.path, self.save_button, self.open_button],
                                layout=W.Layout(flex_flow="row wrap", align_items="center")),
                         self.message]
        self.refresh()

    def filename(self) -> str:
        game = self.session.game
        state = "final" if game.is_over else f"move{len(game.history)}"
        reviewed = "-reviewed" if self.review_of(game) is not None else ""
        return f"nidavellir-{game.config.players}p-seed{game.seed}-{state}{reviewed}.json"

    def data(self) -> dict[str, Any]:
        """What is saved: the record, or the record and its review once reviewed."""
        game = self.session.game
        review = self.review_of(game)
        if review is None:
            return game.to_record()
        from nidavellir.analysis.review import review_data

        return review_data(game, review)

    def refresh(self) -> None:
        game = self.session.game
        if game is not self._game:
            self._game = game
            self.message.value = ""  # a new game: the old one's messages go
        try:
            self.download.value = record_download_html(self.data(), self.filename())
        except Exception as exc:  # a game with no record (determinized): say so
            self.download.value = "<i>" + esc(_("cannot save: {error}").format(
                error=exc)) + "</i>"
        self.open_button.disabled = not game.is_over
        self.open_button.tooltip = (_("step through this game in the Replay tab")
                                    if game.is_over else _(UNFINISHED))

    def _say(self, text: str, error: bool = False) -> None:
        tone = "nid-message-bad" if error else "nid-message-ok"
        self.message.value = f"<div class='{tone}'>{esc(text)}</div>"

    def save_to(self, path: str) -> bool:
        from pathlib import Path

        text = str(path).strip()
        if not text:
            self._say(_("type a file path first, e.g. my_game.json"), error=True)
            return False
        target = Path(text).expanduser()
        if target.suffix.lower() != ".json":
            target = target.with_name(target.name + ".json")
        try:
            if target.is_dir():
                raise IsADirectoryError(f"{target} is a folder")
            import json

            target.write_text(json.dumps(self.data(), indent=1, ensure_ascii=False) + "\n",
                              encoding="utf-8")
        except (OSError, ValueError) as exc:
            self._say(_("not saved: {error} ({path})").format(
                error=getattr(exc, "strerror", None) or exc, path=target),
                      error=True)
            return False
        self._say(count(len(self.session.game.history), "saved {n} decision to {path}",
                        "saved {n} decisions to {path}", path=target.resolve()))
        return True

    def open_in_replay(self) -> bool:
        game = self.session.game
        if not game.is_over:
            self._say(_(UNFINISHED), error=True)
            return False
        if self.on_open_replay is None:
            self._say(_("the Replay tab is not available here (open the dashboard)"),
                      error=True)
            return False
        self.on_open_replay(game.clone())
        self._say(_("opened in the Replay tab"))
        return True


# ====================================================================== log and undo

class LogPanel(_View):
    """The log in notation with plain-language lines; undo one human decision, or
    back to any earlier decision."""

    def __init__(self, session: Session, last: int = 300, **kwargs: Any) -> None:
        super().__init__(session, **kwargs)
        self.last = last
        self.log_html = W.HTML()
        self.undo_button = W.Button(description=_("Undo"), icon="undo",
                                    tooltip=_("back to your previous decision"))
        self.undo_button.on_click(lambda _b: self.session.undo())
        self.history = W.Dropdown(description=_("Back to"), options=[],
                                  layout=W.Layout(width="420px"))
        self.undo_to_button = W.Button(description=_("Undo to here"),
                                       tooltip=_("back to the state before this decision"))
        self.undo_to_button.on_click(lambda _b: self.undo_to_selected())
        self.children = [W.HBox([self.undo_button, self.history, self.undo_to_button]), self.log_html]
        self.refresh()

    def undo_to_selected(self) -> bool:
        index = self.history.value
        if index is None:
            self.session.console.error(_("choose a decision to go back to"))
            return False
        return self.session.undo_to(int(index))

    def refresh(self) -> None:
        session = self.session
        game = session.game
        # Other seats' bids stay face down for the viewer until the game is over.
        bot_mark = _("(bot)")
        words = game.history_words(session.viewer)
        # The menu names each decision by its notation (short enough for the menu at
        # 1280x800; another seat's face-down bid stays face down); the log beside it has
        # the words.
        observer = Observer(session.viewer)
        options = [(f"[{i + 1}] {game.names[p]}"
                    f"{'' if session.is_human(p) else ' ' + bot_mark}: "
                    f"{observer.action_text(game, i)}", i)
                   for i, (p, _a) in enumerate(game.history)]
        humans = [i for i, (p, _) in enumerate(game.history) if session.is_human(p)]
        self.history.options = options
        self.history.value = humans[-1] if humans else (options[-1][1] if options else None)
        self.undo_button.disabled = not humans
        self.undo_to_button.disabled = not options
        self.log_html.value = render.log_html(game.log(session.viewer, words=words),
                                              self.last)


class ResultPanel(_View):
    """The final score sheet (and the winner) once the game is over."""

    def __init__(self, session: Session, **kwargs: Any) -> None:
        super().__init__(session, **kwargs)
        self.html = W.HTML()
        self.sheet: ScoreSheet | None = None
        self.children = [self.html]
        self.refresh()

    def refresh(self) -> None:
        game = self.session.game
        if not game.is_over:
            self.sheet = None
            self.html.value = ""
            return
        self.sheet = game.scores()
        head = count(len(self.sheet.winners), "Final scores — the winner: {names}",
                     "Final scores — the winners: {names}", names=join(self.sheet.winners))
        self.html.value = f"<div class='nid-final'>{esc(head)}</div>" + self.sheet._repr_html_()


__all__ = ["SetupCard", "StatusBar", "levels_html", "opponents_text", "NewGamePanel",
           "TableView", "PlayerBoards", "DecisionPanel", "LogPanel",
           "ResultPanel", "GameFilePanel", "age_summary_html", "record_download_html",
           "status_text", "HUMAN"]
