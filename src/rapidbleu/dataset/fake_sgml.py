"""WMT's test sets before 2021 (``.sgm`` files, one per side) and the additional references
added to them: sacreBLEU 2.6.0's ``FakeSGMLDataset`` and ``WMTAdditionDataset``.

The files are "fake" SGML: they are read line by line, never parsed.  A language pair lists the
source file, then the reference file(s).  The rules, each sacreBLEU's:

* **text** (``src``, ``ref``, ``ref:<i>``): every line that starts with ``<seg `` gives one
  segment, the text from the first ``>`` after ``<seg`` up to the *last* ``</seg>`` on the
  line, followed by whatever comes after that ``</seg>`` (as sacreBLEU's substitution of
  ``<seg.*?>(.*)</seg>.*?`` keeps it); a ``<seg `` line without a ``>``..``</seg>`` is kept
  whole; then :func:`~rapidbleu.dataset.base.clean` (stripped, whitespace runs one space).
  Anything else (``<doc>``, a line starting with a BOM or a space) gives no segment.
* **metadata** (``docid``, ``genre``, ``origlang``; not for test sets named ``wmt08...``): read
  from the source file: each ``<doc `` line sets the value to what follows the first
  ``<field>="`` up to the next ``"`` (the value stays the previous document's when the line has
  none), and each ``<seg `` line writes the current value (``""`` before the first).
* **references**: ``ref`` for one reference file, ``ref:0``, ``ref:1``, ... for several.
* ``WMTAdditionDataset``: a reference file that does not end in ``.sgm`` is plain text, each line
  right-stripped.
"""

from __future__ import annotations

from .._base.errors import TestSetError
from .base import Dataset, clean, read_lines

__all__ = ["FakeSGMLDataset", "WMTAdditionDataset", "segment_text"]

_META_FIELDS = ("docid", "genre", "origlang")


def segment_text(line: str) -> str:
    """The segment a ``<seg ...>...</seg>`` line holds, before cleaning (module docstring)."""
    opening = line.find(">", 4)
    if opening >= 0:
        closing = line.rfind("</seg>", opening + 1)
        if closing >= 0:
            return line[opening + 1 : closing] + line[closing + 6 :]
    return line


def _meta_value(line: str, field: str) -> str | None:
    """What follows the first ``<field>="`` of ``line`` up to the next ``"``, or None."""
    key = f'{field}="'
    start = line.find(key)
    if start < 0:
        return None
    start += len(key)
    end = line.find('"', start)
    return None if end < 0 else line[start:end]


class FakeSGMLDataset(Dataset):
    """WMT's ``.sgm`` test sets (up to WMT20): source and references in separate files, read
    line by line (see the module docstring for the rules)."""

    def _text_lines(self, path: str) -> list[str]:
        """The segments of a source or reference file."""
        return [clean(segment_text(line)) for line in read_lines(path) if line.startswith("<seg ")]

    @staticmethod
    def _meta_lines(path: str, field: str) -> list[str]:
        """One value of the document attribute ``field`` per segment of the file at ``path``."""
        out: list[str] = []
        value = ""
        for line in read_lines(path):
            if line.startswith("<doc "):
                found = _meta_value(line, field)
                if found is not None:
                    value = found
            elif line.startswith("<seg "):
                out.append(value)
        return out

    def read_fields(self, langpair: str) -> dict[str, list[str]]:
        """``{field: segments}`` from the pair's files (module docstring)."""
        files = [self.raw_path(p) for p in self._get_langpair_metadata(langpair)[langpair]]
        fields: dict[str, list[str]] = {}
        for i, field in enumerate(self.fieldnames(langpair)):
            if field in _META_FIELDS:
                fields[field] = self._meta_lines(files[0], field)
            elif i < len(files):
                fields[field] = self._text_lines(files[i])
        return fields

    def fieldnames(self, langpair: str) -> list[str]:
        """``src``, ``ref`` (or ``ref:0``, ``ref:1``, ... for several reference files), then
        ``docid``, ``genre``, ``origlang`` unless the test set's name starts with ``wmt08``.

        Raises:
            TestSetError: no such language pair, or it lists fewer than two files.
        """
        files = self._get_langpair_metadata(langpair)[langpair]
        if len(files) < 2:
            raise TestSetError(f"test set {self.name}, {langpair}: a language pair needs a source and a reference file")
        fields = ["src"]
        fields += ["ref"] if len(files) == 2 else [f"ref:{i}" for i in range(len(files) - 1)]
        if not self.name.startswith("wmt08"):
            fields += _META_FIELDS
        return fields


class WMTAdditionDataset(FakeSGMLDataset):
    """Additional references for a WMT ``.sgm`` test set (``wmt17/ms``, ``wmt19/google/*``): a
    file not ending in ``.sgm`` is plain text, each line right-stripped."""

    def _text_lines(self, path: str) -> list[str]:
        if path.endswith(".sgm"):
            return super()._text_lines(path)
        return [line.rstrip() for line in read_lines(path)]
