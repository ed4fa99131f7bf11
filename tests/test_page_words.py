"""Words the page's libraries write themselves (issue 46): Plotly's toolbar and messages in
the page's language, and no "null" over a widget's label (ipywidgets 8)."""

from __future__ import annotations

import ipywidgets as W

from nidavellir.i18n import using
from widgets import tooltips
from widgets.charts import PLOTLY_WORDS, figure_output, plotly_config


def test_plotly_speaks_the_pages_language() -> None:
    import plotly.graph_objects as go

    assert "locale" not in plotly_config()  # English: Plotly's own words
    with using("de"):
        config = figure_output(go.Figure())["data"]["application/vnd.plotly.v1+json"]["config"]
    assert config["locale"] == "de"
    words = config["locales"]["de"]["dictionary"]
    assert set(words) == set(PLOTLY_WORDS)
    assert words["Download plot as a PNG"] == "Diagramm als PNG herunterladen"
    assert config["locales"]["de"]["format"] == {"decimal": ",", "thousands": "."}
    with using("fr"):
        assert plotly_config()["locales"]["fr"]["dictionary"]["Zoom in"] == "Agrandir"
    with using("qps"):
        assert all(w.startswith("⟦") for w in plotly_config()["locales"]["qps"]["dictionary"]
                   .values())
    # A button the lab's charts have no use for is not drawn (its words are not translated).
    assert {"select2d", "lasso2d", "sendChartToCloud"} <= set(
        plotly_config()["modeBarButtonsToRemove"])


def test_no_label_says_null() -> None:
    tooltips.install()
    tooltips.install()  # installing again changes nothing
    assert W.IntText(description="Seed").tooltip == ""
    assert W.IntText(description="Seed", tooltip="the deal").tooltip == "the deal"
    seen: list[W.Widget] = []
    previous = W.Widget._widget_construction_callback
    try:
        W.Widget.on_widget_constructed(seen.append)  # another library's callback...
        tooltips.install()
        widget = W.Dropdown(description="Level", options=["a"])
        assert widget.tooltip == "" and widget in seen  # ...is still called
    finally:
        W.Widget.on_widget_constructed(previous)
