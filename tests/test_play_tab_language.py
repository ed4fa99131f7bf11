"""The Play tab in the pseudo-language (issue 46): every word the tab shows comes from the
catalogues. The dashboard is built in ``qps`` (every translated message marked ⟦…⟧), a
3-player game is played for some decisions through the page's model (the learner's moves,
the bots' turns, the coach's judgement), and every text of the tab's widgets is read as a
browser would show it (HTML without its tags; a dropdown's labels, not its values). A word
outside the markers is English that escaped the catalogues.

The walk goes on through the console's lines and the status line: the coach's figures on
the buttons (with the level it thought at), a move tried while a bot decides, a bot that
fails (its seat plays a safe move instead), an undo, a new game, and the end of the first
age (the status line while its summary waits).

Allowed outside the markers: the seats' names (data), notation (card tokens, coin
labels, the actions' verbs: the same in every language) and the rulebook citations of the
card panels (``.nid-info-source``: quotations, in the rulebook's own language)."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from typing import Any

import pytest

from nidavellir import cards as C
from nidavellir.actions import PLACES
from nidavellir.i18n import PSEUDO, SOURCE, escaped, language, set_language
from nidavellir.rules.base import CHOICES


@pytest.fixture
def pseudo() -> Iterator[None]:
    before = language()
    set_language(PSEUDO)  # the process's language, as a kernel's page sets it (threads too)
    try:
        yield
    finally:
        set_language(before if before else SOURCE)


def _shown(widget: Any) -> list[str]:
    """What a page shows of a widget tree: texts, labels, tooltips, placeholders."""
    import ipywidgets as W

    out: list[str] = []
    if isinstance(widget, W.HTML | W.HTMLMath | W.Label):
        out.append(_visible(widget.value))
    elif isinstance(widget, W.Text | W.Textarea):
        out.append(widget.placeholder)
    for name in ("description", "tooltip"):
        value = getattr(widget, name, None)
        if isinstance(value, str):
            out.append(value)
    out.extend(getattr(widget, "_options_labels", ()))
    out.extend(getattr(widget, "titles", ()))  # an accordion's or a tab's titles
    for child in getattr(widget, "children", ()):
        out.extend(_shown(child))
    return [t for t in out if t]


def _visible(markup: str) -> str:
    markup = re.sub(r"<(script|style)\b.*?</\1>", " ", markup, flags=re.S)
    markup = re.sub(r"<div class='nid-info-source'>.*?</div>", " ", markup, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", markup))


#: What the failing bot raises: a developer's detail the console quotes as it is.
FAILURE = "RuntimeError: a bot that fails"


class _Interrupted:
    """A seat's bot that, at its first move, is interrupted by the learner's click (the
    click reaches the page while the bot decides), then fails: its seat plays a safe legal
    move instead. Then the seat's own bot plays on."""

    def __init__(self, session: Any, bot: Any) -> None:
        self.session = session
        self.bot = bot
        self.refused: bool | None = None

    def choose(self, game: Any) -> Any:
        if self.refused is not None:
            return self.bot.choose(game)
        self.refused = self.session.submit(str(game.legal_actions()[0]))
        raise RuntimeError(FAILURE.partition(": ")[2])


def _first_legal(session: Any) -> str:
    return str(sorted(session.game.legal_actions(), key=str)[0])


@pytest.mark.slow(reason='the Play tab through an age in the pseudo-language, every text read: '
                        'about 1.7 s of CPU')
def test_the_play_tab_shows_no_word_outside_the_catalogues(pseudo: None) -> None:
    from widgets.dashboard import Dashboard

    dash = Dashboard(bot_delay=0, charts=False)  # the charts' words: test_dashboard_language
    dash.tabs.selected_index = 1  # Play
    app = dash.play
    session = app.session
    seen: list[str] = []
    for _ in range(8):  # the learner's first decisions; the bots play between them
        d = session.game.decision
        if d is None or not session.is_human(d.player):
            break
        session.submit(_first_legal(session))
    assert session.game.history, "no decision was played"
    app.coach.wait()  # the coach's figures on the decision's buttons, with their level
    assert app.coach.judgement is not None
    seen += _shown(app)
    bot = session.bots[1]
    session.bots[1] = interrupted = _Interrupted(session, bot)
    while interrupted.refused is None and session.game.decision is not None:
        session.submit(_first_legal(session))
    session.bots[1] = bot
    assert interrupted.refused is False, "a move was accepted for a bot's seat"
    errors = [m for m, level in session.console.entries if level == "error"]
    assert len(errors) == 2, errors  # the move refused, the bot's failure
    seen += _shown(app)
    assert session.undo()
    seen += _shown(app)
    assert session.play_again(seed=5)
    seen += _shown(app)
    while not session.summary_age and session.game.decision is not None:
        session.submit(_first_legal(session))
    assert session.summary_age == 1, "the first age did not end"
    seen += _shown(app)
    allowed = {w for n in session.game.names for w in n.split()}
    allowed |= {w for c in C.ALL_CARDS for w in re.split(r"[/\s]", c.token)}
    allowed |= {verb for cls in CHOICES.values() for verb in cls.verbs}
    allowed |= set(PLACES)  # a coin's place in the notation: "transform 4@purse"
    allowed |= set(re.findall(r"\w+", FAILURE))
    escapes = {word: text[:120] for text in seen for word in escaped(text, allowed)}
    assert not escapes, escapes
