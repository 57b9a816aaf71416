"""WMT's XML test sets (WMT21 and later): sacreBLEU 2.6.0's ``WMTXMLDataset``.

One file per language pair holds every document: its source, the references of one or more
translators and the systems' outputs.  Read with the standard library's
:mod:`xml.etree.ElementTree` (comments and processing instructions kept as nodes, so an
element's ``text`` ends where lxml's does), from the file decoded as UTF-8 (as sacreBLEU opens
it).  The rules, each sacreBLEU's (``_unwrap_wmt21_or_later``):

* every ``<src>`` of the file has one ``lang`` and every ``<ref>`` one ``lang``, else the file is
  refused;
* the reference fields are ``ref:<translator>`` (``ref`` for a ``<ref>`` without a
  ``translator``), in the iteration order of the set of translators, built in document order
  (sacreBLEU's order: it follows the strings' hashes, so it can change between processes unless
  ``PYTHONHASHSEED`` is fixed; within a process both tools give the same);
* documents with a ``testsuite`` attribute are skipped;
* the segments of a document are its source ``<seg>``s in the order of their integer ``id``; a
  segment whose references are all empty (missing or without text) is skipped; a translator
  without that segment gives ``""``;
* each system (``<hyp system=...>``) is a field, in the order systems are first seen;
* ``docid`` and ``origlang`` come from the document's ``id`` and ``origlang``; ``domain`` is a
  field only when the document of the last segment kept has a ``domain`` attribute;
* the fields are ``src``, the references, ``docid``, ``origlang``, the systems, then ``domain``;
  each line is cleaned (:func:`~rapidbleu.dataset.base.clean`).

Where sacreBLEU fails with ``AttributeError`` (a source ``<seg>`` without text, a document
without ``domain`` while the field is written), rapidbleu writes an empty line.  A document
without ``id`` or ``origlang``, or a system missing a kept segment, is a
:class:`~rapidbleu._base.errors.TestSetError` (sacreBLEU: ``KeyError``) naming the file.

A parsed file is remembered (by path, size and modification time) so that ``fieldnames``,
``get_files``, ``filter_subset`` and the processing parse it once per process, where sacreBLEU
parses it again for each.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

from .._base.errors import TestSetError
from .base import Dataset, clean, complete, read_text, write_lines

if TYPE_CHECKING:
    from xml.etree.ElementTree import Element

__all__ = ["WMTXMLDataset", "parse_file", "reference_field"]

#: Fields of one file: ``{field: values}`` (a value None where the XML has no text/attribute).
Fields = dict[str, list[Any]]

_MEMO: OrderedDict[tuple[str, int, int], Fields] = OrderedDict()
_MEMO_SIZE = 4
_MEMO_LOCK = threading.Lock()


def reference_field(translator: str | None) -> str:
    """The field of a translator's references: ``ref:<translator>``, ``ref`` for none (or ``""``)."""
    return f"ref:{translator}" if translator else "ref"


def _sentences(element: Element, path: str) -> dict[int, str | None]:
    """``{int(id): text}`` of the ``<seg>``s below ``element`` (the last of a repeated id wins)."""
    out: dict[int, str | None] = {}
    for seg in element.findall(".//seg"):
        ident = seg.get("id")
        if ident is None:
            raise TestSetError(f"{path}: a <seg> without an id")
        out[int(ident)] = seg.text
    return out


def _parse_tree(path: str) -> Element:
    from xml.etree import ElementTree as ET

    text = read_text(path)
    builder = ET.TreeBuilder(insert_comments=True, insert_pis=True)
    parser = ET.XMLParser(target=builder)
    try:
        parser.feed(text)
        root: Element = parser.close()
    except ET.ParseError as exc:
        error = ET.ParseError(f"{path}: not well-formed XML ({exc})")
        error.code, error.position = exc.code, exc.position
        raise error from exc
    return root


def _unwrap(path: str) -> Fields:
    """The fields of the WMT XML file at ``path`` (module docstring), values uncleaned."""
    root = _parse_tree(path)
    src_langs = {e.get("lang") for e in root.findall(".//src")}
    ref_docs = root.findall(".//ref")
    ref_langs = {e.get("lang") for e in ref_docs}
    translators: set[str | None] = set()
    for e in ref_docs:
        translators.add(e.get("translator"))
    if len(src_langs) != 1:
        raise TestSetError(f"{path}: expected one source language, found {len(src_langs)}")
    if len(ref_langs) != 1:
        raise TestSetError(f"{path}: expected one reference language, found {len(ref_langs)}")

    src: list[str | None] = []
    docids: list[str] = []
    origlangs: list[str] = []
    domains: list[str | None] = []
    refs: dict[str, list[str | None]] = {reference_field(t): [] for t in translators}
    systems: dict[str, list[str | None]] = {}
    last_domain: str | None = None
    for doc in root.findall(".//doc"):
        if "testsuite" in doc.attrib:
            continue
        sources = {int(seg.get("id") or ""): seg.text for seg in doc.findall(".//src//seg")}
        by_translator = {r.get("translator"): _sentences(r, path) for r in doc.findall(".//ref")}
        hyps = {h.get("system"): _sentences(h, path) for h in doc.findall(".//hyp")}
        for seg_id in sorted(sources):
            if not any(sents.get(seg_id) for sents in by_translator.values()):
                continue
            for t in translators:
                refs[reference_field(t)].append(by_translator.get(t, {}).get(seg_id) or "")
            src.append(sources[seg_id])
            for system, sents in hyps.items():
                if seg_id not in sents:
                    raise TestSetError(
                        f"{path}: system {system!r} has no segment {seg_id} in document {doc.get('id')!r}"
                    )
                systems.setdefault(str(system), []).append(sents[seg_id])
            ident, origlang = doc.get("id"), doc.get("origlang")
            if ident is None or origlang is None:
                missing = "id" if ident is None else "origlang"
                raise TestSetError(f"{path}: a document ({ident!r}) without the attribute {missing}")
            docids.append(ident)
            origlangs.append(origlang)
            last_domain = doc.get("domain")
            domains.append(last_domain)
    fields: Fields = {"src": src, **refs, "docid": docids, "origlang": origlangs, **systems}
    if last_domain is not None:
        fields["domain"] = domains
    return fields


def _parsed(path: str) -> Fields:
    """The fields of the file at ``path``, parsed once per version of the file (shared: do not
    modify)."""
    st = os.stat(path)
    key = (os.path.abspath(path), st.st_size, st.st_mtime_ns)
    with _MEMO_LOCK:
        if key in _MEMO:
            _MEMO.move_to_end(key)
            return _MEMO[key]
    fields = _unwrap(path)
    with _MEMO_LOCK:
        _MEMO[key] = fields
        while len(_MEMO) > _MEMO_SIZE:
            _MEMO.popitem(last=False)
    return fields


def parse_file(path: str) -> dict[str, list[Any]]:
    """The fields of the WMT XML file at ``path`` as sacreBLEU's ``_unwrap_wmt21_or_later``
    returns them (``{field: values}``, uncleaned: a missing text or ``domain`` is None), each
    list a fresh copy.

    Raises:
        OSError, UnicodeDecodeError; xml.etree.ElementTree.ParseError: not well-formed XML;
        TestSetError: not a WMT XML test set (module docstring).
    """
    return {k: list(v) for k, v in _parsed(path).items()}


class WMTXMLDataset(Dataset):
    """WMT21+ test sets: one XML file per language pair (module docstring for the rules).

    A language pair's entry is ``[path]`` or ``{"path": path, "refs": [translators]}``; the
    references scored by default (:meth:`get_reference_files`) are the entry's ``refs``, else
    the test set's ``refs`` keyword, else none.
    """

    def _get_langpair_path(self, langpair: str) -> str:
        """The raw XML file of ``langpair``."""
        entry = self._get_langpair_metadata(langpair)[langpair]
        relative = entry["path"] if isinstance(entry, dict) else entry[0]
        return self.raw_path(relative)

    def _fields(self, langpair: str) -> Fields:
        path = self._get_langpair_path(langpair)
        self.maybe_download()
        return _parsed(path)

    def fieldnames(self, langpair: str) -> list[str]:
        """``src``, the references, ``docid``, ``origlang``, the systems, ``domain`` when present:
        read from the raw file (downloaded first if needed; parsed once per process), or, once
        a process has read them, from the list it left beside the raw file
        (``raw/.<set>.<pair>.fields``: the raw file's size and time, then a field a line), so that
        ``--echo``, ``--list`` and scoring from a processed cache parse no XML.

        Raises:
            TestSetError: no such language pair, or not a WMT XML file; DownloadError.
        """
        known = self._known_fieldnames(langpair)
        if known is not None:
            return known
        names = list(self._fields(langpair))
        with contextlib.suppress(OSError):  # a read-only cache: parsed again next time
            write_lines(self._fieldnames_path(langpair), [self._raw_stamp(langpair), *names])
        return names

    def _fieldnames_path(self, langpair: str) -> str:
        return os.path.join(self.rawdir, f".{self.name.replace('/', '_')}.{langpair}.fields")

    def _raw_stamp(self, langpair: str) -> str:
        """The raw file's size and modification time (``"-"`` when it is not there)."""
        try:
            st = os.stat(self._get_langpair_path(langpair))
        except OSError:
            return "-"
        return f"{st.st_size} {st.st_mtime_ns}"

    def _known_fieldnames(self, langpair: str) -> list[str] | None:
        """The fields a process listed for ``langpair``, when the list is there, the raw file is
        the one it read, and every field's text file is complete; else None."""
        try:
            with open(self._fieldnames_path(langpair), encoding="utf-8") as f:
                stamp, *names = f.read().splitlines()
        except (OSError, ValueError):
            return None
        if not names or stamp != self._raw_stamp(langpair):
            return None
        if not all(complete(self._get_txt_file_path(langpair, name)) for name in names):
            return None
        return names

    def read_fields(self, langpair: str) -> dict[str, list[str]]:
        """``{field: cleaned lines}`` of the pair's XML file."""
        return {field: [clean(v) for v in values] for field, values in self._fields(langpair).items()}

    def _get_langpair_allowed_refs(self, langpair: str) -> list[str]:
        """The reference fields scored by default for ``langpair`` (the class docstring)."""
        entry = self._get_langpair_metadata(langpair)[langpair]
        refs = self.kwargs.get("refs", [])
        if isinstance(entry, dict):
            refs = entry.get("refs", refs)
        return [reference_field(r) for r in refs]

    def get_reference_files(self, langpair: str) -> list[str]:
        """The text files of the references scored by default (the class docstring), in field
        order; processed first if needed."""
        allowed = self._get_langpair_allowed_refs(langpair)
        files = self.get_files(langpair)
        return [f for f, field in zip(files, self.fieldnames(langpair), strict=False) if field in allowed]
