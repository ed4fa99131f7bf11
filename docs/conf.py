"""Sphinx configuration: ``make docs`` builds docs/_build/html (warnings are errors)."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

project = "nidavellir"
author = "the nidavellir lab"
copyright = "2026, the nidavellir lab"
extensions = ["myst_parser", "sphinx.ext.autodoc"]
source_suffix = {".md": "markdown"}
exclude_patterns = ["_build"]
myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence"]
autodoc_member_order = "bysource"
autodoc_default_options = {"show-inheritance": False}
autodoc_typehints = "signature"
html_theme = "furo"
html_title = "The Nidavellir lab"
# Nothing is fetched at build time (the machines reach package registries only).
intersphinx_mapping: dict[str, tuple[str, None]] = {}
