"""The German and French messages as a reader sees them: every message that places a name,
rendered with every name of its kind, read for what a careful reader of the rulebooks would
mark (docs/translating.md, "Names in sentences"; docs/glossary.md):

- a capital article inside a sentence («Vous gagnez La Main du Roi»), a small one starting
  it;
- a name without the article its language gives it («Bo erhält Unerschütterlicher Hammer»,
  «Prenez Offrande Royale +3»), unless it stands on its own (a heading, a list, in
  parentheses) or after its frame noun («die Taverne Lachender Drache»);
- French «de», «le», «que» before a vowel without elision, «de le» and «à le»
  uncontracted;
- a German pronoun after a name whose gender the names of its kind do not share
  («Gleichstand, niemand erhält sie» after «Unerschütterlicher Hammer»);
- a move's words inside a sentence that already has its verb («Nimm X statt nimm Y»);
- English words outside names and notation;

and every German and French message for the rulebooks' terms (the glossary page's *not*
columns), the register (French «vous») and French typography (no-break spaces, one
apostrophe). The names and their forms come from the names table
(``nidavellir/locale/names.csv``) exactly as the lab places them
(:class:`nidavellir.names.Phrase`): the test formats each catalogue message as the code
does.
"""

from __future__ import annotations

import functools
import re
import string
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

from nidavellir import cards as C
from nidavellir import names
from nidavellir.i18n import _, using
from nidavellir.names import Phrase, card_name, class_name, tavern_name
from nidavellir.tools import catalogues

ROOT = Path(__file__).resolve().parents[1]
LESSON_FILES = ROOT / "nidavellir" / "lessons" / "files"
GLOSSARY = ROOT / "docs" / "glossary.md"
LANGUAGES = ("de", "fr")
FORMATTER = string.Formatter()

# ====================================================================== the glossary


@functools.cache
def glossary() -> tuple[dict[str, str], ...]:
    """The rows of the glossary page's table (its header names the columns)."""
    text = GLOSSARY.read_text(encoding="utf-8")
    table = [line for line in text.split("## The words", 1)[1].splitlines()
             if line.startswith("|")]
    header = [c.strip() for c in table[0].strip("|").split("|")]
    rows = []
    for line in table[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        rows.append(dict(zip(header, cells, strict=True)))
    return tuple(rows)


LANGUAGE_COLUMN = {"de": "Deutsch", "fr": "Français"}
NOT_COLUMN = {"de": "not in German", "fr": "not in French"}


def words_of(cell: str) -> list[str]:
    """A cell's words: «Held, Heldin» -> ['Held', 'Heldin'] (without «…» quotes and notes
    in parentheses)."""
    cell = re.sub(r"\(.*?\)|«.*?»", "", cell)
    return [w.strip() for w in cell.split(",") if w.strip() and w.strip() != "—"]


def frames(language: str) -> set[str]:
    """The frame nouns (the glossary's rows marked "(frame)"), lower case."""
    return {w.lower() for row in glossary() if "(frame)" in row["English (the lab)"]
            for w in words_of(row[LANGUAGE_COLUMN[language]])}


def banned(language: str) -> list[tuple[str, str]]:
    """(word, the rulebook's word) for every word of a *not* column."""
    return [(w, row[LANGUAGE_COLUMN[language]]) for row in glossary()
            for w in words_of(row[NOT_COLUMN[language]])]


# ====================================================================== the names


def _cards() -> list[C.Card]:
    """One card of every name: each class with and without points, the Royal Offerings, a
    mercenary, every hero, distinction and artifact, the special blacksmith, Olwyn's
    double."""
    seen: dict[str, C.Card] = {}
    everything = (list(C.ALL_CARDS) + list(C.MERCENARIES) + list(C.ARTIFACTS)
                  + list(C.THINGVELLIR_HEROES) + [C.SPECIAL_BLACKSMITH, C.OLWYN_DOUBLE])
    for card in everything:
        key = card.name if card.kind is not C.Kind.MERCENARY else "mercenary"
        seen.setdefault(key, card)
    return list(seen.values())


def moves() -> list[str]:
    """A move in the reader's words, as a decision says it (its own sentence)."""
    return [_("Take {card:acc}").format(card=card_name(C.card("W7"))),
            _("Recruit {hero}").format(hero=card_name(C.KRAAL))]


def kinds() -> dict[str, Sequence[object]]:
    """Every value of each kind of name placeholder, in the current language."""
    from nidavellir.rules.decisions import words

    cards = [card_name(c) for c in _cards()]
    return {
        "card": cards,
        "cards": [cards[i].then("".join(", " + c for c in cards[i + 1:i + 3]))
                  for i in range(0, len(cards), 3)],
        "hero": [card_name(c) for c in C.HEROES],
        "distinction": [card_name(c) for c in C.DISTINCTIONS],
        "artifact": [card_name(c) for c in C.ARTIFACTS],
        "tavern": [tavern_name(i) for i in range(3)],
        "card_class": [class_name(s) for s in C.SUITS],
        "cls": [names.class_in_sentence(s) for s in C.SUITS],
        "a_class": [names.class_with_article(s) for s in C.SUITS],
        "column": [words.column_words(s) for s in C.SUITS],
        # A distinction in age 1; in age 2 the final warrior bonus (bots/immediate.py).
        "prize": [*(card_name(c) for c in C.DISTINCTIONS), _("the warrior bonus")],
        "ylud": [card_name(C.YLUD)],
        "move": moves(),
        "other move": [m[:1].lower() + m[1:] for m in moves()],
        "line": [names.score_line_in_sentence(label) for label in SCORE_LINES],
    }


SCORE_LINES = ("Warriors", "Hunters", "Miners", "Blacksmiths", "Explorers", "Neutral heroes",
               "Artifacts", "Coins", "Gem 6", "Total")

#: Placeholders that hold a name in one file only (the same name means something else
#: elsewhere: a count, notation): (file, placeholder) -> the kind of name.
KIND_IN_FILE = {("nidavellir/rules/decisions/coins.py", "place"): "place",
                ("nidavellir/rules/decisions/coins.py", "where"): "place",
                ("nidavellir/analysis/probability/questions.py", "tavern"): "lesson tavern",
                ("nidavellir/bots/judgement.py", "best"): "move",
                ("nidavellir/bots/judgement.py", "other"): "other move",
                ("nidavellir/bots/judgement.py", "line"): "line",
                ("widgets/coach.py", "best"): "move"}
#: Kinds whose names stand as labels (a class: «der Klasse Krieger», «als Krieger»).
LABELS = ("card_class", "cls")


def places() -> list[object]:
    from nidavellir.rules.decisions import words
    return [words.place_words(p) for p in ("hand", "purse", "T1", "T2", "T3")]


def lesson_taverns() -> list[object]:
    from nidavellir.analysis.probability import questions
    return [questions._tavern_words(t) for t in (None, 0, 1, 2)]


# ====================================================================== rendering


@dataclass(frozen=True)
class Inserted:
    field: str
    spec: str
    value: object
    text: str
    start: int

    @property
    def end(self) -> int:
        return self.start + len(self.text)


def render(template: str, values: dict[str, object]) -> tuple[str, list[Inserted]]:
    """The message formatted as ``str.format`` does, with where each value went."""
    out = ""
    inserted = []
    for literal, field, spec, conversion in FORMATTER.parse(template):
        out += literal
        if field is None:
            continue
        value = values[field]
        if conversion:
            value = FORMATTER.convert_field(value, conversion)
        text = FORMATTER.format_field(value, spec or "")
        inserted.append(Inserted(field, spec or "", value, text, len(out)))
        out += text
    return out, inserted


def sample(field: str, spec: str) -> object:
    """A value for a placeholder that holds no name: a seat, a number, a notation token;
    never an English word."""
    if spec and spec.lower() not in names.CASES:
        return 0.5
    if field in ("n", "k", "m", "number", "value", "points", "ranks", "bravery", "age",
                 "round", "players", "bonus", "count", "total"):
        return 2
    return "Bo"


@dataclass(frozen=True)
class Message:
    msgid: str
    context: str | None
    files: tuple[str, ...]
    translations: tuple[str, ...]


def catalogue(language: str) -> Catalog:
    return _catalogue(language)


@functools.cache
def _catalogue(language: str) -> Catalog:
    return catalogues.read(language)


def messages(language: str) -> Iterator[Message]:
    for m in catalogue(language):
        if not m.id:
            continue
        ids = (m.id,) if isinstance(m.id, str) else tuple(m.id)
        strings = (m.string or "",) if isinstance(m.string, str | None) else tuple(m.string)
        yield Message(ids[0], m.context, tuple(sorted({loc[0] for loc in m.locations})),
                      tuple(strings))


def fields(template: str) -> list[tuple[str, str]]:
    return [(f, s or "") for _lit, f, s, _c in FORMATTER.parse(template) if f is not None]


#: Messages whose ``{card}`` is only ever one kind of card: the coach's reasons about a
#: distinction held and a hero recruited (``held_reason`` in nidavellir/bots/judgement.py).
KIND_IN_MESSAGE = {"holds {card}": "distinction", "recruits {card}": "hero"}


def name_fields(message: Message) -> dict[str, str]:
    """The placeholders of a message that hold a name, and their kinds."""
    out = {}
    for field, _spec in fields(message.msgid):
        kind = next((k for words, k in KIND_IN_MESSAGE.items()
                     if "{" + field + "}" in words and words in message.msgid), None)
        kind = kind or next((k for (file, f), k in KIND_IN_FILE.items()
                             if f == field and file in message.files), None)
        if kind is None and field in KINDS:
            kind = field
        if kind is not None:
            out[field] = kind
    return out


KINDS = ("card", "cards", "hero", "distinction", "artifact", "tavern", "card_class", "cls",
         "a_class", "column", "prize", "ylud")


@dataclass(frozen=True)
class Finding:
    language: str
    msgid: str
    rendered: str
    problem: str

    def __str__(self) -> str:
        return f"{self.language}: {self.problem}: «{self.rendered}» (message {self.msgid!r})"


# ====================================================================== the checks

ARTICLES = {"de": ("der", "die", "das", "den", "dem", "des", "ein", "eine", "einen", "einem",
                   "einer", "eines"),
            "fr": ("le", "la", "les", "l'", "l’", "du", "des", "au", "aux", "un", "une",
                   "un·e")}
#: German personal pronouns of the third person, by the genders they refer to.
PRONOUNS = {"er": {"m"}, "ihn": {"m"}, "ihm": {"m", "n"}, "sie": {"f"}, "es": {"n"}}
#: English words that are no German or French word (a word left in English).
ENGLISH = {"the", "and", "of", "with", "from", "your", "you", "these", "this", "that",
           "about", "equally", "good", "better", "worse", "more", "first", "instead",
           "rather", "than", "takes", "take", "moves", "which", "what", "when", "there",
           "are", "is", "it", "its", "or", "on", "by", "at", "for", "but", "not", "no",
           "exactly", "within", "noise", "same", "win", "wins", "other", "hand", "purse",
           "card", "coin", "tavern", "bid"}
#: German words written with a capital that are no noun, and the article forms that
#: cannot be a genitive (after a noun, German puts the genitive: «die Karte deiner Spalte»).
NOT_NOUNS = {"Du", "Sie", "Ihr", "Ihre", "Bo"}
NOT_GENITIVE = {"dein", "deine", "deinen", "deinem", "den", "dem", "das", "die", "ein",
                "eine", "einen", "einem"}
#: The German possessive forms that fit a gender, and the French ones that fit a number.
POSSESSIVES = {"de": {"dein": {"m", "n"}, "deinen": {"m", "pl"}, "deinem": {"m", "n"},
                      "deines": {"m", "n"}, "deine": {"f", "pl"}, "deiner": {"f", "pl"}},
               "fr": {"votre": {"m", "f"}, "vos": {"pl"}}}
#: A French word that elides what stands before it (h aspiré: no elision).
VOWEL = re.compile(r"[aeiouyàâäéèêëîïôöûüœæ]", re.IGNORECASE)
ENGLISH_EXCEPT = {"fr": {"on", "est", "or", "but", "no"},  # French words too
                  "de": {"in", "an", "so", "also", "was", "will", "man"}}


def starts_sentence(before: str, language: str) -> bool:
    """Whether text placed after ``before`` starts a sentence."""
    stripped = before.rstrip()
    if not stripped:
        return True
    ends = (".", "!", "?", "\n") + ((":",) if language == "de" else ())
    return stripped.endswith(ends) or before.endswith("\n")


def stands_alone(before: str, after: str) -> bool:
    """A name on its own: a heading, an item of a list, in parentheses or quotes, part of
    a compound («Krieger-Spalte»)."""
    b = before.rstrip(" \u00a0\u202f")
    a = after.lstrip(" \u00a0\u202f")
    opening = not b or b.endswith(("(", "[", ":", ",", ";", "—", "\n", "«", "„", "“", "\"",
                                   "'", "⟦", ">"))
    closing = (not a or a.startswith((":", ")", "]", ",", ";", "»", "“", "\"", "'", ".",
                                      "—", "\n", "(", "<", "="))
               or after.startswith("-"))
    return opening and closing


def first_word(text: str) -> str:
    match = re.match(r"[^\W\d_]+(?:['’·][^\W\d_]+)?", text)
    return match.group(0) if match else ""


def takes_article(value: object) -> bool:
    """A name whose language gives it an article (a common noun, not a hero)."""
    return isinstance(value, Phrase) and value.form("acc") != str(value)


def check(language: str, message: Message, rendered: str, inserted: Sequence[Inserted],
          kinds_of: dict[str, str], genders: dict[str, set[str]]) -> list[str]:
    """What a reader would mark in one rendered message."""
    problems = []
    frame_words = frames(language)
    for ins in inserted:
        kind = kinds_of.get(ins.field)
        if kind is None:
            continue
        before, after = rendered[:ins.start], rendered[ins.end:]
        head = first_word(ins.text)
        lower_head = head.lower()
        if kind in ("move", "other move"):
            if not starts_sentence(before, language) and not stands_alone(before, "."):
                problems.append(f"a move's words ({ins.text!r}) inside a sentence that has "
                                "its verb")
            continue
        if head and head[0].isupper() and lower_head in ARTICLES[language] + ("l",) \
                and not starts_sentence(before, language) and not stands_alone(before, after):
            problems.append(f"a capital article inside a sentence: {ins.text!r}")
        if head and head[0].islower() and lower_head in ARTICLES[language] \
                and starts_sentence(before, language) and ins.spec != "" \
                and not ins.spec[0].isupper():
            problems.append(f"a small article starting a sentence: {ins.text!r}")
        if takes_article(ins.value) and ins.spec == "" and kind not in LABELS \
                and not stands_alone(before, after):
            previous = re.findall(r"[^\W\d_]+", before.lower())
            framed = bool(previous) and (previous[-1] in frame_words or (
                len(previous) > 1 and previous[-2] in frame_words
                and previous[-1] in ("du", "de", "des", "d")))  # «la taverne du Gobelin»
            if not framed:
                problems.append(f"{ins.text!r} without its article")
        if language == "fr" and takes_article(ins.value) and ins.spec == "":
            # After its frame noun, a name reads as the rulebook frames it: «la taverne du
            # Gobelin Rieur», «la distinction « La Main du Roi »», never «la taverne Gobelin
            # Rieur».
            assert isinstance(ins.value, Phrase)
            framed_as = ins.value.form("acc")
            noun = re.search(r"([^\W\d_]+)\s$", before)
            if noun and noun.group(1).lower() in frame_words \
                    and f" {noun.group(1).lower()} " in f" {framed_as.lower()} " \
                    and f"{noun.group(1)} {ins.text}".lower() not in framed_as.lower():
                problems.append(f"«{noun.group(1)} {ins.text}» where the rulebook writes "
                                f"«{framed_as}»")
        if language == "fr":
            tail = before.lower()
            if re.search(r"(?:^|[\s(])(de|le|la|que|ne|se|je)\s$", tail) \
                    and re.match(VOWEL, ins.text):
                problems.append(f"no elision before {ins.text!r}")
            contracted = re.search(r"(?:^|[\s(])(de|à)\s$", tail)
            if contracted and re.match(r"(le|les)\s", ins.text, re.IGNORECASE):
                problems.append(f"«{contracted.group(1)} {ins.text.split()[0]}» not "
                                "contracted")
        if language == "de":
            previous = list(re.finditer(r"[^\W\d_]+", before))
            if previous and before.endswith(" ") and lower_head in NOT_GENITIVE:
                noun = previous[-1]
                if noun.group(0)[0].isupper() and noun.group(0) not in NOT_NOUNS \
                        and not starts_sentence(before[:noun.start()], language):
                    problems.append(f"{ins.text!r} after the noun «{noun.group(0)}»: the "
                                    "genitive")
        if kind == "line":
            problems += possessive(language, before, ins)
        if language == "de" and len(genders.get(kind, set())) > 1:
            later = re.findall(r"[^\W\d_]+", after)
            wrong = [w for w in later if w in PRONOUNS]
            if wrong:
                problems.append(f"the pronoun «{wrong[0]}» after {ins.text!r}, a name of any "
                                "gender")
    return problems


@functools.cache
def line_labels(language: str) -> dict[str, str]:
    """A score line in a sentence -> its English label."""
    with using(language):
        return {str(names.score_line_in_sentence(label)): label for label in SCORE_LINES}


def possessive(language: str, before: str, ins: Inserted) -> list[str]:
    """A possessive that does not agree with the name after it («deine Goldenes Juwel»,
    «vos Gemme spéciale 6»)."""
    words = re.findall(r"[^\W\d_]+", before)
    if not words or not before.endswith(" "):
        return []
    fits = POSSESSIVES[language].get(words[-1].lower())
    row = names.row(names.SCORE_LINE, line_labels(language).get(str(ins.value), ""))
    gender = (row.de_gender if language == "de" else row.fr_gender) if row else ""
    if fits is not None and gender and gender not in fits:
        return [f"«{words[-1]}» before {ins.text!r}"]
    return []


def english_words(language: str, rendered: str, inserted: Sequence[Inserted]) -> list[str]:
    """English words of a rendered message outside its values (names, notation)."""
    text = rendered
    for ins in sorted(inserted, key=lambda i: -i.start):
        text = text[:ins.start] + " " + text[ins.end:]
    text = re.sub(r"<[^<>]*>|`[^`]*`|'[^']*'|\{[^{}]*\}", " ", text)
    words = re.findall(r"[^\W\d_]+", text)
    return sorted({w for w in words if w in ENGLISH - ENGLISH_EXCEPT[language]})


@functools.cache
def values_of(language: str) -> tuple[dict[str, Sequence[object]], dict[str, set[str]]]:
    """The values of every kind in a language, and the German genders of each kind."""
    with using(language):
        found = kinds()
        found["place"] = places()
        found["lesson tavern"] = lesson_taverns()
    genders: dict[str, set[str]] = {}
    for kind, values in found.items():
        for value in values:
            if language == "de" and takes_article(value):
                assert isinstance(value, Phrase)
                article = value.form("nom").split()[0]
                gender = {"der": "m", "die": "f", "das": "n"}.get(article)
                if gender:
                    genders.setdefault(kind, set()).add(gender)
    return found, genders


#: The coach's sentences (its comparisons, reasons and review), read by a test of their own.
COACH = frozenset({"nidavellir/bots/judgement.py", "nidavellir/bots/judge.py",
                   "widgets/coach.py"})


def the_coach_s(message: Message) -> bool:
    return bool(message.files) and set(message.files) <= COACH


def findings(language: str, coach: bool = False) -> list[Finding]:
    """Every rendering of every name message in a language, read: the coach's sentences
    (``coach=True``) or every other."""
    found, genders = values_of(language)
    out: list[Finding] = []
    for message in messages(language):
        kinds_of = name_fields(message)
        if not kinds_of or the_coach_s(message) != coach:
            continue
        for translation in message.translations:
            base = {f: (found[kinds_of[f]][0] if f in kinds_of else sample(f, s))
                    for f, s in fields(translation)}
            seen: set[str] = set()
            for field, kind in kinds_of.items():
                for value in found[kind]:
                    values = dict(base, **{field: value})
                    try:
                        rendered, inserted = render(translation, values)
                    except (ValueError, KeyError, IndexError) as error:
                        out.append(Finding(language, message.msgid, translation,
                                           f"cannot be formatted: {error}"))
                        break
                    for problem in check(language, message, rendered, inserted, kinds_of,
                                         genders):
                        key = problem + rendered
                        if key not in seen:
                            seen.add(key)
                            out.append(Finding(language, message.msgid, rendered, problem))
                    for word in english_words(language, rendered, inserted):
                        key = "en" + word
                        if key not in seen:
                            seen.add(key)
                            out.append(Finding(language, message.msgid, rendered,
                                               f"the English word «{word}»"))
    return out


# ====================================================================== the tests


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_name_in_every_message_reads_as_the_rulebook_writes(language: str) -> None:
    found = findings(language)
    assert not found, (f"{len(found)} findings in {language}:\n"
                       + "\n".join(map(str, found[:40])))


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_coach_s_sentences_read_as_the_rulebook_writes(language: str) -> None:
    """The coach's comparison quotes the other move («Nimm den Krieger 7 statt „rekrutiere
    Kraal“»: it was «… statt nimm Y»), a card it holds has its article («er hält die Hand
    des Königs am Ende»), a score line stands in its row («deine Zeile „Krieger“»)."""
    found = findings(language, coach=True)
    assert not found, (f"{len(found)} findings in {language}:\n"
                       + "\n".join(map(str, found[:40])))


def terms_against_the_rulebooks(language: str) -> list[str]:
    out = []
    rules = banned(language)
    for message in messages(language):
        for translation in message.translations:
            translation = re.sub(r"\{[^{}]*\}", "", translation)  # placeholders
            for word, rulebook in rules:
                if re.search(rf"(?<![\w·-]){re.escape(word)}(?![\w·])", translation, re.IGNORECASE):
                    out.append(f"{language}: «{word}» where the rulebook says «{rulebook}»: "
                               f"{translation!r}")
    return out


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_rulebooks_terms_one_word_per_idea(language: str) -> None:
    wrong = terms_against_the_rulebooks(language)
    assert not wrong, f"{len(wrong)} messages:\n" + "\n".join(wrong[:40])


#: The French familiar forms (the lab says «vous»): the pronouns, an imperative with its
#: pronoun («télécharge-la», «rouvre-en»), and the imperatives a page or a command gives
#: that read only as «tu» at the start of a clause («Saisis», «utilise l’une de …»; a verb
#: that could be a bot's third person there, «joue», «essaie», is left out).
TU = re.compile(r"(?<![\w·’'])(tu|toi|ton|ta|tes|te)(?![\w·’'])|\b\w+e-(la|le|les|moi|en)\b"
                r"|(?:^|[.!?:;(]\s*)(saisis|choisis|prends|attends|réfléchis|fais|mets|lis|"
                r"écris|dis|vois|prédis|utilise|clique|tape|appuie|réessaie|regarde|ouvre)\b",
                re.IGNORECASE)


def french_register() -> list[str]:
    return [f"«tu» in {t!r}" for m in messages("fr") for t in m.translations
            if TU.search(re.sub(r"\{[^{}]*\}|`[^`]*`|<[^<>]*>", " ", t))]


def test_french_says_vous() -> None:
    wrong = french_register()
    assert not wrong, "\n".join(wrong)


NBSP, THIN = "\u00a0", "\u202f"


def french_typography() -> list[str]:
    """A no-break space before « : » (and a thin one before « ; ? ! »), inside « », one
    apostrophe (’)."""
    out = []
    for m in messages("fr"):
        for t in m.translations:
            out += typography_problems(t)
    return out


def typography_problems(t: str) -> list[str]:
    """What French typography wants in one text (placeholders, markup, code and links left
    out): the first wrong space before a mark, a « without its no-break space, a straight
    apostrophe."""
    out = []
    text = re.sub(r"\{[^{}]*\}", "X", t)
    text = re.sub(r"<[^<>]*>|`[^`]*`|\w+://\S+|%\{\{?\w+\}?\}", "X", text)
    text = re.sub(r"\((\?!|\?\?|\?|!!|!\?|!)[,)]", "(X,", text)  # notation: ?!, ??
    text = re.sub(r"[ \t\n]+", " ", text)  # a lesson's lines end where Markdown puts a space
    for match in re.finditer(r"(.?)([:;?!»])", text):
        before, mark = match.group(1), match.group(2)
        if mark in "?!" and before in "?!":
            continue
        wanted = NBSP if mark in ":»" else THIN
        if mark == ":" and (not before or before.isdigit()):
            continue
        if before != wanted and not (mark != ":" and before == NBSP):
            out.append(f"{mark!r} after {before!r}: {t!r}")
            break
    for match in re.finditer(r"«(.?)", text):
        if match.group(1) != NBSP:
            out.append(f"« without a no-break space: {t!r}")
            break
    if re.search(r"[^\W\d_]'[^\W\d_]", text):
        out.append(f"a straight apostrophe: {t!r}")
    return out


def lesson_texts(value: object) -> list[str]:
    """Every text of a lesson file (its keys are the lesson's own names, not text)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [t for v in value.values() for t in lesson_texts(v)]
    if isinstance(value, list):
        return [t for v in value for t in lesson_texts(v)]
    return []


def test_the_french_lessons_typography() -> None:
    """The French lesson files are read beside the catalogues' messages, step after step:
    the same typography (a learner saw «Rappel : …» with a plain space and «l'Age» with a
    straight apostrophe beside «Rappel\u00a0: …» and «l’Age» in the same panel)."""
    import yaml

    files = sorted(LESSON_FILES.glob("*/*.fr.yaml"))
    assert len(files) >= 8
    wrong = [f"{path.name}: {problem}" for path in files
             for text in lesson_texts(yaml.safe_load(path.read_text(encoding="utf-8")))
             for problem in typography_problems(text)]
    assert not wrong, f"{len(wrong)} texts:\n" + "\n".join(wrong[:40])


def test_french_typography() -> None:
    wrong = french_typography()
    assert not wrong, f"{len(wrong)} messages:\n" + "\n".join(wrong[:40])


#: Verbs in the plural after a count: a message that counts must have plural forms
#: (``ngettext``), or «nur 1 deiner Spalten können» reads wrong.
PLURAL_VERBS = {"de": ("können", "sind", "haben", "liegen", "werden", "dürfen", "müssen",
                       "zählen", "bleiben"),
                "fr": ("peuvent", "sont", "ont", "restent", "comptent", "doivent", "seules",
                       "seuls")}


def counts_without_plural_forms(language: str) -> list[str]:
    out = []
    for m in catalogue(language):
        if not m.id or isinstance(m.id, tuple):
            continue
        for t in (m.string,):
            if not isinstance(t, str):
                continue
            words = r"(?:\S+\s+){0,3}"
            verbs = "|".join(PLURAL_VERBS[language])
            if re.search(r"\{n\}\s+" + words + rf"(?:{verbs})\b", t) or \
                    re.search(rf"\b(?:{verbs})\s+\{{n\}}", t):
                out.append(f"{language}: a count without plural forms: {t!r}")
    return out


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_count_agrees(language: str) -> None:
    wrong = counts_without_plural_forms(language)
    assert not wrong, "\n".join(wrong)


def french_coin_genders() -> list[str]:
    """A coin's value after an article: «le 3*» (the rules: «la pièce de valeur 3», so
    «la pièce 3*»), never «la 3*»."""
    return [f"«la» before a coin's value: {t!r}" for m in messages("fr") for t in m.translations
            if re.search(r"\b(?:la|une|cette)\s+(?:\{coin\}|\{value\}|\d+\*?)(?![\w%])", t)]


def test_french_coins_are_masculine_or_a_piece() -> None:
    wrong = french_coin_genders()
    assert not wrong, "\n".join(wrong)
