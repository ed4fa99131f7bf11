"""The lab's palette for the panels: see :mod:`nidavellir.palette` (one source for the
card tiles and the charts)."""

from typing import Any

from nidavellir.palette import (
    CLASS_COLOURS,
    CLASS_LETTERS,
    CLASS_NAMES,
    DISABLED_OPACITY,
    TEXT_COLOUR,
    class_colour,
)

__all__ = ["CLASS_COLOURS", "CLASS_LETTERS", "CLASS_NAMES", "DISABLED_OPACITY", "TEXT_COLOUR",
           "class_colour", "CSS", "css_widget"]

#: The few rules inline styles cannot express: the card-info panel's marker, the upload
#: button's label (ipywidgets always appends a file count to it), errors next to controls.
CSS = """
.nid-card-details > summary::-webkit-details-marker { display: none; }
.nid-card-details > summary { outline: none; }
.nid-card-details[open] > summary .nid-card { box-shadow: 0 0 0 3px #2471a3; }
.nid-upload.jupyter-button { font-size: 0; }
.nid-upload.jupyter-button::after { content: "Upload a record (.json)"; font-size: 13px; }
.nid-error { color: #c0392b; font: 13px sans-serif; }
button.nid-next:disabled { opacity: .45; cursor: not-allowed; }
"""


def css_widget() -> Any:
    """An HTML widget carrying :data:`CSS` (put one in every top-level panel)."""
    import ipywidgets as W

    box = W.HTML(f"<style>{CSS}</style>", layout=W.Layout(height="0px", margin="0"))
    box.add_class("nid-css")
    return box
