"""Write pytest's rewritten test modules once, before the suite's workers start.

pytest rewrites the ``assert`` statements of every test module when it imports it (to
say what each side was on a failure) and keeps the result in ``__pycache__`` beside the
module, but only where Python may write bytecode: with ``PYTHONDONTWRITEBYTECODE`` set, as
on this project's machines, and on any fresh clone, each pytest process rewrites all of
them again, about 7 s of CPU per process (5,000 asserts in 120 modules), twice in a
two-worker ``make test``. ``make test`` runs this module first, beside the compiled build:
it rewrites each module once, the way pytest does (pytest's own functions, the same
source hash in the file), and the workers then read the files. It changes no test: pytest
checks each file's hash of its module's source and rewrites a module itself when the file
is missing or stale. Where pytest's internals differ (another pytest version), it writes
nothing and says so; the suite then rewrites as before.

    python tests/assert_cache.py [FOLDER]   (default: the tests folder)
"""

from __future__ import annotations

import ast
import importlib.util
import os
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def modules(root: Path) -> list[Path]:
    """The files pytest rewrites: test modules (``python_files``' default, the project's),
    the conftest files, and the plugins they load (``pytest_plugins``)."""
    found = sorted(p for p in root.rglob("*.py")
                   if p.name.startswith("test_") or p.name == "conftest.py")
    plugins = [root / "speed_guard.py"]
    return found + [p for p in plugins if p.exists()]


def write(paths: list[Path]) -> int:
    """Rewrite each module into pytest's cache file; the number written."""
    from _pytest.assertion import rewrite

    written = 0
    for path in paths:
        source = path.read_bytes()
        tree = ast.parse(source, filename=str(path))
        rewrite.rewrite_asserts(tree, source, str(path), None)
        code = compile(tree, str(path), "exec", dont_inherit=True)
        folder = rewrite.get_cache_dir(path)
        folder.mkdir(exist_ok=True)
        target = folder / (path.name[:-3] + rewrite.PYC_TAIL)
        partial = target.with_name(f"{target.name}.{os.getpid()}")
        with open(partial, "wb") as out:
            rewrite._write_pyc_fp(out, importlib.util.source_hash(source), code)
        os.replace(partial, target)  # atomic: a reader sees the old file or the new one
        written += 1
    return written


def main(argv: list[str]) -> int:
    root = Path(argv[0]).resolve() if argv else TESTS
    try:
        n = write(modules(root))
    except (ImportError, AttributeError, TypeError) as exc:
        print(f"assert_cache: nothing written ({exc}); pytest rewrites the test modules "
              "in each process", file=sys.stderr)
        return 0
    except OSError as exc:
        print(f"assert_cache: nothing more written ({exc})", file=sys.stderr)
        return 0
    print(f"assert_cache: {n} test modules rewritten for pytest")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
