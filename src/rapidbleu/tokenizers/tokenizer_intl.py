"""The ``intl`` tokenizer: mteval-v14's international tokenization, as sacreBLEU applies it.

mteval-v14.pl (``tokenization_international``) splits on Unicode punctuation and symbols with
three Perl substitutions; sacreBLEU 2.x runs the same three rules with the third-party
``regex`` module, whose ``\\p{..}`` classes follow *that module's* Unicode database (which is
usually newer than Python's ``unicodedata``).  We use the same module and the same rules, so
the result matches sacreBLEU's for the installed ``regex`` version.  The rules, in order, each
one pass of ``sub`` (left to right, non-overlapping):

1. a punctuation character (``\\p{P}``) preceded by a non-number (``\\P{N}``) is split off:
   ``xP`` -> ``x P `` (both characters are consumed, so in ``a...`` the second period is not
   split by this rule: runs of punctuation are split pairwise);
2. a punctuation character followed by a non-number is split off: ``Px`` -> `` P x``;
3. every symbol (``\\p{S}``: math, currency, modifier and other symbols, emoji) gets a space
   on each side;

and finally whitespace runs collapse to one space (``str.split()``, so leading and trailing
whitespace disappear).

Quirks kept on purpose (they are in mteval-v14.pl and in sacreBLEU):

* no padding of the line: a punctuation mark between two digits stays attached
  (``1,000``, ``3.14``), and so does one at the very start or end when its only neighbour is
  a digit (``2023.`` at the end of a line stays one token);
* ``\\p{N}`` is every number (``Nd``, ``Nl``, ``No``), so ``²,`` and ``Ⅻ.`` behave like digits;
* no unescaping of ``&amp;`` and friends (unlike ``13a``).

Needs ``regex`` (a dependency of rapidbleu, as of sacreBLEU).  The compiled core runs the
same rules in C (``rb_tok_intl`` in ``tok.h``) with a class table that ``intl_class_table``
builds from the installed ``regex`` the first time it is needed, so the C path follows the
installed version exactly as these rules do.
"""

import threading

from .base import CachedTokenizer

try:
    import regex as _regex
except ImportError:  # pragma: no cover - regex is a declared dependency
    _regex = None  # type: ignore[assignment]  # (a declared dependency: missing only in a broken install)

_MISSING = (
    "the 'intl' tokenizer needs the 'regex' module (the one sacreBLEU uses for its Unicode "
    "classes); install it with: pip install regex"
)

if _regex is not None:
    _RULES = (
        (_regex.compile(r"(\P{N})(\p{P})"), r"\1 \2 "),
        (_regex.compile(r"(\p{P})(\P{N})"), r" \1 \2"),
        (_regex.compile(r"(\p{S})"), r" \1 "),
    )
else:  # pragma: no cover
    _RULES = ()


def _rules() -> tuple[tuple[_regex.Pattern[str], str], ...]:
    if _regex is None:
        raise ImportError(_MISSING)
    return _RULES


def tokenize_intl(line: str) -> str:
    """Tokenize one segment with mteval-v14's international rules (see the module docstring)."""
    if _regex is None:
        raise ImportError(_MISSING)
    for pattern, repl in _RULES:
        line = pattern.sub(repl, line)
    return " ".join(line.split())


#: ``intl_class_table``'s classes (the C core's codes, see ``tok.h``).
OTHER, PUNCT, SYMBOL, NUMBER = 0, 1, 2, 3
_N_CODE_POINTS = 0x110000
_table = None
_table_lock = threading.Lock()


def _all_code_points() -> str:
    """Every code point U+0000..U+10FFFF, in order, lone surrogates included (about 30 ms, once
    per process: the text ``intl_class_table`` sweeps).  Built as UTF-32-LE bytes a byte lane
    at a time (code point c: bytes c & 0xFF, (c >> 8) & 0xFF, c >> 16, 0), then decoded."""
    data = bytearray(4 * _N_CODE_POINTS)
    data[0::4] = bytes(range(256)) * (_N_CODE_POINTS // 256)
    data[1::4] = b"".join(bytes([b]) * 256 for b in range(256)) * (_N_CODE_POINTS // 65536)
    data[2::4] = b"".join(bytes([plane]) * 65536 for plane in range(_N_CODE_POINTS // 65536))
    return data.decode("utf-32-le", "surrogatepass")


def intl_class_table() -> bytes:
    """The class of every code point under the *installed* ``regex`` module: bytes of length
    0x110000, ``PUNCT`` (1) for ``\\p{P}``, ``SYMBOL`` (2) for ``\\p{S}``, ``NUMBER`` (3) for
    ``\\p{N}``, else ``OTHER`` (0); the classes the rules above use, so the C tokenizer given
    this table splits exactly as they do.  Built once per process (about 0.1 s: one
    ``finditer`` per class over a string of all code points) and cached.
    Raises ``ImportError`` if ``regex`` is missing."""
    global _table  # noqa: PLW0603 -- the process-wide cache, filled once under _table_lock
    if _table is None:
        with _table_lock:
            if _table is None:
                _rules()
                text = _all_code_points()
                out = bytearray(_N_CODE_POINTS)
                # general categories do not overlap; P is written last all the same, since the
                # rules test it first
                for code, name in ((NUMBER, "N"), (SYMBOL, "S"), (PUNCT, "P")):
                    fill = bytes((code,))
                    for m in _regex.finditer(rf"\p{{{name}}}+", text):
                        start, end = m.span()
                        out[start:end] = fill * (end - start)
                _table = bytes(out)
    return _table


class TokenizerIntl(CachedTokenizer):
    """mteval-v14 international tokenization, identical to sacreBLEU's ``intl`` (signature
    ``intl``).  Raises ``ImportError`` at construction if ``regex`` is missing."""

    #: In the compiled core (rb_tok_intl in tok.h, with ``intl_class_table()`` built from the
    #: installed ``regex``); held to this class token for token by tests/test_fast_tokenizers.py.
    fast_path = "intl"

    def __init__(self) -> None:
        _rules()

    def signature(self) -> str:
        return "intl"

    _tokenize = staticmethod(tokenize_intl)


#: sacreBLEU's class name for the same tokenizer (``sacrebleu.tokenizers.tokenizer_intl``).
TokenizerV14International = TokenizerIntl
