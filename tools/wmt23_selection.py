#!/usr/bin/env python3
"""Run the full-data tests on another selection of the WMT23 files than the developer one.

The tests that read the full WMT23 data (``$RAPIDBLEU_WMT23_DIR``) must work on any folder laid
out like ``../shared/data/wmt23`` (``scores.tsv``, ``references/``, ``system-outputs/``,
``sources/``), whichever pairs and systems it holds and however it is assembled.  This script
builds such a folder from an existing one, made only of symbolic links, then runs those tests
on it with ``RAPIDBLEU_REQUIRE_WMT23=1`` (a skip for missing data is a failure):

* only the pairs given (``--pairs``), and of each pair only the systems at the positions given
  (``--systems``, 0-based in name order), so the counts differ from the developer selection;
* ``system-outputs/`` is a symbolic link to a folder elsewhere (holding links to the files):
  data reached through a linked folder, which ``Path.rglob`` does not follow on Python 3.11;
* ``references/`` links the source folder whole (references of other pairs included);
  ``sources/`` is a folder of links to the selected pairs' sources;
* ``scores.tsv``: the header and the source table's rows of the selected systems.

Usage::

    python tools/wmt23_selection.py [--from DIR] [--pairs en-zh,he-en,cs-uk] [--systems 0,2]
                                    [--keep DIR] [-- extra pytest arguments]

``--from`` defaults to ``$RAPIDBLEU_WMT23_DIR``, else ``../shared/data/wmt23`` beside the
repository.  Prints the selection, then pytest's summary; exits with pytest's status.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: The tests that read the full selection (the others use the samples in tests/data/wmt23).
FULL_DATA_TESTS = [
    "tests/test_bleu_exact.py",
    "tests/test_cli.py::test_every_13a_system_full_data",
    "tests/test_core.py::test_wmt23_system_matches_oracle",
    "tests/test_nltk.py",
    "tests/test_tokenizers.py",
    "tests/test_fast_tokenizers.py::test_wmt23_every_line",
    "tests/test_significance.py",
]


def build(source: Path, dest: Path, pairs: list[str], positions: list[int]) -> list[str]:
    """Make the selection in ``dest`` (which must not exist); the names of the systems kept."""
    outputs = source / "system-outputs"
    kept: list[Path] = []
    for pair in pairs:
        files = sorted(outputs.glob(f"generaltest2023.{pair}.hyp.*"))
        if not files:
            raise SystemExit(f"no system outputs of {pair} in {outputs}")
        kept += [files[i] for i in positions if i < len(files)]
    dest.mkdir(parents=True)
    store = dest.parent / f"{dest.name}-outputs"  # the real folder behind system-outputs/
    store.mkdir()
    for f in kept:
        (store / f.name).symlink_to(f.resolve())
    (dest / "system-outputs").symlink_to(store, target_is_directory=True)
    (dest / "references").symlink_to((source / "references").resolve(), target_is_directory=True)
    (dest / "sources").mkdir()
    for pair in pairs:
        for f in sorted((source / "sources").glob(f"generaltest2023.{pair}.src.*")):
            (dest / "sources" / f.name).symlink_to(f.resolve())
    names = {(f.name.split(".")[1], ".".join(f.name.split(".")[3:-1])) for f in kept}
    lines = (source / "scores.tsv").read_text("utf-8").splitlines(keepends=True)
    header = lines[0].rstrip("\n").split("\t")
    pair_col, system_col = header.index("pair"), header.index("system")
    rows = [
        line for line in lines[1:] if tuple(line.rstrip("\n").split("\t")[i] for i in (pair_col, system_col)) in names
    ]
    (dest / "scores.tsv").write_text(lines[0] + "".join(rows), "utf-8")
    return sorted(f"{p}:{s}" for p, s in names)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    default = os.environ.get("RAPIDBLEU_WMT23_DIR") or str(ROOT.parent / "shared" / "data" / "wmt23")
    ap.add_argument("--from", dest="source", default=default, help="a WMT23 folder to select from")
    ap.add_argument("--pairs", default="en-zh,he-en,cs-uk", help="comma-separated language pairs")
    ap.add_argument("--systems", default="0,2", help="positions of the systems kept per pair (name order)")
    ap.add_argument("--keep", default=None, help="build the selection here (kept) instead of a temporary folder")
    ap.add_argument("pytest_args", nargs="*", help="extra pytest arguments (after --)")
    args = ap.parse_args()
    source = Path(args.source)
    if not (source / "scores.tsv").is_file():
        raise SystemExit(f"{source}: not a WMT23 folder (no scores.tsv)")
    pairs = [p for p in args.pairs.split(",") if p]
    positions = [int(i) for i in args.systems.split(",") if i]
    with tempfile.TemporaryDirectory() as tmp:
        dest = Path(args.keep) if args.keep else Path(tmp) / "wmt23-selection"
        systems = build(source, dest, pairs, positions)
        rows = len((dest / "scores.tsv").read_text("utf-8").splitlines()) - 1
        print(f"selection in {dest}: {len(systems)} systems ({', '.join(systems)}), {rows} rows of scores.tsv")
        env = dict(os.environ, RAPIDBLEU_WMT23_DIR=str(dest), RAPIDBLEU_REQUIRE_WMT23="1")
        cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *FULL_DATA_TESTS, *args.pytest_args]
        return subprocess.run(cmd, cwd=ROOT, env=env, check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
