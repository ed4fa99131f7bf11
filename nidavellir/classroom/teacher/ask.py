"""*Ask the class about a position*: a game record the teacher uploads or pastes, read
(its players and decisions, each with the question suggested for it), checked, and asked
(:meth:`~nidavellir.classroom.store.ClassStore.ask`); and the teacher's forms read, each
refusal in one sentence. Standard library only (with the lessons' position steps).
"""

from __future__ import annotations

import json
from typing import Any

from ...events import by
from ...i18n import _
from ..store import RECORD_MAX, ClassState, ClassStore, StoreError


def whole(text: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ValueError(_("{what} is a whole number, not {text!r}").format(
            what=what, text=text[:40])) from None


def decision_words(kind: str, name: str) -> tuple[str, str]:
    """How the teacher page says who decides what (``Cai bids``; ``You bid`` for a seat
    named You, :func:`~nidavellir.events.by`) and the question it suggests for a decision
    of that kind, in the teacher's language."""
    words = {
        "bid": (_("You bid"), _("{name} bids"), _("What do you bid?")),
        "uline_bid": (_("You bid with Uline"), _("{name} bids with Uline"),
                      _("Which coin do you bid with Uline?")),
        "pick": (_("You take a card"), _("{name} takes a card"),
                 _("Which card do you take?")),
        "hero": (_("You recruit a hero"), _("{name} recruits a hero"),
                 _("Which hero do you recruit?")),
        "transform": (_("You transform a coin"), _("{name} transforms a coin"),
                      _("Which coin do you transform?")),
        "discard": (_("You discard a card"), _("{name} discards a card"),
                    _("Which card do you discard?")),
        "pioneer": (_("You take a card"), _("{name} takes a card"),
                    _("Which card do you take?")),
    }
    you, other, question = words.get(kind, (_("You decide"), _("{name} decides"),
                                            _("What do you play here?")))
    return by(name, you, other), question


def read_record(text: str) -> dict[str, Any]:
    """A game record the teacher uploaded or pasted (the JSON the lab saves), read for
    *Ask the class about a position*: its players and every decision (``44: Cai bids``,
    with the question suggested for it). ValueError, in one sentence, for anything that
    is not such a record."""
    from ...lessons.position import record_decisions

    record = parse_record(text)
    found = record_decisions(record)
    names = sorted({(d["seat"], d["name"]) for d in found})
    decisions = []
    for d in found:
        says, question = decision_words(d["kind"], d["name"])
        decisions.append({**d, "label": _("{n}: {who}").format(n=d["decision"], who=says),
                          "question": question})
    return {"names": [name for _seat, name in names], "decisions": decisions}


def parse_record(text: str) -> Any:
    if not text.strip():
        raise ValueError(_("Upload a game record (the .json file the lab saves) or paste "
                           "one first"))
    if len(text) > RECORD_MAX:
        raise ValueError(_("A game record is at most {most} characters; this one has {n}"
                           ).format(most=RECORD_MAX, n=len(text)))
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(_("This is not a game record: it is not JSON ({error})").format(
            error=exc)) from None
    except RecursionError:
        raise ValueError(_("This is not a game record: its JSON is nested too deeply")) \
            from None


def sentence(exc: BaseException) -> str:
    """An error's message as the teacher page says it: one sentence, capitalised, with
    its full stop."""
    text = str(exc).strip().rstrip(".")
    return text[:1].upper() + text[1:] + "."


def ask_position(store: ClassStore, form: Any) -> ClassState:
    """The teacher's *Ask the class*: the record (``record``, JSON text), the decision
    number (``decision``), the seat whose view the class sees (``seat``: empty for the
    seat that decides) and the question (``question``, empty for the one suggested),
    checked (:func:`nidavellir.lessons.position.asked_step`), then kept and asked
    (:meth:`ClassStore.ask`)."""
    from ...lessons.position import asked_step

    record = parse_record(form("record"))
    decision = whole(form("decision"), _("a decision"))
    seat_text = form("seat").strip()
    seat = None if seat_text == "" else whole(seat_text, _("a seat"))
    found = read_record(form("record"))["decisions"]
    if not 1 <= decision <= len(found):
        raise ValueError(_("The record has decisions 1 to {last}, not {decision}").format(
            last=len(found), decision=decision))
    chosen = found[decision - 1]
    question = form("question").strip() or chosen["question"]
    step = asked_step(record, decision, seat, key="new", title=chosen["label"],
                      situation="", question=question)
    view = step.view()
    situation = _("A position of a game with {players} players, age {age}, round {round}: "
                  "you are **{name}**.").format(players=len(view["players"]), age=view["age"],
                                                 round=view["round"],
                                                 name=view["players"][step.seat]["name"])
    return store.ask(dict(record), decision, step.seat, question, chosen["label"], situation)


def asked_steps(store: ClassStore) -> dict[str, Any]:
    """The position steps of every position the teacher asked, by question id."""
    from ...lessons.position import asked_position_step

    try:
        return {p.question_id: asked_position_step(p) for p in store.positions()}
    except StoreError:
        return {}


__all__ = ["ask_position", "asked_steps", "decision_words", "parse_record", "read_record",
           "sentence", "whole"]
