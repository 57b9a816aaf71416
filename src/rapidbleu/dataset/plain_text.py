"""Aligned plain-text files: sacreBLEU 2.6.0's ``PlainTextDataset``."""

from __future__ import annotations

from .base import Dataset, read_lines

__all__ = ["PlainTextDataset"]


class PlainTextDataset(Dataset):
    """A source file and a reference file, one segment per line (gzipped when the name ends in
    ``.gz``): each line right-stripped of whitespace (``str.rstrip``), as sacreBLEU writes them.
    Fields ``src`` and ``ref``: the pair's first two files."""

    def read_fields(self, langpair: str) -> dict[str, list[str]]:
        """``{"src": lines, "ref": lines}`` from the pair's first two files."""
        files = self._get_langpair_metadata(langpair)[langpair]
        return {
            field: [line.rstrip() for line in read_lines(self.raw_path(path))]
            for field, path in zip(self.fieldnames(langpair), files, strict=False)
        }
