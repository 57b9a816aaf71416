"""Several inputs read in lock step, a bounded number of lines at a time (the command line's
reader): reference files, system files, the tab-separated fields of one file or of standard
input, each seen as a :class:`Stream` of lines.

:func:`read_lockstep` yields the next lines of every stream together until all end together;
inputs of different lengths raise the error that names the first system and reference that
differ and their lengths.  Every input is read once, from its start, so pipes work as regular
files do; :func:`line_counts_differ` counts the lines of the regular files among the inputs
beforehand (reading bytes, not decoding) and leaves pipes alone.

Errors are :class:`~rapidbleu.textio.InputError`\\ s naming the file and line, with the exit
status the command line ends with (``code``: 17 for a line with the wrong number of
tab-separated fields, as sacreBLEU; 1 otherwise).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator, Sequence
from functools import partial
from typing import Protocol

from .._base.errors import counted
from ..textio import STDIN, InputError


class LineSource(Protocol):
    """What a :class:`Source` reads: a :class:`~rapidbleu.textio.LineReader` (one file or
    standard input), or ``cli.inputs``' readers of several files and of lines in memory."""

    name: str
    lines_read: int

    def read(self, n: int) -> list[str]: ...

    def count_rest(self) -> int: ...


#: Exit status for a line with the wrong number of tab-separated fields (sacreBLEU's).
FIELD_COUNT_CODE = 17


class Source:
    """A :class:`LineReader` split into ``n_fields`` tab-separated fields (1: the whole line),
    shared by the streams of its fields.

    Args:
        reader: the input.
        n_fields: fields per line.
        kind: ``"plain"`` (whole lines), ``"refs"`` (``-nr``: every line has exactly
            ``n_fields`` fields) or ``"stdin"`` (systems on standard input: the first line
            fixes the number of fields, and is not right-stripped field by field, as in
            sacreBLEU).
        first: the first line, already read from ``reader`` (``"stdin"``).
    """

    def __init__(self, reader: LineSource, n_fields: int = 1, kind: str = "plain", first: str | None = None):
        self.reader = reader
        self.n_fields = n_fields
        self.kind = kind
        self._first = first
        self._fields: list[list[str]] = [[] for _ in range(n_fields)]
        self._lineno = 0
        self._unread: int | None = None  # lines left after the buffered ones, once counted

    def _split(self, lines: list[str]) -> None:
        """Append the fields of ``lines`` to the field buffers, checking their number."""
        nf = self.n_fields
        out = self._fields
        lineno = self._lineno
        for line in lines:
            lineno += 1
            if self.kind == "refs":
                fields = line.split("\t")  # more fields than -nr would glue onto the last one
                if len(fields) != nf:
                    raise InputError(
                        f"{self.reader.name}: line {lineno}: expected {nf} tab-separated references, "
                        f"found {len(fields)}",
                        code=FIELD_COUNT_CODE,
                    )
            elif lineno == 1:
                fields = line.split("\t")  # sacreBLEU: the first line's fields are not stripped
            else:
                fields = [f.rstrip() for f in line.split("\t")]
                if len(fields) != nf:
                    raise InputError(
                        f"{STDIN}: line {lineno}: {len(fields)} tab-separated fields, but the first "
                        f"line had {nf} (one per system)",
                        code=FIELD_COUNT_CODE,
                    )
            for j in range(nf):
                out[j].append(fields[j])
        self._lineno = lineno

    def _take_first(self) -> None:
        if self._first is not None:
            first, self._first = self._first, None
            self._split([first])

    def read(self, n: int, field: int) -> list[str]:
        """The next ``n`` values of field ``field`` (fewer only at the end)."""
        if self.kind == "plain":
            return self.reader.read(n)
        self._take_first()
        buf = self._fields[field]
        if len(buf) < n:
            self._split(self.reader.read(n - len(buf)))
        out = buf[:n]
        del buf[:n]
        return out

    def count_rest(self, field: int) -> int:
        """Values of field ``field`` not read yet: the input is read to its end and checked,
        its lines not kept (the fields of one file share its lines: they are counted once)."""
        if self.kind == "plain":
            before = self.reader.lines_read
            return self.reader.count_rest() - before
        self._take_first()
        if self._unread is None:
            unread = 0
            while True:
                lines = self.reader.read(1 << 16)
                if not lines:
                    break
                sizes = [len(buf) for buf in self._fields]
                self._split(lines)
                for buf, size in zip(self._fields, sizes, strict=True):
                    del buf[size:]
                unread += len(lines)
            self._unread = unread
        return len(self._fields[field]) + self._unread


class Stream:
    """One input seen as lines: a file's lines, or one field of a :class:`Source`."""

    def __init__(self, name: str, source: Source, field: int = 0):
        self.name = name
        self.source = source
        self.field = field

    def read(self, n: int) -> list[str]:
        """The next ``n`` lines (fewer only at the end)."""
        return self.source.read(n, self.field)

    def count_rest(self) -> int:
        """Lines left (read to the end and checked, not kept)."""
        return self.source.count_rest(self.field)


def read_lockstep(
    refs: Sequence[Stream], systems: Sequence[Stream], size: int
) -> Iterator[tuple[list[list[str]], list[list[str]]]]:
    """Yield ``(reference chunks, system chunks)``: the next ``size`` lines of every stream, in
    lock step, until all end together.

    Raises:
        InputError: inputs of different lengths (naming the first system and reference that
            differ and their lengths; the longer inputs are read to their end, without keeping
            their lines, to count them), an empty system ("is empty"), or an input that cannot
            be read.  An error in one input is preceded by any error of the inputs before it
            (references first, then systems, in command-line order), as when each file was
            read whole.
    """
    streams = [*refs, *systems]
    done = 0
    while True:
        chunk = []
        for i, stream in enumerate(streams):
            try:
                chunk.append(stream.read(size))
            except InputError:
                _raise_earlier_error(streams[:i])
                raise
        lengths = {len(c) for c in chunk}
        if len(lengths) > 1 or (done == 0 and lengths == {0}):
            raise _length_error(systems, refs, _totals(streams, chunk, done))
        n = lengths.pop()
        if n == 0:
            return
        done += n
        yield chunk[: len(refs)], chunk[len(refs) :]


def filtered(
    chunks: Iterator[tuple[list[list[str]], list[list[str]]]], keep: list[bool] | None
) -> Iterator[tuple[list[list[str]], list[list[str]]]]:
    """The chunks of :func:`read_lockstep` with only the segments ``keep`` marks (all when it is None); a chunk
    left empty is skipped.  The inputs' lengths were checked on the whole chunks."""
    if keep is None:
        yield from chunks
        return
    start = 0
    for refs, systems in chunks:
        n = len(systems[0]) if systems else len(refs[0])
        mask = keep[start : start + n]
        start += n
        if not any(mask):
            continue
        yield (
            [[line for line, k in zip(lines, mask, strict=False) if k] for lines in refs],
            [[line for line, k in zip(lines, mask, strict=False) if k] for lines in systems],
        )


def _totals(streams: list[Stream], chunk: list[list[str]], done: int) -> dict[int, int]:
    """Total lines per stream (by ``id``): those read, this chunk's, and the rest counted."""
    counts = {}
    for i, stream in enumerate(streams):
        try:
            counts[id(stream)] = done + len(chunk[i]) + stream.count_rest()
        except InputError:
            _raise_earlier_error(streams[:i])
            raise
    return counts


def _raise_earlier_error(streams: list[Stream]) -> None:
    """Read the given streams to their end; raise the first error one of them has."""
    for stream in streams:
        stream.count_rest()


def _length_error(systems: Sequence[Stream], refs: Sequence[Stream], counts: dict[int, int]) -> InputError:
    """The error for inputs of different lengths (``counts``: total lines per stream id)."""
    for system in systems:
        n_sys = counts[id(system)]
        if not n_sys:
            return InputError(f"{system.name}: is empty: no segment to score")
        for ref in refs:
            if counts[id(ref)] != n_sys:
                return InputError(
                    f"{system.name} has {counted(n_sys, 'lines')} but {ref.name} has {counted(counts[id(ref)], 'lines')}: "
                    "system and reference streams must have the same number of lines"
                )
    return InputError("inputs of different lengths")  # not reached


def line_counts_differ(paths: Sequence[str]) -> bool:
    """Whether the regular files among ``paths`` have different numbers of lines, counted as
    :class:`LineReader` counts them (``\\n``-separated, a final newline making no extra line)
    from the raw bytes, without decoding.

    Anything else (a pipe, a FIFO, a device, standard input as ``-``) is left alone: it can be
    read only once, by the reader itself.  False when a file cannot be read (the reader reports
    that).
    """
    counts = set()
    for path in paths:
        try:
            if path == "-" or not stat.S_ISREG(os.stat(path).st_mode):  # noqa: PTH116 -- a path as given
                continue
            if path.endswith(".gz"):
                import gzip  # (here: the command line starts without it)
            with gzip.open(path, "rb") if path.endswith(".gz") else open(path, "rb") as fh:
                n, last = 0, b"\n"
                for block in iter(partial(fh.read, 1 << 20), b""):
                    n += block.count(b"\n")
                    last = block[-1:]
        except (OSError, EOFError):
            return False
        counts.add(n + (last != b"\n"))
    return len(counts) > 1
