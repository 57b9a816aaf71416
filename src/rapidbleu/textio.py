"""Reading hypothesis and reference files the way sacreBLEU's command line reads them.

Files (plain or ``.gz``) are decoded with the given encoding, split on ``\\n`` only (a ``\\r``
stays part of the line, as with ``open(..., newline="\\n")``), and each line is right-stripped
with ``str.rstrip()``.  A byte-order mark is kept (it becomes part of the first token, as in
sacreBLEU).  Errors name the file and, for undecodable bytes, the line.  :func:`read_lines`
reads a whole file; :class:`LineReader` gives the same lines a bounded piece at a time.
"""

import codecs
import gzip
import io
import re
from typing import Any


class InputError(Exception):
    """A file could not be read as text; the message names the file (and line)."""


def read_lines(path: str, encoding: str = "utf-8") -> list[str]:
    """Lines of ``path``, each ``rstrip()``-ed.

    Raises:
        InputError: missing or unreadable file, bad gzip data, undecodable bytes (with the line
            number), unknown encoding.
    """
    try:
        if path.endswith(".gz"):
            with gzip.open(path, "rb") as fh:
                data = fh.read()
        else:
            with open(path, "rb") as fh:
                data = fh.read()
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a directory, expected a text file") from None
    except (OSError, EOFError) as exc:
        raise InputError(f"{path}: cannot read ({exc})") from None
    try:
        text = data.decode(encoding)
    except LookupError:
        raise InputError(f"unknown encoding {encoding!r}") from None
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise InputError(
            f"{path}: line {line}: cannot decode byte(s) {data[exc.start : exc.end]!r} as {encoding} "
            f"(byte offset {exc.start}); use -e/--encoding to give the file's encoding"
        ) from None
    return split_lines(text)


def split_lines(text: str) -> list[str]:
    """Split on ``\\n`` (a final newline does not make an extra line) and right-strip each line."""
    if not text:
        return []
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line.rstrip() for line in lines]


#: Lone surrogates that the surrogateescape error handler makes of undecodable bytes.
_ESCAPED = re.compile("[\udc80-\udcff]+")


class LineReader:
    """The lines of one input, read in bounded pieces: the same lines as :func:`read_lines`
    (or, for standard input, as sacreBLEU's universal-newline reading of ``sys.stdin``), but
    never more than one block of text plus the lines asked for in memory.

    Args:
        path: a file (plain, or gzip when it ends in ``.gz``), or None for standard input.
        encoding: the text encoding.
        block_size: bytes (characters for standard input) decoded per read.

    ``read(n)`` returns the next ``n`` lines (fewer only at the end); ``lines_read`` counts the
    lines handed out.  Errors are ``InputError``\\ s with the messages of :func:`read_lines`
    (for undecodable bytes the file is scanned again to name the line and byte offset exactly as
    it does); standard input names ``<stdin>``.
    """

    def __init__(self, path: str | None, encoding: str = "utf-8", block_size: int = 1 << 20):
        self.path = path
        self.name = "<stdin>" if path is None else path
        self.encoding = encoding
        self.block_size = block_size
        self.lines_read = 0
        self._lines: list[str] = []
        self._pos = 0
        self._pending = ""
        self._eof = False
        self._fh: Any = None
        self._decoder: Any = None
        if path is None:
            import sys

            # Undecodable bytes become lone surrogates (U+DC80-U+DCFF, which no strict decoding
            # produces) so that the line holding them can be named; _fill raises on them.
            self._fh = io.TextIOWrapper(sys.stdin.buffer, encoding=encoding, errors="surrogateescape")
            return
        try:
            self._fh = gzip.open(path, "rb") if path.endswith(".gz") else open(path, "rb")  # noqa: SIM115 -- close() closes it
        except FileNotFoundError:
            raise InputError(f"{path}: no such file") from None
        except IsADirectoryError:
            raise InputError(f"{path}: is a directory, expected a text file") from None
        except OSError as exc:
            raise InputError(f"{path}: cannot read ({exc})") from None
        try:
            self._decoder = codecs.getincrementaldecoder(encoding)()
        except LookupError:
            self.close()
            raise InputError(f"unknown encoding {encoding!r}") from None

    def close(self) -> None:
        if self._fh is not None and self.path is not None:
            self._fh.close()
        self._fh = None

    def _next_block(self) -> str:
        """The next piece of decoded text ('' at the end)."""
        if self.path is None:
            try:
                block: str = self._fh.read(self.block_size)
            except UnicodeDecodeError as exc:
                raise InputError(f"<stdin>: cannot decode input as {self.encoding} ({exc.reason})") from None
            return block
        while True:
            try:
                raw = self._fh.read(self.block_size)
            except (OSError, EOFError) as exc:
                raise InputError(f"{self.path}: cannot read ({exc})") from None
            try:
                text: str = self._decoder.decode(raw, final=not raw)
            except UnicodeDecodeError:
                self.close()
                # Scan the file again as read_lines does, for its exact message (line, offset).
                read_lines(self.path, self.encoding)
                raise InputError(f"{self.path}: cannot decode as {self.encoding}") from None
            if text or not raw:  # a block may end inside a character: decode more
                return text

    def _fill(self, n: int) -> None:
        while len(self._lines) - self._pos < n and not self._eof:
            text = self._next_block()
            if not text:
                self._eof = True
                if self._pending:
                    self._lines.append(self._pending.rstrip())
                    self._pending = ""
                self.close()
                break
            parts = (self._pending + text).split("\n")
            if self.path is None and _ESCAPED.search(text):
                self._name_undecodable(parts)
            self._pending = parts.pop()
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
                    f"<stdin>: line {before + k + 1}: cannot decode byte(s) {bad!r} as "
                    f"{self.encoding}; use -e/--encoding to give the input's encoding"
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
