"""The one module every string a person reads goes through (nidavellir/i18n.py)."""

from __future__ import annotations

import pytest

from nidavellir import i18n
from nidavellir.i18n import _, count, join, ngettext, number, percent, signed, using


def test_english_is_the_messages_as_written() -> None:
    with using("en"):
        assert _("Bid") == "Bid"
        assert ngettext("{n} rank", "{n} ranks", 1) == "{n} rank"
        assert ngettext("{n} rank", "{n} ranks", 0) == "{n} ranks"
        assert count(1, "{n} rank", "{n} ranks") == "1 rank"
        assert count(3, "{n} rank", "{n} ranks") == "3 ranks"


def test_the_pseudo_language_wraps_every_message_and_keeps_placeholders_and_markup() -> None:
    with using(i18n.PSEUDO):
        wrapped = _("<b>{name}</b> takes {card} &amp; more")
        assert wrapped.startswith("⟦") and wrapped.endswith("⟧")
        assert "<b>{name}</b>" in wrapped and "{card}" in wrapped and "&amp;" in wrapped
        assert "takes" not in wrapped  # the letters are accented
        assert wrapped.format(name="Ada", card="E8").count("Ada") == 1
        assert count(2, "{n} rank", "{n} ranks") == "⟦2 ŕàñķš⟧"


def test_the_language_belongs_to_its_context_and_comes_back() -> None:
    assert i18n.language() == "en"
    with using(i18n.PSEUDO):
        assert i18n.language() == i18n.PSEUDO
    assert i18n.language() == "en"


def test_an_unknown_language_is_named() -> None:
    with pytest.raises(i18n.UnknownLanguage, match="unknown language 'xx'"):
        i18n.set_language("xx")
    with pytest.raises(i18n.UnknownLanguage, match="'xx'"), using("xx"):
        pass


def test_numbers_percentages_and_changes() -> None:
    with using("en"):
        assert number(1234567.891, 2) == "1,234,567.89"
        assert number(-12.0) == "-12"
        assert number(999) == "999"
        assert percent(0.4321, 1) == "43.2%"
        assert percent(1) == "100%"
        assert signed(5) == "+5" and signed(-2) == "\u22122" and signed(0) == "0"
        assert signed(-0.04, 1) == "0.0"


def test_lists_read_as_a_sentence() -> None:
    with using("en"):
        assert join([]) == ""
        assert join(["Ada"]) == "Ada"
        assert join(["Ada", "Bo"]) == "Ada and Bo"
        assert join(["Ada", "Bo", "Cy"]) == "Ada, Bo and Cy"


def test_a_name_and_its_text_are_joined_as_the_language_joins_them() -> None:
    """A player's prompt, a card's title and ability, a move and its preview: French puts a
    no-break space before the colon (the join is the catalogue's, not the code's)."""
    from nidavellir import Game
    from nidavellir.i18n import labelled
    from widgets.panels import DecisionPanel
    from widgets.session import Session

    assert labelled("Bo", "Bid") == "Bo: Bid"
    with i18n.using("fr"):
        assert labelled("Bo", "Misez") == "Bo\u00a0: Misez"
        game = Game.new(players=2, seed=1)
        prompt = DecisionPanel(Session(game, ["human"] * 2)).prompt.value
        assert game.decision is not None
        name = game.names[game.decision.player]
        assert f"{name}\u00a0: " in prompt and f"{name}: " not in prompt, prompt
    with i18n.using("de"):
        assert labelled("Bo", "Biete") == "Bo: Biete"
