"""Shared test fixtures: WMT23 data locations and the per-system file list."""

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLE_DIR = Path(__file__).resolve().parent / "data" / "wmt23"


def full_data_dir():
    """The full WMT23 selection: $RAPIDBLEU_WMT23_DIR or ../shared/data/wmt23 beside the repo.

    Tests that need it skip when it is absent, unless RAPIDBLEU_REQUIRE_WMT23=1 (set by .ci/run),
    in which case they fail: the official-table checks must not silently vanish in CI.
    """
    env = os.environ.get("RAPIDBLEU_WMT23_DIR")
    candidates = [Path(env)] if env else [ROOT.parent / "shared" / "data" / "wmt23"]
    for c in candidates:
        if (c / "scores.tsv").is_file():
            return c
    if os.environ.get("RAPIDBLEU_REQUIRE_WMT23") == "1":
        pytest.fail(f"full WMT23 data not found at {candidates[0]} and RAPIDBLEU_REQUIRE_WMT23=1")
    pytest.skip("full WMT23 data not available (set RAPIDBLEU_WMT23_DIR)")


def find(directory: Path, pattern: str):
    """Files matching ``pattern`` in ``directory`` or its references/ and system-outputs/ folders."""
    hits = sorted(directory.glob(pattern)) + sorted(directory.glob(f"*/{pattern}"))
    return hits


def read(path: Path):
    """Lines as sacreBLEU's CLI reads them: UTF-8, split on \\n, right-stripped."""
    with open(path, encoding="utf-8", newline="\n") as fh:
        return [line.rstrip() for line in fh]


def systems(directory: Path):
    """(pair, system, hyp_path, [ref paths]) for every system output in ``directory``."""
    out = []
    for hyp in find(directory, "generaltest2023.*.hyp.*"):
        _, pair, _, system, lang = hyp.name.split(".")
        refs = find(directory, f"generaltest2023.{pair}.ref.*.{lang}")
        out.append((pair, system, hyp, refs))
    return out


#: Tokenizer of the official WMT23 table for each target (the data README explains it).
OFFICIAL_TOKENIZER = {"en-zh": "zh", "en-ja": "char"}
