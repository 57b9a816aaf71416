"""``TokenizerRegexp``: the four regular-expression rules shared by ``13a`` and ``zh``, under
sacreBLEU's module and class name (``sacrebleu.tokenizers.tokenizer_re.TokenizerRegexp``).

Unlike ``Tokenizer13a`` it neither unescapes HTML entities nor pads the line; the rules are
``rapidbleu.tokenizers.tokenizer_13a``'s (the single place they are written).
"""

from functools import lru_cache

from .base import BaseTokenizer
from .tokenizer_13a import RULES_13A


@lru_cache(maxsize=2**16)
def _apply_rules(line: str) -> str:
    for pattern, repl in RULES_13A:
        line = pattern.sub(repl, line)
    return " ".join(line.split())


class TokenizerRegexp(BaseTokenizer):
    """The 13a punctuation rules alone (signature ``re``); ``__call__(str) -> str`` returns the
    tokens joined by single spaces."""

    def signature(self) -> str:
        return "re"

    def __call__(self, line: str) -> str:
        return _apply_rules(line)


__all__ = ["TokenizerRegexp"]
