"""Issue 27: lessons are files. Every shipped lesson loads and plays to its end; a
malformed file of each kind gets ``error: FILE:LINE: ...`` and exit 2 from ``nidavellir
lesson check``; a probability step's explanation names the numbers of the exact answer
(placeholders filled from the computation); docs/lessons.md's two examples load and play;
a teacher's folder with a good and a bad lesson: the good one plays in the dashboard, the
bad one shows its error."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from fractions import Fraction
from math import comb
from pathlib import Path

import pytest

from nidavellir import cli
from nidavellir.analysis.probability import QUESTION_KINDS, question
from nidavellir.lessons import FILES, LessonError, Library, builtin, load
from nidavellir.lessons.markup import fill, format_value, placeholders
from nidavellir.lessons.probability import ProbabilityLesson
from nidavellir.lessons.walkthrough import Walkthrough, WalkthroughLesson
from widgets.probability_lessons import ProbabilityLessonApp, ProbabilityLessonsTab
from widgets.walkthrough import WalkthroughApp, WalkthroughTab

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "lessons.md"
WALKTHROUGHS = ["base", "heroes", "thingvellir"]
PROBABILITY = ["counting", "hypergeometric", "expectation", "simulation",
               "law-of-large-numbers"]


def _docs_examples() -> dict[str, str]:
    """The YAML blocks of docs/lessons.md that are complete lessons, by kind."""
    blocks = re.findall(r"```yaml\n(.*?)```", DOCS.read_text(encoding="utf-8"), re.S)
    found = {}
    for block in blocks:
        kind = re.search(r"^kind: (\w+)", block, re.M)
        if kind and kind.group(1) != "translation":  # a translation is not a lesson
            found[kind.group(1)] = block
    return found


# ====================================================================== shipped lessons

def test_every_shipped_lesson_loads_in_order() -> None:
    library = Library(folder="")
    assert library.errors() == []
    assert [e.key for e in library.entries("walkthrough")] == WALKTHROUGHS
    assert [e.key for e in library.entries("probability")] == PROBABILITY
    for e in library.entries():
        assert e.builtin and Path(e.file).is_relative_to(FILES)
        assert e.lesson.title and len(e.lesson.summary) > 40


def _shown(widget) -> str:  # type: ignore[no-untyped-def]
    """The text a page shows of ``widget``: its HTML values and button labels, and the
    figures of its outputs, skipping whatever is hidden (display none)."""
    if getattr(widget.layout, "display", None) == "none":
        return ""
    parts = []
    if isinstance(getattr(widget, "value", None), str) and not hasattr(widget, "options"):
        parts.append(widget.value)
    if hasattr(widget, "description") and hasattr(widget, "on_click"):
        parts.append(widget.description)
    for out in getattr(widget, "outputs", ()):
        parts.append(json.dumps(out))
    for child in getattr(widget, "children", ()):
        parts.append(_shown(child))
    return "\n".join(parts)


def _exact_shown(app: ProbabilityLessonApp) -> list[str]:
    """The forms of the step's exact answer that the page shows now."""
    q = app.step.question()
    if q.exact is None:
        return []
    value = float(q.exact.value)
    page = _shown(app)
    forms = ["the exact answer is", f"exact {value:.4f}", "nid-pl-verdict"]
    if "/" in str(q.exact.value):  # a fraction such as 22/51 (a bare 1 is everywhere)
        forms.append(str(q.exact.value))
    return [f for f in forms if f in page]


@pytest.mark.parametrize("key", PROBABILITY)
def test_every_probability_lesson_plays_to_its_end(key: str) -> None:
    """Each step, through the widgets a page uses: the prediction starts neutral (not the
    previous step's, not the exact answer); the simulation waits for the prediction and
    says its result in words without the exact answer; the exact answer waits for *Show
    the exact answer*; the last step then says the lesson is complete."""
    app = ProbabilityLessonApp(builtin(key))
    seen = []
    previous = None
    while True:
        step = app.step
        q = step.question()
        seen.append(step.key)
        assert app.simulate_button.disabled  # predict first
        assert app.simulation_box.layout.display == "none"
        assert app.answer_box.layout.display == "none"
        assert app.complete_box.layout.display == "none"
        assert "Predict:" in app.ask.value and app.situation.value
        assert app.prediction.value == step.neutral()
        assert app.prediction.value != previous
        if q.exact is not None and q.answer != "count":
            assert abs(app.prediction.value - float(q.exact.value)) >= 0.01
        assert app.simulate() is None and app.reveal() is False  # nothing out of order
        assert app.index not in app.results and app.index not in app.revealed
        # A prediction of the right kind for the question asked, within its range.
        low, high = q.limits()
        chosen = {"probability": 0.37, "mean": low + (high - low) * 0.37,
                  "count": 5000}[app.kind]
        app.prediction.value = chosen
        app.submit_button.click()
        assert app.index in app.predictions and not app.simulate_button.disabled
        assert app.simulation_box.layout.display == "none" and not _exact_shown(app)
        app.simulate_button.click()
        # The simulation's result, in words, and nothing of the exact answer.
        assert app.simulation_box.layout.display == ""
        assert app.answer_box.layout.display == "none" and app.explanation.value == ""
        est = app.results[app.index]["result"]["estimate"]
        assert est.n == (5000 if app.kind == "count" else step.trials)
        said = app.simulated.value
        assert f"{est.n:,}" in said and "{" not in said
        assert _exact_shown(app) == [], (step.key, _exact_shown(app))
        assert len(app.chart.outputs) == 1
        # The prediction is locked once the simulation has run.
        assert app.submit_button.disabled and app.prediction.disabled
        assert app.simulate_button.disabled
        app.reveal_button.click()
        assert app.answer_box.layout.display == ""
        assert app.console.last == "" or "Error" not in app.console.last
        if q.exact is not None:
            assert str(q.exact.value) in app.result.value or f"{float(q.exact.value):,.0f}" in \
                app.result.value
        assert app.explanation.value and "{" not in app.explanation.value
        assert app.reveal_button.layout.display == "none"
        last = app.index == len(app.lesson.steps) - 1
        assert (app.complete_box.layout.display == "") == last
        previous = chosen
        if not app.next():
            break
    assert seen == [s.key for s in builtin(key).steps]
    assert app.next_button.disabled
    assert "Lesson complete" in app.complete.value


def test_going_back_to_a_step_shows_its_own_prediction() -> None:
    app = ProbabilityLessonApp(builtin("counting"))
    app.prediction.value = 0.62
    app.submit_button.click()
    assert app.next() and app.prediction.value == app.step.neutral()
    assert app.back() and app.prediction.value == 0.62


def test_the_last_step_offers_the_next_lesson_and_the_last_lesson_the_free_lab() -> None:
    tab = ProbabilityLessonsTab()
    app = tab.choose("counting")
    assert isinstance(app, ProbabilityLessonApp)
    app.goto(len(app.lesson.steps) - 1)
    assert app.complete_box.layout.display == "none" and not app.open_next_lesson()
    app.submit_button.click()
    app.simulate_button.click()
    assert app.complete_box.layout.display == "none"  # the answer is not shown yet
    app.reveal_button.click()
    assert "Lesson complete" in app.complete.value
    assert app.next_lesson_button.description == "2. The hypergeometric distribution ▶"
    app.next_lesson_button.click()
    assert tab.chooser.value == "hypergeometric" and tab.app.index == 0
    last = tab.choose("law-of-large-numbers")
    assert last.next_lesson is not None and last.next_lesson[0] == "Free lab"


def test_notation_is_said_in_words_where_a_lesson_first_shows_it() -> None:
    """C(n, k), P(...) and √ are explained once per lesson, at their first use; a lesson
    whose texts use them without the note would fail here."""
    from nidavellir.lessons.probability import NOTATIONS, STAGES

    for key in PROBABILITY:
        lesson = builtin(key)
        explained: set[str] = set()
        for i, step in enumerate(lesson.steps):
            q = step.question()
            texts = step.texts(q.simulation_facts(q.run(50, 0, 5)))
            for stage in STAGES:
                notes = lesson.notation_notes(i, stage, texts[stage])
                for pattern, _words in NOTATIONS:
                    if pattern.search(texts[stage]) and pattern.pattern not in explained:
                        assert any(pattern.search(n) for n in notes), (key, step.key, stage)
                        explained.add(pattern.pattern)
                    elif pattern.pattern in explained:
                        assert not any(n.startswith(found.group(0))
                                       for n in notes if (found := pattern.search(n))), \
                            (key, step.key)
    first = ProbabilityLessonApp(builtin("counting"))
    first.submit_button.click()
    first.simulate_button.click()
    first.reveal_button.click()
    assert "read “36 choose 3”" in first.notes.value
    assert first.next()
    first.submit_button.click()
    first.simulate_button.click()
    first.reveal_button.click()
    assert "C(45, 5)" in first.explanation.value and first.notes.value == ""


def test_the_probability_texts_show_no_internal_names() -> None:
    """No parameter names, column codes or bare formulas on a student's screen."""
    for key in PROBABILITY:
        for step in builtin(key).steps:
            q = step.question()
            texts = step.texts(q.simulation_facts(q.run(50, 0, 5)))
            shown = " ".join(texts.values())
            for internal in ("hand_a", "hand_b", "ci_low", "ci_high", "by_round", "what=",
                             "takes_it", "P0·", "None"):
                assert internal not in shown, (key, step.key, internal)


# ====================================================================== placeholders

def _tavern_parts(f: dict) -> None:
    assert f["ways"] == comb(f["N"], f["n"]) and f["ways_without"] == comb(f["others"], f["n"])
    assert f["others"] == f["N"] - f["K"]
    assert f["p_none"] == Fraction(f["ways_without"], f["ways"])


@pytest.mark.parametrize("key", PROBABILITY)
def test_explanations_name_the_parts_of_the_exact_answer(key: str) -> None:
    for step in builtin(key).steps:
        q = step.question()
        facts = q.facts
        used = {name for name, _ in placeholders(step.explain)}
        # The explanation states the answer it explains (the simulation's, without one).
        assert "answer" in used or (q.exact is None and "estimate" in used), step.key
        # The parts it names are the computation's, consistent with the answer.
        if q.answer == "count":
            p = facts["p"]
            assert p == 1 - facts["p_none"]  # the tavern's chance, whose SE is asked
            assert facts["answer"] == p * (1 - p) / facts["se_target"] ** 2
            assert step.trials == facts["trials_needed"]
        elif q.key == "tavern":
            _tavern_parts(facts)
            expected = facts["p_none"] if q.asked == "none" else 1 - facts["p_none"]
            assert facts["answer"] == expected == q.exact.value
        elif q.key == "round":
            for x in range(0, min(facts["K"], facts["m"]) + 1):
                assert facts[f"p{x}"] == Fraction(comb(facts["K"], x) * comb(
                    facts["others"], facts["m"] - x), facts["ways"])
            assert facts["mean"] == Fraction(facts["m"] * facts["K"], facts["N"])
        elif q.key in ("appears", "expected"):
            assert facts["m"] == facts["per_round"] * facts["rounds"]
            assert facts["D"] == facts["m"] + facts["removed"] or facts["rounds"] < \
                facts["rounds_in_age"]
        elif q.key == "bid_tie":
            assert facts["pairs"] == facts["bids_a"] * facts["bids_b"]
            assert facts["answer"] == Fraction(facts["ties"], facts["pairs"])
        assert q.exact is None or facts["answer"] == q.exact.value
        # Each placeholder's value shows in the text, formatted as asked.
        result = q.run(step.trials, step.seed, step.batches)
        sim = q.simulation_facts(result)
        text = step.texts(sim)["explain"]
        for name, spec in placeholders(step.explain):
            value = {**facts, **sim}[name]
            assert format_value(value, spec) in text, (step.key, name)


def test_the_live_game_step_tells_the_unseen_cards() -> None:
    step = next(s for s in builtin("hypergeometric").steps if s.key == "a-live-game")
    q = step.question()
    text = step.texts(q.simulation_facts(q.run(100, 0, 5)))["explain"]
    assert "27 cards are still unseen in age 1, 4 of them hunters" in text
    assert q.exact.value == Fraction(1154, 2925) and "1154/2925" in text


def test_the_free_lab_words_every_question_kind() -> None:
    """Every kind's explanation (its descriptor's words) fills from its own facts."""
    for kind in QUESTION_KINDS.values():
        filled = fill(kind.explanation, question(kind.key).facts)
        assert "{" not in filled and len(filled) > 60, kind.key


# ====================================================================== malformed files

def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), start=1) if needle in line)


def _alone(text: str) -> str:
    """A shipped lesson's text as a copy without its translations beside it: declaring
    only its own language (else its check names the missing translation files too)."""
    return re.sub(r"(?m)^languages:.*\n", "", text)


WALK = _alone((FILES / "walkthrough" / "base.yaml").read_text(encoding="utf-8"))
PROB = _alone((FILES / "probability" / "01_counting.yaml").read_text(encoding="utf-8"))

#: (name, source text, the text changed, its replacement, where the error is, message).
MALFORMED = [
    ("walk-missing-field", WALK, "    title: The secret bid\n", "", "  - key: bid",
     "has no 'title'"),
    ("walk-unknown-card", WALK, '"1": [E9, H, M1,', '"1": [E99, H, M1,', '"1": [E99',
     "unknown card 'E99'"),
    ("walk-illegal-move", WALK, "    move: take E9\n", "    move: take W10\n", "move: take W10",
     "'take W10' is not allowed here"),
    ("walk-bad-yaml", WALK, "title: The base game\n", "title: [The base game\n", "key: base",
     "bad YAML"),
    ("walk-not-the-learners-move", WALK, "    actions: [bid 4 0 5, bid 2 5 3, take H]\n",
     "    actions: [bid 4 0 5]\n    move: bid 2 5 3\n    why: a test\n",
     "move: bid 2 5 3", "not the learner's"),
    ("walk-wrong-box", WALK, "W9, E10, B,   W6, E11, M1,   E8, B, B]", "W9, E10, B,   W6, "
     "E11, M1,   E8, B, W3]", '"1": [E9', "missing B; extra W3"),
    ("prob-missing-field", PROB, "    predict: What is the chance that the Laughing Goblin "
     "shows at least one hunter?\n", "", "  - key: hunter-in-a-tavern", "has no 'predict'"),
    ("prob-unknown-card", PROB, "{kind: tavern, what: W10, players: 5, age: 1}",
     "{kind: tavern, what: W11, players: 5, age: 1}", "what: W11", "unknown target 'W11'"),
    ("prob-unknown-placeholder", PROB, "**{K}\n      {target}**", "**{K}\n      {targets}**",
     "{targets}", "{targets} is not provided by this tavern question"),
    ("prob-simulation-number-too-soon", PROB, "    predict: What is the chance that the "
     "Laughing Goblin shows at least one hunter?", "    predict: Near {estimate}?",
     "Near {estimate}", "only the simulated text and the explanation"),
    ("prob-exact-answer-too-soon", PROB, "**{estimate:.1%} had a hunter**",
     "**{estimate:.1%} had a hunter**, against {answer:.1%}", "against {answer",
     "the simulated text is read before it is shown"),
    ("prob-bad-format", PROB, "**{answer}** ≈ {answer:.1%}", "**{answer}** ≈ {answer:.1q}",
     "{answer:.1q}", "{answer:.1q}"),
    ("prob-unknown-kind", PROB, "{kind: tavern, what: H, players: 3, age: 1}",
     "{kind: taverns, what: H, players: 3, age: 1}", "kind: taverns",
     "unknown question kind 'taverns'"),
    ("prob-unknown-ask", PROB, "    ask: none\n", "    ask: most\n", "ask: most",
     "unknown ask 'most'"),
    ("prob-bad-yaml", PROB, "steps:\n", "steps:\n  - key: [\n", "  - key: [", "bad YAML"),
]


@pytest.mark.parametrize(("name", "source", "old", "new", "where", "message"), MALFORMED,
                         ids=[m[0] for m in MALFORMED])
def test_a_malformed_file_is_an_error_at_its_line(tmp_path: Path, capsys, name: str,  # type: ignore[no-untyped-def]
                                                   source: str, old: str, new: str,
                                                   where: str, message: str) -> None:
    assert old in source, name
    text = source.replace(old, new, 1)
    path = _write(tmp_path, f"{name}.yaml", text)
    with pytest.raises(LessonError) as caught:
        load(path)
    err = caught.value
    if name.endswith("bad-yaml"):
        assert err.line >= _line_of(text, where)
    else:
        assert err.line == _line_of(text, where), (err.line, str(err))
    assert message in err.message, str(err)
    good = _write(tmp_path, "good.yaml", source)
    assert cli.main(["lesson", "check", str(path), str(good)]) == 2
    out, errors = capsys.readouterr()
    assert errors.strip() == f"error: {path}:{err.line}: {err.message}"
    assert f"{good}: ok" in out


#: Each malformed file's error in German and in French: whole sentences of the catalogue,
#: with what they quote from the file (keys, values, notation) as the file writes it.
IN_LANGUAGES = {
    "walk-missing-field": ("hat kein 'title' (erwartet: key, title,",
                           "n’a pas de 'title' (attendus\xa0: key, title,"),
    "walk-unknown-card": ("unbekannte Karte 'E99' in record.deal.ages.1:",
                          "carte inconnue 'E99' dans record.deal.ages.1\xa0:"),
    "walk-illegal-move": ("'take W10' ist hier nicht erlaubt (",
                          "'take W10' n’est pas permis ici ("),
    "walk-bad-yaml": ("fehlerhaftes YAML: ", "YAML incorrect\xa0: "),
    "walk-not-the-learners-move": ("nicht der Lernende: spiele es zuerst in 'actions'",
                                   "pas à l’élève\xa0: jouez-la d’abord dans 'actions'"),
    "walk-wrong-box": ("für 3 Spieler enthalten (fehlend: B; überzählig: W3)",
                       "pour 3 joueur·euse·s (manquantes\xa0: B\u202f; en trop\xa0: W3)"),
    "prob-missing-field": ("hat kein 'predict'", "n’a pas de 'predict'"),
    "prob-unknown-card": ("die Frage vom Typ tavern kann nicht gestellt werden: unbekanntes "
                          "Ziel 'W11': erwartet wird eine Klasse (W, H, M, B, E)",
                          "la question tavern ne peut pas être posée\xa0: cible inconnue 'W11'\xa0: "
                          "attendu une classe (W, H, M, B, E)"),
    "prob-unknown-ask": ("ask: unbekanntes ask 'most': erwartet eines von none, ",
                         "ask\xa0: ask inconnu 'most'\xa0: attendu l’un de none, "),
    "prob-unknown-placeholder": (
        "den Platzhalter {targets} liefert diese Frage vom Typ tavern nicht; sie liefert ",
        "l’espace réservé {targets} n’est pas fourni par cette question tavern\u202f; elle "
        "fournit "),
    "prob-simulation-number-too-soon": ("nur der Text zur Simulation und die Erklärung",
                                        "seuls le texte de la simulation et l’explication"),
    "prob-exact-answer-too-soon": ("der Text zur Simulation wird gelesen, bevor",
                                   "le texte de la simulation est lu avant"),
    "prob-unknown-kind": ("unbekannte Art von Frage 'taverns': erwartet eine von ",
                          "type de question inconnu 'taverns'\xa0: attendu l’un de "),
    "prob-bad-yaml": ("fehlerhaftes YAML: ", "YAML incorrect\xa0: "),
}

#: The cases whose English (MALFORMED's message) is a quote of the file, or Python's own
#: words about a format (``{answer:.1q}``), said inside the reader's sentence.
QUOTING = {"prob-bad-format"}


@pytest.mark.parametrize(("name", "source", "old", "new", "where", "message"), MALFORMED,
                         ids=[m[0] for m in MALFORMED])
def test_lesson_check_says_a_malformed_file_in_the_readers_language(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, source: str, old: str,
        new: str, where: str, message: str) -> None:
    """``nidavellir --language de lesson check``: the error names the file and its line as
    in English, in a sentence of the reader's language; in the pseudo-language every error
    is a message of the catalogue (wrapped in its markers)."""
    from nidavellir import i18n

    path = _write(tmp_path, f"{name}.yaml", source.replace(old, new, 1))
    with pytest.raises(LessonError) as english:
        load(path)
    for language, index in (("de", 0), ("fr", 1)):
        assert cli.main(["--language", language, "lesson", "check", str(path)]) == 2
        out, errors = capsys.readouterr()
        prefix = {"de": "Fehler: ", "fr": "erreur\xa0: "}[language]
        assert errors.startswith(f"{prefix}{path}:{english.value.line}: "), errors
        assert errors.count("\n") == 1, errors
        if name not in QUOTING:
            assert message not in errors, errors
        if name in IN_LANGUAGES:
            assert IN_LANGUAGES[name][index] in errors, errors
    with i18n.using("qps"), pytest.raises(LessonError) as pseudo:
        load(path)
    said = pseudo.value.message
    assert said.startswith("⟦") and said.endswith("⟧"), said
    assert pseudo.value.line == english.value.line


def test_lesson_check_exits_2_from_the_shell(tmp_path: Path) -> None:
    bad = _write(tmp_path, "bad.yaml", "kind: walkthrough\nkey: x\ntitle: [unclosed\n")
    done = subprocess.run([sys.executable, "-m", "nidavellir.cli", "lesson", "check", str(bad)],
                          capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 2
    assert done.stderr.startswith(f"error: {bad}:4: bad YAML") and "Traceback" not in done.stderr
    done = subprocess.run([sys.executable, "-m", "nidavellir.cli", "lesson", "check",
                           str(FILES / "walkthrough" / "base.yaml")],
                          capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 0 and "ok (walkthrough “base”, 15 steps; en, de, fr)" in done.stdout


def test_lesson_list_and_show(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    _write(tmp_path, "mine.yaml", _docs_examples()["probability"])
    _write(tmp_path, "broken.yaml", "kind: probability\nkey: broken\n")
    assert cli.main(["lesson", "list", "--json", "--lessons", str(tmp_path)]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [(r["kind"], r["key"]) for r in rows] == (
        [("walkthrough", k) for k in WALKTHROUGHS] + [("probability", k) for k in PROBABILITY]
        + [("probability", "broken"), ("probability", "hunters")])
    assert rows[0]["title"] == "The base game" and rows[0]["file"].endswith("base.yaml")
    assert rows[-2]["error"].startswith(f"{tmp_path / 'broken.yaml'}:1: ")
    assert "error" not in rows[-1] and rows[-1]["steps"] == 1
    assert cli.main(["lesson", "list"]) == 0
    table = capsys.readouterr().out
    assert "probability  counting" in table and "(15 steps; en, de, fr)" in table
    assert cli.main(["lesson", "list", "--lessons", str(tmp_path / "nowhere")]) == 2
    assert "no such folder" in capsys.readouterr().err
    assert cli.main(["lesson", "show", str(FILES / "probability" / "01_counting.yaml")]) == 0
    shown = capsys.readouterr().out
    assert "Predict: What is the chance that the Laughing Goblin shows at least one hunter?" \
        in shown and "C(36, 3) = **7140**" in shown
    assert cli.main(["lesson", "show", str(FILES / "walkthrough" / "base.yaml")]) == 0
    shown = capsys.readouterr().out
    assert "Your move: Take the explorer 9 (`take E9`)." in shown and "Total" in shown


# ====================================================================== docs and a teacher's folder

def test_the_docs_examples_load_and_play(tmp_path: Path) -> None:
    examples = _docs_examples()
    assert set(examples) == {"walkthrough", "probability"}
    walk = load(_write(tmp_path, "walk.yaml", examples["walkthrough"]))
    assert isinstance(walk, WalkthroughLesson)
    app = WalkthroughApp(Walkthrough(walk))
    moves = 0
    while True:
        if app.wt.needs_move:
            assert app.wt.step.move is not None
            move = str(app.wt.game.parse(app.wt.step.move))
            control = app.control
            assert control is not None
            if move in control.buttons:
                control.buttons[move].click()
            else:
                app.notation.value = app.wt.step.move
                app.play.click()
            assert "nid-wt-ok" in app.feedback.value
            moves += 1
        if not app.next():
            break
    assert moves == 2 and app.wt.index == len(walk.steps) - 1
    prob = load(_write(tmp_path, "prob.yaml", examples["probability"]))
    assert isinstance(prob, ProbabilityLesson)
    papp = ProbabilityLessonApp(prob)
    papp.prediction.value = 0.45
    papp.submit_button.click()
    papp.simulate_button.click()
    papp.reveal_button.click()
    assert "C(36, 3) = 7140" in papp.explanation.value and "22/51" in papp.explanation.value


def test_a_teachers_folder_good_lessons_play_bad_ones_show_their_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    examples = _docs_examples()
    _write(tmp_path, "first_bid.yaml", examples["walkthrough"])
    _write(tmp_path, "hunters.yaml", examples["probability"])
    bad_walk = examples["walkthrough"].replace("key: first-bid", "key: broken-bid").replace(
        "move: take E9", "move: take W10")
    _write(tmp_path, "broken_bid.yaml", bad_walk)
    bad_prob = examples["probability"].replace("key: hunters", "key: broken-odds").replace(
        "{target}", "{targets}")
    _write(tmp_path, "broken_odds.yaml", bad_prob)
    _write(tmp_path, "zz_base_again.yaml", examples["walkthrough"].replace("key: first-bid",
                                                                           "key: base"))
    monkeypatch.setenv("NIDAVELLIR_LESSONS", str(tmp_path))
    from widgets.dashboard import Dashboard

    dash = Dashboard(bot_delay=0)
    tab = dash.walkthrough
    assert isinstance(tab, WalkthroughTab)
    assert [v for _label, v in tab.chooser.options] == [*WALKTHROUGHS, "first-bid"]
    assert "broken_bid.yaml:" in tab.problems.value and "take W10" in tab.problems.value
    assert "zz_base_again.yaml:2: the key &#x27;base&#x27; is already used" in tab.problems.value
    assert tab.entries["base"].builtin  # the teacher's file does not replace the lab's
    app = tab.choose("first-bid")
    assert app.next()
    assert app.submit("bid 4 3 0") and app.next()
    assert app.submit("take E9")
    dash.open_tab("lessons")
    lessons = dash.lessons
    assert isinstance(lessons, ProbabilityLessonsTab)
    assert [v for _label, v in lessons.chooser.options] == [*PROBABILITY, "hunters", "lab"]
    assert "broken_odds.yaml:" in lessons.problems.value and "{targets}" in \
        lessons.problems.value
    papp = lessons.choose("hunters")
    papp.prediction.value = 0.4
    papp.submit_button.click()
    papp.simulate_button.click()
    assert "22/51" not in papp.result.value
    papp.reveal_button.click()
    assert "22/51" in papp.result.value
    assert "Error" not in dash.console.last


@pytest.mark.parametrize("name", [
    "nidavellir.lessons", "nidavellir.lessons.markup", "nidavellir.lessons.probability",
    "nidavellir.analysis.probability", "nidavellir.analysis.probability.questions",
    "nidavellir.classroom.store.database", "widgets.classroom", "widgets.probability_lessons"])
def test_doctests(name: str) -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0 and result.attempted > 0
