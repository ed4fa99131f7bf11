"""The optional compiled build of the engine's hot path (docs/development.md, "The compiled
build").

The pure-Python package is the reference: it runs everywhere, with no compiler. Where a C
compiler and mypy are present, ``make compiled`` compiles the same source files of the hot
path (:data:`MODULES`: the state, the rules, the engine, scoring, determinization, the
search's playouts and tree) with mypyc into a folder of its own, ``build/compiled/`` beside
the package, never beside the sources: a compiled file next to ``state.py`` would be imported
instead of it, and an edit of the source would do nothing.

At its first import the package asks :func:`install` which build to run: the compiled one
only when every source it was compiled from, and every module of the package those import,
is byte for byte the one it was built from (the hashes the build recorded); otherwise pure
Python, and :func:`status` says why. All or nothing: compiled modules reach each other's
classes directly, so a build is never mixed with newer sources.

``NIDAVELLIR_COMPILED`` chooses: ``auto`` (the default: the build when it is current),
``pure`` (never), ``compiled`` (the build, or an error saying why not: a test of the
compiled build must not quietly test the pure one). ``NIDAVELLIR_COMPILED_DIR`` names
another build folder (the build checks a new build there before it replaces the current one).

    python -m nidavellir.compiled            # which build runs here, and why
    python -m nidavellir.compiled build      # compile (what `make compiled` runs)

This module is the standard library only; the build (:mod:`.build`) needs mypy, setuptools
and a C compiler.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

#: The modules compiled: the hot path of a game, a playout and a search iteration (the
#: profiles in benchmarks/README.md, "The compiled build").
MODULES: tuple[str, ...] = (
    "nidavellir.cards",
    "nidavellir.coins",
    "nidavellir.actions",
    "nidavellir.state",
    "nidavellir.draws",
    "nidavellir.options",
    "nidavellir.engine",
    "nidavellir.events",
    "nidavellir.observer",
    "nidavellir.determinize",
    "nidavellir.scoring",
    "nidavellir.stats",
    "nidavellir.rules.army",
    "nidavellir.rules.artifacts",
    "nidavellir.rules.base",
    "nidavellir.rules.cardrules",
    "nidavellir.rules.catalogue",
    "nidavellir.rules.classes",
    "nidavellir.rules.coinage",
    "nidavellir.rules.decisions.bids",
    "nidavellir.rules.decisions.coins",
    "nidavellir.rules.decisions.columns",
    "nidavellir.rules.decisions.mercenaries",
    "nidavellir.rules.decisions.picks",
    "nidavellir.rules.decisions.piles",
    "nidavellir.rules.decisions.words",
    "nidavellir.rules.flow",
    "nidavellir.rules.heroes",
    "nidavellir.rules.placement",
    "nidavellir.rules.setup",
    "nidavellir.rules.taverns",
    "nidavellir.rules.thingvellir",
    "nidavellir.bots.playout",
    "nidavellir.bots.tree",
    "nidavellir.bots.horizon",
    "nidavellir.bots.paired",
)

#: Chooses the build: ``auto``, ``pure`` or ``compiled`` (module docs).
ENV = "NIDAVELLIR_COMPILED"
#: Names another build folder than :data:`BUILD_DIR`.
DIR_ENV = "NIDAVELLIR_COMPILED_DIR"
CHOICES = ("auto", "pure", "compiled")
#: The C compiler's optimisation of a build: ``-O1`` builds in about two thirds of
#: ``-O3``'s time, and its build plays games and judges positions as fast
#: (benchmarks/README.md, "The compiled build at -O1").
DEFAULT_OPT_LEVEL = "1"
ROOT = Path(__file__).resolve().parent.parent.parent
#: Where ``make compiled`` puts the build: ``manifest.json`` names the current build's
#: folder, the hashes of the sources it was built from and its modules' files.
BUILD_DIR = ROOT / "build" / "compiled"
MANIFEST = "manifest.json"
FORMAT = 1


class CompiledBuildError(RuntimeError):
    """The compiled build was asked for and cannot be used, or cannot be built (says why)."""


@dataclass
class Status:
    """Which build runs (or would run), and why."""

    build: str
    """``compiled`` or ``pure``."""
    reason: str
    modules: tuple[str, ...] = ()
    """The modules that run compiled (none for the pure build)."""
    files: dict[str, Path] = field(default_factory=dict)
    """Each compiled module's file (the build's shared library included)."""
    stale: list[str] = field(default_factory=list)
    """Sources changed since the build (``make compiled`` makes the build current again)."""

    @property
    def compiled(self) -> bool:
        return self.build == "compiled"

    def __str__(self) -> str:
        return f"{self.build}: {self.reason}"


# ====================================================================== which sources

def source_path(module: str, root: Path = ROOT) -> Path:
    """The source file of a module of the package."""
    path = root.joinpath(*module.split("."))
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def _imports(module: str, root: Path) -> set[str]:
    """The package's modules (not packages) that ``module`` imports, anywhere in its body."""
    tree = ast.parse(source_path(module, root).read_bytes())
    package = module.rpartition(".")[0].split(".")
    found: set[str] = set()
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            prefix = ".".join(base + ([node.module] if node.module else []))
            names = [prefix, *(f"{prefix}.{a.name}" for a in node.names)]
        for name in names:
            path = source_path(name, root)
            # A package's __init__ runs when one of its modules is imported, but nothing is
            # compiled against it.
            if name.split(".")[0] == "nidavellir" and path.exists() \
                    and path.name != "__init__.py":
                found.add(name)
    return found


def sources(modules: Sequence[str] = MODULES, root: Path = ROOT) -> list[str]:
    """The compiled modules and every module of the package they import, directly or not:
    the sources a build depends on (mypyc compiles against their types and constants)."""
    seen: set[str] = set()
    todo = list(modules)
    while todo:
        module = todo.pop()
        if module not in seen:
            seen.add(module)
            todo.extend(_imports(module, root) - seen)
    return sorted(seen)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# ====================================================================== which build

def build_dir() -> Path:
    """The build folder: :data:`DIR_ENV` when set, else :data:`BUILD_DIR`."""
    given = os.environ.get(DIR_ENV, "").strip()
    return Path(given) if given else BUILD_DIR


def choice() -> str:
    """The build asked for by :data:`ENV` (``auto`` when unset)."""
    raw = os.environ.get(ENV, "")
    value = {"0": "pure", "1": "compiled"}.get(raw.strip().lower(), raw.strip().lower())
    if not value:
        return "auto"
    if value not in CHOICES:
        raise CompiledBuildError(f"{ENV}={raw!r}: expected one of {', '.join(CHOICES)}")
    return value


def check(folder: Path | None = None, root: Path = ROOT) -> Status:
    """Whether the build in ``folder`` (default :func:`build_dir`) can run with the sources
    under ``root`` (nothing is loaded)."""
    folder = build_dir() if folder is None else folder
    manifest_path = folder / MANIFEST
    again = "`make compiled` builds it again"
    if not manifest_path.exists():
        return Status("pure", f"no compiled build in {folder} (`make compiled` builds one "
                              "where a C compiler is present)")
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        if manifest.get("format") != FORMAT:
            return Status("pure", f"the compiled build in {folder} is of another format: {again}")
        files = {m: (folder / manifest["folder"] / f).resolve()
                 for m, f in manifest["files"].items()}
        recorded: dict[str, str] = manifest["sources"]
        tag = manifest["tag"]
        listed = manifest["compiled"]
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
        return Status("pure", f"the compiled build's manifest cannot be read ({e}): {again}")
    if tag != sys.implementation.cache_tag:
        return Status("pure", f"the compiled build is for {tag}, this Python is "
                              f"{sys.implementation.cache_tag}: {again}")
    if listed != list(MODULES):
        return Status("pure", f"the list of compiled modules changed since the build: {again}")
    stale = [m for m, d in sorted(recorded.items())
             if not source_path(m, root).exists() or digest(source_path(m, root)) != d]
    if stale:
        shown = ", ".join(stale[:3]) + (f" and {len(stale) - 3} more" if len(stale) > 3 else "")
        return Status("pure", f"the sources changed since the compiled build ({shown}): "
                              f"{again}", stale=stale)
    missing = [f for f in files.values() if not f.exists()]
    if missing:
        return Status("pure", f"the compiled build is incomplete ({missing[0]} is missing): "
                              f"{again}")
    modules = tuple(m for m in files if not m.endswith("__mypyc"))
    return Status("compiled", f"{len(modules)} modules compiled by mypyc from the current "
                              f"sources ({folder})", modules=modules, files=files)


class _Finder(importlib.abc.MetaPathFinder):
    """Imports the build's compiled modules from its folder, before the sources."""

    def __init__(self, files: dict[str, Path]) -> None:
        self.files = files

    def find_spec(self, name: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        file = self.files.get(name)
        if file is None:
            return None
        loader = importlib.machinery.ExtensionFileLoader(name, str(file))
        return importlib.util.spec_from_file_location(name, file, loader=loader)


_STATUS: Status | None = None


def install() -> Status:
    """Decide once per process which build runs (module docs) and, for the compiled one,
    put its finder first on ``sys.meta_path``. The package calls it before it imports any
    compiled module."""
    global _STATUS
    if _STATUS is not None:
        return _STATUS
    asked = choice()
    if asked == "pure":
        _STATUS = Status("pure", f"{ENV}=pure")
        return _STATUS
    found = check()
    already = [m for m in found.modules if m in sys.modules]
    if found.compiled and already:
        # Imported as pure Python before the package chose (never mixed with the build).
        found = Status("pure", f"{already[0]} was imported before the package chose a build")
    if not found.compiled:
        if asked == "compiled":
            raise CompiledBuildError(f"{ENV}=compiled, but {found.reason}")
        _STATUS = found
        return _STATUS
    sys.meta_path.insert(0, _Finder(found.files))
    _STATUS = found
    return _STATUS


def status() -> Status:
    """Which build runs in this process (:func:`install` decided at the package's import)."""
    return install()


# The package imports this module before any other: the build is chosen before any of its
# modules is imported.
install()

__all__ = ["BUILD_DIR", "DEFAULT_OPT_LEVEL", "ENV", "MODULES", "CompiledBuildError", "Status", "check", "choice",
           "install", "sources", "status"]
