"""sacreBLEU 2.6.0's test sets, as data: read from ``sets.json`` beside this module, which
``tools/gen_test_sets.py`` GENERATES (do not edit it; regenerate with ``python
tools/gen_test_sets.py``, which reads ``sacrebleu.dataset.DATASETS`` and ``SUBSETS`` of the
installed sacreBLEU, the version the test extra pins).  Imported at the first test-set look-up
(``rapidbleu.dataset.table``), never by ``import rapidbleu``.

:data:`SETS` holds one row per test set, in sacreBLEU's order (``DATASETS``' iteration order):

* ``name``: the test set's name (``"wmt22"``, ``"wmt21/systems"``);
* ``reader``: the class that processes it, by sacreBLEU's class name (``"WMTXMLDataset"``, ...);
* ``data``: the URLs downloaded into ``<cache>/<name>/raw/``; ``md5``: their MD5 sums (or None);
* ``description``, ``citation``: sacreBLEU's texts (or None);
* ``langpairs``: each language pair -> its files inside ``raw/`` (source first, then the
  references; a TSV path may carry a column, ``"2:MTNT2019/en-fr.final.tsv"``), or for WMT XML a
  dict ``{"path": ..., "refs": [...]}`` that overrides the test set's references;
* ``kwargs``: the other keyword arguments (``refs``: the translators scored by default).

:data:`SUBSETS`: test set -> document id -> ``COUNTRY-domain[-FINECOUNTRY]`` annotation.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

with (Path(__file__).parent / "sets.json").open(encoding="utf-8") as _f:
    _TABLE: dict[str, Any] = json.load(_f)

#: The sacreBLEU version this table was generated from.
SACREBLEU_VERSION: str = _TABLE["sacrebleu_version"]

#: One row per test set, in sacreBLEU's order (see the module docstring).
SETS: tuple[dict[str, Any], ...] = tuple(_TABLE["sets"])

#: Test set -> document id -> annotation (``COUNTRY-domain[-FINECOUNTRY]``), sacreBLEU's SUBSETS.
SUBSETS: dict[str, dict[str, str]] = _TABLE["subsets"]
