"""The learner's own seat in the second person (issue 46): a seat named You («Du», «Vous»)
takes the second person in every line about it, in every language ("You take", «Du
nimmst», «Vous prenez»), never the third person a seat's name gets ("You takes", «Du
nimmt», «Vous prend»), and is addressed as "you" after a preposition («für dich», «pour
vous»), never as a name («für Du», «pour Vous»).

A whole game is played through the Play tab's model in each language, the learner's seat
named as the language names it, and every text the tab shows on the way (the board, the
log, the last-move line, the status, the console, the end of the game) is read; so is the
score sheet's text with the learner winning, alone and tied."""

from __future__ import annotations

import dataclasses
import html
import re
from collections.abc import Iterator

import pytest
from test_play_tab_language import _first_legal

from nidavellir.events import is_you, you_name
from nidavellir.i18n import SOURCE, language, set_language, using

#: Per language: what the learner's seat is called, and what reads as a third-person verb
#: (or the seat's name as an object) right after it.
WRONG: dict[str, tuple[str, re.Pattern[str]]] = {
    # "You takes", "You wins", "You has" (a second person never ends in -s, but "pass").
    "en": ("You", re.compile(r"\bYou (?!\w*ss\b)[a-z]+s\b")),
    # «Du nimmt», «Du gewinnt», «Du ist», «Du darf»; «für Du»: the name as an object.
    "de": ("Du", re.compile(r"\bDu (?:(?![a-zäöüß]*st\b)[a-zäöüß]+t|ist|darf|kann|muss|"
                            r"will|soll|mag|weiß)\b|\b(?:für|gegen|mit|an|von|zu|bei) Du\b")),
    # «Vous prend», «Vous gagne», «Vous est» (after its pronouns: «Vous ne pouvez»);
    # «pour Vous», «contre Vous».
    # Not «Vous et Bo» (two subjects) nor «Vous, à vous de décider» (the board's flag).
    "fr": ("Vous", re.compile(r"\bVous (?!et\b|à vous\b)"
                              r"(?:(?:ne|n'|y|en|l'|le|la|les|lui|leur|vous|me) ?)*"
                              r"(?!(?:ne|y|en|le|la|les|lui|leur|vous|me|êtes|faites|dites)\b)(?![a-zéèêàâîôûç]*ez\b)"
                              r"[a-zéèêàâîôûç]+\b|\b(?:pour|contre|à|de|avec|par) Vous\b")),
}


@pytest.fixture
def reset_language() -> Iterator[None]:
    before = language()
    try:
        yield
    finally:
        set_language(before if before else SOURCE)


#: Where a page's text breaks: an element of its own (a board's name, then its gem) or
#: a line; words on either side are not one sentence.
_BREAK = re.compile(r"<(?:/?(?:div|li|ul|td|th|tr|small|p|br|b|span|h\d)\b[^>]*)>")


def _shown(widget: object) -> list[str]:
    """The texts a page shows of a widget tree (as tests/test_play_tab_language.py reads
    them), with " | " where an element or a line ends."""
    import ipywidgets as W

    out: list[str] = []
    if isinstance(widget, W.HTML | W.HTMLMath | W.Label):
        markup = re.sub(r"<(script|style)\b.*?</\1>", " ", widget.value, flags=re.S)
        markup = _BREAK.sub(" | ", markup).replace("\n", " | ")
        out.append(html.unescape(re.sub(r"<[^>]+>", " ", markup)))
    for name in ("description", "tooltip"):
        value = getattr(widget, name, None)
        if isinstance(value, str):
            out.append(value)
    out.extend(getattr(widget, "_options_labels", ()))
    for child in getattr(widget, "children", ()):
        out.extend(_shown(child))
    return [t for t in out if t]


def _wrong(lang: str, texts: list[str]) -> dict[str, str]:
    pattern = WRONG[lang][1]
    return {m.group(0): " ".join(text.split())[:160] for text in texts
            for m in pattern.finditer(" ".join(text.split()))}


@pytest.mark.parametrize("sample, lang", [
    ("You takes Warrior 7 (tavern)", "en"), ("You wins King's Hand", "en"),
    ("Du nimmt Krieger 7 (Taverne)", "de"), ("Du erhält Jagdtrophäe", "de"),
    ("Für Du gespielt: take B", "de"), ("Vous prend Guerrier·ère 7", "fr"),
    ("Vous gagne la Main du Roi", "fr"), ("Vous ne peut pas", "fr"),
    ("Joué pour Vous\xa0: take B", "fr"), ("Vous et Bo partagent la victoire", "fr"),
])
def test_the_check_finds_a_third_person_after_the_learner_s_name(sample: str,
                                                                  lang: str) -> None:
    if sample.startswith("Vous et"):
        assert not _wrong(lang, [sample]), "«Vous et Bo» is read as a subject of two"
        return
    assert _wrong(lang, [sample]), sample


@pytest.mark.parametrize("sample, lang", [
    ("You take Warrior 7 (tavern) You pass", "en"), ("Du nimmst Krieger 7; Du bist dran",
                                                     "de"),
    ("Für dich gespielt; Du darfst sie rekrutieren; Du > Bo; Du: take B", "de"),
    ("Vous prenez; Vous ne pouvez la recruter; Vous êtes; Vous: take B; Vous 240", "fr"),
])
def test_the_check_passes_the_second_person(sample: str, lang: str) -> None:
    assert not _wrong(lang, [sample])


@pytest.mark.parametrize("lang", ["en", "de", "fr"])
def test_a_whole_game_says_you_to_the_learner_s_seat(lang: str, reset_language: None
                                                     ) -> None:
    from widgets.app import play_app

    set_language(lang)
    you = WRONG[lang][0]
    assert you_name() == you and is_you(you) and is_you("You") and not is_you("Bo")
    # The Play tab's app as the dashboard builds it, less what says nothing about a seat
    # and costs most of the time: the charts (drawn after every move; their words are
    # checked in tests/test_dashboard_language.py) and the coach's judgement of every
    # decision as it appears (its figures name nobody).
    app = play_app(players=3, seats=["human", "greedy", "random"], bot_delay=0,
                   coach={"ahead": False})
    session = app.session
    assert session.new_game(dict(session.config(), names=[you, "Bo", "Cy"], seed=11,
                                 expansions=["thingvellir"]))
    assert session.auto_forced  # the moves played for the learner are said too
    seen: list[str] = _shown(app)
    for decision in range(400):
        if session.game.decision is None:
            break
        session.submit(_first_legal(session))
        if decision % 3 == 0:
            seen += _shown(app)
    assert session.game.decision is None, "the game did not end"
    seen += _shown(app)
    seen += [m.replace("\n", " | ") for m, _level in session.console.entries]
    sheet = session.game.scores()
    alone = dataclasses.replace(sheet, players=tuple(
        dataclasses.replace(p, name=you, rank=1) if i == 0 else
        dataclasses.replace(p, rank=2) for i, p in enumerate(sheet.players)))
    tied = dataclasses.replace(alone, players=tuple(
        dataclasses.replace(p, rank=1) if i == 1 else p for i, p in enumerate(alone.players)))
    with using(lang):
        seen += [str(alone).replace("\n", " | "), str(tied).replace("\n", " | ")]
    assert not _wrong(lang, seen), sorted(_wrong(lang, seen).items())
    text = "\n".join(seen)
    assert re.search(rf"\b{you}\b", text), "the learner's seat is named nowhere"
    # The game said things about the learner's seat: a take, a placement, a distinction
    # or a recruit in the second person (so the check above read the lines it is about).
    said = {"en": "You take", "de": "Du nimmst", "fr": "Vous prenez"}[lang]
    assert said in text


@pytest.mark.parametrize("lang, alone, tied", [
    ("en", "You win with", "You and Bo share the win"),
    ("de", "Du gewinnst mit", "Du und Bo teilt euch den Sieg"),
    ("fr", "Vous gagnez avec", "Vous et Bo partagez la victoire"),
])
def test_the_score_sheet_s_winner_line_says_you(lang: str, alone: str, tied: str) -> None:
    from nidavellir import Game

    with using(lang):
        you = you_name()
        game = Game.new(players=3, seed=3, names=[you, "Bo", "Cy"])
        sheet = game.scores()
        first = dataclasses.replace(sheet, players=tuple(
            dataclasses.replace(p, rank=1 if i == 0 else 2) for i, p in enumerate(sheet.players)))
        both = dataclasses.replace(sheet, players=tuple(
            dataclasses.replace(p, rank=1 if i < 2 else 3) for i, p in enumerate(sheet.players)))
        assert alone in str(first) and tied in str(both)
