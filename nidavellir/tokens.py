"""Card tokens: the short text form of every card (docs/notation.md, "Card tokens").

Grammar (case-insensitive; accents, spaces, apostrophes, ``&``, ``-`` and ``_`` optional):

- dwarves: class letter plus bravery points where the card has them:
  ``W3``…``W10``, ``H``, ``M0``…``M2``, ``B``, ``E5``…``E12``;
- Royal Offerings: ``+3``, ``+5``;
- the King's Great Armorer's special blacksmith card (2 ranks): ``B*`` (also
  ``BB``, ``Special Blacksmith``);
- heroes, distinctions and artifacts by name: ``Aegur`` = ``Aëgur``, ``Dwerg Ymir``,
  ``Mjollnir``, ``King's Hand``, ``Vidofnir`` (short for ``Vidofnir & Vedrfölnir``);
- mercenaries by their two sides, in either order: ``W6/E8`` = ``E8/W6``;
- Olwyn's doubles: ``Olwyn Double`` (also ``Olwyn's Double``, ``Double``).
"""

from __future__ import annotations

import difflib
import re
import unicodedata

from .cards import Card, Kind, Suit, each_card
from .errors import InvalidNotation
from .i18n import _

_DROP = re.compile(r"[\s'’`&\-_.]+")


def normalize(text: str) -> str:
    """Lowercase, accents stripped, separators dropped (``"Dwerg Ymir"`` -> ``"dwergymir"``)."""
    decomposed = unicodedata.normalize("NFKD", text)
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    # Letters that NFKD does not decompose.
    stripped = stripped.replace("ø", "o").replace("Ø", "O").replace("æ", "ae")
    return _DROP.sub("", stripped.lower())


def _mercenary_key(text: str) -> frozenset[str] | None:
    parts = text.split("/")
    if len(parts) != 2:
        return None
    return frozenset(normalize(p) for p in parts)


_INDEX: dict[str, Card] = {}
_MERCENARY_INDEX: dict[frozenset[str], Card] = {}
#: Every canonical token, in catalogue order (suggestions, documentation, the RL action
#: table): a card a plugin adds comes last (:func:`nidavellir.cards.add_card`).
TOKENS: list[str] = []


def _index(card: Card) -> None:
    if card.token not in TOKENS:
        TOKENS.append(card.token)
    if card.kind is Kind.MERCENARY:
        key = _mercenary_key(card.token)
        assert key is not None
        _MERCENARY_INDEX[key] = card
        return
    # Display names of dwarves ("Warrior 3") are not tokens; keep only the letter forms.
    names = (card.token, *card.aliases) if card.kind is Kind.DWARF else (
        card.token, card.name, *card.aliases)
    for name in names:
        _INDEX.setdefault(normalize(name), card)


each_card(_index)


def suggestions(text: str, n: int = 3) -> list[str]:
    """The nearest valid tokens to ``text``."""
    key = normalize(text)
    by_key = {normalize(t): t for t in TOKENS}
    close = difflib.get_close_matches(key, list(by_key), n=n, cutoff=0.5)
    if not close and key[:1]:
        close = [k for k in by_key if k.startswith(key[:1])][:n]
    return [by_key[k] for k in close]


def parse_token(text: str) -> Card:
    """The card a token names; raises InvalidNotation naming it, with suggestions."""
    if not isinstance(text, str):
        raise InvalidNotation(_("a card token must be text, not {value!r}").format(value=text))
    if "/" in text:
        key = _mercenary_key(text)
        found = _MERCENARY_INDEX.get(key) if key is not None else None
        if found is not None:
            return found
    else:
        found = _INDEX.get(normalize(text))
        if found is not None:
            return found
    near = suggestions(text)
    if near:
        # Translators: a card token typed wrong; {tokens}: the nearest tokens (notation).
        raise InvalidNotation(_("unknown card token {text!r}; did you mean {tokens}?").format(
            text=text, tokens=", ".join(near)))
    raise InvalidNotation(_("unknown card token {text!r}").format(text=text))


def format_token(card: Card) -> str:
    """The canonical token of a card: parse_token(format_token(c)) is c."""
    return card.token


def parse_suit(text: str) -> Suit:
    try:
        return Suit.parse(text)
    except ValueError as exc:
        raise InvalidNotation(str(exc)) from None
