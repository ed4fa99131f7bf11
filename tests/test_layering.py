"""The layers point down only (docs/development.md, "Layers").

Every core module of ``nidavellir`` is imported in a fresh interpreter in which pandas,
plotly, ipywidgets, traitlets, numpy, yaml, the ``widgets`` package and the upper layers of
``nidavellir`` cannot be imported; on top of that nothing outside the standard library may be
loaded. Modules are discovered with pkgutil, so new modules are covered without listing them.
"""

from __future__ import annotations

import ast
import json
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "nidavellir"
#: Modules above the core: they may use pandas and plotly (and the core may not import them).
#: The lessons (nidavellir.lessons) read YAML and compute the probability lessons' answers
#: with the analysis layer.
UPPER_LAYERS = ("nidavellir.analysis", "nidavellir.bots", "nidavellir.cli",
                "nidavellir.integrations", "nidavellir.lessons", "nidavellir.play")
#: Upper layers that are stdlib-only all the same: the bots (and the coach's judge), and the
#: Play tab's model under the widgets (nidavellir.play).
STDLIB_UPPER = ("nidavellir.bots", "nidavellir.play")
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


def test_the_blocker_blocks() -> None:
    # Guards the test above against passing vacuously: yaml is installed in the venv.
    assert probe(["yaml", "json"]) == {
        "yaml": {"error": "ImportError: yaml is blocked: the core engine is stdlib-only",
                 "foreign": []},
        "json": {"error": None, "foreign": []},
    }


def test_discovery_sees_every_python_file() -> None:
    # pkgutil skips folders without __init__.py: such a folder would escape the check.
    modules = set(discover())
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        assert name in modules, f"{path} is not reachable as a module (missing __init__.py?)"
    assert "nidavellir.scoring" in CORE_MODULES


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
# attribute; the import graph of the package has no circle (imports for type checking and
# imports inside functions count: they are arrows of the design all the same).

def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    """The package modules a file imports, resolved (relative imports included)."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    modules = set(discover())
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
    return {_module_name(p): _imports(p) for p in PACKAGE.rglob("*.py")}


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


def test_the_import_graph_of_the_package_has_no_circle() -> None:
    graph = _graph()
    # Packages import their own modules for their public face; that is not a circle.
    for name in graph:
        graph[name] = {m for m in graph[name] if not (m.startswith(name + ".")
                                                      and name in {"nidavellir", "nidavellir.bots"})}
    assert _cycles(graph) == []
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


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
    upper = {f"{m}.*" if m != "nidavellir.cli" else m for m in UPPER_LAYERS
             if m not in STDLIB_UPPER} | {"nidavellir.classroom.*"}
    assert set(relaxed["module"]) == upper  # the bots and the Play model stay strict
    every = {m for m in discover() if m.count(".") == 1}
    assert every <= {*CORE_MODULES, *(u.removesuffix(".*") for u in upper), *STDLIB_UPPER}
