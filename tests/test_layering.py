"""The layers point down only (docs/development.md, "Layers").

Every module of ``nidavellir`` and ``widgets`` has a layer (:data:`LAYERS`) and imports only
its own part of it and the layers below; the import graph of both packages has no circle.
Every core module of ``nidavellir`` is imported in a fresh interpreter in which pandas,
plotly, ipywidgets, traitlets, numpy, yaml, the ``widgets`` package and the upper layers of
``nidavellir`` cannot be imported; on top of that nothing outside the standard library may be
loaded; so are the bots, the Play model, and the classroom's parts that a student's kernel
and the command line import. Modules are discovered with pkgutil, so new modules are covered
without listing them.
"""

from __future__ import annotations

import ast
import json
import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "nidavellir"
WIDGETS = ROOT / "widgets"
#: The layers, bottom up (docs/development.md, "Layers"). A module belongs to the entry
#: that names it or the package it is in (the longest that does); it imports modules of its
#: own entry and of the layers below, never of a layer above nor of another entry of its own
#: layer. ``nidavellir`` stands for the core engine: every module no other entry names
#: (the engine's modules and ``nidavellir.rules``).
LAYERS: tuple[tuple[str, ...], ...] = (
    ("nidavellir",),
    ("nidavellir.bots", "nidavellir.tools"),
    ("nidavellir.play", "nidavellir.analysis", "nidavellir.integrations"),
    ("nidavellir.lessons",),
    ("nidavellir.classroom",),
    ("nidavellir.cli", "nidavellir.serve"),
    ("widgets",),
)
#: Modules that are part of another entry: ``python -m nidavellir`` is the command line.
PART_OF = {"nidavellir.__main__": "nidavellir.cli"}
#: Modules above the core: they may use pandas and plotly (and the core may not import them).
#: The lessons (nidavellir.lessons) read YAML and compute the probability lessons' answers
#: with the analysis layer.
UPPER_LAYERS = tuple(sorted({*(e for layer in LAYERS[1:] for e in layer if e != "widgets"),
                            *PART_OF}))
#: Upper layers that are stdlib-only all the same: the bots (and the coach's judge), and the
#: Play tab's model under the widgets (nidavellir.play).
STDLIB_UPPER = ("nidavellir.bots", "nidavellir.play")
#: The classroom's parts that are stdlib-only: what a student's kernel imports (the class
#: folder, the store), the command line (it runs before Voila is imported), the failed-login
#: limits, the teacher's password and the coach of position questions. The server and the
#: teacher page's handlers are tornado and Voila.
STDLIB_CLASSROOM = ("nidavellir.classroom", "nidavellir.classroom.command",
                    "nidavellir.classroom.guard", "nidavellir.classroom.teacher",
                    "nidavellir.classroom.teacher.auth", "nidavellir.classroom.teacher.coach",
                    "nidavellir.serve")
#: ... and the store, every module of it.
STDLIB_CLASSROOM_PACKAGES = ("nidavellir.classroom.store",)
BLOCKED = ("pandas", "plotly", "ipywidgets", "traitlets", "numpy", "yaml", "widgets",
           *UPPER_LAYERS)


def _within(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def discover(path: Path = PACKAGE, prefix: str = "nidavellir") -> list[str]:
    """The package and every module below it, found without importing any of them."""
    found = [prefix]
    for info in pkgutil.iter_modules([str(path)]):
        name = f"{prefix}.{info.name}"
        if info.ispkg:
            found += discover(path / info.name, name)
        else:
            found.append(name)
    return found


def discover_all() -> list[str]:
    """Every module of ``nidavellir`` and ``widgets``."""
    return discover() + discover(WIDGETS, "widgets")


CORE_MODULES = [m for m in discover() if not _within(m, UPPER_LAYERS)]

# Runs in a fresh interpreter: block the forbidden imports, import each module, and report
# per module the error (or None) and the non-stdlib top-level modules it loaded.
PROBE = r"""
import importlib, json, sys

blocked, modules = json.loads(sys.argv[1]), json.loads(sys.argv[2])

class Blocker:
    def find_spec(self, name, path=None, target=None):
        if any(name == b or name.startswith(b + ".") for b in blocked):
            raise ImportError(f"{name} is blocked: the core engine is stdlib-only")
        return None

sys.meta_path.insert(0, Blocker())
report = {}
for module in modules:
    before = set(sys.modules)
    try:
        importlib.import_module(module)
        error = None
    except BaseException as exc:
        error = f"{type(exc).__name__}: {exc}"
    loaded = {m.split(".")[0] for m in set(sys.modules) - before}
    foreign = sorted(m for m in loaded if m not in sys.stdlib_module_names and m != "nidavellir")
    report[module] = {"error": error, "foreign": foreign}
print(json.dumps(report))
"""


def probe(modules: list[str], blocked: tuple[str, ...] | list[str] = BLOCKED
          ) -> dict[str, dict]:
    # -I: ignore PYTHONPATH and the user site; the tree under test comes first on sys.path.
    code = f"import sys; sys.path.insert(0, {str(ROOT)!r})\n" + PROBE
    done = subprocess.run(
        [sys.executable, "-I", "-c", code, json.dumps(list(blocked)), json.dumps(modules)],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def report() -> dict[str, dict]:
    return probe(CORE_MODULES)


@pytest.mark.parametrize("module", CORE_MODULES)
def test_core_module_imports_with_only_the_standard_library(
    report: dict[str, dict], module: str
) -> None:
    assert report[module]["error"] is None, report[module]["error"]
    assert report[module]["foreign"] == [], "loads modules outside the standard library"


STDLIB_UPPER_MODULES = [m for m in discover() if _within(m, STDLIB_UPPER)]


@pytest.fixture(scope="module")
def upper_report() -> dict[str, dict]:
    """The bots and the Play model, imported with every non-stdlib package and the layers
    that use them blocked."""
    return probe(STDLIB_UPPER_MODULES,
                 [b for b in BLOCKED if not _within(b, STDLIB_UPPER)])


@pytest.mark.parametrize("module", STDLIB_UPPER_MODULES)
def test_bots_and_the_play_model_import_with_only_the_standard_library(
    upper_report: dict[str, dict], module: str
) -> None:
    assert upper_report[module]["error"] is None, upper_report[module]["error"]
    assert upper_report[module]["foreign"] == [], "loads modules outside the standard library"


STDLIB_CLASSROOM_MODULES = [m for m in discover() if m in STDLIB_CLASSROOM
                            or _within(m, STDLIB_CLASSROOM_PACKAGES)]


@pytest.fixture(scope="module")
def classroom_report() -> dict[str, dict]:
    """The classroom's stdlib parts, imported with every non-stdlib package blocked (and
    the upper layers but the classroom's own)."""
    return probe(STDLIB_CLASSROOM_MODULES,
                 [b for b in BLOCKED if not _within(b, ("nidavellir.classroom",
                                                        "nidavellir.serve"))])


@pytest.mark.parametrize("module", STDLIB_CLASSROOM_MODULES)
def test_the_classrooms_store_and_command_line_import_with_only_the_standard_library(
    classroom_report: dict[str, dict], module: str
) -> None:
    assert classroom_report[module]["error"] is None, classroom_report[module]["error"]
    assert classroom_report[module]["foreign"] == [], "loads modules outside the standard library"


def test_the_blocker_blocks() -> None:
    # Guards the test above against passing vacuously: yaml is installed in the venv.
    assert probe(["yaml", "json"]) == {
        "yaml": {"error": "ImportError: yaml is blocked: the core engine is stdlib-only",
                 "foreign": []},
        "json": {"error": None, "foreign": []},
    }


def test_discovery_sees_every_python_file() -> None:
    # pkgutil skips folders without __init__.py: such a folder would escape the check.
    modules = set(discover_all())
    for path in [*PACKAGE.rglob("*.py"), *WIDGETS.rglob("*.py")]:
        parts = path.relative_to(ROOT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        assert name in modules, f"{path} is not reachable as a module (missing __init__.py?)"
    assert "nidavellir.scoring" in CORE_MODULES
    assert {"widgets.app", "nidavellir.classroom.store.database"} <= modules


#: Names that begin with an underscore by convention and are public: gettext's ``_``, the
#: function every string a person reads goes through (nidavellir.i18n).
PUBLIC_UNDERSCORE = {"nidavellir.i18n._"}


def _public_underscore(module: str, name: str) -> bool:
    """``name`` from ``module`` (absolute, or relative as ``..i18n`` gives ``i18n``) is one
    of :data:`PUBLIC_UNDERSCORE`."""
    return any(public.endswith(f".{module.removeprefix('nidavellir.')}.{name}")
               or public == f"{module}.{name}" for public in PUBLIC_UNDERSCORE)


def _private_engine_imports(source: str) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module] if node.module.startswith("nidavellir") else []
            names += [f"{node.module}.{a.name}" for a in node.names] if names else []
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names if a.name.startswith("nidavellir")]
        else:
            continue
        found += [n for n in names if n not in PUBLIC_UNDERSCORE
                  and any(p.startswith("_") for p in n.split("."))]
    return found


def test_widgets_use_only_the_public_engine() -> None:
    offenders = {
        str(path.relative_to(ROOT)): hits
        for path in sorted((ROOT / "widgets").rglob("*.py"))
        if (hits := _private_engine_imports(path.read_text(encoding="utf-8")))
    }
    assert offenders == {}, "widgets/ imports private engine names"


def test_private_import_check_finds_private_names() -> None:
    source = "from nidavellir.tokens import _INDEX, parse_token\nimport nidavellir._x\n"
    assert _private_engine_imports(source) == ["nidavellir.tokens._INDEX", "nidavellir._x"]
    assert _private_engine_imports("from nidavellir import Game\nfrom __future__ import a") == []


def _widget_imports(source: str) -> list[str]:
    """Every import of the ``widgets`` package in a source file (at any depth)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            continue
        found += [n for n in names if n == "widgets" or n.startswith("widgets.")]
    return found


def test_no_layer_of_nidavellir_imports_the_widgets() -> None:
    """Dependencies point down only: analysis, bots and the CLI never import the UI
    (not even inside a function)."""
    offenders = {
        str(path.relative_to(ROOT)): hits
        for path in sorted(PACKAGE.rglob("*.py"))
        if (hits := _widget_imports(path.read_text(encoding="utf-8")))
    }
    assert offenders == {}
    assert _widget_imports("def f():\n    from widgets.style import X\n") == ["widgets.style"]


# ---------------------------------------------------------------------- one place per rule
# (issue 24): the rules modules never import the engine back; nothing imports a private
# name of another module of the package, nor reaches into a game's engine by its private
# attribute; the import graph of the packages has no circle, and every import points to its
# own layer or one below (issue 59; imports for type checking and imports inside functions
# count: they are arrows of the design all the same).

def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    """The package modules a file imports, resolved (relative imports included)."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    modules = set(discover_all())
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name in modules)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            for a in node.names:
                if f"{module}.{a.name}" in modules:
                    out.add(f"{module}.{a.name}")
                elif module in modules:
                    out.add(module)
    out.discard(name)
    return out


def _graph() -> dict[str, set[str]]:
    """Every module of ``nidavellir`` and ``widgets`` and the modules of both it imports."""
    return {_module_name(p): _imports(p) for p in [*PACKAGE.rglob("*.py"),
                                                    *WIDGETS.rglob("*.py")]}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_import_graph_of_the_packages_has_no_circle() -> None:
    """Not in the engine, not in the widgets, not between them (the widgets' modules and
    the classroom's included)."""
    graph = _graph()
    assert any(m.startswith("widgets.") for m in graph)
    # Packages import their own modules for their public face; that is not a circle.
    for name in graph:
        graph[name] = {m for m in graph[name] if not (m.startswith(name + ".")
                                                      and name in {"nidavellir", "nidavellir.bots"})}
    assert _cycles(graph) == []
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def _layer(module: str) -> tuple[int, str]:
    """A module's layer (its rank in :data:`LAYERS`, 0 for the core) and the entry of the
    layer it belongs to (the longest that names it or a package above it)."""
    module = PART_OF.get(module, module)
    found: tuple[int, str] | None = None
    for rank, layer in enumerate(LAYERS):
        for entry in layer:
            if _within(module, (entry,)) and (found is None or len(entry) > len(found[1])):
                found = (rank, entry)
    assert found is not None, f"{module} has no layer: add it to LAYERS (and to the docs)"
    return found


def _against_the_layers(graph: dict[str, set[str]]) -> list[str]:
    """Every import that points up a layer, or across to another entry of its layer."""
    out = []
    for module, targets in sorted(graph.items()):
        rank, entry = _layer(module)
        for target in sorted(targets):
            to_rank, to_entry = _layer(target)
            if to_rank > rank or (to_rank == rank and to_entry != entry):
                out.append(f"{module} -> {target}")
    return out


def test_every_module_imports_only_its_own_layer_and_the_layers_below() -> None:
    assert _against_the_layers(_graph()) == []
    # The check sees an import up a layer and one across a layer; down is fine.
    assert _against_the_layers({
        "nidavellir.cards": {"widgets.app"},
        "nidavellir.play.session": {"nidavellir.analysis.frames", "nidavellir.bots.judge"},
        "nidavellir.lessons.position": {"nidavellir.classroom.store"},
        "widgets.app": {"nidavellir.cards", "nidavellir.classroom.store"},
    }) == ["nidavellir.cards -> widgets.app",
           "nidavellir.lessons.position -> nidavellir.classroom.store",
           "nidavellir.play.session -> nidavellir.analysis.frames"]


def test_every_module_has_a_layer() -> None:
    for module in discover_all():
        _layer(module)
    assert _layer("nidavellir.rules.heroes") == (0, "nidavellir")
    assert _layer("nidavellir.classroom.server.app") == (4, "nidavellir.classroom")
    assert _layer("nidavellir.cli") == _layer("nidavellir.serve")[:1] + ("nidavellir.cli",)
    assert _layer("widgets.classroom") == (len(LAYERS) - 1, "widgets")


def test_the_layers_are_the_ones_the_docs_name() -> None:
    """docs/development.md, "Layers": a row per layer, bottom up, naming its packages."""
    text = (ROOT / "docs" / "development.md").read_text(encoding="utf-8")
    section = text.split("\n## Layers\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ") and
            line[2:3].isdigit()]
    # The packages cell's names in backticks, but for what its parentheses say of them.
    named = [tuple(re.findall(r"`([^`]+)`", re.sub(r"\(.*?\)", "", row.split("|")[2])))
             for row in rows]
    assert named == [tuple(layer) for layer in LAYERS]


def test_the_widgets_use_the_classrooms_store_only() -> None:
    """A student's kernel (the widgets) writes its answers through the store and reads the
    class folder; the server, the login and the teacher page are never imported there."""
    store = {"nidavellir.classroom", *(m for m in discover()
                                       if _within(m, STDLIB_CLASSROOM_PACKAGES))}
    used = {t for m, targets in _graph().items() if m.startswith("widgets")
            for t in targets if _within(t, ("nidavellir.classroom",))}
    assert used and used <= store, sorted(used - store)


def test_the_rules_modules_never_import_the_engine() -> None:
    graph = _graph()
    rules = [m for m in graph if m.startswith("nidavellir.rules")]
    assert len(rules) >= 10
    for m in rules:
        assert not {"nidavellir.engine", "nidavellir.game"} & graph[m], m


def _private_uses(source: str) -> list[str]:
    """Private names taken from another module of the package, and private attributes of a
    game or an engine used from outside."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith(
                "nidavellir")):
            found += [f"{node.module}.{a.name}" for a in node.names
                      if a.name.startswith("_") and a.name != "__version__"
                      and not _public_underscore(node.module or "", a.name)]
        elif isinstance(node, ast.Attribute) and node.attr in ("_engine", "_legal", "_legal_set"):
            found.append(node.attr)
    return found


def test_bots_and_integrations_use_the_public_game_api() -> None:
    """Bots and integrations use Game and the one documented fast path (``Game.engine``);
    no module imports another's private names (the engine's tables, its interned actions)."""
    offenders = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        hits = _private_uses(path.read_text(encoding="utf-8"))
        if path.name == "game.py":
            hits = [h for h in hits if h != "_engine"]  # the facade owns its engine
        if path.name == "engine.py":
            hits = [h for h in hits if h not in ("_legal", "_legal_set")]
        if hits:
            offenders[str(path.relative_to(ROOT))] = hits
    assert offenders == {}
    assert _private_uses("from ..engine import _LEGAL\nx = game._engine\n") == \
        ["engine._LEGAL", "_engine"]


# ---------------------------------------------------------------------- types (issue 43)

def test_mypy_checks_every_package_strict_for_the_core_and_the_bots() -> None:
    """``make typecheck`` (part of ``make test``) reads this configuration: every package,
    the widgets included; mypy --strict's flags for the core engine, the bots and the Play
    model; the upper layers checked (their untyped bodies too) but not strict."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert set(config["files"]) == {"nidavellir", "widgets"} and "exclude" not in config
    assert config["check_untyped_defs"] is True
    strict_flags = {"disallow_untyped_defs", "disallow_incomplete_defs", "disallow_untyped_calls",
                    "disallow_any_generics", "warn_unused_ignores", "warn_return_any",
                    "no_implicit_reexport", "strict_equality"}
    strict, relaxed = config["overrides"]
    assert strict["module"] == ["nidavellir", "nidavellir.*"]
    assert all(strict[flag] is True for flag in strict_flags)
    # The bots, the Play model and the two stdlib entry points stay strict.
    strict_upper = (*STDLIB_UPPER, "nidavellir.serve", "nidavellir.__main__")
    upper = {f"{m}.*" if (PACKAGE / m.split(".")[1]).is_dir() else m for m in UPPER_LAYERS
             if m not in strict_upper}
    assert set(relaxed["module"]) == upper
    every = {m for m in discover() if m.count(".") == 1}
    assert every <= {*CORE_MODULES, *(u.removesuffix(".*") for u in upper), *strict_upper}
