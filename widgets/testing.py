"""Drive the play panels like a user: for tests and demos, no browser needed.

Only widget values and ``button.click()``: the driver picks an action for the human
seat (a seeded random choice among the legal actions) and then operates the control
that the decision panel shows for it.
"""

from __future__ import annotations

import random

from nidavellir import Action
from widgets.app import PlayApp


def click(app: PlayApp, action: Action) -> None:
    """Choose ``action`` through the current decision control."""
    if app.session.summary_age:  # the end-of-age summary waits: read it, continue
        app.decision.continue_button.click()
    control = app.decision.control
    assert control is not None, "no control shown for a human decision"
    control.choose(action)


def play_through(app: PlayApp, seed: int, max_steps: int = 2000) -> list[str]:
    """Play the human seats with a seeded random choice until the game ends; returns
    the decision kinds met, in order (``transform:Grid``, ``discard:Dagda`` follow
    their kind for transforms and discards)."""
    rng = random.Random(seed)
    game = app.session.game
    kinds: list[str] = []
    for _ in range(max_steps):
        d = game.decision
        if d is None:
            break
        assert app.session.is_human(d.player), "the bots stopped before a human decision"
        kinds.append(str(d.kind))
        if d.kind in ("transform", "discard"):
            kinds.append(f"{d.kind}:{getattr(d.task, 'reason', '')}")
        before = len(game.history)
        click(app, rng.choice(game.legal_actions()))
        assert len(game.history) > before, app.console.messages
        game = app.session.game
    if app.session.summary_age:
        app.decision.continue_button.click()
    assert game.is_over
    return kinds
