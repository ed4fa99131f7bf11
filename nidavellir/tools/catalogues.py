"""The message catalogues: extract, update, fill in the rulebooks' names, compile.

``make i18n`` runs ``python -m nidavellir.tools.catalogues`` (docs/translating.md):

1. **extract** (``pybabel extract``): every message of ``nidavellir/`` and ``widgets/`` (the
   keywords below) and every name of the names table (``nidavellir/locale/names.csv``,
   through :func:`extract_names`, declared in ``babel.toml``) into
   ``nidavellir/locale/nidavellir.pot``, with the ``Translators:`` comments;
2. **update** (``pybabel update``, ``pybabel init`` for a new language): each language's
   ``.po`` gets the new messages and loses the old ones; a changed message comes back
   *fuzzy* for a translator to check;
3. **names**: the table's German and French names go into the catalogues (the table is the
   one source of the rulebooks' names; a translator never edits them in the ``.po``);
4. **compile** (``pybabel compile``): the ``.mo`` files the lab reads. They are committed,
   so that a checkout or an installed package needs no build step;
   ``tests/test_catalogues.py`` fails when one is older than its ``.po``.

Babel is the maintainers' tool only: the core reads the compiled catalogues with the
standard library's gettext (:mod:`nidavellir.i18n`).
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import io
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, Any

from babel.messages.catalog import Catalog
from babel.messages.frontend import CommandLineInterface
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from nidavellir import i18n, names

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "nidavellir" / "locale"
POT = LOCALE / f"{i18n.DOMAIN}.pot"
CONFIG = ROOT / "babel.toml"
#: The languages with catalogues (English is the messages as written).
TRANSLATED: tuple[str, ...] = tuple(code for code in i18n.LANGUAGES if code != i18n.SOURCE)
#: Keywords beyond Babel's defaults (``_``, ``N_``, ``ngettext``, ``pgettext``, ...):
#: ``count(n, singular, plural, ...)`` (:func:`nidavellir.i18n.count`).
KEYWORDS: tuple[str, ...] = ("count:2,3",)
COMMENT_TAG = "Translators:"
#: Plural forms where the lab keeps gettext's classic rule rather than Babel's CLDR one:
#: CLDR gives French a third form for millions ("1 000 000 de points"), which no message
#: of the lab reaches; two forms, 0 and 1 singular, are what a French translator expects.
PLURAL_FORMS: dict[str, str] = {"fr": "nplurals=2; plural=(n > 1);"}
WIDTH = 76


def po_path(language: str) -> Path:
    return LOCALE / language / "LC_MESSAGES" / f"{i18n.DOMAIN}.po"


def mo_path(language: str) -> Path:
    return po_path(language).with_suffix(".mo")


def extract_names(fileobj: IO[bytes], keywords: Any, comment_tags: Any,
                  options: Any) -> Iterator[tuple[int, str, tuple[str, str], list[str]]]:
    """Babel's extraction method for the names table (``babel.toml``): each row a message
    ``pgettext(context, english)``, with the rulebooks' spellings as its comment."""
    lines = io.TextIOWrapper(fileobj, encoding="utf-8").read().splitlines()
    numbered = [(i, line) for i, line in enumerate(lines, 1) if not line.startswith("#")]
    rows = csv.DictReader(line for _i, line in numbered)
    for (i, _line), row in zip(numbered[1:], rows, strict=True):
        yield (i, "pgettext", (row["context"], row["en"]),
               [f"{COMMENT_TAG} a rulebook name: edit it in names.csv, not here"])


def pybabel(*args: str) -> None:
    """Run one ``pybabel`` command (Babel's own command line, in this interpreter)."""
    CommandLineInterface().run(["pybabel", "--quiet", *args])


def extract(output: Path = POT) -> None:
    """The template, from the source tree. Its locations name the file only, never a line:
    an edit that moves a message down a file changes no catalogue, so a change to one
    message changes a few lines of each catalogue and two changes rarely conflict. A
    template whose messages did not change keeps its creation date (and so do the
    catalogues updated from it)."""
    keywords = [a for k in KEYWORDS for a in ("-k", k)]
    before = output.read_text(encoding="utf-8") if output.exists() else None
    with contextlib.chdir(ROOT):
        pybabel("extract", "-F", str(CONFIG), *keywords, f"--add-comments={COMMENT_TAG}",
                "--sort-by-file", "--add-location=file", "--project=nidavellir",
                f"--width={WIDTH}", "-o", str(output), ".")
    if before is not None and _undated(before) == _undated(output.read_text(encoding="utf-8")):
        output.write_text(before, encoding="utf-8")


def _undated(template: str) -> list[str]:
    return [line for line in template.splitlines() if not line.startswith('"POT-Creation-Date:')]


def update() -> None:
    for language in TRANSLATED:
        if not po_path(language).exists():
            pybabel("init", "-i", str(POT), "-d", str(LOCALE), "-D", i18n.DOMAIN,
                    "-l", language, f"--width={WIDTH}")
            if language in PLURAL_FORMS:
                catalog = read(language)
                catalog.mime_headers = [
                    (k, PLURAL_FORMS[language] if k.lower() == "plural-forms" else v)
                    for k, v in catalog.mime_headers]
                write(language, catalog)
        pybabel("update", "-i", str(POT), "-d", str(LOCALE), "-D", i18n.DOMAIN,
                "-l", language, "--ignore-obsolete", "--ignore-pot-creation-date",
                f"--width={WIDTH}")


def read(language: str) -> Catalog:
    with po_path(language).open("rb") as f:
        return read_po(f, locale=language)


def fill_names() -> None:
    """The table's names into each catalogue (clearing a fuzzy mark: the table decides)."""
    for language in TRANSLATED:
        catalog = read(language)
        for row in names.table():
            message = catalog.get(row.en, context=row.context)
            if message is None:
                raise SystemExit(f"{po_path(language)}: no message for {row.context} "
                                 f"{row.en!r}: run the extract and update steps first")
            message.string = row.of(language)
            message.flags.discard("fuzzy")
        write(language, catalog)


def write(language: str, catalog: Catalog) -> None:
    with po_path(language).open("wb") as f:
        write_po(f, catalog, width=WIDTH, ignore_obsolete=True, include_lineno=False)


def compiled(language: str) -> bytes:
    """The ``.mo`` the ``.po`` compiles to (fuzzy messages left out, as pybabel does)."""
    out = io.BytesIO()
    write_mo(out, read(language), use_fuzzy=False)
    return out.getvalue()


def compile_all() -> None:
    for language in TRANSLATED:
        mo_path(language).write_bytes(compiled(language))
        catalog = read(language)
        total = sum(1 for m in catalog if m.id)
        done = sum(1 for m in catalog if m.id and not m.fuzzy and all(_forms(m)))
        print(f"{language}: {done} of {total} messages translated")


def _forms(message: Any) -> Sequence[str]:
    return message.string if isinstance(message.string, tuple) else (message.string,)


STEPS = ("extract", "update", "names", "compile")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m nidavellir.tools.catalogues",
        description="Extract the lab's messages, update the catalogues, write the "
                    "rulebooks' names into them and compile them (docs/translating.md).")
    parser.add_argument("steps", nargs="*", metavar="STEP",
                        help="extract, update, names or compile (default: all four, in "
                             "this order)")
    args = parser.parse_args(argv)
    unknown = [s for s in args.steps if s not in STEPS]
    if unknown:
        parser.error(f"unknown step {unknown[0]!r}: choose from {', '.join(STEPS)}")
    for step in STEPS:
        if step in (args.steps or STEPS):
                {"extract": extract, "update": update, "names": fill_names,
                 "compile": compile_all}[step]()
    return 0


if __name__ == "__main__":
    sys.exit(main())
