#!/usr/bin/env python3
"""Write ``src/rapidbleu/dataset/sets.json``: sacreBLEU's test-set table as plain data.

Reads the installed sacreBLEU's ``sacrebleu.dataset.DATASETS`` and ``SUBSETS`` (the pinned
version, ``sacrebleu==2.6.0`` of the test extra) and writes one row per test set, in sacreBLEU's
order: its name, the reader class that processes it (by sacreBLEU's class name), the URLs, MD5
sums, description, citation, language pairs (each a list of paths inside ``raw/``, or a dict
with ``path`` and ``refs``) and the other keyword arguments (``refs``); ``SUBSETS`` as the
document -> annotation dicts.  ``rapidbleu.dataset.sets`` reads the file (its docstring says
what each key holds); ``tests/test_test_sets.py`` compares the table with sacreBLEU's live one.

Usage: python tools/gen_test_sets.py [--check]   (from anywhere; ``--check`` writes nothing and
exits 1 when sets.json differs from what would be written).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "src" / "rapidbleu" / "dataset" / "sets.json"


def render() -> str:
    """The text of sets.json from the installed sacreBLEU."""
    import sacrebleu
    from sacrebleu.dataset import DATASETS, SUBSETS

    rows = []
    for name, ds in DATASETS.items():
        if ds.name != name:
            raise ValueError(f"sacreBLEU's DATASETS key {name!r} names a set called {ds.name!r}")
        rows.append(
            {
                "name": name,
                "reader": type(ds).__name__,
                "data": ds.data,
                "md5": ds.md5,
                "description": ds.description,
                "citation": ds.citation,
                "langpairs": ds.langpairs,
                "kwargs": ds.kwargs,
            }
        )
    table = {
        "generated_by": "tools/gen_test_sets.py (do not edit)",
        "sacrebleu_version": sacrebleu.__version__,
        "sets": rows,
        "subsets": SUBSETS,
    }
    return json.dumps(table, indent=1, ensure_ascii=False) + "\n"


def main(argv: list[str]) -> int:
    text = render()
    if "--check" in argv:
        current = TARGET.read_text("utf-8") if TARGET.exists() else ""
        if current != text:
            print(f"{TARGET} is not what tools/gen_test_sets.py writes: regenerate it", file=sys.stderr)
            return 1
        return 0
    TARGET.write_text(text, "utf-8")
    print(f"wrote {TARGET.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
