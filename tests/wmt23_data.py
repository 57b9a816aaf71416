"""Where the WMT23 data is: one rule for the tests (``conftest.py``) and the benchmarks
(``bench/_common.py``), which import this module.

``$RAPIDBLEU_WMT23_DIR``, else ``../shared/data/wmt23`` beside the repository (the full
selection: ``scores.tsv``, ``references/``, ``system-outputs/``, ``sources/``), else the samples
shipped in ``tests/data/wmt23`` (flat).  No path of any machine is named here.  This module
imports nothing but the standard library (the benchmarks run without pytest).
"""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLE_DIR = Path(__file__).resolve().parent / "data" / "wmt23"


def full_candidate() -> Path:
    """Where the full WMT23 selection would be: ``$RAPIDBLEU_WMT23_DIR``, else
    ``../shared/data/wmt23`` beside the repository (it may be absent)."""
    env = os.environ.get("RAPIDBLEU_WMT23_DIR")
    return Path(env) if env else ROOT.parent / "shared" / "data" / "wmt23"


def candidates() -> list[Path]:
    """The folders to look in, in order: the full selection's, then the samples."""
    return [full_candidate(), SAMPLE_DIR]
