"""The ``zh`` tokenizer: sacreBLEU's Chinese tokenization.

Two steps (sacreBLEU's ``zh``, after Shujian Huang's script used at WMT for Chinese):

1. the line is stripped (``str.strip()``), then every character in the "Chinese" set below
   is surrounded by spaces, so each Hanzi (and CJK punctuation, full-width form, ...) is a
   token of its own;
2. the result goes through 13a's four regular expressions (ASCII punctuation and symbols
   split off; period and comma split off unless between digits; dash after a digit split
   off) *without* 13a's language-independent part (no ``<skipped>`` removal, no unescaping
   of ``&amp;`` etc.) and without 13a's padding of the line with spaces; then whitespace runs
   collapse to one space.

The "Chinese" set (``ZH_RANGES``) is sacreBLEU's table, with one upstream slip kept on
purpose.  sacreBLEU writes its two astral ranges (CJK Extension B, U+20000-U+2A6D6, and the
CJK Compatibility Supplement, U+2F800-U+2FA1D) as ``'\\u20000'`` and ``'\\u2f800'``; a
``\\u`` escape takes exactly four hex digits, so those literals are two-character strings
(``'\\u2000' + '0'``) and the membership test, a string comparison ``start <= ch <= end``,
becomes:

* U+2001-U+2A6D for the first (General Punctuation such as quotes, dashes and the ellipsis,
  super/subscripts, currency, letterlike symbols, arrows, math operators, technical and box
  drawing symbols, dingbats, Braille, supplemental arrows and math: all split like Hanzi), and
* U+2F81-U+2FA1 for the second (already inside Kangxi Radicals);

while the astral ideographs U+20000 and above are *not* split (they stay attached to their
neighbours, as in sacreBLEU).  ``tests/test_tokenizers.py`` checks this table against
sacreBLEU's for every code point.
"""

import re

from .base import CachedTokenizer
from .tokenizer_13a import RULES_13A

#: Code point ranges (inclusive) that sacreBLEU's ``zh`` splits character by character:
#: sacreBLEU's table with its two mis-written astral ranges replaced by their effective bounds.
ZH_RANGES = (
    (0x3400, 0x4DB5),  # CJK Unified Ideographs Extension A, release 3.0
    (0x4E00, 0x9FA5),  # CJK Unified Ideographs, release 1.1
    (0x9FA6, 0x9FBB),  # CJK Unified Ideographs, release 4.1
    (0xF900, 0xFA2D),  # CJK Compatibility Ideographs, release 1.1
    (0xFA30, 0xFA6A),  # CJK Compatibility Ideographs, release 3.2
    (0xFA70, 0xFAD9),  # CJK Compatibility Ideographs, release 4.1
    (0x2001, 0x2A6D),  # meant as U+20000-U+2A6D6 (Extension B); see the module docstring
    (0x2F81, 0x2FA1),  # meant as U+2F800-U+2FA1D (Compatibility Supplement); see above
    (0xFF00, 0xFFEF),  # full-width ASCII and punctuation, half-width kana, Hangul
    (0x2E80, 0x2EFF),  # CJK Radicals Supplement
    (0x3000, 0x303F),  # CJK Symbols and Punctuation
    (0x31C0, 0x31EF),  # CJK Strokes
    (0x2F00, 0x2FDF),  # Kangxi Radicals
    (0x2FF0, 0x2FFF),  # Ideographic Description Characters
    (0x3100, 0x312F),  # Bopomofo
    (0x31A0, 0x31BF),  # Bopomofo Extended
    (0xFE10, 0xFE1F),  # Vertical Forms
    (0xFE30, 0xFE4F),  # CJK Compatibility Forms
    (0x2600, 0x26FF),  # Miscellaneous Symbols
    (0x2700, 0x27BF),  # Dingbats
    (0x3200, 0x32FF),  # Enclosed CJK Letters and Months
    (0x3300, 0x33FF),  # CJK Compatibility
)

_ZH_CHAR = re.compile("[" + "".join(f"\\u{lo:04x}-\\u{hi:04x}" for lo, hi in ZH_RANGES) + "]")


def is_chinese_char(ch: str) -> bool:
    """True if sacreBLEU's ``zh`` puts spaces around the single character ``ch``."""
    return _ZH_CHAR.fullmatch(ch) is not None


# Speed: both the per-character CJK split and 13a's first rule (ASCII punctuation and symbols
# get a space on each side) look at one character and nothing around it, so they run as one
# ``str.translate``.  Only the amount of whitespace differs from doing them one after the
# other (13a's rule also pads the spaces the CJK split inserted), and whitespace runs are
# neither digits nor periods/commas for the remaining rules and collapse at the end; the tests
# compare with sacreBLEU on random text to keep this honest.
_SPLIT_TABLE = {cp: f" {chr(cp)} " for lo, hi in ZH_RANGES for cp in range(lo, hi + 1)}
_SPLIT_TABLE.update((ord(ch), f" {ch} ") for ch in map(chr, range(128)) if RULES_13A[0][0].fullmatch(ch))
_CONTEXT_RULES = RULES_13A[1:]


def tokenize_zh(line: str) -> str:
    """Tokenize one segment as sacreBLEU's ``zh`` does (see the module docstring)."""
    line = line.strip().translate(_SPLIT_TABLE)
    for pattern, repl in _CONTEXT_RULES:
        line = pattern.sub(repl, line)
    return " ".join(line.split())


class TokenizerZh(CachedTokenizer):
    """Chinese tokenization, identical to sacreBLEU's ``zh`` (signature ``zh``): CJK
    characters split one by one, the rest tokenized with 13a's regular expressions."""

    #: In the compiled core (rb_tok_zh in tok.h, ranges generated from ZH_RANGES); held to
    #: this class token for token by tests/test_fast_tokenizers.py.
    fast_path = "zh"

    def signature(self) -> str:
        return "zh"

    _tokenize = staticmethod(tokenize_zh)
