"""tests/assert_cache.py: the test modules' rewritten asserts written once for every pytest
process of ``make test`` (issue 55), read by pytest as its own, and never stale."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import assert_cache
import pytest
from _pytest.assertion import rewrite

MODULE = "def test_lists():\n    seen = [1, 2]\n    assert seen == [1, 3]\n"


def cached(path: Path) -> Path:
    return rewrite.get_cache_dir(path) / (path.name[:-3] + rewrite.PYC_TAIL)


def test_pytest_reads_the_written_module_and_says_what_each_side_was(tmp_path: Path) -> None:
    path = tmp_path / "test_demo.py"
    path.write_text(MODULE)
    assert assert_cache.write([path]) == 1
    code = rewrite._read_pyc(path, cached(path))
    assert code is not None, "pytest would rewrite the module again"
    namespace: dict[str, object] = {"__name__": "test_demo"}
    exec(code, namespace)
    with pytest.raises(AssertionError) as failed:
        namespace["test_lists"]()  # type: ignore[operator]
    assert "assert [1, 2] == [1, 3]" in str(failed.value)  # the rewritten assert's words


def test_an_edited_module_is_rewritten_by_pytest_not_read_stale(tmp_path: Path) -> None:
    path = tmp_path / "test_demo.py"
    path.write_text(MODULE)
    assert_cache.write([path])
    path.write_text(MODULE.replace("[1, 3]", "[1, 2]"))
    assert rewrite._read_pyc(path, cached(path)) is None  # the source's hash differs
    assert importlib.util.source_hash(path.read_bytes()) != \
        cached(path).read_bytes()[8:16]


def test_every_module_pytest_rewrites_is_written() -> None:
    names = {p.relative_to(assert_cache.TESTS).as_posix()
             for p in assert_cache.modules(assert_cache.TESTS)}
    assert {"conftest.py", "browser/conftest.py", "speed_guard.py",
            "test_assert_cache.py", "browser/test_dashboard.py"} <= names
    assert not any(Path(n).name in ("scripted.py", "servers.py") for n in names)
