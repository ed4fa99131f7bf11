"""The Play tab in the pseudo-language (issue 46): every word the tab shows comes from the
catalogues. The dashboard is built in ``qps`` (every translated message marked ⟦…⟧), a
3-player game is played for some decisions through the page's model (the learner's moves,
the bots' turns, the coach's judgement), and every text of the tab's widgets is read as a
browser would show it (HTML without its tags; a dropdown's labels, not its values). A word
outside the markers is English that escaped the catalogues.

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
    for child in getattr(widget, "children", ()):
        out.extend(_shown(child))
    return [t for t in out if t]


def _visible(markup: str) -> str:
    markup = re.sub(r"<(script|style)\b.*?</\1>", " ", markup, flags=re.S)
    markup = re.sub(r"<div class='nid-info-source'>.*?</div>", " ", markup, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", markup))


def test_the_play_tab_shows_no_word_outside_the_catalogues(pseudo: None) -> None:
    from widgets.dashboard import Dashboard

    dash = Dashboard()
    dash.tabs.selected_index = 1  # Play
    app = dash.play
    session = app.session
    for _ in range(8):  # the learner's first decisions; the bots play between them
        d = session.game.decision
        if d is None or not session.is_human(d.player):
            break
        session.submit(str(sorted(session.game.legal_actions(), key=str)[0]))
    assert session.game.history, "no decision was played"
    allowed = {w for n in session.game.names for w in n.split()}
    allowed |= {w for c in C.ALL_CARDS for w in re.split(r"[/\s]", c.token)}
    allowed |= {verb for cls in CHOICES.values() for verb in cls.verbs}
    escapes = {word: text[:120] for text in _shown(app) for word in escaped(text, allowed)}
    assert not escapes, escapes
