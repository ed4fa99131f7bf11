"""Every notebook in notebooks/ runs top to bottom without an error, in this venv's kernel."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from nidavellir.classroom.command import voila_args

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
KERNEL_CHECK = "import sys\nprint(sys.prefix)"


def test_the_welcome_notebook_is_there() -> None:
    # Without notebooks the parametrised test below would be skipped, not failed.
    assert ROOT / "notebooks" / "00_welcome.ipynb" in NOTEBOOKS


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_is_stored_without_outputs(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    dirty = [i for i, cell in enumerate(nb.cells)
             if cell.cell_type == "code" and (cell.outputs or cell.execution_count)]
    assert dirty == [], f"cells with outputs (clear them before committing): {dirty}"


#: The notebooks' own sizes, smaller in the suite (issue 55): the same cells run, on fewer
#: games and a smaller coach. Each text must be in the notebook (so a changed notebook is
#: not run at its full size unnoticed).
SMALLER: dict[str, list[tuple[str, str]]] = {
    "05_strategy_lab.ipynb": [("GAMES = 150", "GAMES = 30"),
                              ('["search@40", "greedy", "greedy"]',
                               '["search@6", "greedy", "greedy"]')],
    "03_what_if.ipynb": [('whatif.what_if(game, level="coach")',
                          'whatif.what_if(game, level="search@10")')],
}


@pytest.mark.slow(reason="a kernel started and the whole notebook run in it: 2 to 6 s of "
                        "CPU")
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_runs(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    for old, new in SMALLER.get(path.name, []):
        cells = [c for c in nb.cells if c.cell_type == "code" and old in c.source]
        assert cells, f"{path.name} no longer says {old!r}: update SMALLER"
        for cell in cells:
            cell.source = cell.source.replace(old, new)
    # One more cell tells which Python ran the notebook: it must be this venv's, not a
    # `python3` kernel that some other Jupyter installation registered.
    nb.cells.append(nbformat.v4.new_code_cell(KERNEL_CHECK))
    client = NotebookClient(
        nb, kernel_name="python3", timeout=120, startup_timeout=60,
        resources={"metadata": {"path": str(path.parent)}},
    )
    client.execute()  # raises CellExecutionError naming the failing cell
    printed = "".join(o.get("text", "") for o in nb.cells[-1].outputs).strip()
    assert os.path.realpath(printed) == os.path.realpath(sys.prefix), "kernel outside the venv"



def test_voila_gets_each_option_once() -> None:
    # A repeated option gives HTTP 500 on the first page (docs/serving.md).
    args = voila_args("notebooks", host="0.0.0.0", extra=["--Voila.port=9000", "--Voila.port=9001",
                                                          "--VoilaConfiguration.theme=dark"])
    options = [a.split("=", 1)[0] for a in args[1:]]
    assert len(options) == len(set(options))
    assert args[0] == "notebooks"
    assert {"--Voila.ip=0.0.0.0", "--Voila.port=9001", "--Voila.port_retries=0",
            "--KernelManager.transport=ipc", "--VoilaConfiguration.theme=dark"} <= set(args)
    assert any(a.startswith("--MappingKernelManager.cull_idle_timeout=") for a in args)
