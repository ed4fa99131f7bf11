"""Issue 46 item 1 for the class server: the teacher page, its login and the projector in the
pseudo-language (``?lang=qps``: every message of the catalogue wrapped in ⟦…⟧).

The teacher's handlers on a tornado server of their own (no Voila: the pages are the
server's, not a kernel's), a class database with every kind of thing the pages show: a
probability question with its exact value, a mean with a far-off answer, a position the
teacher asked with the class's moves and the coach's figures, a pinned answer, pseudonyms,
a lock, the pause, the progress grid, a record read in *Ask the class about a position*.
Every visible text, title and placeholder of the login page, the teacher page and the
projector is read in the browser; once the wrapped messages, the names (students', runs',
the lessons' own texts, which are not the catalogue's) and the notation are taken out, no
word may be left: an English word there escaped the catalogue. The same pages in German
show the German words (the page's language reaches every request).
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest

from nidavellir.classroom.store import DWARVES, Answer, ClassStore, move_answer
from nidavellir.classroom.teacher.ask import ask_position
from nidavellir.classroom.teacher.data import lessons_plan
from nidavellir.i18n import using
from nidavellir.lessons.position import asked_position_step
from tests.test_class_view import PASSWORD
from tests.test_class_view import teacher_server as teacher_server  # the fixture

from .conftest import watch_page
from .test_dashboard import UPDATE_TIMEOUT

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
RECORD = ROOT / "examples" / "lessons" / "records" / "greedy_seed7.json"
VIEWPORT = {"width": 1280, "height": 800}
NAMES = ("Ada", "Bo", "Cy", "Di", "3b, Tuesday")
#: The players of the record the teacher reads (its seats).
PLAYERS = ("Ada", "Bo", "Cai")
#: Visible texts, titles and placeholders of the page, and its title.
TEXTS = """() => {
  const out = [document.title];
  const shown = (el) => el && el.getClientRects().length > 0 &&
    getComputedStyle(el).visibility !== "hidden";
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode, el = node.parentElement;
    if (!el || el.closest("script, style") || !node.textContent.trim()) { continue; }
    if (shown(el) || (el.closest("select") && shown(el.closest("select")))) {
      out.push(node.textContent.trim());
    }
  }
  document.querySelectorAll("[title], [placeholder]").forEach((el) => {
    if (shown(el)) { out.push(el.title || ""); out.push(el.placeholder || ""); }
  });
  return out.filter((t) => t.trim());
}"""
#: What may stand outside the markers: notation (moves, card tokens), numbers, times and
#: dates, symbols.
NOTATION = re.compile(r"\b(bid|take|hero|transform|keep|discard)\b( [\w+@]+)*|"
                      r"\b[A-Z]\d+\b|\b\d+([.,:/]\d+)*( ?(AM|PM))?\b")


def _leftover(texts: list[str], allowed: set[str]) -> list[str]:
    """The words of ``texts`` outside the markers that are not names or notation."""
    left = []
    for text in texts:
        while True:  # a message may hold a wrapped message (a placeholder's value)
            inner = re.sub(r"⟦[^⟦⟧]*⟧", " ", text)
            if inner == text:
                break
            text = inner
        for name in sorted(allowed, key=len, reverse=True):
            text = text.replace(name, " ")
        text = NOTATION.sub(" ", text)
        words = re.findall(r"[^\W\d_]{2,}", text)
        if words:
            left.append(f"{words} in {text.strip()!r}")
    return left


def _class(store: ClassStore) -> set[str]:
    """A class with something of everything; the lessons' own texts it shows."""
    plan = lessons_plan()
    lesson = plan[0]
    step = lesson["steps"][0]
    title = f"{lesson['title']}: {step['title']}"
    now = time.time()
    for i, name in enumerate(NAMES[:4]):
        store.join(f"s{i}", name)
    store.reach("s0", lesson["key"], 1)
    store.record(*(Answer(student=f"s{i}", name=NAMES[i], question=step["question"],
                          title=title, answer=v, exact=22 / 51, exact_text="22/51",
                          kind="probability", step=1, uid=f"p{i}", at=now)
                   for i, v in enumerate((0.4, 0.45, 0.5))))
    store.record(*(Answer(student=f"s{i}", name=NAMES[i], question="lab/mean", title=title,
                          answer=v, exact=3.5, exact_text="7/2", kind="mean", uid=f"m{i}",
                          at=now) for i, v in enumerate((3.0, 3.5, 3.25, 400.0))))
    store.rename_run(1, NAMES[4])
    with using("qps"):
        asked = ask_position(store, lambda k: {"record": RECORD.read_text(encoding="utf-8"),
                                                "decision": "44"}.get(k, ""))
    position = store.position(asked.asked or 0)
    assert position is not None
    step44 = asked_position_step(position)
    store.record(*(move_answer(step44, "asked", 1, f"s{i}", move, name=NAMES[i],
                               uid=f"a{i}") for i, move in enumerate(("bid 14 2 0", "bid 7 5 2"))))
    store.reveal(position.question_id)
    store.show_names(True)
    store.pin(next(a.id for a in store.answers() if a.uid == "p0"))
    store.lock(lesson["key"], 1)
    store.pause()
    return {lesson["title"] for lesson in plan} | {s["title"] for lesson in plan
                                                  for s in lesson["steps"]} | {title}


def test_the_teacher_pages_show_no_word_outside_the_catalogue(teacher_server: dict,
                                                              chromium: Any) -> None:
    url, store = teacher_server["url"], teacher_server["store"]
    allowed = set(NAMES) | set(PLAYERS) | set(DWARVES) | _class(store)  # pseudonyms too
    context = chromium.new_context(viewport=VIEWPORT)
    try:
        pg = context.new_page()
        watch = watch_page(pg)
        pg.goto(url + "?lang=qps")
        pg.locator("#password").wait_for(timeout=UPDATE_TIMEOUT)
        assert _leftover(pg.evaluate(TEXTS), allowed) == []
        assert pg.locator("html").get_attribute("lang") == "qps"
        pg.locator("#password").fill(PASSWORD)
        pg.locator("#open").click()
        pg.locator(".move-question").wait_for(timeout=UPDATE_TIMEOUT)
        # The record read for Ask the class: its decisions, in the page's language.
        pg.locator("#ask-record").fill(RECORD.read_text(encoding="utf-8"))
        pg.locator("#ask-read").click()
        pg.locator("#ask-choose").wait_for(state="visible", timeout=UPDATE_TIMEOUT)
        pg.locator("#ask-decision").select_option("44")
        # The coach's figures of the asked position (judged once, on the server).
        pg.wait_for_function("() => [...document.querySelectorAll('.move-question "
                             "tr[data-move]')].some(r => r.textContent.includes('±'))",
                             timeout=UPDATE_TIMEOUT)
        pg.wait_for_function("() => document.querySelector('#grid') !== null",
                             timeout=UPDATE_TIMEOUT)
        texts = pg.evaluate(TEXTS)
        assert _leftover(texts, allowed) == []
        assert any("⟦" in t for t in texts) and "Bo" in " ".join(texts)
        pg.screenshot(path=str(ROOT / "test-artifacts" / "class_teacher_qps.png"))
        projector = context.new_page()
        projector_watch = watch_page(projector)
        projector.goto(url + "projector?lang=qps")
        projector.wait_for_function("() => document.querySelectorAll('#question "
                                    "tr[data-move]').length > 0", timeout=UPDATE_TIMEOUT)
        projector.locator("#eyes").wait_for(state="visible", timeout=UPDATE_TIMEOUT)
        assert _leftover(projector.evaluate(TEXTS), allowed) == []
        # The same pages in German: the page's words and its data's.
        pg.goto(url + "?lang=de")
        pg.locator(".move-question").wait_for(timeout=UPDATE_TIMEOUT)
        assert pg.locator("header h1").inner_text() == "Klassenansicht"
        pg.wait_for_function("() => /von \\d+ haben geantwortet/.test("
                             "document.querySelector('.question .count').textContent)",
                             timeout=UPDATE_TIMEOUT)
        status, body = _get(pg, url + "api/answers?lang=de")
        assert status == 200 and "aktualisiert" in json.loads(body)["status"]
        watch.assert_clean()
        projector_watch.assert_clean()
    finally:
        context.close()


def _get(pg: Any, url: str) -> tuple[int, str]:
    response = pg.request.get(url)
    return response.status, response.text()
