"""The test-set base class: sacreBLEU 2.6.0's ``Dataset`` surface, the cache layout, and the one
loop that downloads, parses and writes.

A test set lives in sacreBLEU's cache (``$SACREBLEU`` or ``~/.sacrebleu``, read at each call
through :func:`rapidbleu._base.fetch.cache_dir`), laid out as sacreBLEU lays it out, so that
either tool serves the other's cache without downloading or processing again:

* ``<cache>/<name>/raw/<name with / as _>.<basename of the URL>``: each downloaded file (an
  archive is extracted into ``raw/`` beside it);
* ``<cache>/<name>/<name with / as _>.<langpair>.<field with : as ->``: one text file per field
  (``src``, ``ref``, ``ref:A``, ``docid``, a system's name, ...), one line per segment, UTF-8,
  ``\\n`` line ends.

:meth:`Dataset.process_to_text` is the one loop: download (``maybe_download``), then for each
language pair whose text files are not all there, ask the reader for its fields
(:meth:`Dataset.read_fields`, the only thing a format module writes: ``{field: lines}``) and
write each missing file through a temporary file in the same folder renamed into place, so an
interrupted run leaves no text file that a later run (of rapidbleu or sacreBLEU) would trust.  A
text file that exists and is not empty is used as it is, as sacreBLEU does.
"""

from __future__ import annotations

import contextlib
import gzip
import os
import secrets
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from .._base import fetch
from .._base.errors import TestSetError

__all__ = ["Dataset", "clean", "read_lines", "read_text", "write_lines"]


def read_text(path: str) -> str:
    """The UTF-8 text of the file at ``path`` (gunzipped when it ends in ``.gz``), as sacreBLEU's
    ``smart_open`` reads it: no newline translation, a UTF-8 BOM kept as U+FEFF.

    Raises:
        OSError: the file cannot be read; UnicodeDecodeError: it is not UTF-8.
    """
    if path.endswith(".gz"):
        with gzip.open(path, "rb") as z:
            return z.read().decode("utf-8")
    with open(path, "rb") as f:
        return f.read().decode("utf-8")


def read_lines(path: str) -> list[str]:
    """The lines of the UTF-8 text file at ``path`` (gunzipped when it ends in ``.gz``), split at
    ``\\n`` only and without it, as sacreBLEU reads raw files (``smart_open``: ``newline="\\n"``,
    so ``\\r``, U+0085, U+2028 stay inside a line; a UTF-8 BOM stays as U+FEFF).

    Raises:
        OSError: the file cannot be read; UnicodeDecodeError: it is not UTF-8.
    """
    lines = read_text(path).split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


def clean(text: str | None) -> str:
    """``text`` stripped, each run of whitespace inside it one space (sacreBLEU's
    ``Dataset._clean``; whitespace is what ``str.isspace`` says, as ``re``'s ``\\s``).  None (an
    empty XML element, on which sacreBLEU fails) is the empty string."""
    if text is None:
        return ""
    return " ".join(text.split())


def write_lines(path: str, lines: Iterable[str]) -> None:
    """Write ``lines`` to ``path``, each followed by ``\\n`` (UTF-8), atomically: into a hidden
    temporary file in the same folder, renamed onto ``path`` only once every line is written; on
    any error (the lines' iterator raising included) the temporary file is removed and ``path``
    is left as it was."""
    folder, base = os.path.split(path)
    tmp = os.path.join(folder, f".{base}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    try:
        with open(tmp, "x", encoding="utf-8", newline="\n") as out:
            for line in lines:
                out.write(line)
                out.write("\n")
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def complete(path: str) -> bool:
    """Whether the text file at ``path`` is there and not empty (then it is used as it is)."""
    try:
        return os.path.getsize(path) > 0
    except OSError:
        return False


class Dataset:
    """One test set: where its files come from, its language pairs, and its text files.

    The constructor takes sacreBLEU's arguments (the rows of :mod:`rapidbleu.dataset.sets`):
    ``name``; ``data``, the URLs; ``description``; ``citation``; ``md5``, the URLs' MD5 sums;
    ``langpairs``, each language pair -> its files inside ``raw/`` (the reader says how they
    are read); ``kwargs``, the rest (``refs`` for WMT XML).  Nothing is downloaded or read
    until a method needs it.

    Subclasses (the readers) implement :meth:`read_fields` and, where the fields are not
    ``src``/``ref``, :meth:`fieldnames`.
    """

    def __init__(
        self,
        name: str,
        data: list[str] | None = None,
        description: str | None = None,
        citation: str | None = None,
        md5: list[str] | None = None,
        langpairs: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        self.name = name
        self.data = data
        self.description = description
        self.citation = citation
        self.md5 = md5
        self.langpairs: dict[str, Any] = langpairs if langpairs is not None else {}
        self.kwargs = kwargs

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"

    # -- where things are ------------------------------------------------------------------

    @property
    def outdir(self) -> str:
        """``<cache>/<name>``: the text files (the cache read now, ``$SACREBLEU``)."""
        return os.path.join(fetch.cache_dir(), self.name)

    @property
    def rawdir(self) -> str:
        """``<cache>/<name>/raw``: the downloads and what their archives hold."""
        return os.path.join(self.outdir, "raw")

    def _get_tarball_filename(self, url: str) -> str:
        """The name a download of ``url`` is saved under in ``raw/``:
        ``<name with / as _>.<basename of the URL>`` (sacreBLEU's)."""
        return self.name.replace("/", "_") + "." + os.path.basename(url)

    def _get_txt_file_path(self, langpair: str, fieldname: str) -> str:
        """The text file of ``fieldname`` for ``langpair``:
        ``<cache>/<name>/<name with / as _>.<langpair>.<field with : as ->`` (sacreBLEU's)."""
        name = self.name.replace("/", "_")
        return os.path.join(self.outdir, f"{name}.{langpair}.{fieldname.replace(':', '-')}")

    def _get_langpair_metadata(self, langpair: str | None) -> dict[str, Any]:
        """``{langpair: its files}``, or every pair's for None.

        Raises:
            TestSetError: the test set has no such language pair.
        """
        if langpair is None:
            return self.langpairs
        if langpair not in self.langpairs:
            raise TestSetError(
                f"test set {self.name} has no language pair {langpair!r}; it has: {', '.join(self.langpairs) or 'none'}"
            )
        return {langpair: self.langpairs[langpair]}

    def langpair_entry(self, langpair: str) -> Any:
        """``langpair``'s entry of :attr:`langpairs`: its list of raw files (or, for WMT XML, a
        dict with ``path`` and ``refs``).

        Raises:
            TestSetError: the test set has no such language pair.
        """
        return self._get_langpair_metadata(langpair)[langpair]

    def raw_path(self, relative: str) -> str:
        """The file at ``relative`` inside ``raw/``."""
        return os.path.join(self.rawdir, relative)

    # -- download and processing -----------------------------------------------------------

    def maybe_download(self) -> None:
        """Download each of ``data`` into ``raw/`` (archives extracted there) unless it is
        already there, through :func:`rapidbleu._base.fetch.download` (locked, MD5 checked,
        atomic; sacreBLEU's file names, so either tool's downloads serve the other).  A file
        already there (not empty) is used as it is without taking the lock, so a read-only cache
        serves too.

        Raises:
            DownloadError: offline, HTTP error, wrong MD5 sum, ... (the message names the URL and
                the cache path).
        """
        urls = self.data or []
        sums: list[str | None] = list(self.md5) if self.md5 else [None] * len(urls)
        rawdir = self.rawdir
        for url, md5 in zip(urls, sums, strict=False):
            dest = os.path.join(rawdir, self._get_tarball_filename(url))
            if complete(dest):  # there: used as it is (as fetch.download would, without its lock)
                continue
            fetch.download(url, dest, md5=md5, extract_to=rawdir, what=f"test set {self.name}")

    def read_fields(self, langpair: str) -> Mapping[str, Iterable[str]]:
        """The text of every field of ``langpair`` read from the raw files: ``{field: lines}``
        (each line without its ``\\n``), the fields those of :meth:`fieldnames`.  The readers
        implement it; it neither downloads nor writes."""
        raise NotImplementedError(f"{type(self).__name__} does not read raw files")

    def process_to_text(self, langpair: str | None = None) -> None:
        """Make sure the text files of ``langpair`` (None: every pair) are in the cache:
        download, then for each pair with a text file missing (or empty), read the raw files
        once and write each missing file atomically (see the module docstring).  Files already
        there are not touched.

        Raises:
            TestSetError: no such language pair; DownloadError: the download failed;
            OSError, UnicodeDecodeError, ValueError: a raw file is missing or malformed.
        """
        self.maybe_download()
        for pair in self._get_langpair_metadata(langpair):
            todo = []
            for field in self.fieldnames(pair):
                path = self._get_txt_file_path(pair, field)
                if not complete(path):
                    todo.append((field, path))
            if not todo:
                continue
            fields = self.read_fields(pair)
            os.makedirs(self.outdir, exist_ok=True)
            for field, path in todo:
                write_lines(path, fields[field])

    # -- fields and files --------------------------------------------------------------------

    def fieldnames(self, langpair: str) -> list[str]:
        """The fields of ``langpair`` in order, one text file each: ``["src", "ref"]`` here;
        readers add references (``ref:A``), document ids, origlang, systems, ...

        Raises:
            TestSetError: no such language pair.
        """
        self._get_langpair_metadata(langpair)
        return ["src", "ref"]

    def get_files(self, langpair: str) -> list[str]:
        """The text files of every field of :meth:`fieldnames`, in that order, downloaded and
        processed first where one is missing.

        Raises:
            TestSetError: no such language pair; DownloadError: the download failed.
        """
        files = [self._get_txt_file_path(langpair, field) for field in self.fieldnames(langpair)]
        if not all(complete(f) for f in files):
            self.process_to_text(langpair)
        return files

    def get_source_file(self, langpair: str) -> str:
        """The text file of the ``src`` field (processed first if needed)."""
        files = self.get_files(langpair)
        return files[self.fieldnames(langpair).index("src")]

    def get_reference_files(self, langpair: str) -> list[str]:
        """The text files of the fields whose name starts with ``ref`` (sacreBLEU's rule; WMT XML
        keeps only the references it scores by default)."""
        files = self.get_files(langpair)
        return [f for f, field in zip(files, self.fieldnames(langpair), strict=False) if field.startswith("ref")]

    def source(self, langpair: str) -> Iterator[str]:
        """The source lines, each stripped (sacreBLEU's ``source``)."""
        for line in _open_lines(self.get_source_file(langpair)):
            yield line.strip()

    def references(self, langpair: str) -> Iterator[tuple[str, ...]]:
        """Per segment, the line of each reference file of :meth:`get_reference_files` as read
        (with its ``\\n``), as sacreBLEU's ``references``."""
        yield from zip(*(_open_lines(f) for f in self.get_reference_files(langpair)), strict=False)

    def __iter__(self, langpair: str) -> Iterator[tuple[str, ...]]:  # noqa: PLE0302 -- sacreBLEU's signature: a language pair
        """Per segment, the line of every field's file (with its ``\\n``), as sacreBLEU's
        ``Dataset.__iter__(langpair)`` (called with the pair; ``iter(dataset)`` is a TypeError
        there too)."""
        yield from zip(*(_open_lines(f) for f in self.get_files(langpair)), strict=False)


def _open_lines(path: str) -> Iterator[str]:
    """The lines of a text file with their ``\\n`` (split at ``\\n`` only), read lazily."""
    with open(path, encoding="utf-8", newline="\n") as f:
        yield from f
