"""The compiled build (nidavellir.compiled, docs/development.md "The compiled build").

- Which build runs is decided from hashes of the sources: a build is used only while every
  source it was compiled from is unchanged (tested on made-up build folders, and on a copy
  of the lab with the real build, where an edit of a compiled module's source takes effect at
  the next run).
- The pure-Python and the compiled build give the same figures side by side: golden
  playthroughs, seeded games of every player count and edition, record round trips,
  determinizations and the coach's seeded judgements at positions of every decision kind
  (tests/builds.py), computed in this interpreter and in a fresh one running the other build.

The tests that need a real build skip, saying why, where none is current (no C compiler:
the lab runs as pure Python there); ``make test`` builds it first (``make compiled``).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from nidavellir import compiled
from nidavellir.compiled import ENV, FORMAT, MANIFEST, CompiledBuildError, check, digest

ROOT = Path(__file__).resolve().parent.parent
HERE = Path(__file__).resolve().parent


def _fake_build(root: Path, modules: dict[str, str]) -> Path:
    """A package under ``root`` with ``modules`` (name -> source) and a build folder whose
    manifest records their hashes (the compiled files are stand-ins: nothing is loaded)."""
    folder = root / "build" / "compiled"
    lib = folder / "build-1"
    files = {}
    for name, text in modules.items():
        path = root.joinpath(*name.split(".")).with_suffix(".py")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        so = lib.joinpath(*name.split(".")).with_suffix(".so")
        so.parent.mkdir(parents=True, exist_ok=True)
        so.write_bytes(b"")
        files[name] = str(so.relative_to(lib))
    manifest = {"format": FORMAT, "folder": "build-1", "tag": sys.implementation.cache_tag,
                "compiled": list(compiled.MODULES),
                "sources": {m: digest(root.joinpath(*m.split(".")).with_suffix(".py"))
                            for m in modules},
                "files": files}
    (folder / MANIFEST).write_text(json.dumps(manifest))
    return folder


def test_a_build_runs_only_while_its_sources_are_unchanged(tmp_path: Path) -> None:
    folder = _fake_build(tmp_path, {"nidavellir.state": "X = 1\n", "nidavellir.rules.flow": "Y = 2\n"})
    found = check(folder, root=tmp_path)
    assert found.compiled, found.reason
    assert set(found.modules) == {"nidavellir.state", "nidavellir.rules.flow"}
    # An edit of one source: the whole build is left, and the reason names the source.
    (tmp_path / "nidavellir" / "rules" / "flow.py").write_text("Y = 3\n")
    stale = check(folder, root=tmp_path)
    assert not stale.compiled and stale.stale == ["nidavellir.rules.flow"]
    assert "nidavellir.rules.flow" in stale.reason and "make compiled" in stale.reason
    # Put back byte for byte: the build is current again.
    (tmp_path / "nidavellir" / "rules" / "flow.py").write_text("Y = 2\n")
    assert check(folder, root=tmp_path).compiled


def test_a_broken_or_foreign_build_is_not_used(tmp_path: Path) -> None:
    folder = _fake_build(tmp_path, {"nidavellir.state": "X = 1\n"})
    manifest = json.loads((folder / MANIFEST).read_text())
    # A compiled file missing.
    (folder / "build-1" / "nidavellir" / "state.so").unlink()
    assert "incomplete" in check(folder, root=tmp_path).reason
    # Another Python's build, another format, a manifest that is not JSON, no build at all.
    for changed, words in (({"tag": "cpython-99"}, "cpython-99"),
                           ({"format": FORMAT + 1}, "another format"),
                           ({"compiled": ["nidavellir.state"]}, "list of compiled modules")):
        (folder / MANIFEST).write_text(json.dumps(dict(manifest, **changed)))
        found = check(folder, root=tmp_path)
        assert not found.compiled and words in found.reason
    (folder / MANIFEST).write_text("{not json")
    assert "cannot be read" in check(folder, root=tmp_path).reason
    assert "no compiled build" in check(tmp_path / "nowhere", root=tmp_path).reason


def test_the_build_is_chosen_by_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for value, expected in (("", "auto"), ("auto", "auto"), ("pure", "pure"), ("0", "pure"),
                            ("compiled", "compiled"), ("1", "compiled"), (" Pure ", "pure")):
        monkeypatch.setenv(ENV, value)
        assert compiled.choice() == expected
    monkeypatch.setenv(ENV, "fast")
    with pytest.raises(CompiledBuildError, match="NIDAVELLIR_COMPILED='fast'"):
        compiled.choice()


def _run(code: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True,
                          text=True, env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1", **env),
                          timeout=300, check=False)


def test_asking_for_a_build_that_cannot_run_says_why(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "nidavellir", tmp_path / "nidavellir",
                    ignore=shutil.ignore_patterns("__pycache__"))
    # The copy has no build folder: asked for, the compiled build is an error naming why;
    # by default the copy runs as pure Python and says why.
    done = _run("import nidavellir", tmp_path, **{ENV: "compiled"})
    assert done.returncode != 0
    assert "NIDAVELLIR_COMPILED=compiled, but no compiled build" in done.stderr
    done = _run("import nidavellir.compiled as c; print(c.status())", tmp_path, **{ENV: "auto"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("pure: no compiled build"), done.stdout


def test_a_game_copies_and_pickles_in_this_build() -> None:
    """Deep copies (the OpenSpiel adapter's) and pickles (worker processes) of a game in
    progress, its configuration and its score sheet: the compiled build's frozen classes are
    rebuilt through their constructors."""
    import copy
    import pickle

    from nidavellir import Game
    from nidavellir.bots import play_game

    done = play_game(3, "random", seed=3, expansions=("thingvellir",), options={"first_game": True})
    game = Game.new(players=3, seed=3, expansions=("thingvellir",), first_game=True)
    for _, action in done.history[:40]:
        game.apply_fast(action)
    for again in (copy.deepcopy(game), pickle.loads(pickle.dumps(game))):
        assert again.state.fingerprint() == game.state.fingerprint()
        assert again.config == game.config and again.legal_actions() == game.legal_actions()
    sheet = done.scores()
    assert copy.deepcopy(sheet) == sheet == pickle.loads(pickle.dumps(sheet))
    assert [p.total for p in sheet] == sheet.totals


# ====================================================================== with the real build

CURRENT = check()
needs_build = pytest.mark.skipif(not CURRENT.compiled, reason=f"no current compiled build "
                                 f"({CURRENT.reason})")


@needs_build
def test_an_edit_of_a_compiled_source_takes_effect_at_the_next_run(tmp_path: Path) -> None:
    """A copy of the lab with its build: compiled; then one compiled module's source is
    edited, and the next run runs the edit (as pure Python, saying why)."""
    shutil.copytree(ROOT / "nidavellir", tmp_path / "nidavellir",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "build" / "compiled", tmp_path / "build" / "compiled",
                    ignore=shutil.ignore_patterns("work-*"))
    code = ("import nidavellir.compiled as c, nidavellir.rules.classes as k; "
            "print(c.status().build, k.__file__.endswith('.py'), k.hunter_points(3))")
    done = _run(code, tmp_path, **{ENV: "auto"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["compiled", "False", "9"]
    source = tmp_path / "nidavellir" / "rules" / "classes.py"
    text = source.read_text()
    old = "def hunter_points(ranks: int) -> int:\n"
    assert text.count(old) == 1
    source.write_text(text.replace(old, old + "    return 1000 + ranks\n", 1))
    done = _run(code + "; print(c.status().reason)", tmp_path, **{ENV: "auto"})
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].split() == ["pure", "True", "1003"]
    assert "nidavellir.rules.classes" in lines[1] and "make compiled" in lines[1]


@pytest.fixture(scope="module")
def side_by_side() -> tuple[dict[str, Any], dict[str, Any]]:
    """tests/builds.py's figures in this interpreter and in a fresh one running the other
    build: (this build's, the other's)."""
    if not CURRENT.compiled:
        pytest.skip(f"no current compiled build to compare with ({CURRENT.reason})")
    import builds

    here = builds.figures()
    other = "pure" if here["build"] == "compiled" else "compiled"
    done = _run(f"import runpy; runpy.run_path({str(HERE / 'builds.py')!r}, "
                "run_name='__main__')", ROOT, **{ENV: other})
    assert done.returncode == 0, done.stderr[-3000:]
    there = json.loads(done.stdout)
    assert there["build"] == other
    return here, there


def _same(side_by_side: tuple[dict[str, Any], dict[str, Any]], prefix: str) -> None:
    here, there = side_by_side
    keys = sorted(k for k in here if k.startswith(prefix))
    assert keys, prefix
    different = [k for k in keys if here[k] != there.get(k)]
    assert not different, f"the builds differ ({here['build']} / {there['build']}): {different}"


def test_the_golden_games_are_the_same_in_both_builds(side_by_side: Any) -> None:
    _same(side_by_side, "golden ")


def test_seeded_games_are_the_same_in_both_builds(side_by_side: Any) -> None:
    _same(side_by_side, "game ")


def test_records_reopen_the_same_in_both_builds(side_by_side: Any) -> None:
    _same(side_by_side, "record ")


def test_determinizations_are_the_same_in_both_builds(side_by_side: Any) -> None:
    _same(side_by_side, "twins ")


def test_seeded_judgements_of_every_decision_kind_are_the_same_in_both_builds(
        side_by_side: Any) -> None:
    from nidavellir.rules.base import CHOICES

    here, _there = side_by_side
    assert {k.removeprefix("judgement ") for k in here if k.startswith("judgement ")} \
        == set(CHOICES)
    _same(side_by_side, "judgement ")


def test_c_files_compile_side_by_side_and_a_broken_one_fails_the_build(tmp_path: Path) -> None:
    """The build's C files are compiled as many at a time as there are cores (two at once
    here; one at a time, the largest first); a file the compiler refuses stops the compile,
    named."""
    from nidavellir.compiled.build import _compiling_in_parallel, missing_tools

    if missing_tools() is not None:
        pytest.skip(str(missing_tools()))
    import setuptools  # first: distutils is then setuptools' copy, as in the build

    assert setuptools.__version__
    from distutils.ccompiler import CCompiler, new_compiler
    from distutils.errors import CompileError
    from distutils.sysconfig import customize_compiler

    one_by_one = CCompiler.compile
    compiler: Any = new_compiler()
    customize_compiler(compiler)
    small, large = tmp_path / "small.c", tmp_path / "large.c"
    small.write_text("int small(void) { return 1; }\n")
    large.write_text("int large(void) { return 2; }\n" + "/* a longer file */\n" * 2000)
    calls: list[str] = []
    in_flight: threading.Barrier | None = threading.Barrier(2, timeout=120)  # both at once
    serial = compiler._compile

    def counted(obj: str, src: str, *args: Any) -> None:
        calls.append(Path(src).name)
        if in_flight is not None:
            in_flight.wait()
        serial(obj, src, *args)

    compiler._compile = counted
    with _compiling_in_parallel(2):
        objects = compiler.compile([str(small), str(large)], output_dir=str(tmp_path / "o"))
    assert sorted(Path(o).name for o in objects) == ["large.o", "small.o"]
    assert all(Path(o).exists() for o in objects)
    in_flight = None
    calls.clear()
    with _compiling_in_parallel(1):  # one at a time: the order they are given in
        compiler.compile([str(small), str(large)], output_dir=str(tmp_path / "p"))
    assert calls == ["large.c", "small.c"]  # the largest first
    broken = tmp_path / "broken.c"
    broken.write_text("int broken(void) { return }\n")
    with _compiling_in_parallel(2), pytest.raises(CompileError, match=r"broken\.c did not "
                                                                      "compile"):
        compiler.compile([str(small), str(broken)], output_dir=str(tmp_path / "o"))
    assert CCompiler.compile is one_by_one  # distutils' own compile is back
