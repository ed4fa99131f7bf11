"""A name too long for its tile breaks between its syllables, in the reader's language
(widgets/render.py, :func:`hyphenate`; docs/translating.md, "Names on small tiles").

The browser is given the break points as soft hyphens and shows a hyphen only where it
breaks a line; these tests read the points themselves, for every named card on both tile
sizes in every language of the lab (the layout's browser test checks that the page then
breaks nowhere else)."""

from __future__ import annotations

import html
import itertools
import json
import re
import tomllib
from pathlib import Path

import pytest

from nidavellir import cards as C
from nidavellir.cards import Kind
from nidavellir.i18n import LANGUAGES, PSEUDO, using
from nidavellir.names import card_name
from widgets import hyphenation as Hy
from widgets import hyphenation_file as HyF
from widgets import render as R

NAMED = [c for c in dict.fromkeys(C.ALL_CARDS)
         if c.kind in (Kind.HERO, Kind.ARTIFACT, Kind.DISTINCTION, Kind.OLWYN_DOUBLE)]


def _width(small: bool) -> float:
    return (R.SMALL_TILE if small else R.TILE)[0] - R.TILE_PADDING


def _by_width(word: str, width: float, px: float) -> list[str]:
    """The word cut where the width ends (what the tiles did before syllables)."""
    hyphen = R.text_width("-", px, bold=True)
    pieces, rest = [], word
    while R.text_width(rest, px, bold=True) > width and len(rest) > 2:
        cut = 1
        while cut < len(rest) - 1 and R.text_width(rest[:cut + 1], px, bold=True) + hyphen <= width:
            cut += 1
        pieces.append(rest[:cut])
        rest = rest[cut:]
    return [*pieces, rest]


def _free(word: str, cut: int) -> bool:
    """A break after the word's own hyphen or middle dot: nothing drawn, nothing lost."""
    return word[cut - 1] in "-·" and word[cut].isalpha()


def _least(word: str, width: float, px: float, syllables: set[int]) -> tuple[float, int]:
    """(cost, lines) of the best way to cut ``word`` (a line each, 1.5 for a break inside a
    syllable), by trying every set of up to four cuts."""
    hyphen = R.text_width("-", px, bold=True)
    found = []
    for k in range(5):
        for cuts in itertools.combinations(range(1, len(word)), k):
            edges = [0, *cuts, len(word)]
            widths = [R.text_width(word[a:b], px, bold=True)
                      + (0.0 if b == len(word) or _free(word, b) else hyphen)
                      for a, b in itertools.pairwise(edges)]
            if all(w <= width for w in widths):
                inside = sum(c not in syllables and not _free(word, c) for c in cuts)
                found.append((k + 1 + 1.5 * inside, k + 1))
    assert found, f"{word} needs more than five lines"
    return min(found)


def _cuts(shown: str) -> tuple[str, list[int]]:
    """The word a tile shows and where it marks a break (soft hyphens, zero-width spaces)."""
    word, cuts = "", []
    for ch in shown:
        if ch in "\u00ad\u200b":
            cuts.append(len(word))
        else:
            word += ch
    return word, cuts


def test_a_german_name_breaks_between_its_syllables() -> None:
    # The tiles broke "Jagdtrop-häe" and "Doppelgä-nger" where the width ended.
    small = _width(True)
    size = R.HEAD_SIZES[True][-1]
    assert R.hyphenate("Jagdtrophäe", small, size, bold=True, language="de") == \
        "Jagdtro\u00adphäe"
    assert R.hyphenate("Olwyns Doppelgänger", small, size, bold=True, language="de") == \
        "Olwyns Doppel\u00adgänger"
    # One more line rather than a break inside a syllable ("Unerschü-tterlicher"); on the
    # normal tile, the even pieces ("Unerschütter-licher" was the longest first one).
    assert R.hyphenate("Unerschütterlicher", small, size, bold=True, language="de") == \
        "Uner\u00adschütter\u00adlicher"
    normal, big = _width(False), R.HEAD_SIZES[False][-1]
    assert R.hyphenate("Unerschütterlicher", normal, big, bold=True, language="de") == \
        "Unerschüt\u00adterlicher"
    # After a middle dot, a break with nothing drawn: "Joaillier·" / "ère", not
    # "Joaillier·-" / "ère" (the French dictionary has no points in the word).
    assert R.hyphenate("Joaillier·ère", small, size, bold=True, language="fr") == \
        "Joaillier·\u200bère"
    # An artifact's Old Norse name breaks at its compound's joint in every language (the
    # French patterns gave «Gjalla-rhorn», the English «Meg-ingjord»).
    for code, name, broken in (("fr", "Gjallarhorn", "Gjallar\u00adhorn"),
                               ("en", "Megingjord", "Megin\u00adgjord"),
                               ("de", "Brisingamens", "Brisinga\u00admens")):
        assert R.hyphenate(name, small, size, bold=True, language=code) == broken
    # After the word's own hyphen, the browser breaks by itself: no soft hyphen.
    assert R.hyphenate("Dwerg-Brüder", small, size, bold=True, language="de") == \
        "Dwerg-Brüder"
    # Accented vowels are vowels («Járnglófi»: «gló» is a syllable); punctuation around a
    # word is not part of it («grades,» is read as «grades»).
    assert Hy.syllable_breaks("Járnglófi", "fr") == [4, 7]
    assert Hy.syllable_breaks("grades,", "fr") == Hy.syllable_breaks("grades", "fr") == []
    assert Hy.syllable_breaks("(Rangabzeichen)", "de") == [5, 7, 10]
    assert Hy.syllable_breaks("Dwerg-Brüder", "de") == [9]  # none beside its hyphen
    # A piece without a vowel joins the syllable before it (the German patterns give
    # "Unerschütte-r-licher").
    assert Hy.syllable_breaks("Unerschütterlicher", "de") == [2, 4, 9, 12, 14]


def test_a_language_without_a_dictionary_breaks_where_the_width_ends() -> None:
    assert Hy.syllable_breaks("Jagdtrophäe", PSEUDO) == []
    small, size = _width(True), R.HEAD_SIZES[True][-1]
    shown = R.hyphenate("Jagdtrophäe", small, size, bold=True, language=PSEUDO)
    assert len(shown.split(R.SOFT_HYPHEN)) == len(_by_width("Jagdtrophäe", small, size)) == 2


@pytest.mark.parametrize("code", sorted(LANGUAGES))
@pytest.mark.parametrize("small", [True, False], ids=["small", "normal"])
def test_every_name_fits_its_tile_in_as_few_lines_with_syllables_where_they_fit(
        code: str, small: bool) -> None:
    """Every named card too long for its tile: each piece, with its hyphen, fits; the name
    is whole; it takes no more lines than cut at the width; and of the ways to cut it in
    the fewest lines, it has the fewest breaks inside a syllable (every way tried)."""
    width, size = _width(small), R.HEAD_SIZES[small][-1]
    broken = 0
    with using(code):
        for card in NAMED:
            name = card_name(card)
            if R.fitting_size(name, width, R.HEAD_SIZES[small], bold=True) is not None:
                continue
            for shown in R.hyphenate(name, width, size, bold=True).split(" "):
                whole, cuts = _cuts(shown)
                edges = [0, *cuts, len(whole)]
                pieces = [whole[a:b] for a, b in itertools.pairwise(edges)]
                hyphen = R.text_width("-", size, bold=True)
                assert all(R.text_width(p, size, bold=True)
                           + (0.0 if _free(whole, b) else hyphen) <= width
                           for p, b in zip(pieces[:-1], cuts, strict=True)), (code, shown)
                assert R.text_width(pieces[-1], size, bold=True) <= width, (code, shown)
                assert len(pieces) <= len(_by_width(whole, width, size)) + 1, (code, shown)
                syllables = set(Hy.syllable_breaks(whole, code))
                inside = sum(c not in syllables and not _free(whole, c) for c in cuts)
                assert (len(pieces) + 1.5 * inside, len(pieces)) == _least(
                    whole, width, size, syllables), (code, shown)
                broken += len(pieces) > 1
    # Names do break on the small tiles of every language (on the normal ones, none of the
    # English names is too long).
    assert broken or not small


def test_the_kept_points_are_the_dictionaries_and_catalogues_of_now() -> None:
    """widgets/hyphenation.json holds the points of every word of every named card in
    every language, as the dictionaries give them: `python -m widgets.hyphenation_file` writes
    it again after a name changes in a catalogue."""
    assert HyF.named_cards() == NAMED
    kept = json.loads(Hy.TABLE.read_text(encoding="utf-8"))
    now = HyF.table_now()
    stale = {code: sorted(w for w in {*now[code], *kept.get(code, {})}
                          if now[code].get(w) != kept.get(code, {}).get(w))
             for code in now}
    assert kept == now, ("widgets/hyphenation.json is not what the dictionaries and the "
                         f"catalogues give now: run `python -m widgets.hyphenation_file` ({stale})")
    assert HyF.table_text(now) == Hy.TABLE.read_text(encoding="utf-8")


def test_a_kept_word_is_broken_without_reading_a_dictionary(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Reading the German dictionary costs about half a second of CPU in each kernel: a
    name of the lab's cards is broken from the kept points; only a word the file lacks (a
    plugin's card) reads the dictionary."""
    read: list[str] = []

    def reading(word: str, code: str) -> list[int]:
        read.append(word)
        return [4]

    monkeypatch.setattr(Hy, "dictionary_points", reading)
    R._hyphenated.cache_clear()  # nothing drawn before from a dictionary's points
    assert Hy.syllable_breaks("Jagdtrophäe", "de") == [4, 7]
    assert read == []
    assert Hy.syllable_breaks("Zwergenkönig", "de") == [4]
    assert read == ["Zwergenkönig"]


def test_the_kept_points_are_package_data() -> None:
    # An installed lab breaks the names from the file, not from a dictionary read in
    # every kernel: pyproject ships it.
    pyproject = tomllib.loads((Path(Hy.__file__).parent.parent / "pyproject.toml").read_text(
        encoding="utf-8"))
    assert "hyphenation.json" in pyproject["tool"]["setuptools"]["package-data"]["widgets"]


def test_a_german_class_hero_s_ranks_show_on_a_small_tile() -> None:
    # «2 Rangabzeichen · 7 MW»: the word wider than the tile left the caption out (the
    # German small tiles of Kraal, Aral, Dagda, Aëgur, Bonfur and Zoral showed no ranks).
    width, size = _width(True), R.CAPTION_SIZES[-1]
    with using("de"):
        tile = R.card_tile(C.KRAAL.token, small=True)
    caption = "2\u00a0Rang\u00adab\u00adzei\u00adchen · 7\u00a0MW"
    assert f">{caption}</div>" in tile
    assert R.line_count(caption, width, size) == 3  # «2 Rangab-» «zeichen ·» «7 MW»


def test_lines_are_counted_as_a_browser_breaks_them() -> None:
    px, space = 10, R.text_width(" ", 10)
    one = R.text_width("abcd", px)
    assert R.line_count("abcd abcd", 2 * one + space, px) == 1
    assert R.line_count("abcd abcd", 2 * one, px) == 2
    assert R.line_count("abcd\u00a0abcd", 2 * one, px) == 1  # wider than the line, alone
    assert R.line_count("ab abcd\u00a0abcd", 2 * one + space, px) == 2  # never broken there
    # At a soft hyphen, the hyphen is drawn and counted; after a word's own hyphen, none.
    hyphen = R.text_width("-", px)
    assert R.line_count("ab\u00adcd", R.text_width("ab", px) + hyphen, px) == 2
    # "ab-" wider than the line: it overflows a line of its own, "cd" on the next
    assert R.line_count("ab\u00adcd", R.text_width("ab", px), px) == 2
    assert R.line_count("x ab\u00adcd", R.text_width("ab", px), px) == 3
    assert R.line_count("ab-cd", R.text_width("ab-", px), px) == 2
    # The soft hyphen's width counts: "x ab-" is wider than "x ab".
    assert R.line_count("x ab\u00adcd", R.text_width("x ab", px), px) == 3
    # A zero-width space (after a middle dot) breaks with nothing drawn, and takes no room.
    assert R.line_count("ab·\u200bcd", R.text_width("ab·", px), px) == 2
    assert R.line_count("ab·\u200bcd", R.text_width("ab·cd", px), px) == 1


def test_a_caption_marks_only_its_words_too_wide_and_cuts_a_syllable_too_wide_alone() -> None:
    size = R.CAPTION_SIZES[-1]
    # «Hammer» fits the tile: it keeps its syllables whole (Ham-mer is no break to offer).
    assert R.syllables_marked("Hammer Rangabzeichen", 41, size, language="de") == \
        "Hammer Rang\u00adab\u00adzei\u00adchen"
    # A tile narrower than «zei-»: each syllable is cut where the width ends, too.
    narrow = R.text_width("zei", size) + R.text_width("-", size)
    marked = R.syllables_marked("Rangabzeichen", narrow, size, language="de")
    pieces = marked.split(R.SOFT_HYPHEN)
    assert "".join(pieces) == "Rangabzeichen" and len(pieces) > 4
    assert all(R.text_width(p, size) + R.text_width("-", size) <= narrow for p in pieces[:-1])


def test_a_caption_beyond_its_lines_is_left_out(monkeypatch: pytest.MonkeyPatch) -> None:
    # «2 Rangab-» «zeichen ·» «7 MW» takes three lines: with two allowed, the tile leaves the
    # caption out (the tooltip and the card's panel say it).
    monkeypatch.setattr(R, "CAPTION_LINES", 2)
    with using("de"):
        assert "<div class='nid-card-caption'></div>" in R.card_tile(C.KRAAL.token, small=True)


@pytest.mark.parametrize("code", sorted(LANGUAGES))
def test_every_tile_shows_its_caption_from_the_kept_points(
        code: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every card, on both tile sizes: its caption shown whole (its words, its numbers with
    their words on one line), in at most :data:`CAPTION_LINES` lines where it is broken,
    and no dictionary read to draw it."""

    def reading(word: str, code: str) -> list[int]:
        raise AssertionError(f"the dictionary was read for {word!r} ({code})")

    monkeypatch.setattr(Hy, "dictionary_points", reading)
    R._hyphenated.cache_clear()  # nothing drawn before from a dictionary's points
    broken = 0
    with using(code):
        for card in dict.fromkeys(C.ALL_CARDS):
            caption = R.card_caption(card)
            for small in (True, False):
                tile = R.card_tile(card.token, small=small)
                shown = re.search(r"<div class='nid-card-caption'(?: style='font-size:(\d+)px')?>"
                                  r"([^<]*)</div>", tile)
                assert shown is not None, (card, tile)
                text = html.unescape(shown[2])
                if caption.casefold() == card_name(card).casefold():
                    # The name again (Olwyn's double): not said twice.
                    assert text == "" and card.kind is Kind.OLWYN_DOUBLE, (card, text)
                    continue
                assert text.replace("\u00ad", "").replace("\u00a0", " ") == caption, (card, text)
                assert not re.search(r"\d ", text), (card, text)  # «7 MW» on one line
                if "\u00ad" in text or "\u200b" in text:
                    broken += 1
                    assert shown[1] == str(R.CAPTION_SIZES[-1])
                    assert R.line_count(text, _width(small), R.CAPTION_SIZES[-1]) \
                        <= R.CAPTION_LINES, (card, text)
    assert broken  # German ranks and titles, English and French titles, do break
