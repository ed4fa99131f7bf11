"""Pure HTML rendering of cards, coins, columns and tables (no widgets, no state).

Every function takes plain data (card tokens, an observation dict) and returns an
HTML string with inline styles, so the same pictures work in JupyterLab, Voila and
a test that only reads ``widget.value``.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from nidavellir import cards as C
from nidavellir.card_text import ability, source
from nidavellir.cards import Card, Kind
from nidavellir.errors import InvalidNotation
from nidavellir.rules.classes import blacksmith_points, column_totals, hunter_points
from nidavellir.tokens import parse_token

from .style import CLASS_COLOURS, CLASS_LETTERS, CLASS_NAMES, DISABLED_OPACITY, TEXT_COLOUR

esc = html.escape

TILE_W = 62
TILE_H = 74


def card_of(token: str) -> Card | None:
    try:
        return parse_token(token)
    except InvalidNotation:
        return None


def card_colour(card: Card | None, column: str | None = None) -> str:
    """A card's tile colour: its class, or its kind for neutral cards; flexible cards
    (Thrud, Ylud, mercenaries, doubles) take the colour of the column they lie in."""
    if card is None:
        return CLASS_COLOURS["empty"]
    if column is not None and card.flexible:
        return CLASS_COLOURS[column]
    if card.kind is Kind.ROYAL_OFFERING:
        return CLASS_COLOURS["royal"]
    if card.kind is Kind.DISTINCTION:
        return CLASS_COLOURS["distinction"]
    if card.kind is Kind.ARTIFACT:
        return CLASS_COLOURS["artifact"] if card.suit is None else CLASS_COLOURS[card.suit.letter]
    if card.kind is Kind.MERCENARY:
        return CLASS_COLOURS["mercenary"]
    if card.suit is not None:
        return CLASS_COLOURS[card.suit.letter]
    return CLASS_COLOURS["neutral"]


def _background(card: Card | None, column: str | None) -> str:
    if card is not None and card.kind is Kind.MERCENARY and column is None:
        a, b = (CLASS_COLOURS[s.letter] for s, _ in card.sides)
        return f"linear-gradient(135deg, {a} 50%, {b} 50%)"
    return card_colour(card, column)


def card_caption(card: Card, column: str | None = None) -> str:
    """The small line under a tile's token: bravery points, points or title."""
    if card.kind is Kind.MERCENARY:
        return " / ".join(f"{s.letter} {bp} BP" for s, bp in card.sides)
    if card.kind is Kind.ROYAL_OFFERING:
        return f"transform +{card.value}"
    if column is not None and card.flexible:
        ranks, bp = card.column_value(C.Suit.parse(column))
        return f"{bp} BP"
    if card.kind is Kind.DWARF or card.kind is Kind.SPECIAL_BLACKSMITH:
        if card.suit is not None and card.suit.letter in "HB":
            return f"{card.ranks} rank" + ("s" if card.ranks != 1 else "")
        return f"{card.bravery_points} BP"
    if card.is_class_hero:
        return f"{card.ranks} ranks, {card.bravery_points} BP" if card.ranks > 1 \
            else f"{card.bravery_points} BP"
    if card.points:
        return f"{card.points} pts"
    if card.kind is Kind.DISTINCTION:
        return ""  # its name says it
    return card.title or card.kind.value


def card_info_html(card: Card, *, later: str = "") -> str:
    """A card's explanation: name and title, what it does, where the rulebook says so."""
    name = f"{card.name}, {card.title}" if card.title else card.name
    body = (f"<div style='font-weight:bold;margin-bottom:2px'>{esc(name)}</div>"
            f"<div>{esc(ability(card))}</div>")
    if later:
        body += f"<div style='margin-top:3px'><i>For you:</i> {esc(later)}</div>"
    body += f"<div style='margin-top:3px;color:#666;font-size:10px'>{esc(source(card))}</div>"
    return body


def card_tile(token: str, *, column: str | None = None, disabled: bool = False,
              highlight: bool = False, note: str = "", small: bool = False,
              later: str = "", info: bool = True) -> str:
    """One card as a coloured tile: token (or name), caption, optional note.

    The tile explains itself: its tooltip says what the card does, and a click opens the
    card-info panel under it (an HTML ``<details>``: it works in any page, with no kernel
    round trip). ``later`` adds what the card would be worth later for the viewer.
    """
    card = card_of(token)
    w, h = (48, 52) if small else (TILE_W, TILE_H)
    style = [f"display:inline-block;vertical-align:top;width:{w}px;min-height:{h}px;",
             "margin:2px;padding:3px;border-radius:6px;box-sizing:border-box;",
             f"background:{_background(card, column)};color:{TEXT_COLOUR};",
             "font-family:sans-serif;text-align:center;overflow:hidden;"]
    if highlight:
        style.append("box-shadow:0 0 0 3px #f1c40f;")
    if disabled:
        style.append(f"opacity:{DISABLED_OPACITY};filter:grayscale(60%);")
    if card is None:
        body = f"<div style='font-weight:bold'>{esc(token)}</div>"
        title = token
    else:
        is_named = card.kind in (Kind.HERO, Kind.ARTIFACT, Kind.DISTINCTION, Kind.OLWYN_DOUBLE)
        head = card.name if is_named else card.token
        longest = max(len(word) for word in head.split())
        if longest <= 3:
            size = "14px" if small else "18px"
        elif longest <= 5:
            size = "10px" if small else "12px"
        elif longest <= 7:
            size = "8px" if small else "11px"
        else:
            size = "7px" if small else "9px"
        body = (f"<div style='font-weight:bold;font-size:{size};line-height:1.1;"
                f"overflow-wrap:break-word'>{esc(head)}</div>"
                f"<div style='font-size:9px;line-height:1.1;margin-top:2px;"
                f"overflow-wrap:break-word'>{esc(card_caption(card, column))}</div>")
        title = f"{card.name} {card.title}".strip() if card.title else card.name
        title += f": {ability(card)}"
        if later:
            title += f" For you: {later}"
    if note:
        body += f"<div style='font-size:9px;font-style:italic'>{esc(note)}</div>"
    tile = f"<div class='nid-card' title='{esc(title)}' style='{''.join(style)}'>{body}</div>"
    if card is None or not info:
        return tile
    panel = ("<div class='nid-card-info' style='position:absolute;z-index:50;left:0;top:100%;"
             "width:250px;background:#fffdf5;color:#222;border:1px solid #b7950b;"
             "border-radius:6px;padding:6px;font:12px/1.35 sans-serif;text-align:left;"
             "white-space:normal;box-shadow:0 2px 8px rgba(0,0,0,.25)'>"
             + card_info_html(card, later=later) + "</div>")
    return ("<details class='nid-card-details' style='display:inline-block;vertical-align:top;"
            "position:relative'><summary style='display:block;list-style:none;cursor:pointer'>"
            f"{tile}</summary>{panel}</details>")


def coin_html(label: str | None, *, hidden: bool = False, kind: str = "") -> str:
    """A coin as a small round badge; ``?`` for a hidden bid, blank for none."""
    if label is None:
        return ("<span style='display:inline-block;width:24px;height:24px;margin:1px;"
                "border-radius:12px;border:1px dashed #aaa'></span>")
    colour = "#7f8c8d" if hidden else ("#16a085" if label.endswith("*") else "#f4d03f")
    text = "#fff" if hidden or label.endswith("*") else "#3b2f00"
    return (f"<span class='nid-coin' title='{esc(kind)}' style='display:inline-block;"
            f"min-width:24px;height:24px;line-height:24px;margin:1px;border-radius:12px;"
            f"background:{colour};color:{text};border:1px solid #9a7d0a;"
            f"font:bold 12px sans-serif;text-align:center;box-sizing:border-box'>"
            f"{esc(label)}</span>")


def _section(title: str, body: str) -> str:
    return (f"<div style='margin:4px 0'><div style='font:bold 13px sans-serif;"
            f"margin-bottom:2px'>{esc(title)}</div>{body}</div>")


#: The sections of the table, in the order :func:`table_html` draws them.
TABLE_SECTIONS = ("taverns", "camp", "decks", "treasury", "hall", "distinctions")


def table_html(obs: Mapping[str, Any], sections: Sequence[str] = TABLE_SECTIONS) -> str:
    """The table of an observation: taverns, camp, decks, treasury, hall, distinctions
    (``sections``: only those, in that order)."""
    names = obs["names"]
    unknown = set(sections) - set(TABLE_SECTIONS)
    if unknown:
        raise ValueError(f"unknown table section(s) {sorted(unknown)}; known: "
                         + ", ".join(TABLE_SECTIONS))
    drawn: dict[str, str] = {}
    taverns = []
    current = obs.get("tavern")
    for i, cards in enumerate(obs["taverns"]):
        label = C.TAVERNS[i]
        mark = " (now)" if current == i else ""
        tiles = "".join(card_tile(t) for t in cards) or "<i style='color:#888'>empty</i>"
        border = "#f1c40f" if current == i else "#ddd"
        taverns.append(f"<div style='display:inline-block;vertical-align:top;margin:2px 6px 2px 0;"
                       f"padding:4px;border:2px solid {border};border-radius:8px'>"
                       f"<div style='font:bold 12px sans-serif'>{i + 1}. {esc(label)}{mark}</div>"
                       f"{tiles}</div>")
    drawn["taverns"] = _section("Taverns", "".join(taverns))
    camp = obs.get("camp")
    if camp:
        drawn["camp"] = _section("Camp", "".join(card_tile(t) for t in camp))
    decks = ", ".join(f"age {a}: {n} cards" for a, n in obs.get("deck_sizes", {}).items())
    discard = obs.get("discard", [])
    top = " ".join(discard[-6:])
    drawn["decks"] = (_section("Decks", f"<span style='font:12px sans-serif'>{esc(decks)}; discard "
                          f"{len(discard)} card(s){': … ' + esc(top) if top else ''}</span>"))
    treasury = obs.get("treasury", {})
    coins = "".join(f"<span style='margin-right:6px;white-space:nowrap'>{coin_html(v)}"
                    f"<small>×{n}</small></span>" for v, n in treasury.items())
    drawn["treasury"] = _section(f"Royal treasury ({sum(treasury.values())} coins)",
                                 coins or "<i>empty</i>")
    hall = obs.get("hall", [])
    drawn["hall"] = _section(f"Hero hall ({len(hall)})",
                             "".join(card_tile(t, small=True) for t in hall) or "<i>empty</i>")
    dist = []
    for token, holder in obs.get("distinctions", {}).items():
        who = "—" if holder is None else names[holder]
        dist.append(f"<span style='display:inline-block;margin:2px 8px 2px 0'>"
                    f"{card_tile(token, small=True)}<br><small>{esc(who)}</small></span>")
    drawn["distinctions"] = _section("Distinctions", "".join(dist))
    return "<div class='nid-table'>" + "".join(drawn.get(s, "") for s in sections) + "</div>"


def column_points(letter: str, tokens: Sequence[str]) -> int:
    """What a column is worth on the score sheet by its class's formula (without the
    warriors' majority bonus or Idunn, which the score sheet adds)."""
    suit = C.Suit.parse(letter)
    cards = [c for t in tokens if (c := card_of(t)) is not None]
    ranks, bravery = column_totals(cards, suit)
    if letter == "H":
        return hunter_points(ranks)
    if letter == "B":
        return blacksmith_points(ranks)
    if letter == "M":
        return ranks * bravery
    return bravery


def column_html(letter: str, tokens: Sequence[str], ranks: int, *, points: int | None = None,
                shown: int | None = None) -> str:
    """One army column, bottom card first, under a header with its ranks and what it is
    worth on the score sheet now (``points``, the sheet's figure, when the caller has it;
    else the class's formula). ``shown``: only the top cards as tiles (the header still
    counts the whole column)."""
    if points is None:
        points = column_points(letter, tokens)
    tiles_of = tokens if shown is None else tokens[-shown:]
    hidden = len(tokens) - len(tiles_of)
    tiles = "".join(card_tile(t, column=letter, small=True) for t in tiles_of)
    if hidden:
        tiles = f"<div class='nid-column-more'>+{hidden} below</div>" + tiles
    colour = CLASS_COLOURS[letter]
    rank_word = "rank" if ranks == 1 else "ranks"
    return (f"<div class='nid-column' style='border-top-color:{colour}'>"
            f"<div class='nid-column-name' style='color:{colour}'>"
            f"{esc(CLASS_NAMES[letter])}</div>"
            f"<div class='nid-column-score' title='ranks, and what the column is worth on the "
            f"score sheet now'>{ranks} {rank_word} · {points} points</div>"
            f"{tiles}</div>")


def board_html(player: Mapping[str, Any], *, to_move: bool = False, viewer: bool = False,
               score: int | None = None, points: Mapping[str, int] | None = None,
               compact: bool = False) -> str:
    """A player board from the observation's ``players`` entry; ``points``: what each
    column is worth on the score sheet now, by class letter (the column headers).
    ``compact``: an opponent's board in less room (each column's top two cards as tiles,
    the headers still count the whole column)."""
    name = player["name"]
    flags = []
    if viewer:
        flags.append("you")
    if to_move:
        flags.append("to decide")
    head = (f"<b style='font:bold 14px sans-serif'>{esc(name)}</b> "
            f"<small>{esc(', '.join(flags))}</small>")
    gem = player["gem"]
    head += (f" <span title='gem' style='display:inline-block;padding:1px 6px;margin-left:6px;"
             f"border-radius:4px;background:#8e44ad;color:#fff;font:bold 12px sans-serif'>"
             f"gem {gem}</span>")
    if score is not None:
        head += f" <small style='margin-left:6px'>score now: <b>{score}</b></small>"
    bids = "".join(coin_html(b, hidden=(b == "?")) for b in player["bids"])
    hand = player["hand"]
    purse = player["purse"]
    if isinstance(hand, list):
        hand_html = "".join(coin_html(c) for c in hand) or "—"
    else:
        hand_html = f"{hand} hidden" if hand else "—"
    if isinstance(purse, list):
        purse_html = "".join(coin_html(c) for c in purse) or "—"
    else:
        purse_html = f"{purse} hidden" if purse else "—"
    coins = (f"<div style='font:12px sans-serif;margin:3px 0'>bids {bids} "
             f"&nbsp; hand {hand_html} &nbsp; purse {purse_html}"
             f"{' &nbsp; <b>Uline bids after the reveal</b>' if player.get('uline') else ''}</div>")
    columns = "".join(column_html(letter, player["army"][letter], player["ranks"][letter],
                                  points=(points or {}).get(letter),
                                  shown=2 if compact else None)
                      for letter in CLASS_LETTERS)
    zone = "".join(card_tile(t, small=True) for t in player["command_zone"]) or \
        "<i style='font:12px sans-serif;color:#888'>empty</i>"
    lines = (f"<div style='font:12px sans-serif'>{player['lines']} complete line(s), "
             f"{player['heroes']} hero(es)</div>")
    border = "#f1c40f" if to_move else "#ccc"
    if compact:
        return (f"<div class='nid-board nid-board-compact' style='border:2px solid {border};"
                f"border-radius:8px;padding:4px 6px;margin:4px 0'>{head}{coins}{lines}"
                f"<div>{columns}</div><div style='margin-top:2px'><small>Command zone</small> "
                f"{zone}</div></div>")
    return (f"<div class='nid-board' style='border:2px solid {border};border-radius:8px;"
            f"padding:6px;margin:4px 0'>{head}{coins}{lines}<div>{columns}</div>"
            f"<div style='margin-top:4px'><small>Command zone</small><br>{zone}</div></div>")


def log_html(lines: Iterable[str], last: int | None = None) -> str:
    """The game log: decisions in notation in bold, what followed indented."""
    rows = list(lines)
    if last is not None and len(rows) > last:
        rows = rows[-last:]
    out = []
    for line in rows:
        if line.startswith("["):
            out.append(f"<div style='font-weight:bold'>{esc(line)}</div>")
        else:
            out.append(f"<div style='color:#555;padding-left:1.5em'>{esc(line.strip())}</div>")
    return ("<div class='nid-log' style='font:12px monospace;max-height:320px;overflow-y:auto'>"
            + "".join(out) + "</div>")
