"""Reading hypothesis and reference files the way sacreBLEU's command line reads them.

Files (plain or ``.gz``) are decoded with the given encoding, split on ``\\n`` only (a ``\\r``
stays part of the line, as with ``open(..., newline="\\n")``), and each line is right-stripped
with ``str.rstrip()``.  A byte-order mark is kept (it becomes part of the first token, as in
sacreBLEU).  Errors name the file and, for undecodable bytes, the line.
"""

import gzip
from typing import List


class InputError(Exception):
    """A file could not be read as text; the message names the file (and line)."""


def read_lines(path: str, encoding: str = "utf-8") -> List[str]:
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
            f"{path}: line {line}: cannot decode byte(s) {data[exc.start:exc.end]!r} as {encoding} "
            f"(byte offset {exc.start}); use -e/--encoding to give the file's encoding"
        ) from None
    return split_lines(text)


def split_lines(text: str) -> List[str]:
    """Split on ``\\n`` (a final newline does not make an extra line) and right-strip each line."""
    if not text:
        return []
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line.rstrip() for line in lines]
