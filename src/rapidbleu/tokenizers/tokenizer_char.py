"""The ``char`` tokenizer: every character is a token (sacreBLEU's ``char``).

The segment is turned into its characters joined by single spaces, code point by code point
(Python ``str`` iteration): no normalization, no grapheme clustering, so a base letter and a
following combining mark are two tokens and an astral character (emoji, CJK Extension B) is
one.  Whitespace characters become tokens of their own in the returned string, which BLEU's
``str.split()`` then drops; the string itself is what sacreBLEU returns (leading whitespace
included), kept on purpose so tokenized output compares equal.
"""

from .base import CachedTokenizer


def tokenize_char(line: str) -> str:
    """Split ``line`` into its code points, joined by single spaces."""
    return " ".join(line)


class TokenizerChar(CachedTokenizer):
    """Character-level tokenization, identical to sacreBLEU's ``char`` (signature ``char``).

    This is what WMT uses for Japanese targets in its official BLEU tables (WMT23 en-ja).
    """

    #: In the compiled core (every non-space code point is a token); held to this class
    #: token for token by tests/test_fast_tokenizers.py.
    fast_path = "char"

    def signature(self) -> str:
        return "char"

    @staticmethod
    def _tokenize(line: str) -> str:
        return " ".join(line)
