"""The ``13a`` tokenizer: mteval-v13a.pl's rules, as sacreBLEU 2.x applies them.

Order of operations (each step matters for exactness):

1. language independent: delete ``<skipped>``, join ``-\\n`` hyphenations, turn ``\\n`` into a
   space; if the line has an ``&``, unescape ``&quot;``, ``&amp;``, ``&lt;``, ``&gt;`` in that
   order, one pass each (so ``&amp;lt;`` becomes ``<``).
2. pad the line with one space on each side, then four regex substitutions, each one pass of
   Python's ``re.sub`` (left to right, non-overlapping: ``a..`` splits only the first period in
   step 2b):

   a. ASCII punctuation and symbols ``{|}~ [\\]^_` space!"#$%& ()*+ :;<=>?@ /`` get a space on each
      side;
   b. a period or comma preceded by a non-digit is split off (``x.`` -> ``x . ``);
   c. a period or comma followed by a non-digit is split off (``.x`` -> `` . x``);
   d. a dash preceded by a digit is split off (``3-`` -> ``3 - ``).
3. whitespace runs collapse to one space via ``str.split()`` (so every Unicode space that Python
   splits on separates tokens, U+00A0 and U+3000 included, and U+200B does not).

``[0-9]`` means the ASCII digits only; "non-digit" is any other code point, newline included.
"""

import re

from .base import CachedTokenizer

#: The four 13a rules (mteval-v13a.pl), written once: ``13a``, ``zh`` (``tokenizer_zh``) and
#: sacreBLEU's ``TokenizerRegexp`` (``tokenizer_re``) apply them.
RULES_13A = (
    (re.compile(r"([\{-\~\[-\` -\&\(-\+\:-\@\/])"), r" \1 "),
    (re.compile(r"([^0-9])([\.,])"), r"\1 \2 "),
    (re.compile(r"([\.,])([^0-9])"), r" \1 \2"),
    (re.compile(r"([0-9])(-)"), r"\1 \2 "),
)


def _unescape_and_join(line: str) -> str:
    line = line.replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
    if "&" in line:
        line = line.replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
    return line


def tokenize_13a(line: str) -> str:
    """Tokenize one segment with the 13a rules; returns tokens joined by single spaces."""
    line = f" {_unescape_and_join(line)} "
    for pattern, repl in RULES_13A:
        line = pattern.sub(repl, line)
    return " ".join(line.split())


class Tokenizer13a(CachedTokenizer):
    """mteval-v13a tokenization (WMT's standard), identical to sacreBLEU's ``13a``."""

    fast_path = "13a"

    def signature(self) -> str:
        return "13a"

    _tokenize = staticmethod(tokenize_13a)  # (cached by CachedTokenizer, as sacreBLEU caches it)
