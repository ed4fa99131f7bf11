"""The lab's Voila: the one server process that serves every page of a class.

``python -m nidavellir.serve`` checks its options (:mod:`nidavellir.classroom.command`) and
replaces itself with ``python -m nidavellir.classroom.server`` (:func:`.app.main`): Voila
with the changes of docs/serving.md.

- :mod:`.app`: :class:`~.app.ClassVoila` and its page handlers (compressed answers, a
  heartbeat per page, kernels that leave with their page, malformed requests refused);
- :mod:`.kernels`: :class:`~.kernels.ClassKernelManager`, the kernels of a class's pages
  (ready before the class, gone with their page, a limit per client address);
- :mod:`.forks` and :mod:`.forkserver`: page kernels forked from a process that has
  imported ipykernel, the page and the engine once;
- :mod:`.static`: Voila's static files, compressed once and cached for good;
- :mod:`.first_paint`: the dashboard's first screen's scripts in one file.

None of these knows a student, an answer or a teacher; the class's own parts
(:mod:`nidavellir.classroom.login`, :mod:`nidavellir.classroom.teacher`) come in through
:class:`~.app.ClassVoila`. Server-side only (tornado, jupyter_server, Voila): nothing in the
engine or the widgets imports it.
"""
