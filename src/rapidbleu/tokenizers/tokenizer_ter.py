"""The tercom tokenizer of TER (sacreBLEU's ``tokenizers.tokenizer_ter.TercomTokenizer``).

Tercom's ``Normalizer`` as sacreBLEU 2.x applies it, step by step (each step is one pass of
Python's ``re.sub``, left to right, non-overlapping; the order matters):

1. ``""`` stays ``""``; unless ``case_sensitive``, the segment is lowercased (``str.lower``).
2. ``normalized``:

   a. general: ``\\n-`` is deleted (hyphenation across lines), ``\\n`` becomes a space, then
      ``&quot;``, ``&amp;``, ``&lt;``, ``&gt;`` are unescaped, one pass each in that order;
   b. western: the segment is padded with a space on each side; the ASCII punctuation and
      symbols ``{|}~ [\\]^_` space!"#$%& ()*+ :;<=>?@ /`` get a space on each side; ``'s``
      followed by a space becomes `` 's`` (possessives); a period or comma preceded by a
      non-digit is split off; a period or comma followed by a non-digit is split off; a dash
      preceded by a digit is split off (``[0-9]`` is ASCII);
   c. with ``asian_support``: every character of the CJK ranges below gets a space on each
      side (``U+4E00-9FFF``, ``U+3400-4DBF``; ``U+31C0-31EF``, ``U+2E80-2EFF``;
      ``U+3300-33FF``, ``U+F900-FAFF``, ``U+FE30-FE4F``; ``U+3200-3F22``), a segment made only
      of Hiragana (``U+3040-309F``), only of Katakana (``U+30A0-30FF``) or only of Katakana
      phonetic extensions (``U+31F0-31FF``) is padded (which changes no token), and the CJK and
      full-width punctuation (:attr:`TercomTokenizer.ASIAN_PUNCT`,
      :attr:`TercomTokenizer.FULL_WIDTH_PUNCT`) gets a space on each side.

3. ``no_punct``: the characters ``.,?:;!"()`` are deleted; with ``asian_support`` also the
   CJK and full-width punctuation.
4. Whitespace runs collapse to single spaces (``str.split()``: every Unicode space Python
   splits on), with no space at either end.

``asian_support`` changes nothing unless ``normalized`` or ``no_punct`` is on.  TER splits the
result on whitespace; ``signature()`` is ``tercom``.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .base import BaseTokenizer

_ASIAN_PUNCT = r"([\u3001\u3002\u3008-\u3011\u3014-\u301f\uff61-\uff65\u30fb])"
_FULL_WIDTH_PUNCT = r"([\uff0e\uff0c\uff1f\uff1a\uff1b\uff01\uff02\uff08\uff09])"


class _Rules:
    """Tercom's regular expressions, compiled at the first normalized segment (compiling them
    at import was a tenth of the command line's start-up, which TER's normalizer seldom serves)."""

    def __init__(self) -> None:
        #: Step 2b: ASCII punctuation and symbols that get a space on each side (13a's first rule).
        self.western_punct = re.compile(r"([\{-\~\[-\` -\&\(-\+\:-\@\/])")
        self.possessive = re.compile(r"'s ")
        self.possessive_end = re.compile(r"'s$")
        self.period_comma_after_non_digit = re.compile(r"([^0-9])([\.,])")
        self.period_comma_before_non_digit = re.compile(r"([\.,])([^0-9])")
        self.dash_after_digit = re.compile(r"([0-9])(-)")
        #: Step 2c: the CJK character ranges split to single characters, one pass per line as tercom.
        self.cjk_passes = (
            re.compile("([\u4e00-\u9fff\u3400-\u4dbf])"),  # CJK Unified Ideographs and Extension A
            re.compile("([\u31c0-\u31ef\u2e80-\u2eff])"),  # CJK Strokes, CJK Radicals Supplement
            re.compile("([\u3300-\u33ff\uf900-\ufaff\ufe30-\ufe4f])"),  # CJK Compatibility (forms)
            re.compile("([\u3200-\u3f22])"),  # Enclosed CJK Letters and Months (and what follows, to 3F22)
        )
        #: Hiragana, Katakana, Katakana phonetic extensions: padded only when they make up the
        #: whole segment (``$``: the end, or before a final newline).
        self.kana_only = tuple(
            re.compile(f"^([{lo}-{hi}]+)(?=\\n?\\Z)")
            for lo, hi in (("\u3040", "\u309f"), ("\u30a0", "\u30ff"), ("\u31f0", "\u31ff"))
        )
        self.asian_punct = re.compile(_ASIAN_PUNCT)
        self.full_width_punct = re.compile(_FULL_WIDTH_PUNCT)
        #: Step 3: the punctuation ``no_punct`` deletes.
        self.punct = re.compile(r"[\.,\?:;!\"\(\)]")


@lru_cache(maxsize=1)
def _rules() -> _Rules:
    return _Rules()


_PAD = r" \1 "


def _normalize_general_and_western(sent: str) -> str:
    """Step 2a and 2b."""
    sent = sent.replace("\n-", "").replace("\n", " ")
    sent = sent.replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
    rules = _rules()
    sent = rules.western_punct.sub(_PAD, f" {sent} ")
    sent = rules.possessive.sub(" 's ", sent)
    sent = rules.possessive_end.sub(" 's", sent)
    sent = rules.period_comma_after_non_digit.sub(r"\1 \2 ", sent)
    sent = rules.period_comma_before_non_digit.sub(r" \1 \2", sent)
    return rules.dash_after_digit.sub(r"\1 \2 ", sent)


def _normalize_asian(sent: str) -> str:
    """Step 2c."""
    rules = _rules()
    for pattern in rules.cjk_passes:
        sent = pattern.sub(_PAD, sent)
    for pattern in rules.kana_only:
        sent = pattern.sub(_PAD, sent)
    sent = rules.asian_punct.sub(_PAD, sent)
    return rules.full_width_punct.sub(_PAD, sent)


def tokenize_tercom(
    sent: str,
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = False,
) -> str:
    """One segment through tercom's normalizer (see the module documentation for the steps).

    Returns:
        the tokens joined by single spaces (``""`` for a segment without tokens).
    """
    if not sent:
        return ""
    if not case_sensitive:
        sent = sent.lower()
    if normalized:
        sent = _normalize_general_and_western(sent)
        if asian_support:
            sent = _normalize_asian(sent)
    if no_punct:
        rules = _rules()
        sent = rules.punct.sub("", sent)
        if asian_support:
            sent = rules.full_width_punct.sub("", rules.asian_punct.sub("", sent))
    return " ".join(sent.split())


def tercom_words(sent: str, normalized: bool, no_punct: bool, asian_support: bool, case_sensitive: bool) -> list[str]:
    """The words of one segment: ``tokenize_tercom(sent, ...).split()`` (without the cache,
    and without the joining and splitting again, when neither ``normalized`` nor ``no_punct``
    is on: then the tokenizer only lowercases).  Every switch is the caller's (TER's options,
    ``rapidbleu._core.ter.ter_py``)."""
    if normalized or no_punct:
        return _tokenize_cached(sent, normalized, no_punct, asian_support, case_sensitive).split()
    return (sent if case_sensitive else sent.lower()).split()


@lru_cache(maxsize=2**16)
def _tokenize_cached(sent: str, normalized: bool, no_punct: bool, asian_support: bool, case_sensitive: bool) -> str:
    return tokenize_tercom(sent, normalized, no_punct, asian_support, case_sensitive)


class TercomTokenizer(BaseTokenizer):
    """Tercom's normalizer with TER's four switches, identical to sacreBLEU's ``TercomTokenizer``.

    Args:
        normalized: tercom's normalization (steps 2a-2c of the module documentation).
        no_punct: delete punctuation (step 3).
        asian_support: also split CJK characters (with ``normalized``) and delete CJK and
            full-width punctuation (with ``no_punct``); no effect alone.
        case_sensitive: keep the case (by default the segment is lowercased).

    Calling the tokenizer returns the tokens joined by single spaces; results are cached
    (2**16 segments per process, shared by all instances, keyed by the switches).
    """

    #: CJK punctuation (``U+3001``, ``U+3002``, ``U+3008-3011``, ``U+3014-301F``,
    #: ``U+FF61-FF65``, ``U+30FB``), as a regular expression with one group.
    ASIAN_PUNCT = _ASIAN_PUNCT
    #: Full-width punctuation (``．，？：；！＂（）``), as a regular expression with one group.  # noqa: RUF003 -- the characters named
    FULL_WIDTH_PUNCT = _FULL_WIDTH_PUNCT

    def __init__(
        self,
        normalized: bool = False,
        no_punct: bool = False,
        asian_support: bool = False,
        case_sensitive: bool = False,
    ) -> None:
        self._normalized = bool(normalized)
        self._no_punct = bool(no_punct)
        self._asian_support = bool(asian_support)
        self._case_sensitive = bool(case_sensitive)

    def __call__(self, sent: str) -> str:
        return _tokenize_cached(sent, self._normalized, self._no_punct, self._asian_support, self._case_sensitive)

    def signature(self) -> str:
        return "tercom"


__all__ = ["TercomTokenizer", "tercom_words", "tokenize_tercom"]
