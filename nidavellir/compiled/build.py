"""Building the compiled build (``make compiled``; :mod:`nidavellir.compiled` says how it is
used).

mypyc (part of mypy, a development dependency) turns the source files of
:data:`~nidavellir.compiled.MODULES` into C, setuptools compiles it into a new folder of the
build folder, then the new build is **checked before it is used**: a fresh interpreter plays
seeded games and judges seeded positions with it and another with the pure Python, and the
build becomes the current one only when every figure is the same. The manifest is replaced
last, in one step: a process running the previous build keeps the files it has loaded.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import fcntl
import io
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from . import (
    DEFAULT_OPT_LEVEL,
    DIR_ENV,
    ENV,
    FORMAT,
    MANIFEST,
    MODULES,
    ROOT,
    CompiledBuildError,
    build_dir,
    check,
    digest,
    source_path,
    sources,
)

#: The build's shared library (mypyc's "group": the C of every compiled module), a module of
#: the package, so that the compiled build loads nothing outside it.
GROUP = "nidavellir.core"
#: mypyc's own settings (the project's mypy settings name sections mypyc does not know).
MYPY_CONFIG = """[mypy]
python_version = 3.11
ignore_missing_imports = True
"""


def missing_tools() -> str | None:
    """Why no compiled build can be made here (None: it can)."""
    try:
        import mypyc.build  # noqa: F401
        import setuptools  # noqa: F401
    except ImportError as e:
        return f"mypyc is not installed ({e.name}; the development dependencies have it)"
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler})"
    include = Path(sysconfig.get_path("include"))
    if not (include / "Python.h").exists():
        return f"no Python headers ({include / 'Python.h'})"
    return None


def jobs() -> int:
    """The C compilers run at once: the cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


@contextlib.contextmanager
def _compiling_in_parallel(n: int) -> Iterator[None]:
    """The C files of an extension compiled ``n`` at a time, the largest first (distutils
    compiles them one after another: mypyc's one file per module would gain nothing). The
    first file that does not compile stops the compile (the files not begun are left) and
    is named. One build at a time in a process (the class's method is replaced meanwhile:
    :func:`build` holds the build folder's lock; nothing else in the lab compiles C)."""
    from distutils.ccompiler import CCompiler  # setuptools' own copy, once it is imported
    from distutils.errors import CompileError

    serial = CCompiler.compile

    def compile(self: Any, sources: Any, output_dir: Any = None, macros: Any = None,
                include_dirs: Any = None, debug: Any = False, extra_preargs: Any = None,
                extra_postargs: Any = None, depends: Any = None) -> list[str]:
        macros, objects, extra_postargs, pp_opts, build = self._setup_compile(
            output_dir, macros, include_dirs, sources, depends, extra_postargs)
        cc_args = self._get_cc_args(pp_opts, debug, extra_preargs)
        todo = sorted((obj for obj in objects if obj in build),
                      key=lambda obj: -Path(build[obj][0]).stat().st_size)

        def one(obj: str) -> None:
            src, ext = build[obj]
            try:
                self._compile(obj, src, ext, cc_args, extra_postargs, pp_opts)
            except CompileError as e:  # the compiler's own words are above
                raise CompileError(f"{Path(src).name} did not compile ({e})") from e

        pool = concurrent.futures.ThreadPoolExecutor(n)
        try:
            for done in [pool.submit(one, obj) for obj in todo]:
                done.result()  # the first compiler's error raised here
        except BaseException:  # the files not begun are not compiled
            pool.shutdown(wait=True, cancel_futures=True)
            raise
        pool.shutdown()
        return list(objects)

    CCompiler.compile = compile  # type: ignore[method-assign]
    try:
        yield
    finally:
        CCompiler.compile = serial  # type: ignore[method-assign]


def _compile(modules: Sequence[str], work: Path, out: Path, opt_level: str) -> None:
    """mypyc and the C compiler: ``modules`` into ``out`` (scratch files in ``work``); with
    more than one core, one C file per module, compiled side by side (:func:`jobs`)."""
    from mypyc.build import mypycify
    from setuptools import Distribution

    n = jobs()

    config = work / "mypy.ini"
    config.write_text(MYPY_CONFIG)
    paths = [str(source_path(m).relative_to(ROOT)) for m in modules]
    here = Path.cwd()
    os.chdir(ROOT)  # mypy names modules by their path from here
    said = io.StringIO()
    try:
        try:
            # mypyc's notes ("treating generator comprehension as list") are kept unless it
            # fails.
            with contextlib.redirect_stdout(said), contextlib.redirect_stderr(said):
                extensions = mypycify(
                    ["--config-file", str(config), "--cache-dir", str(work / "mypy_cache"),
                     *paths], opt_level=opt_level, group_name=GROUP, target_dir=str(work / "c"),
                    multi_file=n > 1)
        except SystemExit as e:
            errors = [line for line in said.getvalue().splitlines() if "error" in line]
            raise CompiledBuildError("mypyc failed:\n" + "\n".join(errors or [str(e)])) from e
        # mypyc writes a module's own C file beside the group's folder, and the file looks
        # for the group's header in its own folder.
        for extension in extensions:
            extension.include_dirs.append(str(work / "c" / Path(*GROUP.split(".")[:-1])))
        dist = Distribution({"name": "nidavellir-compiled", "ext_modules": extensions})
        dist.verbose = False
        command: Any = dist.get_command_obj("build_ext")
        command.build_lib = str(out)
        command.build_temp = str(work / "temp")
        command.inplace = False
        from distutils.errors import CCompilerError, DistutilsError

        try:
            with _compiling_in_parallel(n):
                dist.run_command("build_ext")
        except (CCompilerError, DistutilsError) as e:  # its own words are above
            reason = str(e).split(" (")[0] if isinstance(e, CCompilerError) else str(e)
            raise CompiledBuildError(f"the C compiler failed: {reason[:300]} (the "
                                     "compiler's messages are above)") from e
    finally:
        os.chdir(here)


# ====================================================================== the check

#: What the check computes in each build (in a fresh interpreter): seeded games of every
#: player count, base and Thingvellir, played to the end by the random and heuristic bots,
#: and the coach's seeded judgements of positions of those games.
PROBE = r"""
import hashlib, json
from nidavellir import compiled
from nidavellir.bots import play_game
from nidavellir.bots.judge import judge
from nidavellir.game import Game

out = {"build": compiled.status().build}
for players in (2, 3, 4, 5):
    for exp in ((), ("thingvellir",)):
        for bot in ("random", "heuristic"):
            g = play_game(players, bot, seed=players * 10 + len(exp), expansions=exp)
            text = repr((g.state.fingerprint(), g.scores().totals,
                         [e.to_dict() for e in g.events]))
            out[f"{bot} {players}p {exp}"] = hashlib.sha256(text.encode()).hexdigest()
            if bot == "heuristic" and players == 3:
                h = Game.new(players=players, seed=players * 10 + len(exp), expansions=exp)
                for i, (_, action) in enumerate(g.history[:40]):
                    if i % 13 == 0:
                        j = judge(h, level="search@30").to_dict()
                        del j["seconds"]  # the time it took
                        out[f"judge {players}p {exp} {i}"] = j
                    h.apply_fast(action)
print(json.dumps(out, sort_keys=True))
"""


def probe(build: str, folder: Path | None = None) -> dict[str, Any]:
    """The figures of :data:`PROBE` in a fresh interpreter running ``build`` (the compiled
    build in ``folder``, or the pure Python)."""
    env = dict(os.environ, **{ENV: build})
    if folder is not None:
        env[DIR_ENV] = str(folder)
    done = subprocess.run([sys.executable, "-X", "faulthandler", "-c", PROBE],
                          capture_output=True, text=True,
                          env=env, cwd=ROOT, check=False)
    if done.returncode != 0:
        raise CompiledBuildError(f"the {build} build failed the check (exit status "
                                 f"{done.returncode}):\n{done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(done.stdout)
    if result.pop("build") != build:
        raise CompiledBuildError(f"the check did not run the {build} build")
    return result


def differences(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    """The figures of two probes that differ (their keys)."""
    return sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k))


# ====================================================================== the build

def build(opt_level: str = DEFAULT_OPT_LEVEL, folder: Path | None = None, force: bool = False) -> bool:
    """Compile :data:`~nidavellir.compiled.MODULES`, check the result against the pure
    Python (module docs) and make it the current build of ``folder`` (default
    :func:`~nidavellir.compiled.build_dir`), unless it is current already (``force``:
    always). One build at a time per folder (engineers may share a working tree): a second
    waits, then finds the build current. True when it built; raises
    :class:`CompiledBuildError` saying what failed."""
    why = missing_tools()
    if why is not None:
        raise CompiledBuildError(why)
    folder = build_dir() if folder is None else folder
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not force and check(folder).compiled:
            return False
        _build(MODULES, opt_level, folder)
        return True


def _build(modules: Sequence[str], opt_level: str, folder: Path) -> None:
    names = sources(modules)
    before = {m: digest(source_path(m)) for m in names}
    # What a build interrupted before left behind.
    for left in folder.glob("work-*"):
        shutil.rmtree(left, ignore_errors=True)
    work = Path(tempfile.mkdtemp(prefix="work-", dir=folder))
    new = Path(tempfile.mkdtemp(prefix="build-", dir=folder))
    try:
        _compile(modules, work, new, opt_level)
        files = {}
        for lib in new.rglob("*.so"):
            rel = lib.relative_to(new)
            files[".".join([*rel.parent.parts, rel.name.split(".")[0]])] = str(rel)
        missing = [m for m in modules if m not in files]
        if missing:
            raise CompiledBuildError(f"mypyc built no module for {', '.join(missing)}")
        manifest = {"format": FORMAT, "folder": new.name, "tag": sys.implementation.cache_tag,
                    "built": time.strftime("%Y-%m-%d %H:%M:%S"), "opt_level": opt_level,
                    "compiled": list(modules), "sources": before, "files": files}
        # The new build checked where it lies (its own manifest in the work folder), then
        # made current.
        (work / MANIFEST).write_text(json.dumps(dict(manifest, folder=f"../{new.name}")))
        if not check(work).compiled:
            raise CompiledBuildError(f"the new build cannot be loaded: {check(work).reason}")
        with concurrent.futures.ThreadPoolExecutor(2) as pool:  # two interpreters at once
            asked = pool.submit(probe, "compiled", work), pool.submit(probe, "pure")
            compiled, pure = asked[0].result(), asked[1].result()
        wrong = differences(compiled, pure)
        if wrong:
            raise CompiledBuildError(
                "the compiled build gives other results than the pure Python ("
                + ", ".join(wrong[:5]) + "): it is not used")
        after = {m: digest(source_path(m)) for m in names}
        if after != before:
            changed = [m for m in names if after[m] != before[m]]
            raise CompiledBuildError(f"sources changed during the build ({', '.join(changed)}):"
                                     " build again")
        fd, tmp = tempfile.mkstemp(prefix="manifest-", dir=folder)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(manifest, f, indent=1)
        os.replace(tmp, folder / MANIFEST)
    except BaseException:
        shutil.rmtree(new, ignore_errors=True)
        raise
    finally:
        shutil.rmtree(work, ignore_errors=True)
    # Older builds go (a process still running one keeps the files it has open).
    for old in folder.glob("build-*"):
        if old != new:
            shutil.rmtree(old, ignore_errors=True)


__all__ = ["GROUP", "build", "differences", "missing_tools", "probe"]
