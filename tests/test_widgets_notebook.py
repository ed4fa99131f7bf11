"""notebooks/02_play.ipynb runs in a real kernel and builds the play app."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "02_play.ipynb"


def test_play_notebook_is_stored_without_outputs():
    nb = json.loads(NOTEBOOK.read_text(encoding="utf-8"))
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    assert 1 <= len(code) <= 4
    assert all(not c.get("outputs") and c.get("execution_count") is None for c in code)


@pytest.mark.slow(reason='a kernel started and the Play notebook run in it: about 2.5 s of CPU')
def test_play_notebook_runs_and_shows_the_app():
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    nb = nbformat.read(NOTEBOOK, as_version=4)
    client = nbclient.NotebookClient(nb, timeout=120, kernel_name="python3",
                                     resources={"metadata": {"path": str(NOTEBOOK.parent)}})
    client.execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    views = [o for o in outputs if "application/vnd.jupyter.widget-view+json" in o.get("data", {})]
    assert views, "the app widget is not displayed"
    texts = "".join(o.get("data", {}).get("text/plain", "") for o in outputs)
    assert "Game 3 players, seed 7" in texts
