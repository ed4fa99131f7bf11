"""The teacher's pages and their words: the page files beside this module filled in, in
the page's language (the teacher page, its login form, the projector, the histogram's
script). Standard library only.
"""

from __future__ import annotations

import json
import math
from html import escape
from pathlib import Path
from typing import Any

from ... import i18n
from ...i18n import _
from ..guard import Throttle

#: The folder of the page files (``teacher.html``, ``projector.html``, ...).
HERE = Path(__file__).resolve().parent
#: How often the page asks for fresh data (ms): an answer shows within about a second.
POLL_MS = 1000


def page(name: str, texts: dict[str, str] | None = None, **values: str) -> str:
    """A page of the teacher's: ``{{key}}`` filled with ``values`` as they are, and
    ``{{w:key}}`` with ``texts`` escaped for HTML (its words in the page's language)."""
    text = (HERE / name).read_text(encoding="utf-8")
    for key, value in values.items():
        text = text.replace("{{" + key + "}}", value)
    for key, value in (texts or {}).items():
        text = text.replace("{{w:" + key + "}}", escape(value))
    return text


def teacher_words() -> dict[str, str]:
    """The words of the teacher's controls, in the teacher's language (the page's script
    fills ``{name}``-style placeholders)."""
    return {
        "run": _("Lesson run"), "run_now": _("{name} ({answers}) in progress"),
        "run_name_hint": _("name, e.g. 3b, Tuesday"), "new_run": _("New run"),
        "rename_run": _("Rename this run"), "run_csv": _("Download this run (CSV)"),
        "run_option": _("{name} · {date} · {answers}"),
        "run_option_undated": _("{name} · {answers}"), "in_progress": _("(in progress)"),
        "reopen": _("Reopen"), "delete_run": _("Delete this run"),
        "delete_confirm": _("Delete the run \"{name}\" and its {n} answers? This cannot be "
                            "undone: download it first to keep it."),
        "name_first": _("Type the run's name first."),
        "class_label": _("The class"), "pause": _("Pause: eyes on the teacher"),
        "resume": _("Resume"), "paused": _("Paused: every page says Eyes on the teacher"),
        "free": _("Free pace: every student goes at their own pace"),
        "locked_at": _("Locked at step {step} of {lesson}"), "release": _("Release"),
        "lesson": _("Lesson"), "step": _("Step {n}"), "lock_here": _("Lock here"),
        "locked_here": _("Locked here"), "teacher_reveals": _("I reveal the answer"),
        "reveal": _("Reveal"), "hide": _("Hide again"),
        "reveal_led": _("The students' pages and the projector show the answer"),
        "reveal_projector": _("The projector shows the exact value (the students see it "
                              "after answering anyway)"),
        "no_server": _("The server does not answer ({error})."),
        "progress_title": _("Progress: {lesson}"),
        "progress_empty": _("No student has reached a step of this lesson in this run yet."),
        "reached": _("reached, not answered yet"), "off_by": _("off by {off}"),
        "projector": _("Projector"), "open_projector": _("Open the projector view"),
        "show_names": _("Show pseudonyms (dwarf names) on it"),
        "unproject": _("Back to the current question"), "project": _("Project this question"),
        "pin": _("Pin"), "pinned": _("Pinned"),
        "move_option": _("Move"), "move_class": _("The class"),
        "move_win": _("Coach: chance to win"), "move_score": _("Coach: final score"),
        "move_about_best": _("★ about as good as the best (within the noise)"),
        "coach_pending": _("The coach is judging this position (a few seconds, once)…"),
        "coach_done": _("The coach's judgement ({level} level, {seconds} s, once for this "
                        "position): every option played out on the same games; ± is one "
                        "standard error."),
        "coach_puzzle": _("The puzzle's figures, computed when it was made: every option "
                          "played out on the same {deals} deals of what is hidden; ± is one "
                          "standard error."),
        "coach_puzzle_made": _("The puzzle's figures, computed when it was made; ± is one "
                               "standard error."),
        "coach_exact": _("The coach's judgement: exact (nothing hidden or random is left)."),
        "coach_error": _("The coach could not judge this position: {error}"),
        "no_answer": _("No answer yet: the students' predictions appear here as they submit "
                       "them."),
        "not_answered": _("Not answered yet ({n}):"),
        "everybody": _("Everybody has answered."),
        "mean": _("class mean {value}"), "median": _("median {value}"),
        "exact": _("exact {text} ≈ {value}"),
        "not_updated": _("not updated since {time}"),
        **chart_words(),
        "ask_title": _("Ask the class about a position"),
        "ask_upload": _("A game record (the .json file the lab saves):"),
        "ask_paste": _("…or paste a game record (JSON) here"),
        "ask_read": _("Read the record"),
        "ask_read_done": _("The record replays: {n} decisions. Choose one, the seat and the "
                           "question."),
        "ask_unreadable": _("The file {name} cannot be read."),
        "ask_decision": _("Decision"), "ask_seat": _("The class sees the position as"),
        "ask_seat_deciding": _("the seat that decides"), "ask_question": _("Question"),
        "ask_go": _("Ask the class"),
        "ask_done": _("Asked: every student's page shows the position."),
        "asked_title": _("Positions asked in this run"), "asked_now": _("asked now"),
        "ask_reveal": _("Reveal the coach's figures"), "end_ask": _("End the question"),
        "ask_again": _("Ask again"),
        "legend": _("•: the student reached the step and has not answered it yet. An "
                    "answer is green within 0.05 of the exact value (within 5 percent of it "
                    "for a mean or a count), yellow within 0.15, red further off. Under each "
                    "cell: when the student reached the step or last answered it."),
    }


def script_json(value: Any) -> str:
    """A value written into a page's script: JSON that cannot close the script element."""
    return json.dumps(value).replace("<", "\\u003c").replace(">", "\\u003e").replace(
        "&", "\\u0026")


def wrong(message: str) -> str:
    return f"<div class='wrong'>{escape(message)}</div>"


def login_page(throttle: Throttle, address: str, note: str) -> str:
    """The teacher's login form; while the address must wait, its button waits too (a try
    sent before then would be refused unchecked)."""
    wait_ms = math.ceil(throttle.wait(address) * 1000)
    words = {
        "title": _("Class view · teacher password"), "heading": _("Class view"),
        "about": _("The teacher's page of the Nidavellir lab: the class's answers, live. It "
                   "has its own teacher password (not the class password)."),
        "password": _("Teacher password"), "open": _("Open the class view"),
    }
    return page("teacher_login.html", words, wrong=wrong(note) if note else "",
                 wait_ms=str(wait_ms + 50 if wait_ms else 0), lang=i18n.language(),
                 wait_title=script_json(_("wait for the next try")))


def chart_words() -> dict[str, str]:
    """The histogram's words (``chart.js``), shared by the teacher page and the projector."""
    return {
        "chart_far_above": _("{n} far above"), "chart_far_below": _("{n} far below"),
        "chart_bin": _("{low} to {high}: {n}"), "chart_exact": _("exact {text} ≈ {value}"),
    }


def projector_words() -> dict[str, str]:
    return {
        **chart_words(),
        "title": _("Projector · Nidavellir lab"), "waiting": _("Waiting for the first answer…"),
        "exact": _("exact {text} ≈ {value}"),
        "not_revealed": _("The exact value comes after the discussion."),
        "pinned": _("Pinned answers"), "paused": _("Eyes on the teacher"),
        "no_names": _("No names are shown."),
        "move_option": _("Move"), "move_class": _("The class"),
        "move_win": _("Coach: chance to win"), "move_score": _("Coach: final score"),
        "coach_pending": _("The coach is judging this position…"),
        "moves_later": _("The coach's figures come after the discussion."),
    }


__all__ = ["HERE", "POLL_MS", "chart_words", "login_page", "page", "projector_words",
           "script_json", "teacher_words", "wrong"]
