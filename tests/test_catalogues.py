"""The message catalogues (nidavellir/locale/, docs/translating.md): complete, current, and
the rulebooks' names exactly as the names table gives them.

What ``pybabel update --check`` and ``pybabel compile`` with checks would say, as tests: the
template extracted from today's source equals the committed one, every message has a German
and a French translation, none fuzzy, with the placeholders of the English, and the
committed ``.mo`` files are what their ``.po`` files compile to.
"""

from __future__ import annotations

import string
from pathlib import Path

import pytest
from babel import Locale
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po
from babel.numbers import format_decimal, format_percent

from nidavellir import cards as C
from nidavellir import i18n, names
from nidavellir.i18n import count, ngettext, number, percent, using
from nidavellir.scoring import CATEGORY_LABELS, PlayerTable, score_table
from nidavellir.tools import catalogues

LANGUAGES = catalogues.TRANSLATED


def keys(catalog: Catalog) -> set[tuple[object, str | None]]:
    return {(m.id, m.context) for m in catalog if m.id}


def forms(message: Message) -> tuple[str, ...]:
    return message.string if isinstance(message.string, tuple) else (message.string,)


def placeholders(text: str) -> set[str]:
    return {field for _lit, field, _spec, _conv in string.Formatter().parse(text)
            if field is not None}


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Catalog:
    """The template extracted from the source as it is now."""
    pot = tmp_path_factory.mktemp("pot") / "nidavellir.pot"
    catalogues.extract(pot)
    with pot.open("rb") as f:
        return read_po(f)


@pytest.fixture(scope="module", params=LANGUAGES)
def language(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def test_the_languages_are_german_and_french() -> None:
    assert set(LANGUAGES) == {"de", "fr"}
    assert i18n.LANGUAGES == {"en": "English", "de": "Deutsch", "fr": "Français"}


def test_the_committed_template_is_the_source_s(template: Catalog) -> None:
    with catalogues.POT.open("rb") as f:
        committed = read_po(f)
    missing = keys(template) - keys(committed)
    stale = keys(committed) - keys(template)
    assert not missing and not stale, (
        f"run `make i18n`: {len(missing)} new messages (e.g. {sorted(map(str, missing))[:3]}),"
        f" {len(stale)} gone (e.g. {sorted(map(str, stale))[:3]})")


def test_every_message_is_translated_none_fuzzy(template: Catalog, language: str) -> None:
    catalog = catalogues.read(language)
    assert keys(catalog) == keys(template), f"run `make i18n` ({language})"
    assert not catalog.obsolete
    fuzzy = [m.id for m in catalog if m.id and m.fuzzy]
    assert not fuzzy, f"{language}: fuzzy (check and clear the flag): {fuzzy[:5]}"
    untranslated = [m.id for m in catalog if m.id and not all(forms(m))]
    assert not untranslated, f"{language}: untranslated: {untranslated[:5]}"


def test_placeholders_equal_the_english(language: str) -> None:
    catalog = catalogues.read(language)
    wrong = []
    for m in catalog:
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        english = set().union(*(placeholders(i) for i in ids))
        wrong += [(m.id, s) for s in forms(m) if placeholders(s) != english]
    assert not wrong, f"{language}: placeholders differ from the English: {wrong[:3]}"
    # Babel's own checks (python-format, plural forms count).
    errors = [(m.id, e) for m, e in catalog.check()]
    assert not errors, errors[:3]


def test_the_compiled_catalogues_are_current(language: str) -> None:
    assert catalogues.mo_path(language).read_bytes() == catalogues.compiled(language), (
        f"{catalogues.mo_path(language)} is older than its .po: run `make i18n`")


def test_the_rulebook_names_in_the_catalogues_equal_the_table(language: str) -> None:
    catalog = catalogues.read(language)
    for row in names.table():
        message = catalog.get(row.en, context=row.context)
        assert message is not None, f"{row.context} {row.en!r} is not in the {language} catalogue"
        assert message.string == row.of(language), (
            f"{language}: {row.context} {row.en!r} is {message.string!r} in the catalogue, "
            f"{row.of(language)!r} in names.csv (line {row.line}): run `make i18n`")
    with using(language):
        shown = {(r.context, r.en): names.name(r.context, r.en) for r in names.table()}
    assert shown == {(r.context, r.en): r.of(language) for r in names.table()}


def test_the_table_names_every_card_title_class_tavern_and_score_line() -> None:
    rows = {(r.context, r.en) for r in names.table()}
    assert len(rows) == len(names.table()), "a name is twice in names.csv"
    assert {r.context for r in names.table()} <= set(names.CONTEXTS)
    wanted = {(names.TAVERN, t) for t in C.TAVERNS}
    wanted |= {(names.CLASS, s.column_name.capitalize()) for s in C.SUITS}
    wanted |= {(names.SCORE_LINE, label) for label in CATEGORY_LABELS.values()}
    wanted |= {(names.SCORE_LINE, label) for label in ("Total", "Placing")}
    wanted |= {(names.DISTINCTION, c.name) for c in C.DISTINCTIONS}
    wanted |= {(names.HERO, c.name) for c in C.HEROES}
    wanted |= {(names.TITLE, c.title) for c in C.HEROES}
    wanted |= {(names.ARTIFACT, c.name) for c in C.ARTIFACTS}
    wanted |= {(names.CARD, n) for n in ("Royal Offering", "Mercenary",
                                         C.SPECIAL_BLACKSMITH.name, C.OLWYN_DOUBLE.name)}
    assert wanted - rows == set()


def test_a_chosen_name_says_so_and_the_rulebook_ones_cite_a_section() -> None:
    for row in names.table():
        for language in LANGUAGES:
            source = row.de_source if language == "de" else row.fr_source
            assert source.startswith(("chosen", "DE ", "DE-K ", "FR ", "FR-T ")), (
                f"names.csv line {row.line}: {source!r} cites no rulebook and is not 'chosen'")
    # The German rulebooks have no Thingvellir: every expansion name in German is chosen.
    thingvellir = {c.name for c in C.ARTIFACTS} | {c.name for c in C.THINGVELLIR_HEROES}
    for row in names.table():
        if row.en in thingvellir:
            assert row.chosen("de"), row


def test_the_german_names_are_the_rulebook_s_not_translations() -> None:
    # The traps of the German rulebooks: the taverns and distinctions are other things.
    with using("de"):
        assert [names.tavern_name(i) for i in range(3)] == [
            "Feiernder Goblin", "Lachender Drache", "Tänzelndes Pony"]
        assert names.card_name(C.KINGS_GREAT_ARMORER) == "Unerschütterlicher Hammer"
        assert names.card_name(C.card("W7")) == "Krieger 7"
        assert names.card_name(C.ROYAL_OFFERING_3) == "Subvention +3"
    with using("fr"):
        assert names.tavern_name(2) == "Cheval Fringuant"
        assert names.hero_with_title(C.KRAAL) == "Kraal, le Vénal"
        assert names.card_name(C.MERCENARIES[0]) == "Mercenaire W6/E8"  # notation stays
    with using("en"):
        assert names.card_name(C.card("W7")) == "Warrior 7"
        assert names.card_name(C.HUNTING_MASTER) == "Hunting Master"


def test_plural_forms_come_from_the_catalogue() -> None:
    # French counts 0 as singular, German and English as plural.
    with using("fr"):
        assert count(0, "{n} hero", "{n} heroes") == "0 Héros·ïne"
        assert count(2, "{n} hero", "{n} heroes") == "2 Héros·ïnes"
    with using("de"):
        assert count(0, "{n} hero", "{n} heroes") == "0 Helden"
        assert count(1, "{n} hero", "{n} heroes") == "1 Held"
    with using("en"):
        assert ngettext("{n} hero", "{n} heroes", 0) == "{n} heroes"


@pytest.mark.parametrize("code", ["en", "de", "fr"])
def test_numbers_and_percentages_are_babel_s(code: str) -> None:
    # The core formats with a stdlib table (i18n._NUMBERS); it must agree with Babel's
    # CLDR data, the formatting the lab promises ("43,2 %" in German and French).
    pattern = Locale.parse(code).percent_formats[None].pattern
    with using(code):
        for x in (0, 7, 1234.5, 1234567.25, -2.5):
            assert number(x, 1) == format_decimal(x, format="#,##0.0", locale=code)
        assert number(1234) == format_decimal(1234, format="#,##0", locale=code)
        for p in (0.432, 0.05, 1.0):
            assert percent(p, 1) == format_percent(
                p, format=pattern.replace("#,##0", "#,##0.0"), locale=code)
            assert percent(p) == format_percent(p, locale=code)


def test_the_catalogue_command_refuses_an_unknown_step(capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    with pytest.raises(SystemExit) as exit_:
        catalogues.main(["extrct"])
    assert exit_.value.code == 2
    assert "unknown step 'extrct'" in capsys.readouterr().err


def test_the_locale_folder_is_package_data() -> None:
    # An installed lab reads its catalogues: pyproject ships the .mo files.
    pyproject = (Path(catalogues.ROOT) / "pyproject.toml").read_text(encoding="utf-8")
    assert '"locale/*/LC_MESSAGES/*.mo"' in pyproject
    assert '"locale/names.csv"' in pyproject


def test_in_english_every_card_keeps_the_name_the_engine_writes() -> None:
    # The golden playthroughs and the notation read these names: English is unchanged.
    every = [*C.DWARVES, *C.HEROES, *C.DISTINCTIONS, *C.ARTIFACTS, *C.MERCENARIES,
             C.ROYAL_OFFERING_3, C.ROYAL_OFFERING_5, C.SPECIAL_BLACKSMITH, C.OLWYN_DOUBLE]
    with using("en"):
        assert [names.card_name(c) for c in every] == [c.name for c in every]
        assert [names.hero_with_title(c) for c in C.HEROES] == [
            f"{c.name}, {c.title}" for c in C.HEROES]


def test_the_score_sheet_reads_the_rulebook_s_lines() -> None:
    W, H, M, B, E = C.SUITS
    army = {W: [C.card("W7")], H: [C.card("H")], M: [C.card("M2")], B: [C.card("B")],
            E: [C.card("E9")]}
    sheet = score_table([PlayerTable("Ada", army, [C.SKAA], [0, 2, 3, 4, 5]),
                         PlayerTable("Bo", {}, [], [0, 2, 3, 4, 5])])
    with using("de"):
        text, page = sheet.to_text(), sheet._repr_html_()
    for line in ("Krieger", "Jäger", "Minenarbeiter", "Schmiede", "Entdecker",
                 "Helden ohne Klasse", "Münzen", "Gesamtpunktzahl", "Platzierung"):
        assert line in text and line in page
    assert "Warriors" not in text and "Total" not in page


def literal_messages() -> list[tuple[str, int, str]]:
    """(file, line, message) of every call of ``_``, ``N_``, ``count``, ``ngettext`` and
    ``pgettext`` with literal text in nidavellir/ and widgets/: found with the syntax tree,
    which (unlike Babel's extractor on Python 3.11) sees the calls inside f-strings."""
    import ast

    arguments = {"_": (0,), "N_": (0,), "ngettext": (0, 1), "count": (1, 2), "pgettext": (1,)}
    found = []
    for folder in ("nidavellir", "widgets"):
        for path in sorted((catalogues.ROOT / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                        and node.func.id in arguments):
                    for i in arguments[node.func.id]:
                        if i < len(node.args) and isinstance(node.args[i], ast.Constant) \
                                and isinstance(node.args[i].value, str):
                            rel = str(path.relative_to(catalogues.ROOT))
                            found.append((rel, node.lineno, node.args[i].value))
    return found


def test_every_message_the_code_asks_for_is_in_the_catalogue(template: Catalog) -> None:
    # Babel's extractor does not see a call inside an f-string ({_('x')}): such a message
    # would never reach a translator and would show in English on every page.
    known: set[str] = set()
    for m in template:
        known.update(m.id if isinstance(m.id, tuple) else (m.id,))
    missing = [f"{f}:{line}: {text!r}" for f, line, text in literal_messages()
               if text not in known]
    assert not missing, ("not in the catalogue (a call inside an f-string? move it out), "
                         "then `make i18n`:\n" + "\n".join(missing))


def test_the_catalogues_name_files_not_lines() -> None:
    """Issue 59: a location comment with a line number changes whenever code above the
    message moves; the catalogues name the file only, so an edit changes a few lines."""
    for path in (catalogues.POT, *(catalogues.po_path(lang) for lang in LANGUAGES)):
        lines = [line for line in path.read_text(encoding="utf-8").splitlines()
                 if line.startswith("#: ")]
        assert lines, path
        numbered = [line for line in lines if any(":" in loc for loc in line[3:].split())]
        assert not numbered, f"{path}: {numbered[:3]} (run `make i18n`)"


def test_extracting_an_unchanged_tree_changes_nothing(tmp_path: Path) -> None:
    pot = tmp_path / "nidavellir.pot"
    pot.write_bytes(catalogues.POT.read_bytes())
    catalogues.extract(pot)
    assert pot.read_bytes() == catalogues.POT.read_bytes()
