"""The lab's look: the palette (:mod:`nidavellir.palette`, one source for the card tiles and
the charts), the stylesheet every top-level panel carries (:func:`css_widget`) and the
buttons' looks (:func:`button`).

The panels' HTML names classes of :data:`CSS`; an inline style is left only where a value
is computed (a card's or a class's colour, a coin's, a heading's size, a bar's width).
"""

import json
import threading
from typing import Any

from nidavellir.i18n import _
from nidavellir.palette import (
    CLASS_COLOURS,
    CLASS_LETTERS,
    CLASS_NAMES,
    DISABLED_OPACITY,
    TEXT_COLOUR,
    class_colour,
)

__all__ = ["CLASS_COLOURS", "CLASS_LETTERS", "CLASS_NAMES", "CSS", "DISABLED_OPACITY",
           "SMALL_TILE", "TEXT_COLOUR", "TILE", "button", "class_colour", "css_widget"]

#: A card tile's width and least height in pixels, and the small tile's (hall, columns).
TILE = (62, 74)
SMALL_TILE = (48, 52)

#: The card tiles and their info panel, coins, the table, the boards, the log.
_TILES = f"""
.nid-card {{ display: inline-block; vertical-align: top; width: {TILE[0]}px;
  min-height: {TILE[1]}px; margin: 2px; padding: 3px; border-radius: 6px;
  box-sizing: border-box; color: {TEXT_COLOUR}; font-family: sans-serif; text-align: center;
  overflow: hidden; }}
.nid-card-small {{ width: {SMALL_TILE[0]}px; min-height: {SMALL_TILE[1]}px; }}
.nid-card-highlight {{ box-shadow: 0 0 0 3px #f1c40f; }}
.nid-card-disabled {{ opacity: {DISABLED_OPACITY}; filter: grayscale(60%); }}
"""

CSS = _TILES + """
.nid-card-head { font-weight: bold; line-height: 1.1; overflow-wrap: normal; }
.nid-card-caption { font-size: 9px; line-height: 1.1; margin-top: 2px;
  overflow-wrap: normal; }
.nid-card-note { font-size: 9px; font-style: italic; }
.nid-card-details { display: inline-block; vertical-align: top; position: relative; }
.nid-card-details > summary::-webkit-details-marker { display: none; }
.nid-card-details > summary { display: block; list-style: none; cursor: pointer;
  outline: none; }
.nid-card-info { position: absolute; z-index: 50; left: 0; top: 100%; width: 250px;
  background: #fffdf5; color: #222; border: 1px solid #b7950b; border-radius: 6px;
  padding: 6px; font: 12px/1.35 sans-serif; text-align: left; white-space: normal;
  box-shadow: 0 2px 8px rgba(0,0,0,.25); }
.nid-info-name { font-weight: bold; margin-bottom: 2px; }
.nid-info-later { margin-top: 3px; }
.nid-info-source { margin-top: 3px; color: #666; font-size: 10px; }
.nid-coin { display: inline-block; min-width: 24px; height: 24px; line-height: 24px;
  margin: 1px; border-radius: 12px; border: 1px solid #9a7d0a; font: bold 12px sans-serif;
  text-align: center; box-sizing: border-box; }
.nid-coin-none { display: inline-block; width: 24px; height: 24px; margin: 1px;
  border-radius: 12px; border: 1px dashed #aaa; }
.nid-table-section { margin: 4px 0; }
.nid-table-section-title { font: bold 13px sans-serif; margin-bottom: 2px; }
.nid-distinction-held { display: inline-block; margin: 2px 8px 2px 0; }
.nid-gem-spaced, .nid-score-now { margin-left: 6px; }
.nid-board-zone-line { margin-top: 2px; }
.nid-board-zone-below { margin-top: 4px; }
.nid-log { font: 12px monospace; max-height: 320px; overflow-y: auto; }
.nid-log-decision { font-weight: bold; }
.nid-log-event { color: #555; padding-left: 1.5em; }
.nid-card-details[open] > summary .nid-card { box-shadow: 0 0 0 3px #2471a3; }
.nid-decision-options { max-height: 46vh; overflow-y: auto; overflow-x: hidden; }
.nid-upload.jupyter-button { font-size: 0; width: auto; padding: 0 12px; }
.nid-upload.jupyter-button::after { content: "Upload a record (.json)"; font-size: 13px; }
.nid-error { color: #c0392b; font: 13px sans-serif; }
.nid-whatif-past .nid-whatif-table { opacity: 0.55; }
.nid-done { background: #e8f6ea; border-left: 4px solid #2e8b57; padding: 6px 8px; margin: 6px 0;
  font: 14px sans-serif; }
.nid-whatif-past-note { background: #fff4d6; border-left: 4px solid #e0a800; padding: 4px 8px;
  font: 13px sans-serif; }
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
.nid-bar-keys { font: 11px sans-serif; margin-top: 2px; display: flex; flex-wrap: wrap;
  gap: 2px 10px; }
.nid-bar-dot { display: inline-block; width: 9px; height: 9px; border-radius: 50%;
  margin-right: 3px; }
.nid-bar-since { margin-top: 3px; white-space: normal; }
.nid-review-moves { font: 12px/1.4 sans-serif; color: #333; }
.nid-review-why { font: 12px/1.4 sans-serif; color: #555; }
.nid-replay-position-text { font: bold 13px sans-serif; margin: 0 8px; }
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
.nid-coach-picks { background: #fef9e7; border-left: 4px solid #f1c40f; padding: 2px 6px;
  margin: 0 0 4px 0; min-height: 30px; }
.nid-coach-picks > * { flex-shrink: 0; overflow: visible; }
.nid-coach-picks-wait { font: italic 12px/26px sans-serif; color: #7d6608; }
button.nid-recommended { box-shadow: 0 0 0 2px #f1c40f; }
.nid-choice { max-width: 100%; }
.nid-choice .widget-label, button.nid-choice { white-space: normal; height: auto;
  min-height: 28px; line-height: 1.2; padding-top: 3px; padding-bottom: 3px; }
.nid-board.nid-board-framed { border: 2px solid #ccc; border-radius: 8px; padding: 6px;
  margin: 4px 0; }
.nid-board.nid-board-framed.nid-board-compact { padding: 4px 6px; }
.nid-board.nid-board-framed.nid-board-to-move { border-color: #f1c40f; }
.nid-text, .nid-lab-words { font: 14px sans-serif; }
.nid-text-small { font: 12px sans-serif; }
.nid-muted { color: #555; }
.nid-faint { color: #999; }
.nid-bad { color: #c0392b; }
.nid-good { color: #1e8449; }
.nid-note { font: 12px sans-serif; color: #555; }
.nid-note-spaced { font: 12px sans-serif; color: #555; margin-left: 8px; }
.nid-heading { margin: 4px 0; }
.nid-prompt { font: bold 14px sans-serif; }
.nid-prompt-help { font: 11px sans-serif; color: #666; }
.nid-control-label { font: 13px sans-serif; }
.nid-grows, .nid-grows .widget-html-content { height: auto; min-height: 28px; line-height: 1.35; }
.nid-later-text { width: 140px; font: 10px/1.2 sans-serif; color: #555; text-align: center; }
.nid-ineligible { width: 96px; font: 9px sans-serif; color: #900; }
.nid-message-ok, .nid-message-bad { font: 13px sans-serif; }
.nid-message-ok { color: #1e8449; }
.nid-message-bad { color: #c0392b; }
.nid-final { font: bold 15px sans-serif; }
.nid-save-download { display: inline-block; padding: 4px 10px; border: 1px solid #888;
  border-radius: 3px; background: #f4f6f6; color: #222; text-decoration: none;
  font: 13px sans-serif; }
.nid-console-box { font: 12px monospace; border: 1px solid #ddd; padding: 4px;
  max-height: 140px; overflow-y: auto; }
.nid-console-line { white-space: pre-wrap; }
.nid-lab-title { font: bold 20px sans-serif; margin: 4px 0; }
.nid-lab-subtitle { font: 13px sans-serif; color: #555; }
.nid-console-title { font: 12px sans-serif; }
.nid-branch-title { font: bold 14px sans-serif; margin-top: 8px; }
.nid-replay-info { font: 12px monospace; }
.nid-replay-event { padding-left: 1.5em; color: #555; }
.nid-replay-review { margin-top: 4px; }
.nid-rule { font: 12px sans-serif; color: #555; border-left: 4px solid #8e44ad;
  padding-left: 6px; }
.nid-ask { font: bold 14px sans-serif; background: #fef9e7; border: 2px solid #f1c40f;
  padding: 6px; border-radius: 6px; }
.nid-ask-hint { font-weight: normal; color: #555; }
.nid-why { font: 12px sans-serif; color: #555; margin-top: 4px; }
.nid-made { font: 14px sans-serif; background: #eafaf1; border: 2px solid #1e8449;
  padding: 6px; border-radius: 6px; }
.nid-said, .nid-verdict { font: 14px sans-serif; margin: 4px 0; }
.nid-eyes { font: bold 28px sans-serif; background: #1b2631; color: #fff; text-align: center;
  padding: 18px; border-radius: 8px; margin: 6px 0; }
.nid-teacher-note { font: 14px sans-serif; background: #fef9e7; border-left: 4px solid #b9770e;
  padding: 6px 10px; margin: 4px 0; }
.nid-wt-ok, .nid-wt-error { font: 14px sans-serif; margin: 6px 0; }
.nid-wt-ok { color: #1e8449; }
.nid-wt-error { color: #c0392b; }
.nid-verdict-good { color: #1e8449; }
.nid-verdict-close { color: #b7950b; }
.nid-verdict-off { color: #c0392b; }
.nid-explanation { font: 14px sans-serif; border-left: 4px solid #1e8449; padding-left: 8px; }
.nid-lesson-errors { font: 13px sans-serif; color: #c0392b; margin: 4px 0; }
.nid-lesson-errors ul { margin: 2px 0; }
.nid-tab-summary { font: 13px sans-serif; color: #555; margin: 2px 0 6px; }
.nid-answer-more { margin-top: 4px; }
.nid-assumption { color: #555; font-size: 90%; }
.nid-changes-title { font: bold 13px sans-serif; }
.nid-changes { font: 12px sans-serif; max-height: 220px; overflow-y: auto; }
.widget-inline-hbox.nid-label-80 .widget-label { width: 80px; }
.widget-inline-hbox.nid-label-110 .widget-label { width: 110px; }
.nid-lessons .widget-inline-hbox .widget-label { width: 150px; }
.widget-inline-hbox.nid-label-fit .widget-label { width: initial; }
.nid-fit-buttons .widget-toggle-button { width: auto; }
@media (min-width: 960px) {
  .jupyter-widgets.widget-tab.nid-tabs > .lm-TabBar .lm-TabBar-tab { flex: 0 1 auto; }
  .jupyter-widgets.widget-tab.nid-tabs > .lm-TabBar .lm-TabBar-tabLabel {
    min-width: calc(var(--jp-widgets-horizontal-tab-width, 144px) - 22px); } }
"""


def button(description: str, look: str = "", **options: Any) -> Any:
    """A button in one of ipywidgets' looks: ``primary`` (the step to take next),
    ``success`` (start a game), ``warning`` (commit an answer); ``""``: a plain one."""
    import ipywidgets as W

    b = W.Button(description=description, **options)
    b.button_style = look
    return b


#: The stylesheet's widget of each language in this process (:func:`css_widget`).
_SHEETS: dict[str, Any] = {}
_SHEETS_LOCK = threading.Lock()


def css_widget() -> Any:
    """An HTML widget carrying :data:`CSS` (put one in every top-level panel).

    One widget per language and process, shown by every panel that asks for it (a widget
    may be shown in several places; each place draws its own copy of the stylesheet): the
    stylesheet is 12 kB, and a class's page that made one per panel sent it to the page
    three or four times, in the message that makes each widget and again in the answer to
    the page's request for every state. A panel must not close it (no panel closes its
    children); a closed one is replaced at the next call."""
    import ipywidgets as W

    from nidavellir import i18n

    language = i18n.language()
    with _SHEETS_LOCK:
        box = _SHEETS.get(language)
        if box is not None and box.comm is not None:
            return box
        # The upload button's label is CSS content (ipywidgets draws the button): its
        # words are put in for the page's language.
        upload = json.dumps(_("Upload a record (.json)"), ensure_ascii=False)
        css = CSS.replace('content: "Upload a record (.json)"', f"content: {upload}")
        box = W.HTML(f"<style>{css}</style>", layout=W.Layout(height="0px", margin="0"))
        box.add_class("nid-css")
        _SHEETS[language] = box
        return box
