"""Voila's kernel pool, run for a class (``python -m nidavellir.serve --class-size 30``).

Voila keeps *preheated* kernels: each has already run the dashboard notebook, so a page
that takes one is usable as soon as its widgets reach the browser. Left to itself, Voila's
pool (``voila.voila_kernel_manager``) starts a replacement kernel one second after every
page: a class of 30 opening the dashboard at once then runs 30 kernels starting beside the
30 being used (measured: 60 kernels, pages usable after 89 s median). Its idle pool
kernels are also culled like forgotten tabs, so a pool warmed up before the lesson is gone
after ``cull_idle_timeout``.

:class:`ClassKernelManager` is the base class Voila builds its pool manager on (Voila's
``VoilaConfiguration.multi_kernel_manager_class``):

- ``class_size`` kernels are preheated for the dashboard before the class comes in, and
  the server prints when they are all ready (``ready_message``);
- once pages start taking them, no replacement starts during the burst: the pool is
  refilled only after ``refill_quiet`` seconds without a new page, and only up to
  ``spare_kernels`` (latecomers, reloads), not back to the class size;
- kernels waiting in the pool are never culled (culling is for kernels of closed pages).

Server-side only (jupyter_server); nothing in the engine or the widgets imports it.
"""

from __future__ import annotations

import asyncio
import hmac
import sys
import time
from typing import Any

from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from traitlets import Float, Int, Unicode
from voila.voila_identity_provider import VoilaIdentityProvider, VoilaLoginHandler


class ClassKernelManager(AsyncMappingKernelManager):  # type: ignore[misc]
    """The kernel manager under Voila's pool, with the class policy (module docstring)."""

    class_size = Int(0, config=True, help="kernels preheated for the pool notebook (0: "
                                          "Voila's own refill policy)")
    spare_kernels = Int(2, config=True, help="kernels kept warm after the class came in")
    refill_quiet = Float(20.0, config=True,
                         help="seconds without a new page before the pool is refilled")
    pool_notebook = Unicode("dashboard.ipynb", config=True,
                            help="the notebook whose kernels are preheated")
    ready_message = Unicode("", config=True,
                            help="printed once the class_size kernels are ready")
    connect_grace = Float(300.0, config=True,
                          help="seconds a kernel handed to a page may wait for that page to "
                               "connect before it can be culled")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._refill: asyncio.TimerHandle | None = None
        self._initial_done = False
        self._connected: set[str] = set()
        self._first_seen: dict[str, float] = {}
        if self.class_size > 0 and hasattr(type(self), "fill_if_needed"):
            # Voila's pool class derives from this one: its fill_if_needed is wrapped on
            # the instance, so its own __init__ (which fills the pools) goes through it.
            setattr(self, "fill_if_needed", self._class_fill)  # noqa: B010

    # ------------------------------------------------------------------ the pool

    def _pools_of(self, notebook: str) -> list[Any]:
        pools: dict[str, list[Any]] = getattr(self, "_pools", {})
        return pools.get(notebook, [])

    def pooled_kernel_ids(self) -> set[str]:
        """Kernels started for the pool and not handed to a page yet."""
        ids: set[str] = set()
        for pool in getattr(self, "_pools", {}).values():
            for task in pool:
                if task.done() and not task.cancelled() and task.exception() is None:
                    result = task.result()
                    if isinstance(result, dict) and "kernel_id" in result:
                        ids.add(result["kernel_id"])
        return ids

    def _set_pool_size(self, notebook: str, size: int) -> None:
        config = dict(getattr(self, "kernel_pools_config", {}))
        entry = dict(config.get(notebook, {}))
        entry["pool_size"] = size
        config[notebook] = entry
        setattr(self, "kernel_pools_config", config)  # noqa: B010

    def _class_fill(self, delay: float | None = None, notebook_name: str | None = None,
                    **kwargs: Any) -> None:
        voila_fill: Any = getattr(type(self), "fill_if_needed")  # noqa: B009 (Voila's pool)
        if notebook_name != self.pool_notebook:
            voila_fill(self, delay, notebook_name, **kwargs)
            return
        if not self._initial_done:
            # Before the class: fill to the class size at once and say when it is ready.
            self._initial_done = True
            self._set_pool_size(notebook_name, self.class_size)
            voila_fill(self, 0, notebook_name, **kwargs)
            self._announce_when_ready(notebook_name)
            return
        # A page took a kernel: no replacement during the burst. Refill once the pages
        # stop coming, up to the spares only.
        self._set_pool_size(notebook_name, max(self.spare_kernels, 0))
        try:
            loop = asyncio.get_event_loop()
        except RuntimeError:  # pragma: no cover - Voila always runs in a loop
            voila_fill(self, delay, notebook_name, **kwargs)
            return
        if self._refill is not None:
            self._refill.cancel()

        def refill() -> None:
            self._refill = None
            voila_fill(self, 0, notebook_name, **kwargs)

        self._refill = loop.call_later(self.refill_quiet, refill)

    def _announce_when_ready(self, notebook: str) -> None:
        tasks = list(self._pools_of(notebook))
        if not tasks:
            return

        async def wait() -> None:
            results = await asyncio.gather(*tasks, return_exceptions=True)
            failed = [r for r in results if isinstance(r, BaseException)]
            if failed:
                self.log.error("%d of %d class kernels failed to start: %s", len(failed),
                               len(results), failed[0])
            message = self.ready_message or (f"The class can come in: {len(results) - len(failed)}"
                                             f" dashboards are ready.")
            print(f"\n*** {message} ***\n", file=sys.stdout, flush=True)
            self.log.info(message)

        asyncio.ensure_future(wait())

    # ------------------------------------------------------------------ culling

    async def cull_kernel_if_idle(self, kernel_id: str) -> None:
        """Cull idle kernels of closed pages; never the ones waiting in the pool, nor one
        handed to a page that has not connected yet (a page loading on a busy machine),
        for ``connect_grace`` seconds."""
        if kernel_id in self.pooled_kernel_ids():
            return
        connections: dict[str, int] = getattr(self, "_kernel_connections", {})
        if connections.get(kernel_id, 0) > 0:
            self._connected.add(kernel_id)
        if kernel_id not in self._connected:
            first = self._first_seen.setdefault(kernel_id, time.monotonic())
            if time.monotonic() - first < self.connect_grace:
                return
        await super().cull_kernel_if_idle(kernel_id)

    async def shutdown_kernel(  # type: ignore[override]
            self, kernel_id: str, *args: Any, **kwargs: Any) -> Any:
        self._connected.discard(kernel_id)
        self._first_seen.pop(kernel_id, None)
        return await super().shutdown_kernel(kernel_id, *args, **kwargs)


class ClassLoginHandler(VoilaLoginHandler):  # type: ignore[misc]
    """The class password page: ``login.html`` of the lab's template (served from this
    machine, no CDN), not jupyter_server's page (which Voila cannot style)."""

    def get_template(self, name: str) -> Any:
        env = self.settings.get("voila_jinja2_env")
        if env is not None and name == "login.html":
            return env.get_template(name)
        return super().get_template(name)


class ClassIdentityProvider(VoilaIdentityProvider):  # type: ignore[misc]
    """Voila's token, used as the class password, with the lab's login page."""

    def process_login_form(self, handler: Any) -> Any:
        """The typed class password is the token (jupyter_server's own form handling calls
        a ``user_for_token`` its token provider does not have)."""
        typed = handler.get_argument("password", default="")
        if self.token and hmac.compare_digest(typed.encode(), self.token.encode()):
            return self.generate_anonymous_user(handler)
        return None

    def get_handlers(self) -> list[tuple[str, object]]:
        return [(pattern, ClassLoginHandler if handler is self.login_handler_class else handler)
                for pattern, handler in super().get_handlers()]


__all__ = ["ClassIdentityProvider", "ClassKernelManager", "ClassLoginHandler"]
