"""Where a word may break between its syllables, in each language of the lab
(docs/translating.md, "Names on small tiles").

The points are the hyphenation dictionaries' of LibreOffice, read by pyphen (``en_US``,
``de_DE``, ``fr``). Reading the German dictionary costs about half a second of CPU, in
every kernel that would break a name: so the points of every word a card's tile may break
(its name, its caption) in every language are kept in ``hyphenation.json`` beside this
module, written from the dictionaries, and a dictionary is read only for a word the file
lacks (a plugin's card).
``tests/test_hyphenation.py`` fails when the file is not what the dictionaries and the
catalogues give now; :mod:`widgets.hyphenation_file` writes it again:

    python -m widgets.hyphenation_file
"""

from __future__ import annotations

import functools
import json
import unicodedata
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pyphen

#: The hyphenation dictionary of each language of the lab (pyphen's): the pseudo-language
#: and any other have none.
DICTIONARIES = {"en": "en_US", "de": "de_DE", "fr": "fr"}

#: The kept points: language -> word -> the dictionary's break points.
TABLE = Path(__file__).with_name("hyphenation.json")

#: The artifacts' Old Norse names, the same in every language, break at the joints of
#: their compounds and syllables (Gjallar-horn, Megin-gjörd, Brisinga-mens, Hrafns-merki):
#: a French or English dictionary breaks them as words of its own language («Gjalla-rhorn»).
NORSE: dict[str, list[int]] = {
    "Gjallarhorn": [3, 7], "Megingjörd": [2, 5], "Megingjord": [2, 5],
    "Brisingamens": [3, 5, 8], "Hrafnsmerki": [6, 9],
}

#: A piece between two break points must hold a vowel: one of these, with or without its
#: accent (``ó`` of «Járnglófi», ``å`` of «Båleygr»).
VOWELS = frozenset("aeiouyæœø")
#: What may stand before or after a word without being part of it («grades,», «Pkt.»).
PUNCTUATION = ".,;:!?()«»\"'’"


def is_vowel(ch: str) -> bool:
    return unicodedata.normalize("NFD", ch.lower())[:1] in VOWELS


@functools.cache
def _dictionary(code: str) -> pyphen.Pyphen | None:
    name = DICTIONARIES.get(code)
    if not name:
        return None
    import pyphen  # only where a word is not kept: 12 ms, and its dictionary 0.5 s

    return pyphen.Pyphen(lang=name)


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
    hyphen (``Dwerg-Brüder`` breaks after its own). The word is looked up without the
    punctuation around it; an artifact's Old Norse name has its own points
    (:data:`NORSE`). None for a language without a dictionary."""
    if code not in DICTIONARIES:
        return []
    core = word.strip(PUNCTUATION)  # the dictionaries read «grades,» as «gra-des,»
    if not core:
        return []
    lead = word.index(core)
    raw = NORSE.get(core)
    if raw is None:
        raw = _kept().get(code, {}).get(core)
    points = [0, *(raw if raw is not None else dictionary_points(core, code)), len(core)]
    kept = [0]
    for start, end in zip(points[1:-1], points[2:], strict=True):
        if any(is_vowel(ch) for ch in core[start:end]) and "-" not in (
                core[start - 1], core[start]):  # a line breaks after a hyphen anyway
            kept.append(start)
    return [lead + k for k in kept[1:]]
