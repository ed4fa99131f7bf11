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
.nid-column { display: inline-block; vertical-align: top; width: 74px; margin-right: 3px;
  border-top: 4px solid #ccc; background: #f8f9f9; min-height: 60px; text-align: center; }
.nid-column-name { font: bold 10px sans-serif; white-space: nowrap; }
.nid-column-score { font: 10px/1.2 sans-serif; color: #333; }
.nid-column-more { font: 9px sans-serif; color: #777; }
.nid-majority-note { max-width: 150px; font: 10px/1.2 sans-serif; color: #7b241c;
  text-align: center; white-space: normal; }
.nid-estimate { font: 12px sans-serif; color: #1b4f72; margin: 2px 0; }
.nid-purse-label { font: 13px sans-serif; margin-right: 8px; }
.nid-hint-text, .nid-hint-why { font: 13px/1.4 sans-serif; white-space: normal; }
.nid-bar-label { font: 11px sans-serif; color: #555; }
.nid-bar { display: flex; width: 100%; border: 1px solid #ccc; }
.nid-bar-part { color: white; font: 11px sans-serif; padding: 2px 0; text-align: center;
  overflow: hidden; white-space: nowrap; }
.nid-mistake-text { font: 12px/1.4 sans-serif; white-space: normal; margin-top: 4px; }
.nid-setup { background: #f4f6f7; border: 1px solid #d5dbdb; border-radius: 8px;
  padding: 6px 10px; margin: 0 0 6px 0; }
.nid-setup-summary { font: 14px/1.4 sans-serif; white-space: normal; flex: 1 1 auto; }
.nid-setup-levels, .nid-levels { font: 12px/1.4 sans-serif; color: #444; white-space: normal; }
.nid-levels { margin: 4px 0; padding-left: 20px; }
.nid-status-text { font: bold 14px/1.4 sans-serif; white-space: normal; }
.nid-thinking-text { font: 13px sans-serif; color: #1b4f72; background: #ebf5fb;
  border-radius: 4px; padding: 2px 8px; margin-right: 10px; }
.nid-last-move-text { font: 12px sans-serif; color: #555; }
.nid-waiting { font: italic 14px/1.4 sans-serif; color: #1b4f72; white-space: normal; }
.nid-waiting-more { font: 12px sans-serif; color: #666; font-style: normal; }
.nid-spinner { display: inline-block; width: 10px; height: 10px; margin-right: 6px;
  border: 2px solid #aed6f1; border-top-color: #1b4f72; border-radius: 50%;
  vertical-align: -1px; animation: nid-spin 0.9s linear infinite; }
@keyframes nid-spin { to { transform: rotate(360deg); } }
.nid-play-left, .nid-play-right { overflow: visible; }
.nid-changed-tile { display: inline-block; }
.nid-changed-coin { outline: 3px solid #f1c40f; border-radius: 12px; display: inline-block; }
.nid-changed-count { outline: 3px solid #f1c40f; border-radius: 6px; }
.nid-changed-gem { outline: 3px solid #f1c40f; }
.nid-table-head { font: bold 13px sans-serif; }
.nid-tavern { display: inline-block; vertical-align: top; margin: 2px 6px 2px 0; padding: 4px;
  border: 2px solid #ddd; border-radius: 8px; }
.nid-tavern-now { border-color: #f1c40f; }
.nid-tavern-name { font: bold 12px sans-serif; }
.nid-empty { color: #888; }
.nid-wt-camp { margin: 4px 0; padding: 4px; border: 2px dashed #a04000; border-radius: 8px;
  font: 12px sans-serif; }
.nid-section { margin: 4px 0; font: 12px sans-serif; }
.nid-treasury-coin { margin-right: 6px; white-space: nowrap; }
.nid-distinction { display: inline-block; margin: 0 6px 0 0; text-align: center; }
.nid-board-name { font: bold 14px sans-serif; }
.nid-gem { display: inline-block; padding: 1px 6px; border-radius: 4px; background: #8e44ad;
  color: #fff; font: bold 12px sans-serif; }
.nid-board-coins { font: 12px sans-serif; margin: 3px 0; }
.nid-board-zone { display: inline-block; vertical-align: top; margin-left: 6px; }
.nid-wt-board .nid-board { border: 1px solid #ccc; border-radius: 8px; padding: 4px 6px;
  margin: 4px 0; }
.nid-age-summary { font: 13px/1.45 sans-serif; white-space: normal; }
.nid-age-summary ul { margin: 2px 0 4px 0; padding-left: 20px; }
.nid-summary-head { font-weight: bold; margin-bottom: 2px; }
.nid-summary-awards { color: #333; }
.nid-summary-next { font-style: italic; color: #555; margin-top: 2px; }
.nid-choice { max-width: 100%; }
.nid-choice .widget-label, button.nid-choice { white-space: normal; height: auto;
  min-height: 28px; line-height: 1.2; padding-top: 3px; padding-bottom: 3px; }
"""


def css_widget() -> Any:
    """An HTML widget carrying :data:`CSS` (put one in every top-level panel)."""
    import ipywidgets as W

    box = W.HTML(f"<style>{CSS}</style>", layout=W.Layout(height="0px", margin="0"))
    box.add_class("nid-css")
    return box
