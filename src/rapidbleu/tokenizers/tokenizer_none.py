"""The ``none`` tokenizer: the segment is used as it is (tokens = ``str.split()``)."""

from .base import BaseTokenizer


class NoneTokenizer(BaseTokenizer):
    """No tokenization at all: BLEU splits the raw segment on whitespace."""

    fast_path = "none"

    def signature(self) -> str:
        return "none"

    def __call__(self, line: str) -> str:
        return line
