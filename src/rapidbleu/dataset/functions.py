"""sacreBLEU 2.6.0's test-set functions (``sacrebleu.utils``), same names, signatures and return
values; where sacreBLEU raises a bare ``Exception``, a ``KeyError`` or calls ``sys.exit``, these
raise :class:`~rapidbleu._base.errors.TestSetError` (a ``ValueError`` and a ``KeyError``) with a
message naming the test set, pair or field, and what exists.

Differences, each where sacreBLEU fails: a language pair given as a dict (``wmt22``'s
``cs-en``: ``{"path": ..., "refs": [...]}``) is read from its ``path`` by the origlang/subset
functions (sacreBLEU: ``KeyError: 0``); ``download_test_set(name)`` without a pair processes
every pair and returns all their files (sacreBLEU: ``KeyError``).
"""

from __future__ import annotations

import itertools
import re
import sys
from collections.abc import Iterable, Sequence
from typing import Any, TypeVar

from .._base.errors import TestSetError
from .base import Dataset, read_text
from .table import DATASETS, SUBSETS, unknown_test_set
from .wmt_xml import WMTXMLDataset, parse_file

__all__ = [
    "download_test_set",
    "filter_subset",
    "get_available_origlangs",
    "get_available_subsets",
    "get_available_testsets",
    "get_available_testsets_for_langpair",
    "get_files",
    "get_langpairs_for_testset",
    "get_reference_files",
    "get_source_file",
    "print_test_set",
]

T = TypeVar("T")


def _dataset(test_set: str) -> Dataset:
    if test_set not in DATASETS:
        raise unknown_test_set(test_set)
    return DATASETS[test_set]


def _raw_file(dataset: Dataset, langpair: str) -> str:
    """The first raw file of ``langpair`` (a dict entry's ``path``), downloaded if needed."""
    entry = dataset.langpair_entry(langpair)
    dataset.maybe_download()
    return dataset.raw_path(entry["path"] if isinstance(entry, dict) else entry[0])


def _attribute_of_line(line: str, name: str) -> str:
    """sacreBLEU's reading of a ``<doc`` line's attribute for --origlang/--subset: the value of
    the *last* `` <name>="..."`` with a non-empty value, when the line ends with ``\\n``; else
    the whole line (which then matches no value)."""
    if line.endswith("\n"):
        body = line[:-1]
        key = f' {name}="'
        at = body.rfind(key)
        while at >= 0:
            start = at + len(key)
            end = body.find('"', start)
            if end > start:
                return body[start:end]
            at = body.rfind(key, 0, at)
    return line


def _raw_lines_with_ends(path: str) -> list[str]:
    """The lines of a raw file with their ``\\n``, as sacreBLEU's ``smart_open`` iterates them."""
    text = read_text(path)
    lines = [line + "\n" for line in text.split("\n")]
    lines[-1] = lines[-1][:-1]
    if not lines[-1]:
        lines.pop()
    return lines


def _origlang_matches(doc_origlang: str, origlang: str | None) -> bool:
    if origlang is None:
        return True
    if origlang.startswith("non-"):
        return doc_origlang != origlang[4:]
    return doc_origlang == origlang


def download_test_set(test_set: str, langpair: str | None = None) -> list[str]:
    """Download and process ``test_set`` (``langpair``: one pair; None: every pair) into the
    cache; returns the text files (:meth:`Dataset.get_files`), every pair's in order for None.

    Raises:
        TestSetError: unknown test set or pair; DownloadError: the download failed.
    """
    dataset = _dataset(test_set)
    if langpair is not None:
        return dataset.get_files(langpair)
    return [f for pair in dataset.langpairs for f in dataset.get_files(pair)]


def get_source_file(test_set: str, langpair: str) -> str:
    """The source text file of ``test_set``/``langpair``, downloaded and processed if needed.

    Raises:
        TestSetError: unknown test set or pair; DownloadError.
    """
    return _dataset(test_set).get_source_file(langpair)


def get_reference_files(test_set: str, langpair: str) -> list[str]:
    """The reference text files scored by default (WMT XML: the set's or pair's ``refs``).

    Raises:
        TestSetError: unknown test set or pair; DownloadError.
    """
    return _dataset(test_set).get_reference_files(langpair)


def get_files(test_set: str, langpair: str) -> list[str]:
    """The text files of every field (:meth:`Dataset.fieldnames` order).

    Raises:
        TestSetError: unknown test set or pair; DownloadError.
    """
    return _dataset(test_set).get_files(langpair)


def get_langpairs_for_testset(testset: str) -> list[str]:
    """The language pairs of ``testset`` in the table's order; ``[]`` for an unknown name."""
    if testset not in DATASETS:
        return []
    return list(DATASETS[testset].langpairs)


def get_available_testsets() -> list[str]:
    """Every test set's name, sorted in reverse (sacreBLEU's ``--list`` order)."""
    return sorted(DATASETS, reverse=True)


def get_available_testsets_for_langpair(langpair: str) -> list[str]:
    """The test sets, in table order, that have ``langpair`` or its reverse.

    Raises:
        TestSetError: ``langpair`` is not ``src-trg`` (sacreBLEU: ``IndexError``).
    """
    parts = langpair.split("-")
    if len(parts) < 2:
        raise TestSetError(f"language pair {langpair!r}: expected SRC-TRG, e.g. en-de")
    forward, backward = f"{parts[0]}-{parts[1]}", f"{parts[1]}-{parts[0]}"
    return [name for name, dataset in DATASETS.items() if forward in dataset.langpairs or backward in dataset.langpairs]


def _datasets(test_sets: str | None) -> list[Dataset]:
    """The test sets of a comma-separated list (none for None).

    Raises:
        TestSetError: an unknown test set.
    """
    return [] if test_sets is None else [_dataset(name) for name in test_sets.split(",")]


def get_available_origlangs(test_sets: str | None, langpair: str) -> list[str]:
    """The sorted origlang values of ``langpair``'s raw file in each of the comma-separated
    ``test_sets`` (WMT XML: every kept segment's; ``.sgm``: each ``<doc`` line's, read as
    sacreBLEU reads it); ``[]`` for None.

    Raises:
        TestSetError: unknown test set or pair.
    """
    found: set[str] = set()
    for dataset in _datasets(test_sets):
        raw = _raw_file(dataset, langpair)
        if isinstance(dataset, WMTXMLDataset):
            found.update(parse_file(raw)["origlang"])
        if raw.endswith(".sgm"):
            found.update(
                _attribute_of_line(line, "origlang") for line in _raw_lines_with_ends(raw) if line.startswith("<doc ")
            )
    return sorted(found)


def get_available_subsets(test_sets: str | None, langpair: str) -> list[str]:
    """The sorted subsets of the comma-separated ``test_sets``: the ``domain`` values of a WMT XML
    file, or for a test set annotated in :data:`SUBSETS`, ``country:<COUNTRY>`` and the domains;
    ``[]`` for None.

    Raises:
        TestSetError: unknown test set or pair.
    """
    found: set[str] = set()
    for dataset in _datasets(test_sets):
        test_set = dataset.name
        if isinstance(dataset, WMTXMLDataset):
            fields = parse_file(_raw_file(dataset, langpair))
            found.update(d for d in fields.get("domain", ()) if d is not None)
        elif test_set in SUBSETS:
            tags = SUBSETS[test_set].values()
            found.update("country:" + v.split("-")[0] for v in tags)
            found.update(v.split("-")[1] for v in tags)
    return sorted(found)


def filter_subset(
    systems: Sequence[Iterable[T]],
    test_sets: str | None,
    langpair: str | None,
    origlang: str | None,
    subset: str | None = None,
) -> Any:
    """Keep the segments whose document has ``origlang`` (``non-xx``: any other) and whose
    subset matches the regular expression ``subset`` (WMT XML: the ``domain``; ``.sgm``: the
    document's :data:`SUBSETS` annotation, ``country:XX`` for the country); ``systems`` is
    returned as it is when both are None, else as lists of the kept lines, one per system.

    Raises:
        ValueError: a filter without a test set or pair (sacreBLEU's message);
        TestSetError: unknown test set or pair, a ``subset`` for an ``.sgm`` test set without
            annotation, a test set neither WMT XML nor ``.sgm``.
    """
    if origlang is None and subset is None:
        return systems
    if test_sets is None or langpair is None:
        raise ValueError("Filtering for --origlang or --subset needs a test (-t) and a language pair (-l).")
    if subset is not None and subset.startswith("country:"):
        subset = subset[8:]
    keep: list[bool] = []
    for test_set in test_sets.split(","):
        dataset = _dataset(test_set)
        raw = _raw_file(dataset, langpair)
        if isinstance(dataset, WMTXMLDataset):
            fields = parse_file(raw)
            domains = fields["domain"] if "domain" in fields else itertools.repeat(None)
            for doc_origlang, domain in zip(fields["origlang"], domains, strict=False):
                include = _origlang_matches(doc_origlang, origlang)
                if subset is not None and (domain is None or not re.search(subset, domain)):
                    include = False
                keep.append(include)
        elif raw.endswith(".sgm"):
            tags: dict[str, str] = {}
            if subset is not None:
                if test_set not in SUBSETS:
                    raise TestSetError(
                        f"test set {test_set} has no subset annotation (annotated: {', '.join(SUBSETS)}); "
                        "use --origlang alone"
                    )
                tags = SUBSETS[test_set]
            include = False
            for line in _raw_lines_with_ends(raw):
                if line.startswith("<doc "):
                    include = _origlang_matches(_attribute_of_line(line, "origlang"), origlang)
                    if subset is not None and not re.search(subset, tags.get(_attribute_of_line(line, "docid"), "")):
                        include = False
                if line.startswith("<seg "):
                    keep.append(include)
        else:
            raise TestSetError(
                f"--origlang and --subset read WMT *.xml and *.sgm files only; test set {test_set}, "
                f"{langpair} is {raw!r}"
            )
    return [[line for line, k in zip(system, keep, strict=False) if k] for system in systems]


def print_test_set(
    test_set: str,
    langpair: str,
    requested_fields: Sequence[str],
    origlang: str | None = None,
    subset: str | None = None,
) -> None:
    """Write the ``requested_fields`` of ``test_set``/``langpair`` to stdout, one segment per
    line, the fields right-stripped and tab-joined (sacreBLEU's ``--echo``): ``["all"]`` is every
    field; ``"ref"`` stands for the first reference field (by name) when there is no ``ref``;
    ``origlang``/``subset`` as :func:`filter_subset`.

    Raises:
        TestSetError: unknown test set, pair or field (the message lists the fields), ``all``
            with other fields; DownloadError.
    """
    dataset = _dataset(test_set)
    if langpair is None:
        raise TestSetError(
            f"test set {test_set}: which language pair? ({', '.join(dataset.langpairs)}); pass -l/langpair"
        )
    fieldnames = dataset.fieldnames(langpair)
    all_files = dataset.get_files(langpair)
    requested = list(requested_fields)
    if "all" in requested and len(requested) != 1:
        raise TestSetError("--echo all cannot be combined with other fields")
    if "all" in requested:
        requested = fieldnames
    ref_fields = [f for f in fieldnames if f.startswith("ref")]
    if "ref" in requested and "ref" not in fieldnames and ref_fields:
        requested = [min(ref_fields) if f == "ref" else f for f in requested]
    files = []
    for field in requested:
        if field not in fieldnames:
            also = f"; 'ref' also stands for {min(ref_fields)}" if "ref" not in fieldnames and ref_fields else ""
            raise TestSetError(
                f"no field {field!r} in test set {test_set} for language pair {langpair}; "
                f"its fields: {', '.join(fieldnames)}{also}"
            )
        files.append(all_files[fieldnames.index(field)])
    streams = [_raw_lines_with_ends(f) for f in files]
    out = sys.stdout
    for lines in zip(*filter_subset(streams, test_set, langpair, origlang, subset), strict=False):
        out.write("\t".join(line.rstrip() for line in lines) + "\n")
