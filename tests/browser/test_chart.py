"""The class's histogram (``nidavellir/classroom/teacher/chart.js``, the teacher page's and
the projector's) in the browser: its axis names the bins' edges, the last bin's upper edge
at the right end, and no two edges read the same, a count's included."""

from __future__ import annotations

from pathlib import Path
from typing import Any

CHART = (Path(__file__).resolve().parents[2] / "nidavellir" / "classroom" / "teacher"
         / "chart.js")

EDGES = """(q) => {
    const bins = [];
    for (let i = 0; i < 10; i++) {
        bins.push({low: q.low + (q.high - q.low) * i / 10,
                   high: q.low + (q.high - q.low) * (i + 1) / 10,
                   count: i === 5 ? 3 : 0, beyond: i === 9 ? q.beyond : 0});
    }
    const box = document.createElement("div");
    box.innerHTML = window.nidChart.chart({bins: bins, kind: q.kind, exact: q.exact,
                                           exact_text: null});
    return {edges: Array.from(box.querySelectorAll(".axis div"), d => d.textContent),
            end: Array.from(box.querySelectorAll(".axis .axis-end"), d => d.textContent)};
}"""


def _edges(chromium: Any, **question: Any) -> dict[str, list[str]]:
    page = chromium.new_page()
    try:
        page.set_content("<html><head></head><body></body></html>")
        page.add_script_tag(content=CHART.read_text(encoding="utf-8"))
        return page.evaluate(EDGES, {"beyond": 0, "exact": None, **question})
    finally:
        page.close()


def test_the_axis_names_each_bins_edges_and_the_last_upper_one(chromium: Any) -> None:
    chance = _edges(chromium, low=0.0, high=1.0, kind="chance", exact=0.11)
    assert chance["edges"] == [f"0.{i}0" for i in range(10)]
    assert chance["end"] == ["1.00"]
    counts = _edges(chromium, low=0.0, high=20.0, kind="count")
    assert counts["edges"] == [str(2 * i) for i in range(10)] and counts["end"] == ["20"]
    # Every answer alike: bins a tenth wide, their edges with a decimal (not 5 5 5 5 5 5).
    alike = _edges(chromium, low=4.5, high=5.5, kind="count")
    assert alike["edges"] == ["4.5", "4.6", "4.7", "4.8", "4.9", "5.0", "5.1", "5.2", "5.3",
                              "5.4"] and alike["end"] == ["5.5"]
    # A last bin that also holds the far-off answers has no upper edge to name.
    assert _edges(chromium, low=0.0, high=1.0, kind="chance", beyond=2)["end"] == []
