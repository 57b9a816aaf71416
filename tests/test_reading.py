"""Reading text inputs (``rapidbleu.textio.LineReader``, the command line's reader): the lines
of sacreBLEU's reading whatever the block size and however long a line, and decoding errors
that name the file, the line, the bytes and their offset without reading the input again."""

import codecs
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rapidbleu.textio import InputError, LineReader, read_lines


def _lines_of(data: bytes, encoding: str) -> list[str]:
    """The oracle: the whole input decoded in one call, split on \\n only, right-stripped."""
    text = codecs.getincrementaldecoder(encoding)().decode(data, final=True)
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line.rstrip() for line in lines] if text else []


def _read_all(path: str, encoding: str, block_size: int, step: int) -> list[str]:
    reader = LineReader(path, encoding, block_size=block_size)
    out: list[str] = []
    while True:
        got = reader.read(step)
        if not got:
            return out
        out.extend(got)


_TEXT = st.text(alphabet=st.sampled_from(list("ab \t\n\r\x0b\x85\u2028\u3000é€😀")), max_size=60)


@settings(max_examples=150, deadline=None)
@given(
    text=_TEXT,
    encoding=st.sampled_from(["utf-8", "utf-16", "utf-8-sig", "utf-32"]),
    block_size=st.integers(1, 9),
    step=st.integers(1, 4),
)
def test_lines_for_any_block_size(text, encoding, block_size, step):
    data = text.encode(encoding)
    with tempfile.TemporaryDirectory() as d:
        path = str(Path(d) / "f.txt")
        with open(path, "wb") as fh:
            fh.write(data)
        assert _read_all(path, encoding, block_size, step) == _lines_of(data, encoding)
        assert read_lines(path, encoding) == _lines_of(data, encoding)


_BYTES = st.lists(st.sampled_from([b"a", b" ", b"\n", b"\xc3\xa9", b"\xe2\x82\xac", b"\xff", b"\x81", b"\xc3"]))


@settings(max_examples=200, deadline=None)
@given(parts=_BYTES, encoding=st.sampled_from(["utf-8", "cp1252"]), block_size=st.integers(1, 9))
def test_undecodable_bytes_named_by_line_and_offset(parts, encoding, block_size):
    """The error names the line, bytes and offset that decoding the whole file at once finds."""
    data = b"".join(parts)
    try:
        data.decode(encoding)
        expected = None
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        expected = (
            f"line {line}: cannot decode byte(s) {data[exc.start : exc.end]!r} as {encoding} "
            f"(byte offset {exc.start}); use -e/--encoding to give the file's encoding"
        )
    with tempfile.TemporaryDirectory() as d:
        path = str(Path(d) / "f.txt")
        with open(path, "wb") as fh:
            fh.write(data)
        if expected is None:
            assert _read_all(path, encoding, block_size, 2) == _lines_of(data, encoding)
            return
        with pytest.raises(InputError) as info:
            _read_all(path, encoding, block_size, 2)
        assert str(info.value) == f"{path}: {expected}"


def test_offset_counts_a_byte_order_mark(tmp_path):
    path = tmp_path / "bom.txt"
    path.write_bytes(codecs.BOM_UTF8 + b"ok\nbad \xff here\n")
    for size in (1, 2, 5, 1 << 20):
        with pytest.raises(InputError, match=r"bom\.txt: line 2: cannot decode byte\(s\) b'\\xff' as utf-8-sig "):
            _read_all(str(path), "utf-8-sig", size, 1)
        with pytest.raises(InputError, match=r"\(byte offset 10\)"):
            _read_all(str(path), "utf-8-sig", size, 1)


def test_utf16_without_byte_order_mark_names_the_file(tmp_path):
    """sacreBLEU's reading (an incremental UTF-16 decoder) refuses UTF-16 without a BOM; the
    error names the file and line 1 (it used to be the decoder's bare message)."""
    path = tmp_path / "no-bom.txt"
    path.write_bytes("hello\nworld\n".encode("utf-16-le"))
    with pytest.raises(InputError) as info:
        read_lines(str(path), "utf-16")
    msg = str(info.value)
    assert msg.startswith(f"{path}: line 1: cannot decode as utf-16 (UTF-16 stream does not start with BOM)")
    assert "-e/--encoding" in msg
    assert read_lines(str(path), "utf-16-le") == ["hello", "world"]


def test_truncated_input_at_the_end(tmp_path):
    path = tmp_path / "odd.txt"
    path.write_bytes("ab\ncd".encode("utf-16") + b"\x00")  # one byte of a code unit left over
    with pytest.raises(InputError, match=r"odd\.txt: line 2: cannot decode byte\(s\) b'\\x00' as utf-16 "):
        read_lines(str(path), "utf-16")


def test_a_line_far_longer_than_a_block(tmp_path):
    """A line of many blocks (pieces joined once, at its end) and the lines around it."""
    long = "x y " * 5000
    path = tmp_path / "long.txt"
    path.write_text(f"first\n{long}\nlast {long} \nno newline {long}", "utf-8")
    lines = _read_all(str(path), "utf-8", 7, 1)
    assert lines == ["first", long.rstrip(), f"last {long}".rstrip(), f"no newline {long}".rstrip()]


def test_line_counts_decoded_newlines_not_newline_bytes(tmp_path):
    """In UTF-16 a 0x0A byte is not always a newline (U+010A is b'\\n\\x01' little-endian): the
    line of undecodable bytes counts decoded newlines."""
    path = tmp_path / "utf16.txt"
    data = "\u010a\u010a ok\nsecond\n".encode("utf-16") + b"\x00\xd8a\x00"  # a lone high surrogate
    path.write_bytes(data)
    for size in (1, 3, 8, 1 << 20):
        with pytest.raises(InputError, match=r"utf16\.txt: line 3: cannot decode byte\(s\) b'\\x00\\xd8' as utf-16 "):
            _read_all(str(path), "utf-16", size, 1)
