"""Writes ``widgets/hyphenation.json``: the break points of every word a card's tile may
break, in every language, from the dictionaries and the catalogues as they are now
(:mod:`widgets.hyphenation`; docs/translating.md, "Names on small tiles").

    python -m widgets.hyphenation_file
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence

from nidavellir import cards as C
from nidavellir.i18n import using
from nidavellir.names import card_name

from .hyphenation import DICTIONARIES, PUNCTUATION, TABLE, dictionary_points
from .render import NAMED_KINDS, card_caption


def named_cards() -> list[C.Card]:
    """The cards a tile shows by name (heroes, artifacts, distinctions, Olwyn's doubles)."""
    return [c for c in dict.fromkeys(C.ALL_CARDS) if c.kind in NAMED_KINDS]


def tile_words() -> set[str]:
    """Every word a card's tile may break, in the current language: the words of the named
    cards' names and of every card's caption (its ranks and points, a hero's title)."""
    text = [card_name(c) for c in named_cards()] + [card_caption(c) for c in C.ALL_CARDS]
    return {w.strip(PUNCTUATION) for t in text for w in t.split()} - {""}


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
        print("usage: python -m widgets.hyphenation_file  (writes widgets/hyphenation.json)",
              file=sys.stderr)
        return 2
    TABLE.write_text(table_text(table_now()), encoding="utf-8")
    print(f"wrote {TABLE}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
