"""Reading hypothesis and reference files the way sacreBLEU's command line reads them.

Files (plain or ``.gz``) are decoded with the given encoding, split on ``\\n`` only (a ``\\r``
stays part of the line, as with ``open(..., newline="\\n")``), and each line is right-stripped
with ``str.rstrip()``.  A byte-order mark is kept (it becomes part of the first token, as in
sacreBLEU).  Errors name the file and, for undecodable bytes, the line.  :func:`read_lines`
reads a whole file; :class:`LineReader` gives the same lines a bounded piece at a time.
"""

import codecs
import io
import re
from typing import Any

from ._base.errors import InputError

__all__ = ["STDIN", "InputError", "LineReader", "read_lines"]

#: How messages name standard input (where a file's name would be).
STDIN = "standard input"


def read_lines(path: str, encoding: str = "utf-8") -> list[str]:
    """Lines of ``path``, each ``rstrip()``-ed (:class:`LineReader`'s lines, all at once).

    Raises:
        InputError: missing or unreadable file, bad gzip data, undecodable bytes (with the line
            number), unknown encoding.
    """
    reader = LineReader(path, encoding)
    lines: list[str] = []
    while True:
        got = reader.read(1 << 16)
        if not got:
            return lines
        lines.extend(got)


#: Lone surrogates that the surrogateescape error handler makes of undecodable bytes.
_ESCAPED = re.compile("[\udc80-\udcff]+")

#: What to do about undecodable input, at the end of every decoding error.
_ADVICE = "use -e/--encoding to give the {}'s encoding"


def _check_encoding(encoding: str) -> None:
    try:
        codecs.lookup(encoding)
    except LookupError:
        raise InputError(f"unknown encoding {encoding!r}") from None


class LineReader:
    """The lines of one input, read in bounded pieces: never more than one block of text plus
    the lines asked for (and the line being read) in memory, and time linear in the input
    however long its lines are.  Files are read once, from the start, so pipes (``/dev/stdin``,
    a FIFO, a shell's process substitution) work like regular files.

    Args:
        path: a file (plain, or gzip when it ends in ``.gz``), or None for standard input
            (decoded with universal newlines, as sacreBLEU reads ``sys.stdin``).
        encoding: the text encoding.
        block_size: bytes (characters for standard input) decoded per read.

    ``read(n)`` returns the next ``n`` lines (fewer only at the end); ``lines_read`` counts the
    lines handed out; ``count_rest()`` reads to the end, keeping nothing.

    Raises:
        InputError: (from the constructor or ``read``) a missing or unreadable file, bad gzip
            data, an unknown encoding, or bytes that do not decode: the message names the file
            (:data:`STDIN`, "standard input", for standard input), and for undecodable bytes the line, the bytes and
            their offset in the file.
    """

    def __init__(self, path: str | None, encoding: str = "utf-8", block_size: int = 1 << 20):
        self.path = path
        self.name = STDIN if path is None else path
        self.encoding = encoding
        self.block_size = block_size
        self.lines_read = 0
        self._lines: list[str] = []
        self._pos = 0
        # the line being read, in pieces: joined once, when its end is found (a line of any
        # length is then read in linear time)
        self._pending: list[str] = []
        self._eof = False
        self._fh: Any = None
        self._decoder: Any = None
        self._fed = 0  # bytes given to the decoder so far (to name an offset without reading again)
        if path is None:
            import sys

            _check_encoding(encoding)

            # Undecodable bytes become lone surrogates (U+DC80-U+DCFF, which no strict decoding
            # produces) so that the line holding them can be named; _fill raises on them.
            self._fh = io.TextIOWrapper(sys.stdin.buffer, encoding=encoding, errors="surrogateescape")
            return
        if path.endswith(".gz"):
            import gzip  # (here: the command line starts without it)
        try:
            self._fh = gzip.open(path, "rb") if path.endswith(".gz") else open(path, "rb")  # noqa: SIM115 -- close() closes it
        except FileNotFoundError:
            raise InputError(f"{path}: no such file") from None
        except IsADirectoryError:
            raise InputError(f"{path}: is a directory, expected a text file") from None
        except OSError as exc:
            raise InputError(f"{path}: cannot read ({exc})") from None
        try:
            _check_encoding(encoding)
        except InputError:
            self.close()
            raise
        self._decoder = codecs.getincrementaldecoder(encoding)()

    def close(self) -> None:
        if self._fh is not None and self.path is not None:
            self._fh.close()
        self._fh = None

    def _next_block(self) -> str:
        """The next piece of decoded text ('' at the end)."""
        if self.path is None:
            try:
                return str(self._fh.read(self.block_size))
            except UnicodeError as exc:  # e.g. UTF-16 without a byte-order mark
                why = exc.reason if isinstance(exc, UnicodeDecodeError) else str(exc)
                at_start = not (self.lines_read or self._lines or self._pending)
                where = " line 1:" if at_start else ""
                raise InputError(f"{STDIN}:{where} cannot decode input as {self.encoding} ({why})") from None
        while True:
            try:
                raw = self._fh.read(self.block_size)
            except (OSError, EOFError) as exc:
                self.close()
                raise InputError(f"{self.path}: cannot read ({exc})") from None
            state = self._decoder.getstate()
            try:
                text: str = self._decoder.decode(raw, final=not raw)
            except UnicodeError as exc:
                self.close()
                raise self._decode_error(exc, raw, state) from None
            self._fed += len(raw)
            if text or not raw:  # a block may end inside a character: decode more
                return str(text)

    def _decode_error(self, exc: UnicodeError, raw: bytes, state: Any) -> InputError:
        """The error for bytes of ``raw`` (the block being decoded from decoder state
        ``state``) that do not decode: the line, the bytes and their offset in the file.

        The decoder reports a position in the bytes it was decoding, which end where ``raw``
        ends (they are ``raw``, or the bytes it kept from the block before and ``raw``, or, for
        ``utf-8-sig``, what follows the byte-order mark).  The line: every newline decoded
        before this block ended a line already handed out or buffered; those in this block
        before the bad bytes are counted by decoding that much of it again."""
        path, encoding = self.path, self.encoding
        data = getattr(exc, "object", None)
        if (
            isinstance(exc, UnicodeDecodeError)
            and isinstance(data, bytes)
            and (raw.endswith(data) or data.endswith(raw))
        ):
            offset = self._fed + len(raw) - len(data) + exc.start
            good = raw[: max(0, len(raw) - len(data) + exc.start)]  # the bytes of raw before the bad ones
            decoder = codecs.getincrementaldecoder(encoding)()
            decoder.setstate(state)
            try:
                newlines = decoder.decode(good).count("\n")
            except UnicodeError:  # (not expected: the same bytes decoded up to there)
                newlines = good.count(b"\n")
            line = self.lines_read + len(self._lines) - self._pos + newlines + 1
            return InputError(
                f"{path}: line {line}: cannot decode byte(s) {data[exc.start : exc.end]!r} as {encoding} "
                f"(byte offset {offset}); {_ADVICE.format('file')}"
            )
        where = " line 1:" if self._fed == 0 else ""  # (a decoder that checks the start, e.g. UTF-16's BOM)
        return InputError(f"{path}:{where} cannot decode as {encoding} ({exc}); {_ADVICE.format('file')}")

    def _fill(self, n: int) -> None:
        while len(self._lines) - self._pos < n and not self._eof:
            text = self._next_block()
            if not text:
                self._eof = True
                if self._pending:
                    last, self._pending = "".join(self._pending), []
                    self._lines.append(last.rstrip())
                self.close()
                break
            if self.path is None and _ESCAPED.search(text):
                self._name_undecodable(("".join(self._pending) + text).split("\n"))
            self._pending.append(text)
            if "\n" not in text:  # the line goes on
                continue
            joined = text if len(self._pending) == 1 else "".join(self._pending)
            self._pending = []  # (the pieces of a long line freed before it is split)
            parts = joined.split("\n")
            del joined
            last = parts.pop()
            if last:
                self._pending.append(last)
            if self._pos:
                del self._lines[: self._pos]
                self._pos = 0
            self._lines.extend([line.rstrip() for line in parts])

    def _name_undecodable(self, parts: list[str]) -> None:
        """Raise the error for the first line of standard input with undecodable bytes."""
        before = self.lines_read + len(self._lines) - self._pos
        for k, line in enumerate(parts):
            hit = _ESCAPED.search(line)
            if hit:
                bad = line[hit.start() : hit.end()].encode(self.encoding, "surrogateescape")
                raise InputError(
                    f"{STDIN}: line {before + k + 1}: cannot decode byte(s) {bad!r} as "
                    f"{self.encoding}; {_ADVICE.format('input')}"
                )

    def read(self, n: int) -> list[str]:
        """The next ``n`` lines, each ``rstrip()``-ed (fewer only at the end of the input)."""
        self._fill(n)
        out = self._lines[self._pos : self._pos + n]
        self._pos += len(out)
        self.lines_read += len(out)
        return out

    def count_rest(self) -> int:
        """Read to the end without keeping the lines; the total number of lines of the input."""
        while True:
            got = len(self.read(1 << 16))
            if not got:
                return self.lines_read
