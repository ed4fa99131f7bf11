"""Issue 58 in the browser: a class server restarted in the middle of a lesson.

A student's page on a class server of its own (the class password, a class folder): the
student answers step 1 and goes on to step 2; the server stops (its kernels with it). The
page says that the server does not answer and keeps asking; the server starts again at
the same address, and the page comes back by itself onto a new kernel, with the
student's name, lesson and step, without the class password typed again (the login
cookie's secret is kept in the class folder), and the answer is stored once. The protocol
version of the same, with 3 to 30 students, kills and a locked database, is
tests/test_class_chaos.py (and benchmarks/bench_class_chaos.py).
"""

from __future__ import annotations

import re
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
from servers import start_voila, stop_voila, wait_until

from .conftest import ARTIFACTS, keep_what_the_page_showed, watch_page
from .test_class_view import VIEWPORT, _kernel_of
from .test_dashboard import DASHBOARD, LOAD_TIMEOUT, tab, wait_text

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "restart-class"


@pytest.mark.slow(reason="a class server of its own started twice, a student's page on it: "
                         "about 15 s of CPU")
def test_a_students_page_comes_back_by_itself_after_the_server_restarts(
        tmp_path: Path, chromium: Any) -> None:
    folder = tmp_path / "class"
    extra = ["--class-dir", str(folder), "--lessons", str(ROOT / "examples" / "lessons"),
             "--class-size", "1", "--spares", "1", "--refill-quiet", "1"]
    env = {"NIDAVELLIR_PASSWORD": PASSWORD}
    servers = [start_voila("notebooks", tmp_path, extra=extra, env=env)]
    context = chromium.new_context(viewport=VIEWPORT)
    pg = context.new_page()
    watched = watch_page(pg)
    try:
        wait_until(lambda: "*** The class can come in" in servers[0].log(), "the class ready")
        pg.goto(f"{servers[0].url}/?token={PASSWORD}")  # the link the teacher hands out
        pg.goto(servers[0].render_url(DASHBOARD))
        pg.locator(".nid-wt-title").wait_for(timeout=LOAD_TIMEOUT)
        tab(pg, "Probability lessons").click()
        box = pg.locator(".nid-class-name input")
        box.fill("Ivo")
        box.press("Enter")
        wait_text(pg, ".nid-pl-title", r"1\. Counting · step 1 of 3")
        pg.locator("button.nid-pl-submit").click()
        wait_text(pg, ".nid-pl-said", r"Your prediction: 0\.50\. ✔ It went to your teacher")
        pg.locator("button.nid-pl-next").click()
        wait_text(pg, ".nid-pl-title", r"step 2 of 3")
        kernel = _kernel_of(pg)
        stopped = time.monotonic()
        stop_voila(servers[0])
        # The page says so and keeps asking (every half second) until the server answers.
        wait_text(pg, "#nid-page-lost", r"The server does not answer \(it may be "
                                          r"restarting\): this page waits for it and comes "
                                          r"back by itself\.")
        said_down = pg.evaluate("() => Date.now()")
        servers.append(start_voila("notebooks", tmp_path, extra=extra, env=env,
                                   port=servers[0].port))
        listening = time.monotonic()
        pg.locator("#nid-page-back").wait_for(timeout=LOAD_TIMEOUT)
        wait_text(pg, ".nid-pl-title", r"1\. Counting · step 2 of 3")
        usable = time.monotonic()
        print(f"restart: the page usable again {usable - listening:.1f} s after the server "
              f"listened again, {usable - stopped:.1f} s after the stop began")
        assert pg.locator(".nid-class-name input").input_value() == "Ivo"
        assert _kernel_of(pg) != kernel
        # "It was lost N s ago" counts from the moment the server stopped answering, not
        # from the moment it answered again (the page was without its dashboard since).
        back = pg.evaluate("() => window.nidavellirPage.back")
        assert back["lost"] <= said_down, back
        shown = pg.locator("#nid-page-back").inner_text()
        found = re.search(r"it was lost (\d+) s ago", shown)
        assert found and int(found.group(1)) >= (back["at"] - said_down) // 1000, shown
        assert "login" not in pg.url and pg.locator("input[type=password]").count() == 0
        ARTIFACTS.mkdir(exist_ok=True)
        pg.screenshot(path=str(ARTIFACTS / "class_student_back_after_a_restart.png"))
        watched.assert_clean()
    except Exception:  # the page, its requests, the server's log and stacks
        keep_what_the_page_showed(pg, "class-restart-failure", watched, servers[-1])
        raise
    finally:
        context.close()
        stop_voila(servers[-1])
    with sqlite3.connect(folder / "answers.sqlite") as db:
        rows = db.execute("SELECT question, COUNT(*) FROM answers WHERE name = 'Ivo' "
                          "GROUP BY question").fetchall()
    db.close()
    assert rows == [("counting/hunter-in-a-tavern", 1)]
