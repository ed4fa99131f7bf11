"""A Play tab's game brought to the decisions a browser test is about, without clicking
through the rest.

A page's decision costs about two seconds of CPU (the kernel's turn, the board, the log and
the charts drawn again in Chromium): a whole 2-player game through the page is 37 decisions
of the learner's, over a minute of CPU. The tests about the end of an age (the summary, the
distinctions' chained decisions, the next age or the game's end) need only the last few
decisions before it: :func:`near_the_end_of` plays the rest in the page's kernel, through
the Play session's own methods (as the page's buttons call them), and hands the page back
at the learner's decision a few before the end of the age. The page shows that position as
it shows any other (one change: a new game and an undo), and the test clicks from there.

The kernel is reached over its own ZMQ channels (its connection file, as
:meth:`servers.VoilaServer.widget_comms` does), never through the page.
"""

from __future__ import annotations

import json
from typing import Any

from servers import PATIENCE_S, VoilaServer

#: The Play tab's session in the dashboard notebook's kernel (``app = page(dashboard)``).
SESSION = "app.content.play.session"

#: Run in the kernel with AGE, BEFORE, SEED: a 2-player game of two random bots (easy)
#: played to its end (no pause between their moves: the page draws the end only), then seat 0 handed
#: back to the learner and the game undone to seat 0's BEFORE-th last decision of AGE (as
#: the log's *Undo to here* does), the summaries of the earlier ages read. Prints what it
#: did, as JSON.
NEAR_THE_END = """
import json as _json
from nidavellir import Game as _Game
_s = {session}
_s.new_game({{"players": 2, "seats": ["easy", "easy"], "seed": {seed}, "bot_delay": 0}})
_s.wait()
_record = _s.game.to_record()
_replay = _Game.from_record(dict(_record, actions=[]))
_mine = []
for _i, _action in enumerate(_record["actions"]):
    if _replay.decision.player == 0 and _replay.state.age == {age}:
        _mine.append((_i, _replay.decision.kind))
    _replay.apply(_action)
_index, _kind = _mine[-{before}]
_s.set_seat(0, "human")
_s.undo_to(_index)
while 0 < _s.summary_age < {age}:  # an earlier age's summary: read (it was, in the game)
    _s.read_summary()
print(_json.dumps({{"index": _index, "kind": _kind, "decision": _s.game.decision.kind,
                    "age": _s.game.state.age, "over": _s.game.is_over}}))
"""


def kernel_id(pw_page: Any) -> str:
    """The id of the kernel behind a Voila page."""
    return str(pw_page.evaluate(
        "() => JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId"))


def run_in_page_kernel(server: VoilaServer, pw_page: Any, code: str,
                       timeout: float = PATIENCE_S) -> str:
    """Run ``code`` in the kernel behind ``pw_page`` (the notebook's namespace) and return
    what it printed; an error in it fails the test with the kernel's traceback."""
    from jupyter_client import BlockingKernelClient

    kernel = kernel_id(pw_page)
    client = BlockingKernelClient(connection_file=str(server.kernel_connection_files()[kernel]))
    client.load_connection_file()
    client.start_channels()
    printed: list[str] = []
    errors: list[str] = []

    def output(msg: dict[str, Any]) -> None:
        content = msg["content"]
        if msg["msg_type"] == "stream":
            printed.append(content["text"])
        elif msg["msg_type"] == "error":
            errors.append("\n".join(content["traceback"]))

    try:
        reply = client.execute_interactive(code, timeout=timeout, output_hook=output,
                                           store_history=False, allow_stdin=False)
    finally:
        client.stop_channels()
    assert reply["content"]["status"] == "ok", f"in the page's kernel: {errors or reply}"
    return "".join(printed)


#: Run in the kernel with SINCE: the kinds of seat 0's decisions from history index SINCE on.
KINDS_SINCE = """
import json as _json
from nidavellir import Game as _Game
_record = {session}.game.to_record()
_replay = _Game.from_record(dict(_record, actions=[]))
_kinds = []
for _i, _action in enumerate(_record["actions"]):
    if _i >= {since} and _replay.decision.player == 0:
        _kinds.append(_replay.decision.kind)
    _replay.apply(_action)
print(_json.dumps(_kinds))
"""


def near_the_end_of(server: VoilaServer, pw_page: Any, age: int, before: int,
                    seed: int = 3) -> dict[str, Any]:
    """The page's Play game becomes a 2-player game (the learner, seat 0, against a random
    bot, no pause between the bot's moves) at the learner's ``before``-th last decision of
    ``age`` (in the game the two random bots played to the end from ``seed``; from there
    the learner's own choices decide what comes). Returns what the kernel did: the history
    index, the decision's kind."""
    code = NEAR_THE_END.format(session=SESSION, age=age, before=before, seed=seed)
    done: dict[str, Any] = json.loads(run_in_page_kernel(server, pw_page, code).strip())
    assert done["age"] == age and not done["over"], done
    return done


def learners_decisions(server: VoilaServer, pw_page: Any, since: int) -> list[str]:
    """The kinds of the learner's (seat 0's) decisions taken from history index ``since``."""
    code = KINDS_SINCE.format(session=SESSION, since=since)
    return list(json.loads(run_in_page_kernel(server, pw_page, code).strip()))
