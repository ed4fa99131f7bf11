"""The command line's human output in the reader's language (issue 46): ``--language``,
else the environment's locale (``LANG``), else English; JSON and notation unchanged."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from nidavellir import cards as C
from nidavellir import i18n
from nidavellir.cli import language_of, main

ROOT = Path(__file__).resolve().parent.parent
FINISHED = str(ROOT / "examples" / "records" / "three_players.json")
UNFINISHED = str(ROOT / "examples" / "records" / "two_players_unfinished.json")


def _run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
         *argv: str, lang: str = "C.UTF-8") -> tuple[int, str, str]:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", lang)
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_replay_speaks_the_language_asked_for(capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _err = _run(capsys, monkeypatch, "--language", "de", "replay", UNFINISHED)
    assert code == 0
    assert "Die Aufzeichnung endet bei Entscheidung" in out
    assert "gibt ein geheimes Gebot ab" in out
    assert "Gesamtpunktzahl" in out
    # Notation stays as it is: the log's actions.
    assert "] " in out and "bid " in out
    # The caller's language is back after the command.
    assert i18n.language() == "en"


def test_the_locale_of_the_environment_is_the_default(capsys: pytest.CaptureFixture[str],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    _code, french, _err = _run(capsys, monkeypatch, "replay", FINISHED, lang="fr_FR.UTF-8")
    assert "Partie finie après" in french and "place une mise secrète" in french
    _code, english, _err = _run(capsys, monkeypatch, "replay", FINISHED)
    assert "Game over after" in english and "places a secret bid" in english
    # --language wins over the environment.
    _code, german, _err = _run(capsys, monkeypatch, "--language=de", "replay", FINISHED,
                               lang="fr_FR.UTF-8")
    assert "Partie vorbei nach" in german


def test_an_unknown_language_is_a_clear_error(capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, err = _run(capsys, monkeypatch, "--language", "xx", "replay", FINISHED)
    assert code == 2 and out == ""
    assert err.strip() == "error: --language 'xx': the lab speaks en, de, fr"
    # An unknown locale of the system is no error: English.
    assert language_of(["replay"], {"LANG": "es_ES.UTF-8"}) == "en"
    assert language_of(["replay"], {"LANGUAGE": "es:fr", "LANG": "de_DE"}) == "fr"


def test_an_unknown_coach_level_is_said_in_the_readers_language(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    for lang, words in (("de", "Fehler: unbekannte Stufe 'nope'; bekannt sind: quick, coach"),
                        ("fr", "erreur\xa0: niveau inconnu 'nope'\u202f; niveaux connus\xa0: quick")):
        code, out, err = _run(capsys, monkeypatch, "--language", lang, "hint", FINISHED,
                              "--at", "3", "--level", "nope")
        assert code == 2 and out == "" and err.startswith(words), err
        assert "search@400" in err  # the examples are notation


def test_the_pseudo_language_leaves_no_english_in_replay(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    _code, out, _err = _run(capsys, monkeypatch, "--language", "qps", "replay", UNFINISHED)
    record = json.loads(Path(UNFINISHED).read_text(encoding="utf-8"))
    allowed = set(record["config"]["names"]) | {w for c in C.ALL_CARDS
                                      for w in c.token.replace("/", " ").split()}
    # The decisions' lines ("[3] Ivar: take W7") are notation, the same in every language.
    lines = [line for line in out.splitlines() if not line.startswith("[")]
    escapes = {w: line for line in lines for w in i18n.escaped(line, allowed)}
    assert not escapes, escapes


def test_a_command_in_its_own_process_reads_lang() -> None:
    done = subprocess.run([sys.executable, "-m", "nidavellir", "replay", FINISHED],
                          capture_output=True, text=True, cwd=ROOT,
                          env={"LANG": "de_DE.UTF-8", "PATH": "/usr/bin:/bin"}, check=False)
    assert done.returncode == 0, done.stderr
    assert "Partie vorbei nach" in done.stdout


# ----------------------------------------------------------- simulate, ladder and review
# Each command's human output in German (a German sentence, none of the English ones) and
# in the pseudo-language (no word outside the markers but the notation and the data: the
# bots' names, the players' names, the moves, the output's path).


def _notation_and_data(*texts: str) -> set[str]:
    """Words that stay as they are in every language: card tokens, the actions' verbs and
    coin places, and the words of the given data (bot names, player names, paths)."""
    from nidavellir.actions import PLACES
    from nidavellir.rules.base import CHOICES

    words = {w for c in C.ALL_CARDS for w in c.token.replace("/", " ").split()}
    words |= {verb for cls in CHOICES.values() for verb in cls.verbs} | set(PLACES)
    return words | {w for text in texts for w in re.findall(r"[^\W\d_]+", text)}


def _no_english(out: str, allowed: set[str]) -> None:
    escapes = {w: line for line in out.splitlines() for w in i18n.escaped(line, allowed)}
    assert not escapes, escapes


def test_simulate_speaks_the_language_asked_for(capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch,
                                                tmp_path: Path) -> None:
    argv = ["simulate", "--games", "3", "--players", "2", "--bots", "random,greedy",
            "--no-progress"]
    code, out, _err = _run(capsys, monkeypatch, "--language", "de", *argv,
                           "--out", str(tmp_path / "rows.csv"))
    assert code == 0
    assert "3 Partien gespielt, 6 Zeilen geschrieben nach" in out
    assert re.search(r"greedy: \d Siege?, im Schnitt \d+,\d Punkte", out), out
    assert "games" not in out and "wins" not in out and "mean" not in out
    folder = tmp_path / "parts"
    code, out, _err = _run(capsys, monkeypatch, "--language", "qps", *argv,
                           "--out", f"{folder}/")
    assert code == 0 and "⟦" in out
    _no_english(out, _notation_and_data("random greedy", str(folder)))


def test_ladder_speaks_the_language_asked_for(capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch,
                                              tmp_path: Path) -> None:
    argv = ["ladder", "--bots", "random,greedy", "--players", "2", "--games", "2",
            "--no-progress", "--out", str(tmp_path / "ladder.csv")]
    code, out, _err = _run(capsys, monkeypatch, "--language", "fr", *argv)
    assert code == 0
    assert "4 parties à 2 joueur·euse·s." in out and "Lignes écrites dans" in out
    head = out.splitlines()[3]
    assert head.split()[:2] == ["bot", "parties"] and "part de victoires (IC 95 %)" in head
    assert re.search(r"\d+,\d\u00a0% \(\d+,\d\u00a0% à \d+,\d\u00a0%\)", out), out
    assert "games" not in out and "win share" not in out
    code, out, _err = _run(capsys, monkeypatch, "--language", "qps", *argv)
    assert code == 0
    _no_english(out, _notation_and_data("random greedy Elo", str(tmp_path)))


@pytest.mark.slow(reason='a game reviewed from the command line in three languages: about 2 s '
                        'of CPU')
def test_review_speaks_the_language_asked_for(capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch,
                                              tmp_path: Path) -> None:
    report = tmp_path / "review.html"
    argv = ["review", UNFINISHED, "--level", "search@4", "--seats", "1", "--no-progress"]
    code, out, _err = _run(capsys, monkeypatch, "--language", "de", *argv, "--out", str(report))
    assert code == 0
    assert "beste oder etwa gleich gute Züge" in out and "Analyse geschrieben nach" in out
    assert "(erzwungen)" in out or "der Coach:" in out
    assert "the coach" not in out and "(forced)" not in out and "given up" not in out
    page = report.read_text(encoding="utf-8")
    assert "<h2>Die Partie</h2>" in page and "Stufe: eine Suche mit 4 Iterationen" in page
    # The summary table's columns and the charts, as a person reads them (the data's keys
    # are the CSV's and the JSON's).
    assert "<th>verschenkte Punkte je bewerteter Entscheidung</th>" in page
    assert "<th>Fehler bei Geboten</th>" in page and "best_share" not in page
    assert re.search(r"<td>\d+,\d %</td>", page), "no German percentage in the table"
    assert "Siegchancen im Lauf der Partie" in page and "Genauigkeit: Entscheidungen" in page
    assert "Chances to win over the game" not in page and "decisions by label" not in page
    code, out, _err = _run(capsys, monkeypatch, "--language", "qps", *argv)
    assert code == 0
    record = json.loads(Path(UNFINISHED).read_text(encoding="utf-8"))
    _no_english(out, _notation_and_data(" ".join(record["config"]["names"])))


# ------------------------------------------------------------------------- --help

#: The commands whose arguments' help this module's parsers own (``lesson``'s are the
#: lessons package's).
HELPED = ("score", "replay", "simulate", "ladder", "review", "hint", "lesson", "lesson list",
          "lesson check", "lesson show")


def _typed() -> set[str]:
    """What a person types on the command line, the same in every language: the program,
    the commands and actions, the options and their metavariables, of every parser."""
    import argparse

    from nidavellir.cli import build_parser

    typed = {"nidavellir"}
    parsers = [build_parser()]
    while parsers:
        p = parsers.pop()
        for action in p._actions:
            typed |= {w for text in (*action.option_strings, str(action.metavar or ""),
                                     action.dest.upper()) for w in re.findall(r"[A-Za-z]+", text)}
            if isinstance(action, argparse._SubParsersAction):
                typed |= set(action.choices)
                parsers.extend(action.choices.values())
    return typed


@pytest.mark.parametrize("command", [None, *HELPED])
def test_help_comes_from_the_catalogue(capsys: pytest.CaptureFixture[str],
                                       monkeypatch: pytest.MonkeyPatch,
                                       command: str | None) -> None:
    """``nidavellir --language qps COMMAND --help``: argparse's frame (usage, sections,
    ``-h``) and every help line are the catalogue's; outside the markers only what is typed
    (the program, the commands, the options and their metavariables)."""
    argv = ["--language", "qps", *(command.split() if command else []), "--help"]
    with pytest.raises(SystemExit) as done:
        _run(capsys, monkeypatch, *argv)
    assert done.value.code == 0
    out = capsys.readouterr().out
    typed = _typed()
    assert "⟦" in out
    # The whole text at once: argparse wraps a help line over several lines.
    escapes = i18n.escaped(out, typed)
    assert not escapes, escapes


def test_help_in_german(capsys: pytest.CaptureFixture[str],
                        monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(SystemExit):
        _run(capsys, monkeypatch, "--language", "de", "hint", "--help")
    out = capsys.readouterr().out
    assert out.startswith("Aufruf: nidavellir hint [-h]")
    assert "Optionen:" in out and "diese Hilfe zeigen und beenden" in out
    assert "Entscheidung N beurteilen" in out and "usage" not in out and "options" not in out


def test_lesson_help_in_german(capsys: pytest.CaptureFixture[str],
                               monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(SystemExit):
        _run(capsys, monkeypatch, "--language", "de", "lesson", "check", "--help")
    out = capsys.readouterr().out
    assert out.startswith("Aufruf: nidavellir lesson check [-h] FILE [FILE ...]")
    assert "Lektionsdateien prüfen" in out and "Positionsargumente:" in out
    assert "eine Lektionsdatei" in out and "check lesson files" not in out


# ------------------------------------------------------------------- usage errors
# argparse's own errors (it words them with the standard library's catalogue, not the
# lab's): the usage, then one line in the reader's language, exit 2, no traceback.

#: A usage error of each kind argparse makes: the command line and the error's German
#: and French words (the values, typed or the options' names, quoted as they are).
USAGE_ERRORS = [
    (["score"], "nidavellir score: Fehler: folgende Argumente fehlen: FILE",
     "nidavellir score\xa0: erreur\xa0: les arguments suivants sont obligatoires\xa0: FILE"),
    (["hint", UNFINISHED, "--at", "y"],
     "nidavellir hint: Fehler: Argument --at: ungültiger int-Wert: 'y'",
     "nidavellir hint\xa0: erreur\xa0: argument --at\xa0: valeur int invalide\xa0: 'y'"),
    (["lesson", "bla"],
     "nidavellir lesson: Fehler: Argument ACTION: ungültige Wahl: 'bla' (möglich sind "
     "'list', 'check', 'show')",
     "nidavellir lesson\xa0: erreur\xa0: argument ACTION\xa0: choix invalide\xa0: 'bla' (choisissez "
     "parmi 'list', 'check', 'show')"),
    (["replay", FINISHED, "extra"], "nidavellir: Fehler: unbekannte Argumente: extra",
     "nidavellir\xa0: erreur\xa0: arguments non reconnus\xa0: extra"),
    (["hint", UNFINISHED, "--at"],
     "nidavellir hint: Fehler: Argument --at: erwartet ein Argument",
     "nidavellir hint\xa0: erreur\xa0: argument --at\xa0: un argument attendu"),
    (["lesson", "check"], "nidavellir lesson check: Fehler: folgende Argumente fehlen: FILE",
     "nidavellir lesson check\xa0: erreur\xa0: les arguments suivants sont obligatoires\xa0: FILE"),
]


@pytest.mark.parametrize(("argv", "german", "french"), USAGE_ERRORS)
def test_usage_errors_in_the_readers_language(capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch,
                                              argv: list[str], german: str,
                                              french: str) -> None:
    for lang, expected in (("de_DE.UTF-8", german), ("fr_FR.UTF-8", french)):
        with pytest.raises(SystemExit) as done:
            _run(capsys, monkeypatch, *argv, lang=lang)
        assert done.value.code == 2
        out, err = capsys.readouterr()
        assert out == ""
        usage, error = err.rstrip("\n").rsplit("\n", 1)
        assert error == expected
        assert usage.startswith(("Aufruf: nidavellir", "utilisation\xa0: nidavellir"))
    # In the pseudo-language: no word of argparse's English outside the markers.
    with pytest.raises(SystemExit):
        _run(capsys, monkeypatch, "--language", "qps", *argv)
    err = capsys.readouterr().err
    # What was typed (the arguments, the records' paths) and int, a type's name in code.
    escapes = i18n.escaped(err, _typed() | {"int"} | set(re.findall(r"[A-Za-z]+",
                                                                      " ".join(argv))))
    assert "⟦" in err and not escapes, (escapes, err)


def test_every_argparse_template_is_argparses() -> None:
    """The templates the lab translates are argparse's own, word for word (a Python whose
    argparse words a message otherwise fails here, not silently in English)."""
    import argparse
    import inspect

    from nidavellir.cli import ARGPARSE_MESSAGES, argparse_message

    source = inspect.getsource(argparse)
    missing = [english for english, _ours in ARGPARSE_MESSAGES
               if repr(english) not in source and f'"{english}"' not in source]
    assert not missing, missing
    with i18n.using("fr"):
        assert argparse_message("expected 3 arguments") == "3 arguments attendus"
        assert argparse_message("not argparse's") == "not argparse's"


def test_the_commands_own_checks_in_german(capsys: pytest.CaptureFixture[str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, err = _run(capsys, monkeypatch, "--language", "de", "hint", FINISHED)
    assert code == 2 and out == ""
    assert err == (f"Fehler: {FINISHED} ist eine beendete Partie: nenne eine Entscheidung "
                   "mit --at N (1 bis 112)\n")
    code, out, err = _run(capsys, monkeypatch, "hint", UNFINISHED, "--at", "0",
                          lang="fr_FR.UTF-8")
    assert code == 2 and err.startswith("erreur\xa0: --at doit être une décision de "
                                        "l’enregistrement, de 1 à ")
    # An unknown --language is said in the environment's language.
    code, out, err = _run(capsys, monkeypatch, "--language", "xx", "replay", FINISHED,
                          lang="de_DE.UTF-8")
    assert code == 2 and err == "Fehler: --language 'xx': das Labor spricht en, de, fr\n"


def test_hint_names_its_level_in_words(capsys: pytest.CaptureFixture[str],
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    argv = ["hint", UNFINISHED, "--level", "search@4", "--seed", "1"]
    code, out, _err = _run(capsys, monkeypatch, "--language", "de", *argv)
    assert code == 0
    assert "vom Coach beurteilt (eine Suche mit 4 Iterationen) mit dem Wissen von" in out
    assert "search@4" not in out
    code, out, _err = _run(capsys, monkeypatch, "--language", "fr", "hint", UNFINISHED,
                           "--level", "quick", "--seed", "1")
    assert code == 0 and "jugé par le coach (un coup d’œil rapide)" in out, out


def test_the_progress_bars_speak_the_readers_language(
        capsys: pytest.CaptureFixture[str]) -> None:
    """A command's progress bar (on a terminal: shown here directly) counts in the reader's
    words: "Partien", "Entscheidungen"."""
    from nidavellir.analysis.runner import PROGRESS_DESC, PROGRESS_UNIT, _Progress

    with i18n.using("de"):
        bar: _Progress[int] = _Progress(True, 4, PROGRESS_DESC, PROGRESS_UNIT)
        bar.update(2)
        bar.close()
        review: _Progress[int] = _Progress(True, 3, "decisions", "decision")
        review.update(3)
        review.close()
    err = capsys.readouterr().err
    assert "Partien: " in err and "2/4" in err and "Partie/s" in err, err
    assert "Entscheidungen: 100%" in err and "games" not in err, err


@pytest.mark.parametrize(("argv", "german", "french"), [
    (["simulate", "--games", "0", "--out", "x.csv"],
     "Fehler: --games muss mindestens 1 sein, nicht 0",
     "erreur\xa0: --games doit valoir au moins 1, pas 0"),
    (["simulate", "--players", "2", "--bots", "random,greedy,random", "--out", "x.csv"],
     "Fehler: --bots: 2 Spieler brauchen 1 oder 2 Bots, erhalten: 3",
     "erreur\xa0: --bots\xa0: 2 joueur·euse·s demandent 1 ou 2 bots, reçu\xa0: 3"),
    (["ladder", "--bots", "random", "--players", "2", "--games", "1"],
     "Fehler: --bots: eine Rangliste braucht mindestens 2 verschiedene Bots, erhalten: "
     "['random']",
     "erreur\xa0: --bots\xa0: un classement demande au moins 2 bots différents, reçu\xa0: ['random']"),
    (["review", UNFINISHED, "--seats", "7"],
     "Fehler: --seats: kein Platz 7 in einer Partie mit 2 Spielenden (1 bis 2)",
     "erreur\xa0: --seats\xa0: pas de place 7 dans une partie à 2 joueur·euse·s (1 à 2)"),
    (["review", UNFINISHED, "--out", "/no/such/folder/r.html"],
     "Fehler: '/no/such/folder/r.html' kann nicht geschrieben werden: kein Ordner "
     "'/no/such/folder'",
     "erreur\xa0: impossible d’écrire '/no/such/folder/r.html'\xa0: pas de dossier "
     "'/no/such/folder'"),
])
def test_the_analysis_commands_checks_in_the_readers_language(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        argv: list[str], german: str, french: str) -> None:
    for lang, expected in (("de_DE.UTF-8", german), ("fr_FR.UTF-8", french)):
        code, out, err = _run(capsys, monkeypatch, *argv, "--no-progress", lang=lang)
        assert code == 2 and out == ""
        assert err == expected + "\n", err


@pytest.mark.parametrize(("at", "german", "french"), [
    # Several moves about as good, the list cut after six (search@4 on an opening bid).
    (3, r"Am besten: Diese (\d+) Züge sind etwa gleich gut: bid 4 5 0, .* und (\d+) weitere "
        r"\(an erster Stelle: bid 4 5 0, ",
     r"Meilleur\xa0: ces (\d+) coups sont à peu près aussi bons\xa0: bid 4 5 0, .* et (\d+) "
     r"autres \(en tête\xa0: bid 4 5 0, "),
    # An exact judgement near the end (nothing hidden or random left).
    (108, r"Am besten: transform 10@purse \(exakt: 0\xa0% Siegchance, 291 Punkte\)",
     r"Meilleur\xa0: transform 10@purse \(exact\xa0: 0\xa0% de chance de gagner, 291 "
     r"points\)"),
])
def test_the_hint_s_headline_speaks_the_readers_language(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, at: int,
        german: str, french: str) -> None:
    """The hint's "Best:" line, built in ``Judgement.headline()``, through the catalogues:
    no English around the moves (notation) when several are about as good ("these N are
    about equally good … and N more (first: …)") or the judgement is exact."""
    argv = ["hint", FINISHED, "--at", str(at), "--level", "search@4", "--seed", "1"]
    lines = {}
    for lang in ("de", "fr", "qps"):
        code, out, _err = _run(capsys, monkeypatch, "--language", lang, *argv)
        assert code == 0
        lines[lang] = next(line for line in out.splitlines()
                           if line.startswith(("Am besten", "Meilleur", "⟦Béšt")))
        if lang == "qps":
            # The moves are notation: the words of the table's first column may stand.
            moves = {w for line in out.splitlines()[3:] if line[:1] in (" ", "★")
                     for w in re.findall(r"\w+", line[2:32])}
            assert not i18n.escaped(lines[lang], moves), lines[lang]
    for lang, pattern in (("de", german), ("fr", french)):
        found = re.match(pattern, lines[lang])
        assert found, lines[lang]
        if found.groups():
            # The count of the moves shown: six of them, and the rest.
            assert int(found.group(1)) == 6 + int(found.group(2)), lines[lang]
