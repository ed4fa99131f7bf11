"""Pure HTML rendering of cards, coins, columns and tables (no widgets, no state).

Every function takes plain data (card tokens, an observation dict) and returns an
HTML string with inline styles, so the same pictures work in JupyterLab, Voila and
a test that only reads ``widget.value``.
"""

from __future__ import annotations

import functools
import html
import itertools
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from nidavellir import cards as C
from nidavellir.card_text import ability, source
from nidavellir.cards import Card, Kind
from nidavellir.errors import InvalidNotation
from nidavellir.events import is_you
from nidavellir.i18n import N_, _, clauses, count, labelled
from nidavellir.i18n import language as i18n_language
from nidavellir.names import (
    COMPONENT,
    card_name,
    hero_title,
    hero_with_title,
    name,
    score_line,
    tavern_name,
)
from nidavellir.scoring import CATEGORY_LABELS
from nidavellir.tokens import parse_token

from .hyphenation import syllable_breaks
from .style import CLASS_COLOURS, CLASS_LETTERS, SMALL_TILE, TILE

esc = html.escape

#: Font sizes a tile's name (normal, small tile) and caption may take, largest first: the
#: largest whose longest word fits the tile's width is used, so no word breaks inside a tile.
HEAD_SIZES = {False: (18, 12, 11, 10, 9, 8, 7), True: (14, 10, 9, 8, 7)}
#: The kinds of card a tile shows by name (the others by their token).
NAMED_KINDS = frozenset((Kind.HERO, Kind.ARTIFACT, Kind.DISTINCTION, Kind.OLWYN_DOUBLE))
CAPTION_SIZES = (9, 8, 7)
#: The most lines a caption broken inside its words may take (three at the least size
#: fit a small tile under a name of one line).
CAPTION_LINES = 3
#: A column's title: its sizes, largest first, and the width it has (the stylesheet's
#: .nid-column, 74 px, less a margin).
COLUMN_TITLE_SIZES = (10, 9, 8)
#: The sizes of a column's figures (its ranks and points under its name), largest first.
COLUMN_SCORE_SIZES = (10, 9, 8)
COLUMN_WIDTH = 72
#: A tile's padding and border, left and right, in pixels (the stylesheet's .nid-card).
TILE_PADDING = 7

#: Glyph widths of the browsers' default sans-serif on the lab's machines (DejaVu Sans, one
#: of the widest, measured in Chromium at 100 px): normal and bold. Unknown glyphs count as
#: the widest.
_GLYPHS = ("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,'&/+-×()!?:;"
           "åäöüéèêëïîçñáóíúûôâàÅÄÖÜÉÆæøØðÐþ*")
_WIDTHS = {
    False: dict(zip(_GLYPHS, (
        61, 63, 55, 63, 62, 35, 63, 63, 28, 28, 58, 28, 97, 63, 61, 63, 63, 41, 52, 39, 63, 59,
        82, 59, 59, 52, 68, 69, 70, 77, 63, 58, 77, 75, 29, 29, 66, 56, 86, 75, 79, 60, 79, 69,
        63, 61, 73, 68, 99, 69, 61, 69, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 32, 32, 32, 27,
        78, 34, 84, 36, 84, 39, 39, 40, 53, 34, 34, 61, 61, 61, 63, 62, 62, 62, 62, 28, 28, 55,
        63, 61, 61, 28, 63, 63, 61, 61, 61, 68, 68, 79, 73, 63, 97, 98, 61, 79, 61, 77, 63, 50),
        strict=True)),
    True: dict(zip(_GLYPHS, (
        67, 72, 59, 72, 68, 44, 72, 71, 34, 34, 67, 34, 104, 71, 69, 72, 72, 49, 60, 48, 71, 65,
        92, 65, 65, 58, 77, 76, 73, 83, 68, 68, 82, 84, 37, 37, 77, 64, 100, 84, 85, 73, 85, 77,
        72, 68, 81, 77, 110, 77, 72, 73, 70, 70, 70, 70, 70, 70, 70, 70, 70, 70, 35, 38, 38, 31,
        87, 37, 84, 42, 84, 46, 46, 46, 58, 40, 40, 67, 67, 69, 71, 68, 68, 68, 68, 34, 34, 59,
        71, 67, 69, 34, 71, 71, 69, 67, 67, 77, 77, 85, 81, 68, 108, 105, 69, 85, 69, 84, 72, 52),
        strict=True)),
}


def text_width(text: str, px: float, *, bold: bool = False) -> float:
    """The width in pixels of ``text`` at ``px`` in the default sans-serif (an estimate on
    the wide side for other fonts)."""
    widths = _WIDTHS[bold]
    return sum(widths.get(ch, 110) for ch in text) * px / 100


#: Where a word too long for its tile may break: the browser breaks a line there only
#: when it must, and shows a hyphen (a soft hyphen).
SOFT_HYPHEN = "\u00ad"

def hyphenate(text: str, width: float, px: float, *, bold: bool = False,
              language: str | None = None) -> str:
    """``text`` with each word too wide for ``width`` given break points (soft hyphens),
    so that every piece, with its hyphen, fits: the whole name is shown on two or more
    lines, never cut. A word breaks between its syllables where the reader's language
    (default: the current one) has a dictionary (``Jagdtro-`` / ``phäe``, ``Doppel-`` /
    ``gänger``), after its own hyphen or a middle dot (``Joaillier·`` / ``ère``), and
    inside a syllable only where the syllables would take two lines more
    (:func:`_hyphenated`)."""
    code = i18n_language() if language is None else language
    return " ".join(_hyphenated(word, width, px, bold, code) for word in text.split())


#: What a break inside a syllable costs, in lines: one more line is worth avoiding one
#: (``Uner-`` / ``schütter-`` / ``licher`` rather than ``Unerschü-`` / ``tterlicher``),
#: two more are not.
INSIDE_A_SYLLABLE = 1.5
#: Where a line may break inside a word with nothing drawn: after a hyphen (the browser
#: breaks there by itself) and after a middle dot (a zero-width space marks it).
FREE_BREAKS = {"-": "", "·": "\u200b"}
ZERO_WIDTH_SPACE = "\u200b"


@functools.cache
def _hyphenated(word: str, width: float, px: float, bold: bool, code: str) -> str:
    """One word broken at the least cost: a line each, :data:`INSIDE_A_SYLLABLE` for a
    break inside a syllable; of equal costs the fewer lines, then the more even pieces
    (the least sum of their widths squared: ``Doppel-`` / ``gänger``, not ``Doppelgän-``
    / ``ger``)."""
    if text_width(word, px, bold=bold) <= width or len(word) <= 2:
        return word
    hyphen = text_width("-", px, bold=bold)
    syllables = set(syllable_breaks(word, code))
    n = len(word)

    def free(j: int) -> bool:  # a break after the word's own hyphen or middle dot
        return word[j - 1] in FREE_BREAKS and j < n and word[j].isalpha()

    # best[i]: (cost, lines, the pieces' widths squared, the next cut) from i on.
    best: list[tuple[float, int, float, int] | None] = [None] * (n + 1)
    best[n] = (0.0, 0, 0.0, n)
    for i in range(n - 1, -1, -1):
        for j in range(n, i, -1):
            after = best[j]
            drawn = text_width(word[i:j], px, bold=bold)
            piece = drawn + (hyphen if j < n and not free(j) else 0.0)
            if after is None or (piece > width and j > i + 1):
                continue
            inside = 0.0 if j == n or j in syllables or free(j) else INSIDE_A_SYLLABLE
            here = (after[0] + 1 + inside, after[1] + 1, after[2] + drawn * drawn, j)
            now = best[i]
            if now is None or here[:3] < now[:3]:
                best[i] = here
    out, i = "", 0
    while i < n:
        step = best[i]
        assert step is not None  # a piece of one letter always fits
        j = step[3]
        out += word[i:j] + ("" if j == n else FREE_BREAKS[word[j - 1]] if free(j)
                            else SOFT_HYPHEN)
        i = j
    return out


#: A number and the word after it («7 MW», «2 ranks») kept on one line: the space between
#: them made a no-break space where a caption is broken over lines.
NUMBER_WITH_ITS_WORD = re.compile(r"(\d) (?=\S)")
NO_BREAK_SPACE = "\u00a0"


def syllables_marked(text: str, width: float, px: float, *, bold: bool = False,
                     language: str | None = None) -> str:
    """``text`` with a soft hyphen at every break between syllables of its words too wide
    for ``width`` (the browser breaks at the one that fills the line: «2 Rangab-» /
    «zeichen · 7 MW»), and inside a syllable too wide alone (:func:`hyphenate`'s cuts). For
    a line of several words, where :func:`hyphenate` breaks one name."""
    code = i18n_language() if language is None else language
    out = []
    for word in text.split(" "):
        if _width(word, px, bold) <= width:
            out.append(word)
            continue
        parts = []
        for part in word.split(NO_BREAK_SPACE):
            edges = [0, *syllable_breaks(part, code), len(part)]
            parts.append(SOFT_HYPHEN.join(_hyphenated(part[a:b], width, px, bold, "")
                                          for a, b in itertools.pairwise(edges)))
        out.append(NO_BREAK_SPACE.join(parts))
    return " ".join(out)


def _width(text: str, px: float, bold: bool) -> float:
    """:func:`text_width`, a no-break space as wide as a space, a zero-width one nothing."""
    return text_width(text.replace(NO_BREAK_SPACE, " ").replace(ZERO_WIDTH_SPACE, ""), px,
                      bold=bold)


def line_count(text: str, width: float, px: float, *, bold: bool = False) -> int:
    """The lines ``text`` takes in ``width`` pixels at ``px``, broken as a browser breaks
    it: between words, after a word's own hyphen or at a zero-width space, or at a soft
    hyphen (drawn as a hyphen) where a word does not fit whole on the line it starts, never
    at a no-break space; a piece wider than the line takes a line of its own."""
    space = _width(" ", px, bold)
    hyphen = _width("-", px, bold)
    lines, used = 1, 0.0
    for word in text.split(" "):
        # The word's pieces, each with the hyphen drawn when the line breaks after it.
        pieces: list[tuple[str, float]] = []
        for soft in word.split(SOFT_HYPHEN):
            hard = re.split(r"(?<=-)(?=\w)|\u200b", soft)
            pieces += [(h, 0.0) for h in hard[:-1]] + [(hard[-1], hyphen)]
        pieces[-1] = (pieces[-1][0], 0.0)
        i = 0
        while i < len(pieces):
            lead = space if used else 0.0
            j = len(pieces)
            while j > i and used + lead + _width("".join(t for t, _ in pieces[i:j]), px,
                                                 bold) + pieces[j - 1][1] > width:
                j -= 1
            if j == i:
                if used:  # nothing more fits on this line: the next one
                    lines, used = lines + 1, 0.0
                    continue
                j = i + 1  # wider than a line alone: a line of its own
            used += lead + _width("".join(t for t, _ in pieces[i:j]), px, bold)
            if j < len(pieces):  # broken inside the word: the rest on the next line
                lines, used = lines + 1, 0.0
            i = j
    return lines


def fitting_size(text: str, width: float, sizes: Sequence[int], *,
                 bold: bool = False) -> int | None:
    """The largest of ``sizes`` at which every word of ``text`` fits ``width`` pixels (so
    lines break between words, never inside one); None when none does."""
    words = text.split() or [""]
    for size in sizes:
        if max(text_width(w, size, bold=bold) for w in words) <= width:
            return size
    return None


def card_of(token: str) -> Card | None:
    try:
        return parse_token(token)
    except InvalidNotation:
        return None


def card_colour(card: Card | None, column: str | None = None) -> str:
    """A card's tile colour: its class, or its kind for neutral cards; flexible cards
    (Thrud, Ylud, mercenaries, doubles) take the colour of the column they lie in."""
    if card is None:
        return CLASS_COLOURS["empty"]
    if column is not None and card.flexible:
        return CLASS_COLOURS[column]
    if card.kind is Kind.ROYAL_OFFERING:
        return CLASS_COLOURS["royal"]
    if card.kind is Kind.DISTINCTION:
        return CLASS_COLOURS["distinction"]
    if card.kind is Kind.ARTIFACT:
        return CLASS_COLOURS["artifact"] if card.suit is None else CLASS_COLOURS[card.suit.letter]
    if card.kind is Kind.MERCENARY:
        return CLASS_COLOURS["mercenary"]
    if card.suit is not None:
        return CLASS_COLOURS[card.suit.letter]
    return CLASS_COLOURS["neutral"]


def _background(card: Card | None, column: str | None) -> str:
    if card is not None and card.kind is Kind.MERCENARY and column is None:
        a, b = (CLASS_COLOURS[s.letter] for s, _ in card.sides)
        return f"linear-gradient(135deg, {a} 50%, {b} 50%)"
    return card_colour(card, column)


#: What a card is, under its token where nothing else says it (Olwyn's doubles, artifacts
#: without fixed points).
KIND_CAPTIONS: dict[Kind, str] = {
    Kind.OLWYN_DOUBLE: N_("Olwyn's double"), Kind.ARTIFACT: N_("artifact"),
    Kind.MERCENARY: N_("mercenary"), Kind.HERO: N_("hero"),
}


def _bp(points: int) -> str:
    # Translators: a card's bravery points under its token on a small tile ("9 BP"); keep
    # it short (the rulebooks: Mutwert, Points de Bravoure).
    return _("{points} BP").format(points=points)


def card_caption(card: Card, column: str | None = None) -> str:
    """The small line under a tile's token: bravery points, points or title."""
    if card.kind is Kind.MERCENARY:
        # The class letters are notation (the same in every language).
        return " / ".join(f"{s.letter} {_bp(bp)}" for s, bp in card.sides)
    if card.kind is Kind.ROYAL_OFFERING:
        # Translators: under a Royal Offering's token: it transforms a coin by +3 or +5.
        return _("transform +{value}").format(value=card.value)
    if column is not None and card.flexible:
        ranks, bp = card.column_value(C.Suit.parse(column))
        return _bp(bp)
    if card.kind is Kind.DWARF or card.kind is Kind.SPECIAL_BLACKSMITH:
        if card.suit is not None and card.suit.letter in "HB":
            return count(card.ranks, "{n} rank", "{n} ranks")
        return _bp(card.bravery_points)
    if card.is_class_hero:
        # Translators: a class hero's ranks and bravery points under its name on a tile,
        # 55 pixels wide (41 on a small one): a word too wide is broken between its
        # syllables, and the number stays with the word after it.
        return _("{ranks} ranks, {points} BP").format(ranks=card.ranks, points=card.bravery_points) \
            if card.ranks > 1 else _bp(card.bravery_points)
    if card.points:
        # Translators: a card's fixed points at the end, under its name on a tile ("17 pts").
        return _("{points} pts").format(points=card.points)
    if card.kind is Kind.DISTINCTION:
        return ""  # its name says it
    return hero_title(card) if card.title else _(KIND_CAPTIONS.get(card.kind, card.kind.value))


def html_message(message: str, **parts: str) -> str:
    """A translated sentence as HTML: the sentence escaped, then its placeholders filled
    with ``parts``, which are HTML already (a button's name in bold, a move in code)."""
    out = html.escape(message, quote=False)  # text, never an attribute
    for key, value in parts.items():
        out = out.replace("{" + key + "}", value)
    return out


def capital(text: str) -> str:
    """A name at the head of a section: "purse" -> "Purse", "bourse" -> "Bourse"."""
    return text[:1].upper() + text[1:]


def card_info_html(card: Card, *, later: str = "") -> str:
    """A card's explanation: name and title, what it does, where the rulebook says so."""
    title = hero_with_title(card) if card.title else card_name(card)
    body = (f"<div class='nid-info-name'>{esc(title)}</div>"
            f"<div>{esc(ability(card))}</div>")
    if later:
        # Translators: in a card's explanation, what the card would be worth to the viewer.
        body += (f"<div class='nid-info-later'><i>{esc(_('For you:'))}</i> "
                 f"{esc(later)}</div>")
    body += f"<div class='nid-info-source'>{esc(source(card))}</div>"
    return body


def card_tile(token: str, *, column: str | None = None, disabled: bool = False,
              highlight: bool = False, note: str = "", small: bool = False,
              later: str = "", info: bool = True) -> str:
    """One card as a coloured tile: token (or name), caption, optional note.

    The tile explains itself: its tooltip says what the card does, and a click opens the
    card-info panel under it (an HTML ``<details>``: it works in any page, with no kernel
    round trip). ``later`` adds what the card would be worth later for the viewer.
    """
    card = card_of(token)
    classes = "nid-card" + (" nid-card-small" if small else "") + (
        " nid-card-highlight" if highlight else "") + (" nid-card-disabled" if disabled else "")
    if card is None:
        body = f"<div class='nid-card-head'>{esc(token)}</div>"
        title = token
    else:
        head = card_name(card) if card.kind in NAMED_KINDS else card.token
        inner = (SMALL_TILE if small else TILE)[0] - TILE_PADDING
        size = fitting_size(head, inner, HEAD_SIZES[small], bold=True)
        if size is None:  # too long even at the least size: broken over lines, never cut
            size = HEAD_SIZES[small][-1]
            head = hyphenate(head, inner, size, bold=True)
        caption = card_caption(card, column)
        if caption.casefold() == card_name(card).casefold():
            caption = ""  # the name again (Olwyn's double: «Olwyns Doppelgänger»)
        # A number stays on the line of the word after it («7 MW», «2 Rangabzeichen»).
        caption = NUMBER_WITH_ITS_WORD.sub("\\1" + NO_BREAK_SPACE, caption)
        caption_size = next((px for px in CAPTION_SIZES if all(
            _width(w, px, False) <= inner for w in caption.split(" "))), None)
        if caption_size is None and caption:
            # A word too long for the tile («2 Rangabzeichen · 7 MW»): broken between its
            # syllables at the least size, where that takes few enough lines; else left out
            # (the tooltip and the card's panel say it).
            caption_size = CAPTION_SIZES[-1]
            caption = syllables_marked(caption, inner, caption_size)
            if line_count(caption, inner, caption_size) > CAPTION_LINES:
                caption, caption_size = "", None
        size_style = f" style='font-size:{caption_size}px'" if caption_size != 9 and caption else ""
        body = (f"<div class='nid-card-head' style='font-size:{size}px'>{esc(head)}</div>"
                f"<div class='nid-card-caption'{size_style}>{esc(caption)}</div>")
        title = hero_with_title(card) if card.title else card_name(card)
        title = labelled(title, ability(card))
        if later:
            title += " " + _("For you:") + " " + later
    if note:
        body += f"<div class='nid-card-note'>{esc(note)}</div>"
    # The card's colour is its one style of its own: the stylesheet has the rest.
    tile = (f"<div class='{classes}' title='{esc(title)}' "
            f"style='background:{_background(card, column)}'>{body}</div>")
    if card is None or not info:
        return tile
    panel = "<div class='nid-card-info'>" + card_info_html(card, later=later) + "</div>"
    return f"<details class='nid-card-details'><summary>{tile}</summary>{panel}</details>"


def coin_html(label: str | None, *, hidden: bool = False, kind: str = "") -> str:
    """A coin as a small round badge; ``?`` for a hidden bid, blank for none."""
    if label is None:
        return "<span class='nid-coin-none'></span>"
    colour = "#7f8c8d" if hidden else ("#16a085" if label.endswith("*") else "#f4d03f")
    text = "#fff" if hidden or label.endswith("*") else "#3b2f00"
    return (f"<span class='nid-coin' title='{esc(kind)}' "
            f"style='background:{colour};color:{text}'>{esc(label)}</span>")


# ---------------------------------------------------------------- what changed

#: The colour that marks what changed since the previous position (the walkthroughs).
HIGHLIGHT = "#f1c40f"


def _mark(html_tile: str) -> str:
    return f"<span class='nid-changed nid-changed-tile'>{html_tile}</span>"


def mark_coin(html_coin: str) -> str:
    """A coin outlined as changed."""
    return f"<span class='nid-changed nid-changed-coin'>{html_coin}</span>"


def tiles(tokens: Sequence[str], before: Sequence[str] | None = None, *, small: bool = False,
          column: str | None = None) -> str:
    """Tiles of ``tokens``; with ``before`` (the same place in the previous position), those
    not in it (as a multiset) are highlighted and marked ``nid-changed``."""
    rest = list(before) if before is not None else None
    out = []
    for t in tokens:
        new = False
        if rest is not None:
            if t in rest:
                rest.remove(t)
            else:
                new = True
        tile = card_tile(t, small=small, column=column, highlight=new)
        out.append(_mark(tile) if new else tile)
    return "".join(out)


def gone_tiles(tokens: Sequence[str], before: Sequence[str] | None, note: str | None = None,
               small: bool = True) -> str:
    """Greyed tiles of the cards that left since ``before`` (taken from a tavern, discarded
    from a column, Thrud moved); nothing without ``before``."""
    if before is None:
        return ""
    gone = list(before)
    for t in tokens:
        if t in gone:
            gone.remove(t)
    # Translators: under the greyed tile of a card that left a column (discarded, moved).
    note = _("removed") if note is None else note
    return "".join(_mark(card_tile(t, small=small, disabled=True, note=note)) for t in gone)


def coins_html(labels: Any, before: Any = None) -> str:
    """A hand or a purse: coins, or 'N hidden'; with ``before``, new coins outlined."""
    if not isinstance(labels, list):
        return count(labels, "{n} hidden", "{n} hidden") if labels else "—"
    if before is None:
        return "".join(coin_html(c) for c in labels) or "—"
    rest = list(before) if isinstance(before, list) else []
    out = []
    for lab in labels:
        if lab in rest:
            rest.remove(lab)
            out.append(coin_html(lab))
        else:
            out.append(mark_coin(coin_html(lab)))
    return "".join(out) or "—"


def hall_title(heroes: int) -> str:
    # Translators: the heading of the hero hall (the card holders of the heroes not yet
    # recruited) and how many heroes it holds.
    return _("{hall} ({n})").format(hall=capital(name(COMPONENT, "hero hall")), n=heroes)


def _section(title: str, body: str) -> str:
    return (f"<div class='nid-table-section'><div class='nid-table-section-title'>"
            f"{esc(title)}</div>{body}</div>")


#: The sections of the table, in the order :func:`table_html` draws them.
TABLE_SECTIONS = ("taverns", "camp", "decks", "treasury", "hall", "distinctions")


def table_html(obs: Mapping[str, Any], sections: Sequence[str] = TABLE_SECTIONS,
               before: Mapping[str, Any] | None = None, unheld: str = "—") -> str:
    """The table of an observation: taverns, camp, decks, treasury, hall, distinctions
    (``sections``: only those, in that order). With ``before`` (the previous observation)
    what changed is marked: new cards highlighted, cards taken from a tavern this round
    greyed, treasury counts that changed outlined. ``unheld``: what a distinction nobody
    holds says."""
    if before is not None:
        return _table_changes(obs, sections, before, unheld)
    names = obs["names"]
    unknown = set(sections) - set(TABLE_SECTIONS)
    if unknown:
        raise ValueError(f"unknown table section(s) {sorted(unknown)}; known: "
                         + ", ".join(TABLE_SECTIONS))
    drawn: dict[str, str] = {}
    taverns = []
    current = obs.get("tavern")
    empty = esc(_("empty"))
    for i, cards in enumerate(obs["taverns"]):
        label = tavern_name(i)
        mark = " " + _("(now)") if current == i else ""
        tiles = "".join(card_tile(t) for t in cards) or f"<i class='nid-empty'>{empty}</i>"
        now = " nid-tavern-now" if current == i else ""
        taverns.append(f"<div class='nid-tavern{now}'>"
                       f"<div class='nid-tavern-name'>{i + 1}. {esc(label)}{esc(mark)}</div>"
                       f"{tiles}</div>")
    drawn["taverns"] = _section(_("Taverns"), "".join(taverns))
    camp = obs.get("camp")
    if camp:
        drawn["camp"] = _section(capital(name(COMPONENT, "camp")),
                                 "".join(card_tile(t) for t in camp))
    # Translators: the cards left in an age's deck ("age 2: 24 cards").
    decks = ", ".join(count(n, "age {age}: {n} card", "age {age}: {n} cards", age=a)
                      for a, n in obs.get("deck_sizes", {}).items())
    discard = obs.get("discard", [])
    top = " ".join(discard[-6:])
    # Translators: the size of the discard pile (a count, not an order): "discard 12 cards".
    in_discard = count(len(discard), "discard {n} card", "discard {n} cards")
    # The last six, after "…" only when cards under them are left out.
    pile = (labelled(in_discard, ("… " if len(discard) > 6 else "") + top) if top
            else in_discard)
    drawn["decks"] = _section(_("Decks"), "<span class='nid-text-small'>"
                              f"{esc(clauses([decks, pile]))}</span>")
    treasury = obs.get("treasury", {})
    coins = "".join(f"<span class='nid-treasury-coin'>{coin_html(v)}"
                    f"<small>×{n}</small></span>" for v, n in treasury.items())
    drawn["treasury"] = _section(
        # Translators: the Royal Treasury's heading and how many coins it holds.
        count(sum(treasury.values()), "{treasury} ({n} coin)", "{treasury} ({n} coins)",
              treasury=name(COMPONENT, "Royal Treasury")), coins or f"<i>{empty}</i>")
    hall = obs.get("hall", [])
    drawn["hall"] = _section(hall_title(len(hall)), "".join(card_tile(t, small=True) for t in hall)
                             or f"<i>{empty}</i>")
    dist = []
    for token, holder in obs.get("distinctions", {}).items():
        who = "—" if holder is None else names[holder]
        dist.append(f"<span class='nid-distinction-held'>"
                    f"{card_tile(token, small=True)}<br><small>{esc(who)}</small></span>")
    drawn["distinctions"] = _section(_("Distinctions"), "".join(dist))
    return "<div class='nid-table'>" + "".join(drawn.get(s, "") for s in sections) + "</div>"


def _table_changes(obs: Mapping[str, Any], sections: Sequence[str],
                   before: Mapping[str, Any], unheld: str) -> str:
    """:func:`table_html` with what changed since ``before`` marked (the walkthroughs)."""
    names = obs["names"]
    drawn: dict[str, str] = {}
    same_round = (before["age"], before["round"]) == (obs["age"], obs["round"])
    empty = esc(_("empty"))
    taverns = []
    for i, cards in enumerate(obs["taverns"]):
        prev = before["taverns"][i]
        current = obs.get("tavern") == i
        body = tiles(cards, prev)
        if same_round:
            # Translators: under a card greyed out in a tavern: a player took it.
            body += gone_tiles(cards, prev, note=_("taken"), small=False)
        body = body or f"<i class='nid-empty'>{empty}</i>"
        taverns.append(f"<div class='nid-tavern{' nid-tavern-now' if current else ''}'>"
                       f"<div class='nid-tavern-name'>{i + 1}. {esc(tavern_name(i))}"
                       f"{' ' + esc(_('(now)')) if current else ''}</div>{body}</div>")
    # Translators: above the taverns: where the game is.
    when = _("Age {age}, round {round}").format(age=obs["age"], round=obs["round"])
    drawn["taverns"] = (f"<div class='nid-table-head'>{esc(when)}</div>" + "".join(taverns))
    if "thingvellir" in obs.get("expansions", []):
        left = obs.get("camp_deck_sizes", {}).get(str(obs["age"]), 0)
        camp = tiles(obs.get("camp", []), before.get("camp"), small=True)
        deck = count(left, "{n} card left in the age-{age} camp deck",
                     "{n} cards left in the age-{age} camp deck", age=obs["age"])
        drawn["camp"] = (f"<div class='nid-wt-camp'><b>{esc(capital(name(COMPONENT, 'camp')))}"
                         f"</b> <small>({esc(deck)})</small><br>"
                         f"{camp or f'<i>{empty}</i>'}</div>")
    treasury = obs.get("treasury", {})
    prev_t = before.get("treasury", {})
    coins = []
    for v, n in treasury.items():
        cls = " nid-changed nid-changed-count" if prev_t.get(v) != n else ""
        coins.append(f"<span class='nid-treasury-coin{cls}'>{coin_html(v)}<small>×{n}</small>"
                     "</span>")
    drawn["treasury"] = (f"<div class='nid-section'><b>{esc(name(COMPONENT, 'Royal Treasury'))}"
                         f"</b> {''.join(coins)}</div>")
    hall = obs.get("hall", [])
    drawn["hall"] = (f"<div class='nid-wt-hall nid-section'><b>{esc(hall_title(len(hall)))}</b>"
                     f"<br>{tiles(hall, before.get('hall'), small=True) or f'<i>{empty}</i>'}"
                     "</div>")
    dist = []
    for token, holder in obs.get("distinctions", {}).items():
        who = unheld if holder is None else names[holder]
        dist.append(f"<span class='nid-distinction'>{card_tile(token, small=True)}<br>"
                    f"<small>{esc(who)}</small></span>")
    drawn["distinctions"] = (f"<div class='nid-wt-distinctions nid-section'><b>"
                             f"{esc(_('Distinctions'))}</b><br>{''.join(dist)}</div>")
    return ("<div class='nid-table'>" + "".join(drawn.get(s, "") for s in sections)
            + "</div>")


#: A column's class letter -> its line of the score sheet.
SHEET_LINE = {"W": "warriors", "H": "hunters", "M": "miners", "B": "blacksmiths",
              "E": "explorers"}


def column_title(letter: str) -> str:
    """A column's heading, its line of the score sheet ("Warriors", "Krieger",
    "Guerrier·ère·s")."""
    return score_line(CATEGORY_LABELS[SHEET_LINE[letter]])


def sheet_points(breakdown: Mapping[str, int]) -> dict[str, int]:
    """What each column is worth on the score sheet now (its line: the warriors' with the
    majority bonus, the explorers' with Idunn), by class letter: every surface that draws
    a board (Play, Replay, What-if, the walkthroughs) reads its column figures from here,
    so the same position shows the same points everywhere."""
    return {letter: breakdown[line] for letter, line in SHEET_LINE.items()}


def _smaller(text: str, sizes: Sequence[int], *, bold: bool = False) -> str:
    """The font size (CSS) at which every word of ``text`` fits a column, where the first
    of ``sizes`` (the stylesheet's) does not; the least when none does; else nothing."""
    size = fitting_size(text, COLUMN_WIDTH, sizes, bold=bold) or sizes[-1]
    return f"font-size:{size}px" if size != sizes[0] else ""


def column_html(letter: str, tokens: Sequence[str], ranks: int, *, points: int,
                shown: int | None = None, before: Sequence[str] | None = None) -> str:
    """One army column, bottom card first, under a header with its ranks and what it is
    worth on the score sheet now (``points``, the sheet's figure: :func:`sheet_points`).
    ``shown``: only the top cards as tiles (the header still counts the whole column)."""
    tiles_of = tokens if shown is None else tokens[-shown:]
    hidden = len(tokens) - len(tiles_of)
    if before is None:
        body = "".join(card_tile(t, column=letter, small=True) for t in tiles_of)
    else:  # what changed since the previous position: new cards marked, gone ones greyed
        body = tiles(tokens, before, small=True, column=letter) + gone_tiles(tokens, before)
        hidden = 0
    if hidden:
        # Translators: at the top of a column shown in part: the cards under those shown.
        more = count(hidden, "+{n} below", "+{n} below")
        body = f"<div class='nid-column-more'>{esc(more)}</div>" + body
    colour = CLASS_COLOURS[letter]
    # Translators: the tooltip of a column's header ("2 ranks · 12 points").
    tip = _("ranks, and what the column is worth on the score sheet now")
    ranks_text = count(ranks, "{n} rank", "{n} ranks")
    points_text = count(points, "{n} point", "{n} points")
    title = column_title(letter)
    # The largest size at which each part of the title fits the column; a French title
    # breaks after its middle dots (Explorateur·rice·s).
    parts = title.replace("·", "· ")
    smaller = _smaller(parts, COLUMN_TITLE_SIZES, bold=True)
    sized = f";{smaller}" if smaller else ""
    if fitting_size(title, COLUMN_WIDTH, COLUMN_TITLE_SIZES, bold=True) is None:
        # Too long on one line (French): it may break after its middle dots.
        sized += ";white-space:normal;line-height:1.15"
    # Its figures a size smaller where a word is wider than the column (Rangabzeichen).
    smaller = _smaller(f"{ranks_text} {points_text}", COLUMN_SCORE_SIZES)
    score_style = f" style='{smaller}'" if smaller else ""
    return (f"<div class='nid-column' style='border-top-color:{colour}'>"
            f"<div class='nid-column-name' style='color:{colour}{sized}'>"
            f"{esc(title).replace('·', '·&#8203;')}</div>"
            f"<div class='nid-column-score' title='{esc(tip)}'{score_style}>{esc(ranks_text)} · "
            f"{esc(points_text)}</div>"
            f"{body}</div>")


def marks_html(marks: Mapping[str, Any]) -> str:
    """What the player's cards remember (the observation's ``marks``), one tag each: the
    card's name, and the value it holds unless it is a plain mark ("Gulli: 5")."""
    tags = []
    for token, value in marks.items():
        card = card_of(token)
        shown = card_name(card) if card is not None else token
        # Translators: what a card remembers, on a player's board ("Gulli: 5"); {value} is
        # notation (a coin, a class letter).
        text = shown if value is True else _("{card}: {value}").format(card=shown, value=value)
        tip = ability(card) if card is not None else ""
        tags.append(f" &nbsp; <span class='nid-mark' title='{esc(tip)}'><b>{esc(text)}</b></span>")
    return "".join(tags)


def board_html(player: Mapping[str, Any], *, to_move: bool = False, viewer: bool = False,
               score: int | None = None, points: Mapping[str, int],
               compact: bool = False, before: Mapping[str, Any] | None = None) -> str:
    """A player board from the observation's ``players`` entry; ``points``: what each
    column is worth on the score sheet now, by class letter (the column headers).
    ``compact``: an opponent's board in less room (each column's top two cards as tiles,
    the headers still count the whole column). ``before``: the same player in the previous
    position; what changed is marked (new cards and coins, cards gone, the gem)."""
    if before is not None:
        return _board_changes(player, before, viewer=viewer, points=points)
    player_name = player["name"]
    flags = []
    if viewer and not is_you(player_name):  # "You, you": said once
        # Translators: beside the viewer's own name on their board.
        flags.append(_("you"))
    if to_move:
        # Translators: beside the name of the player whose decision it is.
        flags.append(_("to decide"))
    head = (f"<b class='nid-board-name'>{esc(player_name)}</b> "
            f"<small>{esc(', '.join(flags))}</small>")
    head += " " + gem_html(player["gem"], "nid-gem nid-gem-spaced")
    if score is not None:
        # Translators: beside a player's name: their score if the game ended now.
        now = esc(_("score now: {score}")).replace("{score}", f"<b>{score}</b>")
        head += f" <small class='nid-score-now'>{now}</small>"
    bids = "".join(coin_html(b, hidden=(b == "?")) for b in player["bids"])
    hand = player["hand"]
    purse = player["purse"]
    uline = (" &nbsp; <b>" + esc(_("Uline bids after the reveal")) + "</b>"
             if C.ULINE.token in player["command_zone"] else "")
    coins = (f"<div class='nid-board-coins'>{coin_places(bids, coins_html(hand), coins_html(purse))}"
             f"{uline}{marks_html(player.get('marks', {}))}</div>")
    columns = "".join(column_html(letter, player["army"][letter], player["ranks"][letter],
                                  points=points[letter],
                                  shown=2 if compact else None)
                      for letter in CLASS_LETTERS)
    zone = "".join(card_tile(t, small=True) for t in player["command_zone"]) or \
        f"<i class='nid-text-small nid-empty'>{esc(_('empty'))}</i>"
    zone_name = esc(capital(name(COMPONENT, "command zone")))
    lines = ("<div class='nid-text-small'>"
             + count(player["lines"], "{n} complete line", "{n} complete lines") + ", "
             + count(player["heroes"], "{n} hero", "{n} heroes") + "</div>")
    framed = "nid-board nid-board-framed" + (" nid-board-to-move" if to_move else "")
    if compact:
        return (f"<div class='{framed} nid-board-compact'>{head}{coins}{lines}"
                f"<div>{columns}</div><div class='nid-board-zone-line'><small>{zone_name}"
                f"</small> {zone}</div></div>")
    return (f"<div class='{framed}'>{head}{coins}{lines}<div>{columns}</div>"
            f"<div class='nid-board-zone-below'><small>{zone_name}</small><br>{zone}</div></div>")


def _board_changes(player: Mapping[str, Any], before: Mapping[str, Any], *, viewer: bool,
                   points: Mapping[str, int]) -> str:
    """:func:`board_html` with what changed since ``before`` marked (the walkthroughs)."""
    gem = player["gem"]
    gem_cls = " nid-changed nid-changed-gem" if before["gem"] != gem else ""
    you = f" <small>({esc(_('you'))})</small>" if viewer else ""
    head = (f"<b class='nid-board-name'>{esc(player['name'])}</b>{you} "
            + gem_html(gem, "nid-gem" + gem_cls))
    bids = ""
    for i, b in enumerate(player["bids"]):
        coin = coin_html(b, hidden=(b == "?"))
        if before["bids"][i] != b and b is not None:
            coin = mark_coin(coin)
        bids += coin
    coins = ("<div class='nid-board-coins'>"
             + coin_places(bids, coins_html(player["hand"], before["hand"]),
                           coins_html(player["purse"], before["purse"])) + "</div>")
    columns = "".join(column_html(letter, player["army"][letter], player["ranks"][letter],
                                  points=points[letter],
                                  before=before["army"][letter])
                      for letter in CLASS_LETTERS)
    zone = tiles(player["command_zone"], before["command_zone"], small=True)
    zone_name = esc(capital(name(COMPONENT, "command zone")))
    return (f"<div class='nid-board'>{head}{coins}<div>{columns}"
            f"<span class='nid-board-zone'><small>{zone_name}</small><br>{zone or '—'}"
            "</span></div></div>")


def gem_html(gem: int, classes: str) -> str:
    # Translators: a player's gem on their board ("gem 3"); the tooltip is the word alone.
    word, shown = _("gem"), _("gem {gem}").format(gem=gem)
    return f"<span class='{classes}' title='{esc(word)}'>{esc(shown)}</span>"


def coin_places(bids: str, hand: str, purse: str) -> str:
    """A board's coins: on the taverns (the bids), in hand, in the purse (the rulebooks'
    Goldsack, bourse); the coins are HTML already."""
    # Translators: the coins on a board: bids (on the taverns), hand, purse; the
    # placeholders are the coins, drawn as badges.
    return (esc(_("bids {bids}   hand {hand}   purse {purse}"))
            .replace("   ", " &nbsp; ").replace("{bids}", bids).replace("{hand}", hand)
            .replace("{purse}", purse))


def log_html(lines: Iterable[str], last: int | None = None) -> str:
    """The game log: decisions in notation in bold, what followed indented."""
    rows = list(lines)
    if last is not None and len(rows) > last:
        rows = rows[-last:]
    out = []
    for line in rows:
        if line.startswith("["):
            out.append(f"<div class='nid-log-decision'>{esc(line)}</div>")
        else:
            out.append(f"<div class='nid-log-event'>{esc(line.strip())}</div>")
    return "<div class='nid-log'>" + "".join(out) + "</div>"
