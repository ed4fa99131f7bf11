"""The Play tab's controls: one drawer per kind of control, plus the generic fallback.

A control is built from a :class:`Context` (the decision's kind, the deciding
player, the legal actions, the decider's observation, the game for previews) and
exposes ``widget`` (what to display) and ``buttons`` (notation -> Button, one per
legal action it offers). Clicking a button calls ``ctx.submit(notation)``;
:meth:`Control.choose` operates the control for an action as a user would.

Each decision class declares how it is drawn (``Choice.control``: a kind of control of
:mod:`nidavellir.rules.controls`, the one list of them, with the data it needs) and words
its buttons (``Choice.label``). Each drawer here says which kind it draws (``draws``) and
draws any decision that declares it from the legal actions and that data, never from the
decision's kind or verbs; :func:`build_control` finds it (:data:`CONTROLS`). Any legal
action a control cannot draw is still offered as a button with its words (``extras``),
and a kind no class declares gets :class:`GenericControl`.
"""

from __future__ import annotations

import html
import re
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import ipywidgets as W

from nidavellir import Action, Game, parse_action
from nidavellir.bots.immediate import Immediate, immediates
from nidavellir.bots.judge import Judgement, OptionJudgement, level_words
from nidavellir.card_text import ability
from nidavellir.cards import TAVERN_INDICES, Card, Suit
from nidavellir.explain import outlook
from nidavellir.i18n import _, clauses, count, labelled, ngettext, number, ordinal, percent
from nidavellir.names import (
    COMPONENT,
    card_name,
    class_in_sentence,
    name,
    score_line,
    tavern_name,
)
from nidavellir.rules import controls as declared
from nidavellir.rules.base import CHOICES
from nidavellir.rules.decisions.words import place_words
from nidavellir.scoring import CATEGORY_LABELS

from . import render
from .style import CLASS_COLOURS, CLASS_LETTERS, button

esc = html.escape

#: Beyond this many options, previews (clone + apply + score, about a millisecond each) are
#: not computed: every decision kind has fewer (the Thingvellir hero hall: 26).
PREVIEW_LIMIT = 64
#: Beyond this many options, the generic control shows a dropdown instead of buttons.
GENERIC_BUTTON_LIMIT = 30
#: The coach's move and at most this many moves in all about as good are drawn first.
COACH_PICKS = 3


def judged_text(o: OptionJudgement, judgement: Judgement) -> str:
    """An option's figures in the coach's order: the chance to win first, then the
    expected final score (``41% · ≈286``; exact: ``41% · =286``)."""
    sign = "=" if judgement.exact else "≈"
    return f"{percent(o.win)} · {sign}{number(o.score)}"


def judged_tip(o: OptionJudgement, judgement: Judgement, notation: str | None = None) -> str:
    """The coach's judgement of an option in a sentence: its figures with how sure, its
    place in the order, whether it is about as good as the best, and the other moves that
    lead to the same position (for the button of ``notation``: every move of its option
    but that one)."""
    place = judgement.rank(o.action)
    n = len(judgement.options)
    if judgement.exact:
        # Translators: an option's tooltip: the coach played every option to the end.
        head = _("the coach (exact: every option played to the end): {win} chance to win, "
                 "{score} points at the end").format(win=percent(o.win), score=number(o.score))
    else:
        # Translators: an option's tooltip: the coach's estimate with its margins; {level}
        # is how hard it thought ("a quick look", "a search of 40 iterations").
        head = _("the coach ({level}): {win} chance to win (± {win_margin}), about {score} "
                 "points at the end (± {score_margin})").format(
            level=level_words(judgement.level), win=percent(o.win), win_margin=percent(o.win_se),
            score=number(o.score), score_margin=number(o.score_se))
    if place == 1:
        # Translators: an option's place among the coach's options: the best.
        where = _("its best of {n}").format(n=n)
    elif o.about_best:
        # Translators: an option's place among the coach's options ({place}: "2nd", "2.",
        # "2e": i18n.ordinal).
        where = _("{place} of {n}, about as good as the best (within the noise)").format(
            place=ordinal(place), n=n)
    else:
        where = _("{place} of {n}").format(place=ordinal(place), n=n)
    others = [a for a in o.actions if str(a) != notation] if notation is not None \
        else o.equivalent
    parts = [head, where]
    if others:
        # Translators: options that lead to the same position ({options}: the moves in
        # words).
        parts.append(_("the same as {options}").format(
            options=clauses(judgement.say(a) for a in others)))
    return clauses(parts)


@dataclass
class Preview:
    """What choosing an action does, in the coach's words: the change of the board's score
    sheet right after it (:func:`nidavellir.bots.immediate.immediate`, exact), what
    happens, the majorities it takes, ties, loses or hands over, and for a card what it does
    and will be worth later (:func:`nidavellir.explain.outlook`). ``estimate`` is the
    coach's judgement of the option once it is ready, ``judgement`` the whole of it."""

    now: Immediate
    card: Card | None = None
    later: str = ""
    estimate: OptionJudgement | None = None
    judgement: Judgement | None = None
    notation: str | None = None
    """The move the preview is of (its button's): "the same as" lists the others."""

    @property
    def delta(self) -> int:
        return self.now.total

    @property
    def follow_up(self) -> str:
        return self.now.follow_up

    @property
    def star(self) -> str:
        """★ before every option about as good as the best (none is crowned alone)."""
        e = self.estimate
        return "★ " if e is not None and e.about_best and self.judgement is not None \
            and len(self.judgement.options) > 1 else ""

    @property
    def judged(self) -> str:
        e, j = self.estimate, self.judgement
        return "" if e is None or j is None else judged_text(e, j)

    @property
    def delta_text(self) -> str:
        # Translators: on an option's button: the change of the score sheet right now
        # ("+5 now"), then the coach's figures, then whether a choice follows.
        text = _("{change} now").format(change=f"{self.now.total:+d}")
        if self.judged:
            text += f" · {self.judged}"
        return text + (_(", then a choice") if self.now.follow_up else "")

    @property
    def tooltip(self) -> str:
        parts = []
        if self.card is not None:
            parts.append(labelled(card_name(self.card), ability(self.card)))
        parts += self.now.lines
        if not self.now.lines:
            parts.append(_("no change to your army or coins"))
        # Translators: in an option's tooltip, the score sheet's change line by line.
        parts.append(_("now, on the score sheet: {changes}").format(
            changes=_parts_text(self.now)))
        if self.now.if_ended != self.now.total:
            parts.append(_("if the game ended now (what waits in your command zone placed "
                           "where it scores most): {change}").format(
                change=f"{self.now.if_ended:+d}"))
        parts += self.now.majority
        if self.later:
            parts.append(_("later: {later}").format(later=self.later))
        if self.now.follow_up:
            parts.append(_("then: {next}").format(next=self.now.follow_up))
        if self.estimate is not None and self.judgement is not None:
            parts.append(judged_tip(self.estimate, self.judgement, self.notation))
        return "\n".join(parts)


def _parts_text(now: Immediate) -> str:
    if not now.parts:
        return _("no change")
    lines = ", ".join(f"{score_line(CATEGORY_LABELS.get(k, k))} {v:+d}"
                      for k, v in now.parts.items())
    # Translators: the score sheet's changes line by line, then the total's.
    return _("{lines} (total {total})").format(lines=lines, total=f"{now.total:+d}")


def previews(game: Game, player: int, actions: Sequence[Action]) -> dict[str, Preview]:
    """The preview of each action (one determinization for the player: a preview never
    depends on what the player cannot see)."""
    nows = immediates(game, actions)
    out = {}
    for a in actions:
        now = nows[str(a)]
        card = a.args[0] if a.args and isinstance(a.args[0], Card) else None
        later = outlook(game, player, card) if card is not None else ""
        out[str(a)] = Preview(now, card, later, notation=str(a))
    return out


@dataclass
class Context:
    kind: str
    player: int
    actions: list[Action]
    obs: dict[str, Any]
    submit: Callable[[str], Any]
    report: Callable[[str], Any] = print
    game: Game | None = None
    prompt: str = ""
    coach_coming: bool = False
    """The coach is judging the decision (its figures and its move will come): the place
    of its move is kept from the start, so that nothing moves when it comes."""
    submit_offered: Callable[..., Any] | None = None
    """Where given (the Play tab: ``Session.submit``), a move is submitted with the game
    and decision it was offered at (``offered=(game, n)``), and refused once the game
    moved on: a button of a decision already played (clicked twice, or drawn late)
    never plays on a later decision."""

    @property
    def at(self) -> int | None:
        """The number of decisions taken before this one (none without a game)."""
        return None if self.game is None else len(self.game.history)

    @property
    def points(self) -> dict[str, int]:
        """What each of the player's columns is worth on the score sheet now, by class
        letter (the board's figures, :func:`render.sheet_points`); none without a game."""
        if self.game is None:
            return {}
        return render.sheet_points(self.game.scores()[self.player].breakdown)

    def previews(self, actions: Sequence[Action] | None = None) -> dict[str, Preview]:
        actions = self.actions if actions is None else actions
        if self.game is None or len(actions) > PREVIEW_LIMIT:
            return {}
        return previews(self.game, self.player, actions)

    @property
    def control(self) -> declared.Control:
        """How the decision is drawn (``Choice.control``); buttons for a kind no decision
        class declares."""
        owner = CHOICES.get(self.kind)
        return owner.control if owner is not None else declared.Buttons()

    def label(self, action: Action) -> str:
        """A button's words for ``action``: its decision's (``Choice.label``), or the
        notation for an action the decision does not declare."""
        owner = CHOICES.get(self.kind)
        if owner is None or action.verb not in owner.verbs:
            return str(action)
        return owner.label(action)

    def words(self, actions: Sequence[Action]) -> list[str]:
        """Each action in words, all different (a menu of them): the decision's sentence
        for a learner (``Choice.say``) when the game is here, else its button's words; the
        same words twice are told apart by a number."""
        game = self.game
        task = game.decision.task if game is not None and game.decision is not None \
            and game.decision.kind == self.kind else None
        said = [task.say(game.engine, a) if game is not None and task is not None
                and a.verb in type(task).verbs else self.label(a) for a in actions]
        seen: dict[str, int] = {}
        out = []
        for text in said:
            seen[text] = seen.get(text, 0) + 1
            out.append(text if seen[text] == 1 else f"{text} ({seen[text]})")
        return out

    @property
    def me(self) -> dict[str, Any]:
        return self.obs["players"][self.player]


def _later_note(later: str) -> W.HTML:
    """A small line under a card's button: what the card will be worth later."""
    if not later:
        return W.HTML(layout=W.Layout(height="0px"))
    note = W.HTML(f"<div class='nid-later-text'>{esc(later)}</div>")
    note.add_class("nid-later")
    return note


def _majority_note(pv: Preview | None) -> W.HTML:
    """Under an option: the class majority it wins, ties or loses (the coach's words)."""
    notes = pv.now.majority if pv is not None else []
    if not notes:
        return W.HTML(layout=W.Layout(height="0px"))
    note = W.HTML("<div class='nid-majority-note'>" + esc(clauses(notes)) + "</div>")
    note.add_class("nid-majority")
    return note


def _label(text: str) -> W.HTML:
    return _grows(W.HTML(f"<b class='nid-control-label'>{esc(text)}</b>"))


def _grows(widget: W.HTML) -> W.HTML:
    """A line of text as tall as its words (an HTML widget is one line high: a label that
    wraps would cover the buttons under it and take their clicks)."""
    widget.add_class("nid-grows")
    return widget


#: The drawer of each kind of control (:mod:`nidavellir.rules.controls`), filled as the
#: drawers below are defined (``Control.draws``).
CONTROLS: dict[type[declared.Control], type[Control]] = {}


def move_class(notation: str) -> str:
    """The class that names a move's button on the page: ``nid-move-`` and the notation with
    each run of other characters than ASCII letters and digits as one ``-`` (``take W3``:
    ``nid-move-take-W3``)."""
    return "nid-move-" + re.sub(r"[^0-9A-Za-z]+", "-", notation).strip("-")


def mark_choice(b: W.Button, notation: str, at: int | None = None) -> None:
    """Mark a button that plays a move, for the page's style and for anyone who finds it:
    ``nid-choice``, ``nid-verb-<verb>`` (the move's verb in the notation: ``take``,
    ``bid``, ``hero``...), :func:`move_class` (the move itself) and ``nid-at-N``, the
    decision it belongs to (N: the number of decisions taken before it, as the decision
    panel's ``nid-moves-N``). Its words may start with the coach's ★ or be in any language;
    these classes do not change.

    The page draws a new widget asynchronously: a button made for a decision shortly
    before the learner played it (the coach's move, once judged) can appear after the
    click, in the panel the next decision is about to replace; ``nid-at-N`` tells it from
    the next decision's options."""
    b.notation = notation  # type: ignore[attr-defined]
    b.add_class("nid-choice")
    if at is not None:
        b.add_class(f"nid-at-{at}")
    verb = notation.split(" ", 1)[0].lower()
    if verb.isidentifier():
        b.add_class(f"nid-verb-{verb}")
    b.add_class(move_class(notation))


class Control:
    """Base: buttons keyed by notation, extras for actions it does not draw."""

    draws: ClassVar[type[declared.Control] | None] = None
    """The kind of control this drawer draws (:mod:`nidavellir.rules.controls`)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.draws is not None:
            CONTROLS[cls.draws] = cls

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.at = ctx.at
        """The decision's number (its buttons' ``nid-at-N``), kept: the game goes on."""
        self.spec = ctx.control
        self.buttons: dict[str, W.Button] = {}
        self.disabled: dict[str, W.Button] = {}
        self.previews: dict[str, Preview] = {}
        self.labels: dict[str, tuple[str, bool]] = {}
        """notation -> (the button's own words, whether the "now" change is in them)."""
        self.judgement: Judgement | None = None
        self.copies: list[W.Button] = []
        """More buttons of a move already drawn (a second copy of a card): the same words."""
        self.coach_buttons: dict[str, W.Button] = {}
        """The coach's move and the moves about as good, first (notation -> its button in
        :attr:`coach_row`), in the coach's order."""
        self.coach_row = W.VBox()
        self.coach_row.add_class("nid-coach-picks")
        self._picks_lock = threading.RLock()
        if ctx.coach_coming and len(ctx.actions) > 1:
            # Translators: the first line of a decision's controls until the coach's move
            # is ready (then its button takes this place).
            self.coach_row.children = [W.HTML(
                "<div class='nid-coach-picks-wait'>" + esc(_("★ The coach's move: the coach "
                                                             "is judging the options…"))
                + "</div>")]
        else:
            self.coach_row.layout.display = "none"
        body = self.build()
        extras = [a for a in ctx.actions if not self.covers(a)]
        self.extras = [self.button(a, ctx.label(a)) for a in extras]
        children: list[W.Widget] = [self.coach_row, body]
        if self.extras:
            # Translators: above the buttons of moves the decision's panel does not draw.
            children += [_label(_("Other choices")), W.HBox(self.extras, layout=_wrap())]
        self.widget = W.VBox(children)

    def build(self) -> W.Widget:
        raise NotImplementedError

    def covers(self, action: Action) -> bool:
        """Whether the control offers this legal action."""
        return str(action) in self.buttons

    def play(self, notation: str) -> Any:
        """Submit a move of this control's decision (:attr:`Context.submit_offered`)."""
        ctx = self.ctx
        if ctx.submit_offered is not None and ctx.game is not None and self.at is not None:
            return ctx.submit_offered(notation, offered=(ctx.game, self.at))
        return ctx.submit(notation)

    def button(self, action: Action | str, description: str, *, tooltip: str = "",
               colour: str | None = None, width: str | None = None) -> W.Button:
        notation = str(action)
        b = W.Button(description=description, tooltip=tooltip or notation,
                     layout=W.Layout(width=width or "auto", margin="2px"))
        if colour:
            b.style.button_color = colour
            b.style.text_color = "white"
        mark_choice(b, notation, self.at)
        b.on_click(lambda _b, n=notation: self.play(n))
        self.buttons[notation] = b
        return b

    def option_button(self, action: Action, label: str, *, now_in_label: bool = False,
                      tooltip: str = "", colour: str | None = None,
                      width: str | None = None) -> W.Button:
        """A button for an option with the coach's two numbers in words: the change now
        (unless ``label`` already says it, as "coin 5 → 8" does) and, once the judgement is
        ready, the expected score at the end."""
        notation = str(action)
        self.labels[notation] = (label, now_in_label)
        pv = self.previews.get(notation)
        return self.button(action, self._describe(notation), tooltip=tooltip or (
            pv.tooltip if pv is not None else notation), colour=colour, width=width)

    def _describe(self, notation: str) -> str:
        label, now_in_label = self.labels.get(notation, (notation, False))
        pv = self.previews.get(notation)
        if pv is None:
            return label
        if not now_in_label:
            return f"{pv.star}{label} ({pv.delta_text})"
        if pv.judged:
            return f"{pv.star}{label} ({pv.judged})"
        return label

    def show_estimates(self, judgement: Judgement) -> None:
        """Fill in the coach's judgement of every option this control shows (equivalent
        moves show their option's figures: one value, every copy of a move too), and draw
        the coach's move first (:meth:`show_coach_picks`). The judgement already shown
        is not drawn again (the coach's thread and a refresh may both bring it)."""
        with self._picks_lock:
            if judgement is self.judgement:
                return
            self.judgement = judgement
        best = {str(a) for a in judgement.options[0].actions} if len(judgement.options) > 1 \
            else set()
        for notation in self.labels:
            pv = self.previews.get(notation)
            if pv is None:
                continue
            try:
                pv.estimate = judgement.option(notation)
            except KeyError:
                continue
            pv.judgement = judgement
            for b in [self.buttons.get(notation),
                      *(c for c in self.copies if getattr(c, "notation", None) == notation)]:
                if b is None:
                    continue
                b.description = self._describe(notation)
                b.tooltip = pv.tooltip
                if notation in best:
                    b.add_class("nid-recommended")
                else:
                    b.remove_class("nid-recommended")
        self.show_coach_picks(judgement)
        self.estimates_shown(judgement)

    def show_coach_picks(self, judgement: Judgement) -> None:
        """The coach's move first, where the eye goes: a row above the decision's own
        drawing (which keeps the table's order) with the recommended move and the next
        moves about as good (at most :data:`COACH_PICKS`), each a button that plays it,
        with the same words and figures as its button below."""
        # The judgement may arrive from the coach's thread while a refresh draws it too:
        # one drawing at a time, and the old buttons closed only once the row no longer
        # shows them (a button closed before its row is built breaks the row).
        with self._picks_lock:
            old = self.coach_buttons
            parts = list(self.coach_row.children)
            self._show_coach_picks(judgement, old)
            for b in old.values():
                if b not in self.coach_buttons.values():
                    b.close()
            for w in parts:  # the row's old heading and box (their buttons kept above)
                if w not in self.coach_row.children:
                    w.close()

    def _show_coach_picks(self, judgement: Judgement, old: dict[str, W.Button]) -> None:
        """Draw the row; a move the row showed keeps its button (its words and figures
        changed in place): a new judgement of the same decision (a finer one, or the
        same one drawn again by the coach's thread and a refresh) never closes the button
        a learner is clicking, which lost the click without a word (the page sent it to a
        button the kernel had just closed)."""
        row = self.coach_row
        self.coach_buttons = {}
        if len(judgement.options) < 2:
            row.children = []
            row.layout.display = "none"
            return
        group = judgement.about_best
        shown = group[:COACH_PICKS]
        buttons = []
        for o in shown:
            notation = str(o.action)
            pv = self.previews.get(notation)
            figures = pv.delta_text if pv is not None and pv.estimate is not None \
                else judged_text(o, judgement)
            words = f"★ {judgement.say(o.action)} ({figures})"
            tip = judged_tip(o, judgement, notation)
            b = old.get(notation)
            if b is None:
                b = W.Button(description=words, tooltip=tip,
                             layout=W.Layout(width="auto", margin="2px"))
                mark_choice(b, notation, self.at)
                b.add_class("nid-coach-pick")
                b.on_click(lambda _b, n=notation: self.play(n))
            else:
                b.description, b.tooltip = words, tip
            if o is judgement.options[0]:
                b.add_class("nid-coach-best")
                b.button_style = "info"
            else:
                b.remove_class("nid-coach-best")
                b.button_style = ""
            self.coach_buttons[notation] = b
            buttons.append(b)
        # Translators: above the coach's move (and the moves about as good), the first line
        # of a decision's controls.
        head = ngettext("★ The coach's move:",
                        "★ The coach's move, and the moves about as good (within the noise):",
                        len(group))
        more = ""
        if len(group) > len(shown):
            # Translators: after the coach's moves shown first: the others about as good.
            more = ("<div class='nid-note'>" + esc(count(
                len(group) - len(shown), "and {n} more about as good: ★ below",
                "and {n} more about as good: ★ below")) + "</div>")
        label = _label(head)
        row.children = [label, W.HBox(buttons, layout=_wrap()), *([_grows(W.HTML(more))]
                                                                   if more else [])]
        row.layout.display = ""

    def estimates_shown(self, judgement: Judgement) -> None:
        """A control with more to say about the judgement (the bid's) says it here."""

    def selected(self) -> Action | None:
        """The option the player has selected but not played yet (the bid dropdowns)."""
        return None

    def player_choice(self) -> Action | None:
        """The option selected by the player, not a control's starting value: the coach
        compares with "your choice" only once there is one."""
        return self.selected() if getattr(self, "touched", False) else None

    def choose(self, action: Action) -> None:
        """Operate the control to play ``action``, as a user would: click its button (the
        bid and the dropdown of many options override this)."""
        self.buttons[str(action)].click()

    def show(self, action: Action) -> None:
        """Set the control to show ``action`` as chosen without playing it (a page that
        comes back with the move it made: its dropdowns say the same as its words). A
        control of one button per option has nothing to set."""

    def dead_button(self, key: str, description: str, reason: str) -> W.Button:
        b = W.Button(description=description, tooltip=reason, disabled=True,
                     layout=W.Layout(width="auto", margin="2px"))
        self.disabled[key] = b
        return b

    def close(self) -> None:
        _close_tree(self.widget)


def _close_tree(w: W.Widget) -> None:
    for child in getattr(w, "children", ()):
        _close_tree(child)
    w.close()


def _wrap() -> W.Layout:
    return W.Layout(flex_flow="row wrap", align_items="flex-start")


# ====================================================================== bids

class BidControl(Control):
    """A dropdown per tavern with the coins of the hand; the rest is the purse."""

    draws = declared.BidDropdowns

    def build(self) -> W.Widget:
        hand = self.ctx.me["hand"]
        self.hand: list[str] = list(hand) if isinstance(hand, list) else []
        seen: dict[str, int] = {}
        options = []
        for i, lab in enumerate(self.hand):
            seen[lab] = seen.get(lab, 0) + 1
            # Translators: a second coin of the same value in the bid dropdowns ("5 (copy 2)").
            text = lab if seen[lab] == 1 else _("{coin} (copy {n})").format(coin=lab, n=seen[lab])
            options.append((text, i))
        # Every menu starts on nothing: "Bid" asks for a choice rather than playing a bid
        # nobody chose (the coach's bid is drawn first, above them, once judged).
        self.dropdowns = [W.Dropdown(options=options, value=None,
                                     description=f"{t + 1}. {name}",
                                     layout=W.Layout(width="230px"))
                          for t, name in enumerate(_tavern_names())]
        for d in self.dropdowns:
            d.add_class("nid-label-fit")
        self.purse = W.HTML()
        self.estimate = W.HTML()
        self.estimate.add_class("nid-bid-estimate")
        #: Whether the player has set a dropdown (the menus start empty).
        self.touched = False
        for d in self.dropdowns:
            d.observe(lambda _c: self._touch(), "value")
        # Translators: the button that places the bid (the rulebooks: «Gebote abgeben»,
        # «miser»).
        self.submit = button(_("Bid"), "primary", tooltip=_("place these coins face down"))
        self.submit.add_class("nid-choice")
        self.submit.on_click(lambda _b: self.send())
        self._update()
        return W.VBox([W.HBox(self.dropdowns, layout=_wrap()),
                       W.HBox([self.purse, self.submit]), self.estimate])

    @property
    def chosen(self) -> list[int | None]:
        return [d.value for d in self.dropdowns]

    def _touch(self) -> None:
        self.touched = True
        self._update()

    def _update(self) -> None:
        used = set(self.chosen)
        rest = [lab for i, lab in enumerate(self.hand) if i not in used]
        # Translators: beside the bid: the coins that go to the purse.
        label = esc(_("{purse}:").format(purse=render.capital(name(COMPONENT, "purse"))))
        self.purse.value = (f"<span class='nid-purse-label'>{label} "
                            + "".join(render.coin_html(c) for c in rest) + "</span>")
        self._show_estimate()

    def selected(self) -> Action | None:
        if self.problem():
            return None
        return parse_action(self._notation())

    def _notation(self) -> str:
        """The bid the dropdowns hold (only once :meth:`problem` has nothing to say)."""
        labels = []
        for c in self.chosen:
            assert c is not None
            labels.append(self.hand[c])
        return str(Action(self._verb, tuple(labels)))

    @property
    def _verb(self) -> str:
        """The decision's verb (a bid's three coins are one action of it)."""
        owner = CHOICES.get(self.ctx.kind)
        return next(iter(owner.verbs)) if owner is not None else "bid"

    def estimates_shown(self, judgement: Judgement) -> None:
        self._show_estimate()

    def _show_estimate(self) -> None:
        """The coach's judgement of the bid selected: its expected score at the end and
        chance to win (the bid changes nothing on the score sheet now)."""
        j = self.judgement
        action = self.selected()
        if j is None or action is None:
            self.estimate.value = ""
            return
        try:
            o = j.option(action)
        except KeyError:
            self.estimate.value = ""
            return
        text = _("This bid: {judgement}. Nothing changes on the score sheet now.").format(
            judgement=judged_tip(o, j))
        self.estimate.value = f"<div class='nid-estimate'>{esc(text)}</div>"

    def problem(self) -> str | None:
        chosen = self.chosen
        if any(c is None for c in chosen):
            return _("put a coin on each of the three taverns")
        for t, c in enumerate(chosen):
            if c is not None and chosen.index(c) != t:
                return _("the same coin ({coin}) cannot go on two taverns (taverns {first} "
                         "and {second})").format(coin=self.hand[c], first=chosen.index(c) + 1,
                                                 second=t + 1)
        return None

    def send(self) -> bool:
        problem = self.problem()
        if problem:
            self.ctx.report(_("bid not placed: {problem}").format(problem=problem))
            return False
        return bool(self.play(self._notation()))

    def covers(self, action: Action) -> bool:
        # Every bid goes through the dropdowns: no button per permutation.
        return action.verb == self._verb and len(action.args) == len(self.dropdowns)

    def choose(self, action: Action) -> None:
        if not self.covers(action):
            super().choose(action)
            return
        self.show(action)
        self.submit.click()

    def show(self, action: Action) -> None:
        if not self.covers(action):
            return
        used: set[int] = set()
        for dropdown, label in zip(self.dropdowns, action.args, strict=True):
            i = next((i for i, lab in enumerate(self.hand) if lab == label and i not in used),
                     None)
            if i is None:
                return  # not a bid of this hand: left as it is
            used.add(i)
            dropdown.value = i


def _tavern_names() -> tuple[str, ...]:
    return tuple(tavern_name(i) for i in TAVERN_INDICES)


# ====================================================================== cards

def _card_action(action: Action) -> bool:
    return bool(action.args) and isinstance(action.args[0], Card)


class CardControl(Control):
    """Card tiles with a button each (every action naming a card, in sections by verb under
    the headings the decision declares), showing the immediate score effect; an action
    without arguments (Brisingamens' ``skip``) gets a plain button under them."""

    draws = declared.CardTiles

    def build(self) -> W.Widget:
        ctx = self.ctx
        assert isinstance(self.spec, declared.CardTiles)
        headings = self.spec.headings
        actions = [a for a in ctx.actions if _card_action(a) and a.verb in headings]
        self.previews = ctx.previews(actions)
        rows: list[W.Widget] = []
        for verb in dict.fromkeys(a.verb for a in actions):
            group = [a for a in actions if a.verb == verb]
            drawn = ctx.obs.get("drawn")
            if drawn and all(_card_of(a).token in drawn for a in group):
                # The Pioneer's draw: every card drawn, a duplicate too (one action each).
                by_token = {_card_of(a).token: a for a in group}
                group = [by_token[t] for t in drawn if t in by_token]
            tiles = [self._tile(a) for a in group]
            rows += [_label(_(headings[verb])), W.HBox(tiles, layout=_wrap())]
        for a in ctx.actions:
            if not a.args:
                rows.append(self.button(a, ctx.label(a)))
        return W.VBox(rows)

    def _tile(self, action: Action) -> W.Widget:
        card = _card_of(action)
        column = None
        note = ""
        if len(action.args) > 1 and isinstance(action.args[1], Suit):
            column = action.args[1].letter
            # Translators: under a card's tile: the column it would go to ("in the warrior
            # column").
            note = _("in the {card_class} column").format(
                card_class=class_in_sentence(action.args[1]))
        pv = self.previews.get(str(action))
        later = pv.later if pv is not None else ""
        tile = W.HTML(render.card_tile(card.token, column=column, note=note, later=later))
        text = self.ctx.label(action)
        tip = pv.tooltip if pv is not None else labelled(card_name(card), ability(card))
        notation = str(action)
        if notation in self.buttons:  # a second copy of the same card (Pioneer's draw)
            b = W.Button(description=self._describe(notation), tooltip=tip,
                         layout=W.Layout(width="auto", margin="2px"))
            mark_choice(b, notation, self.at)
            b.on_click(lambda _b, n=notation: self.play(n))
            self.copies.append(b)
        else:
            b = self.option_button(action, text, tooltip=tip, width="auto")
        return W.VBox([tile, b, _later_note(later), _majority_note(pv)],
                      layout=W.Layout(align_items="center", margin="0 4px 0 0"))


def _card_of(action: Action) -> Card:
    card = action.args[0]
    assert isinstance(card, Card)
    return card


class HeroControl(Control):
    """The hero hall: eligible heroes with a button, the others greyed with the reason."""

    draws = declared.HeroHall

    def build(self) -> W.Widget:
        ctx = self.ctx
        # The legal actions by the hero they name.
        legal = {_card_of(a).token: a for a in ctx.actions if _card_action(a)}
        self.previews = ctx.previews(list(legal.values()))
        tiles = []
        self.reasons: dict[str, str] = {}
        for token in ctx.obs.get("hall", []):
            card = render.card_of(token)
            if token in legal:
                notation = str(legal[token])
                pv = self.previews.get(notation)
                b = self.option_button(legal[token], ctx.label(legal[token]), width="auto")
                later = pv.later if pv else ""
                tile = W.HTML(render.card_tile(token, later=later))
                tiles.append(W.VBox([tile, b, _later_note(later), _majority_note(pv)],
                                    layout=W.Layout(align_items="center", margin="0 4px 4px 0")))
                continue
            else:
                reason = self._reason(card) or _("not eligible now")
                self.reasons[token] = reason
                b = self.dead_button(token, _("not eligible"), reason)
                tile = W.HTML(render.card_tile(token, disabled=True)
                              + f"<div class='nid-ineligible'>"
                              f"{esc(reason)}</div>")
            tiles.append(W.VBox([tile, b], layout=W.Layout(align_items="center",
                                                           margin="0 4px 4px 0")))
        return W.VBox([_label(render.capital(name(COMPONENT, "hero hall"))),
                       W.HBox(tiles, layout=_wrap())])

    def _reason(self, card: Card | None) -> str | None:
        game = self.ctx.game
        if game is None or card is None:
            return None
        try:
            from nidavellir.rules.heroes import ineligible_reason
            return ineligible_reason(game.state.players[self.ctx.player], card)
        except Exception:
            return None


# ====================================================================== columns

class ColumnControl(Control):
    """Thrud, Ylud, Olwyn's doubles, Dagda / Bonfur discards: one button per column (the
    decision's actions naming a single column)."""

    draws = declared.ColumnButtons

    def build(self) -> W.Widget:
        ctx = self.ctx
        assert isinstance(self.spec, declared.ColumnButtons)
        actions = [a for a in ctx.actions if len(a.args) == 1 and isinstance(a.args[0], Suit)]
        self.previews = ctx.previews(actions)
        # The legal actions by the column they name.
        legal: dict[str, Action] = {}
        for a in actions:
            suit = a.args[0]
            assert isinstance(suit, Suit)
            legal[suit.letter] = a
        army = ctx.me["army"]
        cols = []
        for letter in CLASS_LETTERS:
            notation = str(legal[letter]) if letter in legal else letter
            top = army[letter][-1] if army[letter] else None
            # The header counts the whole column (the score sheet's points); the tiles show
            # its top cards.
            head = W.HTML(render.column_html(letter, army[letter], ctx.me["ranks"][letter],
                                             points=ctx.points[letter], shown=3)) if ctx.points else \
                W.HTML(f"<b>{render.esc(render.column_title(letter))}</b>")
            pv = self.previews.get(notation)
            if letter in legal:
                text = ctx.label(legal[letter])
                tip = pv.tooltip if pv else notation
                if self.spec.shows_top and top:
                    # Translators: the tooltip of a column's discard button ({token} in
                    # notation).
                    tip = _("discard {token}:").format(token=top) + " " + tip
                b = self.option_button(legal[letter], text, tooltip=tip,
                                       colour=CLASS_COLOURS[letter], width="auto")
            else:
                why = _("empty column") if top is None else _("not allowed here")
                b = self.dead_button(notation, f"{letter}: —", why)
            cols.append(W.VBox([b, head, _majority_note(pv)],
                               layout=W.Layout(align_items="center", margin="0 4px 0 0")))
        return W.VBox([W.HBox(cols, layout=_wrap())])


# ====================================================================== coins

def _place_name(place: str) -> str:
    """Where a coin lies, a whole phrase: "in your hand", "on the Dancing Dragon"."""
    return place_words(place)


class CoinControl(Control):
    """Coin choices (transforms, Vidofnir's pair of transforms, Uline's coin after the
    reveal, Uline's trade, any decision that declares coin buttons): a button per action
    with the coins the move gives after an arrow, under the decision's heading, a row per
    place of the coin when it groups them by place."""

    draws = declared.CoinButtons

    def build(self) -> W.Widget:
        ctx = self.ctx
        spec = self.spec
        assert isinstance(spec, declared.CoinButtons)
        self.previews = ctx.previews()
        names = {key: card_name(card) for key, card in spec.names.items()}
        groups: dict[str, list[Action]] = {}
        for a in ctx.actions:
            place = str(a.args[1]) if spec.by_place and len(a.args) > 1 else ""
            groups.setdefault(place, []).append(a)
        rows: list[W.Widget] = []
        for place, group in groups.items():
            buttons = []
            for a in group:
                pv = self.previews.get(str(a))
                text = ctx.label(a)
                news = _new_coins(pv)
                if news:
                    text += " → " + " ".join(news)
                buttons.append(self.option_button(a, text, now_in_label=bool(news),
                                                  tooltip=_tip(pv, a)))
            where = _place_name(place) if place else ""
            rows += [_label(_(spec.heading).format(where=where, **names)),
                     W.HBox(buttons, layout=_wrap())]
        return W.VBox(rows)


def _new_coins(pv: Preview | None) -> list[str]:
    """The coins a transform or a trade would give."""
    return list(pv.now.new_coins) if pv is not None else []


def _tip(pv: Preview | None, action: Action) -> str:
    return str(action) if pv is None else labelled(str(action), pv.tooltip)


# ====================================================================== mercenaries

class CardColumnControl(Control):
    """A tile per card with a button for each column it may go to (a mercenary's two
    sides), under the decision's heading."""

    draws = declared.CardColumns

    def build(self) -> W.Widget:
        ctx = self.ctx
        spec = self.spec
        assert isinstance(spec, declared.CardColumns)
        place = [a for a in ctx.actions if len(a.args) == 2 and isinstance(a.args[0], Card)
                 and isinstance(a.args[1], Suit)]
        self.previews.update(ctx.previews(place))
        by_card: dict[Card, list[Action]] = {}
        for a in place:
            by_card.setdefault(_card_of(a), []).append(a)
        tiles = []
        for card, group in by_card.items():
            buttons = []
            for a in group:
                suit = a.args[1]
                assert isinstance(suit, Suit)
                pv = self.previews.get(str(a))
                buttons.append(self.option_button(a, ctx.label(a),
                                                  tooltip=_tip(pv, a),
                                                  colour=CLASS_COLOURS[suit.letter],
                                                  width="auto"))
                buttons.append(_majority_note(pv))
            tiles.append(W.VBox([W.HTML(render.card_tile(card.token)), *buttons],
                                layout=W.Layout(align_items="center", margin="0 6px 0 0")))
        rows: list[W.Widget] = []
        if tiles:
            rows += [_label(_(spec.heading)), W.HBox(tiles, layout=_wrap())]
        return W.VBox(rows)


# ====================================================================== generic

class GenericControl(Control):
    """Any decision: a button per legal action with its words, under the decision's heading
    if it declares one (a menu of the actions' words when there are many)."""

    draws = declared.Buttons

    def build(self) -> W.Widget:
        actions = self.ctx.actions
        heading = self.spec.heading if isinstance(self.spec, declared.Buttons) else ""
        rows: list[W.Widget] = [_label(_(heading))] if heading else []
        self.dropdown: W.Dropdown | None = None
        if len(actions) <= GENERIC_BUTTON_LIMIT:
            self.previews = self.ctx.previews(actions)
            rows.append(W.HBox([self.option_button(a, self.ctx.label(a)) for a in actions],
                               layout=_wrap()))
            return W.VBox(rows)
        self.dropdown = W.Dropdown(options=list(zip(self.ctx.words(actions),
                                                    [str(a) for a in actions], strict=True)),
                                   description=_("Action"))
        self.submit = button(_("Apply"), "primary")
        self.submit.on_click(lambda _b: self.play(str(self.dropdown.value)))
        # Every action counts as offered: the dropdown holds them all.
        for a in actions:
            self.buttons[str(a)] = self.submit
        return W.VBox([*rows, W.HBox([self.dropdown, self.submit])])

    def choose(self, action: Action) -> None:
        if self.dropdown is None:
            super().choose(action)
            return
        self.dropdown.value = str(action)
        self.submit.click()

    def show(self, action: Action) -> None:
        if self.dropdown is not None and any(str(action) == value for _w, value in
                                             self.dropdown.options):
            self.dropdown.value = str(action)


def build_control(ctx: Context) -> Control:
    """The control the decision asks for (``ctx.control``); the generic list of legal
    actions if the kind is unknown or its control fails to build."""
    cls = CONTROLS.get(type(ctx.control), GenericControl)
    try:
        return cls(ctx)
    except Exception as exc:
        if cls is GenericControl:
            raise
        ctx.report(_("the {kind} panel failed ({error}); showing the plain list of legal "
                     "actions").format(kind=repr(str(ctx.kind)), error=f"{type(exc).__name__}: {exc}"))
        return GenericControl(ctx)
