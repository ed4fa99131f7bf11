"""The guided rules walkthroughs: scripted games explained step by step.

Each lesson is data: a module with a record (an explicit deal) and a list of steps.
:data:`LESSONS` lists them, the base game first: :mod:`widgets.walkthrough_data` (the
base game), :mod:`widgets.walkthrough_heroes` (heroes and the end of the game) and
:mod:`widgets.walkthrough_thingvellir` (the expansion). :class:`Walkthrough` is the model (no widgets): it keeps the game at the
position of the current step, checks the learner's moves (only the taught move is
accepted; any other gets an explanation and leaves the game unchanged) and tells what
changed. :class:`WalkthroughApp` is the view: the step's text and rulebook reference,
what changed (events listed, changed tiles marked), the table and boards, the move to
make with the play controls, and Back / Next. :class:`WalkthroughTab` offers the
choice of lesson, keeps each one's progress for the session and restarts one on demand.

>>> wt = Walkthrough()
>>> wt.step["key"], wt.needs_move
('setup', False)
>>> wt.next()
True
>>> wt.step["key"], wt.needs_move
('bid', True)
>>> wt.try_move("bid 5 3 0")[0]
False
>>> wt.try_move("bid 4 3 0")[0]
True
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping, Sequence
from types import ModuleType
from typing import Any

import ipywidgets as W

from nidavellir import Game
from nidavellir.cards import TAVERNS
from nidavellir.errors import IllegalAction, InvalidNotation

from . import render, walkthrough_heroes, walkthrough_thingvellir
from . import walkthrough_data as data
from .controls import Context, Control, build_control
from .session import Console
from .style import CLASS_COLOURS, CLASS_LETTERS, CLASS_NAMES, css_widget

esc = html.escape
HIGHLIGHT = "#f1c40f"

#: The lessons in the order they are offered (the base game first).
LESSONS: dict[str, ModuleType] = {
    module.KEY: module for module in (data, walkthrough_heroes, walkthrough_thingvellir)}


def lesson(key: str) -> ModuleType:
    """The lesson module called ``key`` (a clear error naming the known ones)."""
    try:
        return LESSONS[key]
    except KeyError:
        raise ValueError(f"no walkthrough {key!r}; choose one of {', '.join(LESSONS)}") \
            from None


class Walkthrough:
    """The walkthrough's state: the current step and the game at its position.

    Step ``i`` starts at ``start[i]`` decisions (after the previous steps' actions and
    moves), shows the game after its own scripted ``actions`` (``ready[i]``), and, when
    it has a ``move``, waits for it (``end[i] = ready[i] + 1``).
    """

    def __init__(self, steps: Sequence[Mapping[str, Any]] | None = None,
                 record: Mapping[str, Any] | None = None, learner: int = data.LEARNER,
                 key: str = data.KEY) -> None:
        self.steps = list(steps if steps is not None else data.STEPS)
        self.record = dict(record if record is not None else data.record())
        self.learner = learner
        self.key = key
        base = dict(self.record, actions=[])
        self.game = Game.from_record(base)
        self.actions: list[str] = list(self.record["actions"])
        self.start: list[int] = []
        self.ready: list[int] = []
        self.end: list[int] = []
        pos = 0
        for step in self.steps:
            self.start.append(pos)
            pos += len(step["actions"])
            self.ready.append(pos)
            pos += 1 if step.get("move") else 0
            self.end.append(pos)
        if pos != len(self.actions):
            raise ValueError(f"the steps hold {pos} actions, the record {len(self.actions)}")
        self.index = 0
        self.done = False
        """Whether the current step's move has been made."""
        self.made: set[int] = set()
        """Steps whose move the learner has made: Back shows them made, not undone."""
        self._goto(0)

    @classmethod
    def of(cls, key: str) -> Walkthrough:
        """The walkthrough of lesson ``key`` (see :data:`LESSONS`)."""
        module = lesson(key)
        return cls(module.STEPS, module.record(), learner=module.LEARNER, key=module.KEY)

    # ------------------------------------------------------------------ queries

    @property
    def step(self) -> Mapping[str, Any]:
        return self.steps[self.index]

    @property
    def needs_move(self) -> bool:
        return bool(self.step.get("move")) and not self.done

    @property
    def can_back(self) -> bool:
        return self.index > 0

    @property
    def can_next(self) -> bool:
        return self.index < len(self.steps) - 1 and not self.needs_move

    @property
    def position(self) -> int:
        return len(self.game.history)

    def changed_since(self) -> int:
        """The position the "what changed" view compares with: the previous step's
        decision point (so a step shows its scripted actions and the move before)."""
        if self.done:
            return self.ready[self.index]
        return self.ready[self.index - 1] if self.index > 0 else 0

    # ------------------------------------------------------------------ navigation

    def _goto(self, index: int) -> None:
        self.index = index
        self.done = index in self.made and bool(self.steps[index].get("move"))
        target = self.end[index] if self.done else self.ready[index]
        # The history is always a prefix of the record: only taught moves are applied.
        have = len(self.game.history)
        if have <= target:
            for text in self.actions[have:target]:
                self.game.apply(text)
        else:
            self.game.undo_to(target)

    def next(self) -> bool:
        if not self.can_next:
            return False
        self._goto(self.index + 1)
        return True

    def back(self) -> bool:
        if not self.can_back:
            return False
        self._goto(self.index - 1)
        return True

    def follow_on(self) -> bool:
        """After a move: when the next step starts with the learner's move at once (no
        scripted actions before it, e.g. "Now choose a hero"), go there so that its
        controls show right away. Returns whether it moved on."""
        if not self.done or self.index >= len(self.steps) - 1:
            return False
        nxt = self.steps[self.index + 1]
        if nxt["actions"] or not nxt.get("move"):
            return False
        return self.next()

    def goto(self, index: int) -> None:
        """Jump to step ``index`` (earlier moves are made as taught)."""
        if not 0 <= index < len(self.steps):
            raise ValueError(f"no step {index}: the walkthrough has {len(self.steps)}")
        self.made |= {i for i in range(index) if self.steps[i].get("move")}
        self._goto(index)

    def restart(self) -> None:
        """Back to the first step with no move made."""
        self.made = set()
        self._goto(0)

    # ------------------------------------------------------------------ moves

    def check_move(self, text: str) -> tuple[bool, str]:
        """Whether ``text`` is the taught move, and the explanation. Never changes the game."""
        step = self.step
        move = step.get("move")
        if not move:
            return False, "There is no move to make at this step: press Next."
        if self.done:
            return False, "You have made this step's move: press Next."
        text = (text or "").strip()
        if not text:
            return False, "Type or click a move first."
        try:
            action = self.game.parse(text)
        except InvalidNotation as exc:
            return False, f"That is not a move the game understands: {exc}."
        if action == self.game.parse(move):
            return True, ""
        shown = str(action)
        special = step.get("wrong", {}).get(shown)
        if special:
            return False, special
        branch = self.game.clone()
        try:
            branch.apply(action)
        except IllegalAction as exc:
            return False, f"The rules do not allow {shown}: {exc}. This step wants {move}: " \
                          f"{step['why']}."
        return False, (f"{shown} is a legal move, but it is not what this step teaches: "
                       f"{step['why']}. Play {move}.")

    def try_move(self, text: str) -> tuple[bool, str]:
        """Make the move if it is the taught one; else explain (the game is unchanged)."""
        ok, message = self.check_move(text)
        if not ok:
            return False, message
        self.game.apply(self.step["move"])
        self.done = True
        self.made.add(self.index)
        return True, self.step.get("after", "")

    def show_me(self) -> tuple[bool, str]:
        """Make the taught move for the learner."""
        move = self.step.get("move")
        if not move or self.done:
            return False, "There is no move to make at this step: press Next."
        return self.try_move(move)

    # ------------------------------------------------------------------ what changed

    def events_since(self, position: int) -> list[str]:
        """Plain-language lines of what happened since decision ``position``."""
        g = self.game
        here = len(g.history)
        if position >= here:
            return []
        old = g.clone()
        old.undo_to(position)
        mark = len(old.events)
        lines = []
        for e in g.events[mark:]:
            lines.append(e.describe(g.names))
        return lines

    def observation_at(self, position: int) -> dict[str, Any]:
        old = self.game.clone()
        if position < len(old.history):
            old.undo_to(position)
        return old.observation(self.learner)


# ====================================================================== rendering

def _mark(html_tile: str) -> str:
    return f"<span class='nid-changed' style='display:inline-block'>{html_tile}</span>"


def _tiles(tokens: Sequence[str], before: Sequence[str] | None, *, small: bool = False,
           column: str | None = None) -> str:
    """Tiles of ``tokens``; those not in ``before`` (as a multiset) are highlighted."""
    rest = list(before) if before is not None else None
    out = []
    for t in tokens:
        new = False
        if rest is not None:
            if t in rest:
                rest.remove(t)
            else:
                new = True
        tile = render.card_tile(t, small=small, column=column, highlight=new)
        out.append(_mark(tile) if new else tile)
    return "".join(out)


def _gone(tokens: Sequence[str], before: Sequence[str] | None, note: str = "gone",
          small: bool = True) -> str:
    """Ghost tiles of the cards that left since ``before`` (taken from a tavern,
    discarded from a column, or Thrud moved)."""
    if before is None:
        return ""
    gone = list(before)
    for t in tokens:
        if t in gone:
            gone.remove(t)
    return "".join(_mark(render.card_tile(t, small=small, disabled=True, note=note))
                   for t in gone)


def _mark_coin(coin_html: str) -> str:
    return (f"<span class='nid-changed' style='outline:3px solid {HIGHLIGHT};"
            f"border-radius:12px;display:inline-block'>{coin_html}</span>")


def _coins(labels: Any, before: Any) -> str:
    if not isinstance(labels, list):
        return f"{labels} hidden" if labels else "—"
    rest = list(before) if isinstance(before, list) else []
    out = []
    for lab in labels:
        if lab in rest:
            rest.remove(lab)
            out.append(render.coin_html(lab))
        else:
            out.append(_mark_coin(render.coin_html(lab)))
    return "".join(out) or "—"


def board_html(obs: Mapping[str, Any], before: Mapping[str, Any] | None = None,
               learner: int = data.LEARNER) -> str:
    """The table and every player's board, with what changed since ``before`` marked
    (with Thingvellir, the camp above the taverns)."""
    parts = []
    if "thingvellir" in obs.get("expansions", []):
        prev_camp = before.get("camp") if before else None
        left = obs.get("camp_deck_sizes", {}).get(str(obs["age"]), 0)
        parts.append("<div class='nid-wt-camp' style='margin:4px 0;padding:4px;border:2px "
                     "dashed #a04000;border-radius:8px'><b style='font:bold 12px sans-serif'>"
                     f"Camp</b> <small>({left} card(s) left in the age-{obs['age']} camp "
                     "deck)</small><br>"
                     f"{_tiles(obs.get('camp', []), prev_camp, small=True) or '<i>empty</i>'}"
                     "</div>")
    taverns = []
    for i, cards in enumerate(obs["taverns"]):
        prev = before["taverns"][i] if before else None
        now = " (now)" if obs.get("tavern") == i else ""
        border = HIGHLIGHT if obs.get("tavern") == i else "#ddd"
        body = _tiles(cards, prev)
        same_round = before is not None and (before["age"], before["round"]) == \
            (obs["age"], obs["round"])
        if same_round:
            body += _gone(cards, prev, note="taken", small=False)
        body = body or "<i style='color:#888'>empty</i>"
        taverns.append(f"<div style='display:inline-block;vertical-align:top;margin:2px 6px 2px 0;"
                       f"padding:4px;border:2px solid {border};border-radius:8px'>"
                       f"<div style='font:bold 12px sans-serif'>{i + 1}. {esc(TAVERNS[i])}{now}"
                       f"</div>{body}</div>")
    parts.append("<div style='font:bold 13px sans-serif'>Age "
                 f"{obs['age']}, round {obs['round']}</div>" + "".join(taverns))
    treasury = obs.get("treasury", {})
    prev_t = before.get("treasury", {}) if before else treasury
    coins = []
    for v, n in treasury.items():
        changed = prev_t.get(v) != n
        style = f"outline:3px solid {HIGHLIGHT};border-radius:6px;" if changed else ""
        cls = " class='nid-changed'" if changed else ""
        coins.append(f"<span{cls} style='margin-right:6px;white-space:nowrap;{style}'>"
                     f"{render.coin_html(v)}<small>×{n}</small></span>")
    parts.append("<div style='margin:4px 0'><b style='font:bold 12px sans-serif'>Royal "
                 f"treasury</b> {''.join(coins)}</div>")
    hall = obs.get("hall", [])
    prev_hall = before.get("hall") if before else None
    parts.append("<div class='nid-wt-hall' style='margin:4px 0'><b style='font:bold 12px "
                 f"sans-serif'>Hero hall ({len(hall)})</b><br>"
                 f"{_tiles(hall, prev_hall, small=True) or '<i>empty</i>'}</div>")
    names = obs["names"]
    dist = []
    for token, holder in obs.get("distinctions", {}).items():
        who = "not won yet" if holder is None else names[holder]
        dist.append(f"<span style='display:inline-block;margin:0 6px 0 0;text-align:center'>"
                    f"{render.card_tile(token, small=True)}<br><small>{esc(who)}</small></span>")
    parts.append("<div class='nid-wt-distinctions' style='margin:4px 0'><b style='font:bold "
                 f"12px sans-serif'>Distinctions</b><br>{''.join(dist)}</div>")
    for p in obs["players"]:
        q = before["players"][p["seat"]] if before else None
        gem_changed = q is not None and q["gem"] != p["gem"]
        gem_style = f"outline:3px solid {HIGHLIGHT};" if gem_changed else ""
        head = (f"<b style='font:bold 14px sans-serif'>{esc(p['name'])}</b>"
                f"{' <small>(you)</small>' if p['seat'] == learner else ''} "
                f"<span class='{'nid-changed' if gem_changed else ''}' style='display:inline-block;"
                f"padding:1px 6px;border-radius:4px;background:#8e44ad;color:#fff;"
                f"font:bold 12px sans-serif;{gem_style}'>gem {p['gem']}</span>")
        bids = ""
        for i, b in enumerate(p["bids"]):
            coin = render.coin_html(b, hidden=(b == "?"))
            if q is not None and q["bids"][i] != b and b is not None:
                coin = _mark_coin(coin)
            bids += coin
        coins_line = (f"<div style='font:12px sans-serif;margin:3px 0'>bids {bids} &nbsp; "
                      f"hand {_coins(p['hand'], q['hand'] if q else p['hand'])} &nbsp; purse "
                      f"{_coins(p['purse'], q['purse'] if q else p['purse'])}</div>")
        cols = []
        for letter in CLASS_LETTERS:
            prev = q["army"][letter] if q else None
            colour = CLASS_COLOURS[letter]
            cols.append(f"<div class='nid-column' style='display:inline-block;vertical-align:top;"
                        f"width:70px;margin-right:3px;border-top:4px solid {colour};"
                        f"background:#f8f9f9;min-height:40px;text-align:center'>"
                        f"<div style='font:bold 10px sans-serif;color:{colour};"
                        f"white-space:nowrap'>{esc(CLASS_NAMES[letter])}</div>"
                        f"<div style='font:10px sans-serif;white-space:nowrap'>"
                        f"{p['ranks'][letter]} rank{'' if p['ranks'][letter] == 1 else 's'}"
                        "</div>"
                        f"{_tiles(p['army'][letter], prev, small=True, column=letter)}"
                        f"{_gone(p['army'][letter], prev)}</div>")
        zone = _tiles(p["command_zone"], q["command_zone"] if q else None, small=True)
        parts.append(f"<div class='nid-board' style='border:1px solid #ccc;border-radius:8px;"
                     f"padding:4px 6px;margin:4px 0'>{head}{coins_line}<div>{''.join(cols)}"
                     f"<span style='display:inline-block;vertical-align:top;margin-left:6px'>"
                     f"<small>Command zone</small><br>{zone or '—'}</span></div></div>")
    return "<div class='nid-wt-board'>" + "".join(parts) + "</div>"


class WalkthroughApp(W.VBox):
    """The walkthrough on screen: step text, rule, what changed, the move, Back / Next."""

    def __init__(self, walkthrough: Walkthrough | None = None, console: Console | None = None,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.add_class("nid-walkthrough")
        self.wt = walkthrough or Walkthrough()
        self.console = console if console is not None else Console()
        self.title = W.HTML()
        self.title.add_class("nid-wt-title")
        self.rule = W.HTML()
        self.rule.add_class("nid-wt-rule")
        self.text = W.HTML()
        self.text.add_class("nid-wt-text")
        self.changes = W.HTML()
        self.changes.add_class("nid-wt-changes")
        self.board = W.HTML()
        self.board.add_class("nid-wt-board-view")
        self.ask = W.HTML()
        self.ask.add_class("nid-wt-ask")
        self.control: Control | None = None
        self.control_box = W.VBox()
        self.control_box.add_class("nid-wt-controls")
        self.notation = W.Text(placeholder="or type the move, e.g. take E9",
                               layout=W.Layout(width="260px"))
        self.notation.add_class("nid-wt-notation")
        self.play = W.Button(description="Play", tooltip="play the move typed on the left")
        self.play.add_class("nid-wt-play")
        self.play.on_click(lambda _b: self._guard(self.submit_text))
        self.show_me = W.Button(description="Show me", tooltip="make the taught move for me")
        self.show_me.add_class("nid-wt-show-me")
        self.show_me.on_click(lambda _b: self._guard(self._show_me))
        self.move_box = W.VBox([self.ask, self.control_box,
                                W.HBox([self.notation, self.play, self.show_me])])
        self.move_box.add_class("nid-wt-move")
        self.feedback = W.HTML()
        self.feedback.add_class("nid-wt-feedback")
        self.back_button = W.Button(description="◀ Back", layout=W.Layout(width="110px"))
        self.back_button.add_class("nid-wt-back")
        self.back_button.on_click(lambda _b: self._guard(self.back))
        self.next_button = W.Button(description="Next ▶", button_style="primary",
                                    layout=W.Layout(width="110px"))
        self.next_button.add_class("nid-wt-next")
        self.next_button.add_class("nid-next")
        self.next_button.on_click(lambda _b: self._guard(self.next))
        self.progress = W.HTML()
        self.progress.add_class("nid-wt-progress")
        self.sheet = W.HTML()
        self.sheet.add_class("nid-wt-sheet")
        nav = W.HBox([self.back_button, self.next_button, self.progress],
                     layout=W.Layout(align_items="center"))
        left = W.VBox([self.title, self.rule, self.text, self.move_box, self.feedback,
                       self.changes, nav], layout=W.Layout(flex="1 1 440px", min_width="360px"))
        right = W.VBox([self.board, self.sheet], layout=W.Layout(flex="1 1 560px"))
        self.children = [css_widget(), W.HBox([left, right],
                                              layout=W.Layout(flex_flow="row wrap"))]
        self.refresh()

    # ------------------------------------------------------------------ actions

    def _guard(self, fn: Callable[[], Any]) -> Any:
        try:
            return fn()
        except Exception as exc:  # shown on the page, never swallowed
            self.console.error(f"walkthrough: {type(exc).__name__}: {exc}")
            return None

    def next(self) -> bool:
        if self.wt.needs_move:
            self._say("Make this step's move first (or press <b>Show me</b>).", error=True)
            return False
        ok = self.wt.next()
        self.feedback.value = ""
        self.refresh()
        return ok

    def back(self) -> bool:
        ok = self.wt.back()
        self.feedback.value = ""
        self.refresh()
        return ok

    def submit(self, text: str) -> bool:
        ok, message = self.wt.try_move(text)
        if ok:
            self._say("✔ Well done. " + message)
            self.wt.follow_on()
            self.refresh()
        else:
            self._say("✘ " + message, error=True)
        return ok

    def submit_text(self) -> bool:
        ok = self.submit(self.notation.value)
        if ok:
            self.notation.value = ""
        return ok

    def _show_me(self) -> bool:
        ok, message = self.wt.show_me()
        if ok:
            self._say(f"This step's move is <code>{esc(self.wt.step['move'])}</code>. "
                      + message)
            self.wt.follow_on()
            self.refresh()
        else:
            self._say(esc(message), error=True)
        return ok

    def _say(self, message: str, error: bool = False) -> None:
        colour = "#c0392b" if error else "#1e8449"
        cls = "nid-wt-error" if error else "nid-wt-ok"
        self.feedback.value = (f"<div class='{cls}' style='font:14px sans-serif;color:{colour};"
                               f"margin:6px 0'>{message}</div>")

    # ------------------------------------------------------------------ view

    def refresh(self) -> None:
        wt = self.wt
        step = wt.step
        n = len(wt.steps)
        self.title.value = (f"<h3 style='margin:4px 0'>Step {wt.index + 1} of {n}: "
                            f"{esc(step['title'])}</h3>")
        self.rule.value = (f"<div style='font:12px sans-serif;color:#555;border-left:4px solid "
                           f"#8e44ad;padding-left:6px'>Rulebook: {esc(step['rule'])}</div>")
        self.text.value = f"<div style='font:14px sans-serif'>{step['text']}</div>"
        since = wt.changed_since()
        lines = wt.events_since(since)
        if lines:
            items = "".join(f"<li>{esc(line)}</li>" for line in lines[-40:])
            more = f"<li>… and {len(lines) - 40} earlier events</li>" if len(lines) > 40 else ""
            self.changes.value = (f"<details open><summary style='font:bold 13px sans-serif'>"
                                  f"What changed ({len(lines)} event(s); marked in yellow on the "
                                  f"board)</summary><ul style='font:12px sans-serif;max-height:"
                                  f"220px;overflow-y:auto'>{more}{items}</ul></details>")
        else:
            self.changes.value = ""
        before = wt.observation_at(since) if since < wt.position else None
        self.board.value = board_html(wt.game.observation(wt.learner), before, wt.learner)
        if wt.game.is_over:
            sheet = wt.game.scores()
            self.sheet.value = ("<div class='nid-wt-final'><b>Final score sheet</b>"
                                + sheet._repr_html_() + "<details open class='nid-wt-pad'>"
                                "<summary>The score pad line by line</summary>"
                                + sheet.details_html() + "</details></div>")
        else:
            self.sheet.value = ""
        self._refresh_move()
        self.back_button.disabled = not wt.can_back
        # Next is visibly off until the step's move is made (the move box says what to do).
        self.next_button.disabled = wt.index >= n - 1 or wt.needs_move
        self.next_button.tooltip = ("make this step's move first (or press Show me)"
                                    if wt.needs_move else "the next step")
        state = "your move" if wt.needs_move else ("done" if wt.done else "")
        self.progress.value = (f"<span style='font:12px sans-serif;color:#555;margin-left:8px'>"
                               f"{wt.index + 1} / {n}{' · ' + state if state else ''}</span>")

    def _refresh_move(self) -> None:
        wt = self.wt
        old = self.control
        self.control = None
        if wt.needs_move:
            d = wt.game.decision
            assert d is not None
            self.ask.value = (f"<div style='font:bold 14px sans-serif;background:#fef9e7;"
                              f"border:2px solid {HIGHLIGHT};padding:6px;border-radius:6px'>"
                              f"Your move: {wt.step['ask']}</div>")
            ctx = Context(kind=d.kind, player=d.player, actions=wt.game.legal_actions(),
                          obs=wt.game.observation(d.player), submit=self.submit,
                          report=lambda m: self._say("✘ " + esc(m), error=True),
                          game=wt.game, prompt=d.prompt)
            self.control = build_control(ctx)
            self.control_box.children = [self.control.widget]
            self.move_box.layout.display = ""
        else:
            self.control_box.children = []
            self.move_box.layout.display = "none"
        if old is not None:
            old.close()


class WalkthroughTab(W.VBox):
    """The Walkthrough tab: a choice of lesson (the base game first), the chosen lesson's
    :class:`WalkthroughApp`, and Restart. Each lesson keeps its progress for the session:
    switching away and back returns to the same step."""

    def __init__(self, console: Console | None = None, start: str = data.KEY,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.add_class("nid-walkthrough-tab")
        self.console = console if console is not None else Console()
        self.apps: dict[str, WalkthroughApp] = {}
        self.chooser = W.ToggleButtons(
            options=[(module.TITLE, key) for key, module in LESSONS.items()],
            value=lesson(start).KEY, tooltips=[m.SUMMARY for m in LESSONS.values()],
            style={"button_width": "auto"})
        self.chooser.add_class("nid-wt-chooser")
        self.summary = W.HTML()
        self.summary.add_class("nid-wt-summary")
        self.restart_button = W.Button(description="↺ Restart", tooltip="start this "
                                       "walkthrough again from its first step",
                                       layout=W.Layout(width="110px"))
        self.restart_button.add_class("nid-wt-restart")
        self.restart_button.on_click(lambda _b: self.restart())
        self.body = W.VBox()
        head = W.HBox([self.chooser, self.restart_button],
                      layout=W.Layout(align_items="center", flex_flow="row wrap"))
        self.children = [head, self.summary, self.body]
        self.chooser.observe(lambda change: self._show(change["new"]), names="value")
        self._show(self.chooser.value)

    @property
    def app(self) -> WalkthroughApp:
        return self.apps[self.chooser.value]

    def choose(self, key: str) -> WalkthroughApp:
        """Show lesson ``key`` (as the chooser's button does)."""
        self.chooser.value = lesson(key).KEY  # observed: _show
        return self.app

    def _show(self, key: str) -> None:
        """Lesson ``key`` under the chooser: built the first time, then as it was left."""
        if key not in self.apps:
            self.apps[key] = WalkthroughApp(Walkthrough.of(key), console=self.console)
        self.summary.value = (f"<div style='font:13px sans-serif;color:#555;margin:2px 0 6px'>"
                              f"{esc(LESSONS[key].SUMMARY)}</div>")
        self.body.children = [self.apps[key]]

    def restart(self) -> None:
        """Back to the first step of the current lesson, no move made."""
        app = self.app
        app.wt.restart()
        app.feedback.value = ""
        app.refresh()


def walkthrough_app(key: str = data.KEY, **kwargs: Any) -> WalkthroughApp:
    """One walkthrough on its scripted deal: ``"base"`` (the default), ``"heroes"`` or
    ``"thingvellir"``."""
    return WalkthroughApp(Walkthrough.of(key), **kwargs)


__all__ = ["LESSONS", "Walkthrough", "WalkthroughApp", "WalkthroughTab", "board_html",
           "lesson", "walkthrough_app"]
