"""Tab-separated test sets (MTNT): sacreBLEU 2.6.0's ``TSVDataset``."""

from __future__ import annotations

from .._base.errors import TestSetError
from .base import Dataset, read_lines

__all__ = ["TSVDataset", "column_and_path"]


def column_and_path(meta: str, field: str) -> tuple[int, str]:
    """A language pair's entry as ``(column, path)``: ``"3:en-de.tsv"`` is column 3 of
    ``en-de.tsv``; an entry without exactly one ``:`` is a path, read at column 0 for ``src``
    and column 1 otherwise (sacreBLEU's rule).

    Raises:
        TestSetError: the part before the ``:`` is not a whole number.
    """
    parts = meta.split(":")
    if len(parts) == 2:
        try:
            return int(parts[0]), parts[1]
        except ValueError:
            raise TestSetError(f"TSV entry {meta!r}: expected COLUMN:PATH with a whole-number column") from None
    return (0 if field == "src" else 1), meta


class TSVDataset(Dataset):
    """A test set in one TSV file, ``src`` and ``ref`` at the columns the language pair names:
    each line without its ``\\n`` is split at tabs and the column taken as it is (a ``\\r``
    of a CRLF file stays, as in sacreBLEU)."""

    def read_fields(self, langpair: str) -> dict[str, list[str]]:
        """``{"src": column, "ref": column}``.

        Raises:
            ValueError: a line has no such column.
        """
        fields: dict[str, list[str]] = {}
        for field, meta in zip(
            self.fieldnames(langpair), self._get_langpair_metadata(langpair)[langpair], strict=False
        ):
            column, path = column_and_path(meta, field)
            full = self.raw_path(path)
            out = []
            for number, line in enumerate(read_lines(full), 1):
                cells = line.split("\t")
                try:
                    out.append(cells[column])
                except IndexError:
                    raise ValueError(f"{full}, line {number}: no column {column} ({len(cells)} columns)") from None
            fields[field] = out
        return fields
