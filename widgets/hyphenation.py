"""Where a word may break between its syllables, in each language of the lab
(docs/translating.md, "Names on small tiles").

The points are the hyphenation dictionaries' of LibreOffice, read by pyphen (``en_US``,
``de_DE``, ``fr``). Reading the German dictionary costs about half a second of CPU, in
every kernel that would break a name: so the points of every word a card's tile may break
(its name, its caption) in every language are kept in ``hyphenation.json`` beside this
module, written from the dictionaries, and a dictionary is read only for a word the file
lacks (a plugin's card).
``tests/test_hyphenation.py`` fails when the file is not what the dictionaries and the
catalogues give now; write it again with

    python -m widgets.hyphenation
"""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Sequence
from pathlib import Path

import pyphen

from nidavellir import cards as C
from nidavellir.cards import Kind
from nidavellir.i18n import using
from nidavellir.names import card_name

#: The hyphenation dictionary of each language of the lab (pyphen's): the pseudo-language
#: and any other have none.
DICTIONARIES = {"en": "en_US", "de": "de_DE", "fr": "fr"}

#: The kept points: language -> word -> the dictionary's break points.
TABLE = Path(__file__).with_name("hyphenation.json")

#: A piece between two break points must hold one of these.
VOWELS = frozenset("aeiouyäöüàâéèêëîïôûùœæ")


@functools.cache
def _dictionary(code: str) -> pyphen.Pyphen | None:
    name = DICTIONARIES.get(code)
    return pyphen.Pyphen(lang=name) if name else None


@functools.cache
def _kept() -> dict[str, dict[str, list[int]]]:
    try:
        data = json.loads(TABLE.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}  # read from the dictionaries, word by word
    return data if isinstance(data, dict) else {}


def dictionary_points(word: str, code: str) -> list[int]:
    """The dictionary's break points of ``word`` in language ``code`` (none without one)."""
    found = _dictionary(code)
    return list(found.positions(word)) if found is not None else []


def syllable_breaks(word: str, code: str) -> list[int]:
    """Where ``word`` may be broken in language ``code``, as its typesetters break it
    (``Jagdtrophäe`` in German: after ``Jagd`` and ``Jagdtro``): the dictionary's points,
    less any that would leave a piece without a vowel (the German patterns give
    ``Unerschütte-r-licher``; the ``r`` goes with the syllable before it) and any beside a
    hyphen (``Dwerg-Brüder`` breaks after its own). None for a language without a
    dictionary."""
    if code not in DICTIONARIES:
        return []
    raw = _kept().get(code, {}).get(word)
    points = [0, *(raw if raw is not None else dictionary_points(word, code)), len(word)]
    kept = [0]
    for start, end in zip(points[1:-1], points[2:], strict=True):
        if any(ch.lower() in VOWELS for ch in word[start:end]) and "-" not in (
                word[start - 1], word[start]):  # a line breaks after a hyphen anyway
            kept.append(start)
    return kept[1:]


def named_cards() -> list[C.Card]:
    """The cards a tile shows by name (heroes, artifacts, distinctions, Olwyn's doubles)."""
    return [c for c in dict.fromkeys(C.ALL_CARDS)
            if c.kind in (Kind.HERO, Kind.ARTIFACT, Kind.DISTINCTION, Kind.OLWYN_DOUBLE)]


def tile_words() -> set[str]:
    """Every word a card's tile may break, in the current language: the words of the named
    cards' names and of every card's caption (its ranks and points, a hero's title)."""
    from .render import card_caption  # the tiles' module imports this one

    text = [card_name(c) for c in named_cards()] + [card_caption(c) for c in C.ALL_CARDS]
    return {w for t in text for w in t.split()}


def table_now() -> dict[str, dict[str, list[int]]]:
    """The points of every word a tile may break, in every language, from the dictionaries
    and the catalogues as they are now."""
    table: dict[str, dict[str, list[int]]] = {}
    for code in sorted(DICTIONARIES):
        with using(code):
            words = sorted(tile_words())
        table[code] = {w: dictionary_points(w, code) for w in words}
    return table


def table_text(table: dict[str, dict[str, list[int]]]) -> str:
    """The file's text: a word and its points on each line."""
    def dumps(x: object) -> str:
        return json.dumps(x, ensure_ascii=False)

    languages = [dumps(code) + ": {\n" + ",\n".join(
        f"  {dumps(w)}: {dumps(points)}" for w, points in sorted(words.items())) + "\n }"
        for code, words in sorted(table.items())]
    return "{\n " + ",\n ".join(languages) + "\n}\n"


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args:
        print("usage: python -m widgets.hyphenation  (writes widgets/hyphenation.json)",
              file=sys.stderr)
        return 2
    TABLE.write_text(table_text(table_now()), encoding="utf-8")
    print(f"wrote {TABLE}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
