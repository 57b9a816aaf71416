"""Opening the command line's inputs: the reference files (or one file of tab-separated
references), the systems (files, or tab-separated systems on standard input), read in lockstep
by ``rapidbleu.cli.lockstep``."""

from __future__ import annotations

import os

from .._base.errors import CLIError
from .._base.log import logger
from ..textio import STDIN, LineReader
from .lockstep import Source, Stream, filtered, read_lockstep

#: Lines read from every input per step of the streaming loop (``RAPIDBLEU_CHUNK_LINES``
#: overrides it): memory holds this many lines of each input, never the whole corpus.
CHUNK_LINES = 20000


def chunk_lines() -> int:
    """:data:`CHUNK_LINES`, or ``RAPIDBLEU_CHUNK_LINES``.

    Raises:
        CLIError: ``RAPIDBLEU_CHUNK_LINES`` is not a positive integer.
    """
    value = os.environ.get("RAPIDBLEU_CHUNK_LINES", "")
    if not value:
        return CHUNK_LINES
    try:
        n = int(value)
    except ValueError:
        n = 0
    if n < 1:
        raise CLIError(f"RAPIDBLEU_CHUNK_LINES must be a positive integer, got {value!r}")
    return n


def open_refs(paths: list[str], num_refs: int, encoding: str) -> list[Stream]:
    """One stream per reference: a file each, or the ``num_refs`` tab-separated fields of one
    file (``-nr``).

    Raises:
        CLIError: no reference file; several files with ``-nr`` above 1.
    """
    if not paths:
        raise CLIError(
            "no reference files: give them as positional arguments before -i/--input (or a test set with -t and -l)"
        )
    if num_refs != 1 and len(paths) > 1:
        raise CLIError("--num-refs reads tab-separated references from a single file; give only one reference file")
    if num_refs == 1:
        return [Stream(path, Source(LineReader(path, encoding))) for path in paths]
    src = Source(LineReader(paths[0], encoding), num_refs, "refs")
    return [Stream(f"{paths[0]} (reference field {j + 1})", src, j) for j in range(num_refs)]


class ConcatReader:
    """The lines of several files, one after the other, as one :class:`LineReader` reads one file
    (``-t wmt19,wmt20``: each reference stream is the sets' files in turn).  Each file is opened
    when the one before it ends."""

    def __init__(self, paths: list[str], encoding: str):
        self.paths = paths
        self.encoding = encoding
        self.name = ",".join(paths)
        self.lines_read = 0
        self._index = 0
        self._reader: LineReader | None = LineReader(paths[0], encoding) if paths else None

    def read(self, n: int) -> list[str]:
        """The next ``n`` lines (fewer only at the end of the last file)."""
        out: list[str] = []
        while self._reader is not None and len(out) < n:
            got = self._reader.read(n - len(out))
            out += got
            if len(out) < n:
                self._reader.close()
                self._index += 1
                self._reader = (
                    LineReader(self.paths[self._index], self.encoding) if self._index < len(self.paths) else None
                )
        self.lines_read += len(out)
        return out

    def count_rest(self) -> int:
        """Read to the end without keeping the lines; the total number of lines read."""
        while self.read(1 << 16):
            pass
        return self.lines_read

    def close(self) -> None:
        if self._reader is not None:
            self._reader.close()


class ListReader:
    """Lines already in memory, read as a :class:`LineReader` reads a file (``-d``: the inputs are
    read whole once, then scored as streams)."""

    def __init__(self, name: str, lines: list[str]):
        self.name = name
        self.lines = lines
        self.lines_read = 0

    def read(self, n: int) -> list[str]:
        out = self.lines[self.lines_read : self.lines_read + n]
        self.lines_read += len(out)
        return out

    def count_rest(self) -> int:
        self.lines_read = len(self.lines)
        return self.lines_read

    def close(self) -> None:
        pass


def open_test_set_refs(files: list[list[str]], encoding: str) -> list[Stream]:
    """One stream per reference of the test sets of ``-t``: ``files[j]`` holds the ``j``-th
    reference file of each set, read one after the other."""
    streams = []
    for paths in files:
        reader: LineReader | ConcatReader = (
            LineReader(paths[0], encoding) if len(paths) == 1 else ConcatReader(paths, encoding)
        )
        streams.append(Stream(reader.name, Source(reader)))
    return streams


def in_memory(streams: list[Stream], lines: list[list[str]]) -> list[Stream]:
    """Streams over ``lines`` (read whole), named as ``streams``."""
    return [Stream(s.name, Source(ListReader(s.name, ls))) for s, ls in zip(streams, lines, strict=True)]


def open_systems(paths: list[str] | None, encoding: str, paired: bool = False) -> list[Stream]:
    """One stream per system: the files of ``-i``, each once (with ``paired``, the baseline
    given again is skipped), or standard input, whose first line fixes the number of
    tab-separated systems (sacreBLEU's rule).

    Raises:
        CLIError: empty standard input; a file given twice.
    """
    if paths is None:
        reader = LineReader(None, encoding)
        first = reader.read(1)
        if not first:
            raise CLIError(f"{STDIN}: is empty (give the system output on standard input or with -i)")
        n = len(first[0].split("\t"))
        src = Source(reader, n, "stdin", first=first[0])
        return [Stream(f"System {i + 1}", src, i) for i in range(n)]
    streams: list[Stream] = []
    for path in paths:
        names = [s.name for s in streams]
        if paired and names and path == names[0]:
            logger.info("Ignoring %r as it was also given as the baseline.", path)
            continue
        if path in names:
            raise CLIError(f"{path!r} already used to name a system; give each system file once")
        streams.append(Stream(path, Source(LineReader(path, encoding))))
    return streams


def read_whole(
    refs: list[Stream], systems: list[Stream], keep: list[bool] | None = None
) -> tuple[list[list[str]], list[list[str]]]:
    """All lines of the reference and system streams (same checks and errors as streaming);
    only the segments ``keep`` marks, when given (``--origlang``/``--subset``)."""
    ref_lines: list[list[str]] = [[] for _ in refs]
    sys_lines: list[list[str]] = [[] for _ in systems]
    for ref_chunk, sys_chunks in filtered(read_lockstep(refs, systems, chunk_lines()), keep):
        for acc, chunk in zip(ref_lines + sys_lines, ref_chunk + sys_chunks, strict=False):
            acc.extend(chunk)
    return ref_lines, sys_lines
