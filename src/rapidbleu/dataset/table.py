"""sacreBLEU 2.6.0's test sets as :class:`~rapidbleu.dataset.base.Dataset` objects, built on first
lookup from the rows of :mod:`rapidbleu.dataset.sets` (``sets.json``).

* :data:`DATASETS`: a read-only mapping, name -> dataset, in sacreBLEU's order; each object is
  built the first time it is looked up and is the same object afterwards (as sacreBLEU's
  dict's values), so ``import rapidbleu.dataset`` builds none of the 67.
* :data:`SUBSETS`: test set -> document id -> ``COUNTRY-domain[-FINECOUNTRY]``;
  :data:`COUNTRIES` and :data:`DOMAINS`: the sorted countries and domains of ``wmt19``'s
  annotation (sacreBLEU's).
"""

from __future__ import annotations

import copy
import difflib
import threading
from collections.abc import Iterator, Mapping

from .._base.errors import TestSetError
from .base import Dataset
from .fake_sgml import FakeSGMLDataset, WMTAdditionDataset
from .iwslt_xml import IWSLTXMLDataset
from .plain_text import PlainTextDataset
from .sets import SETS
from .sets import SUBSETS as _SUBSET_ROWS
from .tsv import TSVDataset
from .wmt_xml import WMTXMLDataset

__all__ = ["COUNTRIES", "DATASETS", "DOMAINS", "READERS", "SUBSETS", "unknown_test_set"]

#: The reader classes by sacreBLEU's class name (the ``reader`` of a row).
READERS: dict[str, type[Dataset]] = {
    cls.__name__: cls
    for cls in (WMTXMLDataset, FakeSGMLDataset, WMTAdditionDataset, IWSLTXMLDataset, PlainTextDataset, TSVDataset)
}


def unknown_test_set(name: object) -> TestSetError:
    """The error for a test set that sacreBLEU 2.6.0 does not have: names it and the closest
    names that exist."""
    close = difflib.get_close_matches(str(name), [row["name"] for row in SETS], n=4)
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    return TestSetError(
        f"no test set {name!r} (sacreBLEU 2.6.0's test sets: rapidbleu.dataset.get_available_testsets()){hint}"
    )


class _Table(Mapping[str, Dataset]):
    """The test sets by name, each built on first lookup (see the module docstring)."""

    def __init__(self) -> None:
        self._rows = {row["name"]: row for row in SETS}
        self._built: dict[str, Dataset] = {}
        self._lock = threading.Lock()

    def __getitem__(self, name: str) -> Dataset:
        try:
            return self._built[name]
        except (KeyError, TypeError):
            pass
        row = self._rows.get(name)
        if row is None:
            raise unknown_test_set(name)
        with self._lock:
            if name not in self._built:
                row = copy.deepcopy(row)
                self._built[name] = READERS[row["reader"]](
                    row["name"],
                    data=row["data"],
                    description=row["description"],
                    citation=row["citation"],
                    md5=row["md5"],
                    langpairs=row["langpairs"],
                    **row["kwargs"],
                )
            return self._built[name]

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name in self._rows

    def __iter__(self) -> Iterator[str]:
        return iter(self._rows)

    def __len__(self) -> int:
        return len(self._rows)

    def __repr__(self) -> str:
        return f"<rapidbleu.dataset.DATASETS: {len(self)} test sets of sacreBLEU 2.6.0>"


#: Test set name -> its dataset object, in sacreBLEU's order, built on first lookup.
DATASETS: Mapping[str, Dataset] = _Table()

#: Test set -> document id -> ``COUNTRY-domain[-FINECOUNTRY]`` (sacreBLEU's ``SUBSETS``).
SUBSETS: dict[str, dict[str, str]] = copy.deepcopy(_SUBSET_ROWS)

#: The countries of wmt19's annotation, sorted (sacreBLEU's ``COUNTRIES``).
COUNTRIES: list[str] = sorted({v.split("-")[0] for v in SUBSETS["wmt19"].values()})

#: The domains of wmt19's annotation, sorted (sacreBLEU's ``DOMAINS``).
DOMAINS: list[str] = sorted({v.split("-")[1] for v in SUBSETS["wmt19"].values()})
