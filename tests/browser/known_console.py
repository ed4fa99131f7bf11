"""The browser console lines a dashboard page may show that are not the lab's doing.

Voila 0.5.13 (the newest Voila) bundles JupyterLab 4.2.5 in its page, but its own widget
manager (``@voila-dashboards/widgets-manager8``) was built against JupyterLab 4.5.10 and
asks for those versions of a dozen shared modules: webpack's module federation then warns
once per module ("Unsatisfied version 4.2.5 … of shared singleton module
@jupyterlab/rendermime (required ^4.5.10)") and uses 4.2.5, as Voila's own releases do
(upstream Voila issues 1514 and 1539). Nothing the lab installs can mend that short of
rebuilding Voila's front end.

So the known lines are read from the installed widget manager itself: for each shared
module it asks for, with the version range it asks for, the two forms of webpack's
warning. A line from any other package (the ipywidgets front end built against another
JupyterLab, plotly, anywidget, the lab's own page extension) or any other range is not
known, and the browser test that reads the console fails on it (docs/getting-started.md,
"Tested versions").
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

#: A federated module's consumption of a shared module in a minified remoteEntry:
#: ``("default","@jupyterlab/rendermime",!1,[1,4,5,10])``: [1, a, b, c] is ``^a.b.c``.
CONSUME = re.compile(r'"default","(@[\w.-]+/[\w.-]+)",!1,\[1,(\d+),(\d+),(\d+)\]')
VOILA_MANAGER = "@voila-dashboards/widgets-manager8"


def voila_manager_entry() -> Path:
    """The installed Voila widget manager's remoteEntry file."""
    from voila.utils import get_voila_labextensions_path

    for root in get_voila_labextensions_path():
        found = sorted((Path(root) / VOILA_MANAGER / "static").glob("remoteEntry.*.js"))
        if found:
            return found[0]
    raise FileNotFoundError(f"{VOILA_MANAGER} is not installed with Voila")


@cache
def voila_requirements() -> frozenset[tuple[str, str]]:
    """(shared module, required range) pairs of Voila's own widget manager."""
    text = voila_manager_entry().read_text(encoding="utf-8", errors="replace")
    return frozenset((m[1], f"^{m[2]}.{m[3]}.{m[4]}") for m in CONSUME.finditer(text))


@cache
def bundled_versions() -> dict[str, str]:
    """Shared module -> the version Voila's page bundles (its core ``voila.js``)."""
    from voila.paths import collect_static_paths

    for root in collect_static_paths(["voila", "nbconvert"], "lab"):
        path = Path(root) / "voila.js"
        if path.is_file():
            text = path.read_text(encoding="utf-8", errors="replace")
            return dict(re.findall(r'i\("(@[\w.-]+/[\w.-]+)","([\d.]+)"', text))
    raise FileNotFoundError("Voila's voila.js is not installed")


def is_known(line: str) -> bool:
    """Whether a console line is one of Voila's own version warnings (see the module)."""
    first = line.splitlines()[0] if line else ""
    match = (re.fullmatch(r"Unsatisfied version ([\d.]+) from _JUPYTERLAB\.CORE_OUTPUT of "
                          r"shared singleton module (\S+) \(required (\^[\d.]+)\)", first)
             or re.fullmatch(r"No satisfying version \((\^[\d.]+)\) of shared module (\S+) "
                             r"found in shared scope default\.", first))
    if not match:
        return False
    if first.startswith("Unsatisfied"):
        version, module, wanted = match[1], match[2], match[3]
        if bundled_versions().get(module) != version:
            return False
    else:
        wanted, module = match[1], match[2]
    return (module, wanted) in voila_requirements()


def unknown(lines: list[str]) -> list[str]:
    """The lines that are not Voila's known warnings."""
    return [line for line in lines if not is_known(line)]
