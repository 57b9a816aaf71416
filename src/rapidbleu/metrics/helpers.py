"""sacreBLEU's n-gram helpers (``sacrebleu.metrics.helpers``), with the same return types.

rapidbleu's own scoring does not call these (the kernels count n-grams); they exist for code
that imports them from sacreBLEU's path.  The chrF ones (``extract_char_ngrams``,
``extract_all_char_ngrams``, ``extract_word_ngrams``) are the chrF oracle's own
(``rapidbleu._core.chrf_py``).
"""

from collections import Counter
from itertools import islice

from .._core.chrf_py import extract_all_char_ngrams, extract_char_ngrams, extract_word_ngrams


def extract_all_word_ngrams(line: str, min_order: int, max_order: int) -> tuple[Counter[tuple[str, ...]], int]:
    """Word n-grams of every order ``min_order..max_order`` of a (tokenized) line.

    Args:
        line: tokens separated by whitespace (split with ``str.split()``).
        min_order, max_order: the orders, inclusive.

    Returns:
        ``(Counter, int)``: a ``Counter`` mapping each n-gram (a ``tuple`` of ``str`` tokens)
        to its number of occurrences, and the number of tokens.
    """
    tokens = line.split()
    grams: Counter[tuple[str, ...]] = Counter()
    for n in range(min_order, max_order + 1):
        if n <= 0:  # degenerate orders: slices exactly as sacreBLEU takes them
            grams.update(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))
            continue
        grams.update(zip(*(islice(tokens, k, None) for k in range(n)), strict=False))
    return grams, len(tokens)


__all__ = [
    "extract_all_char_ngrams",
    "extract_all_word_ngrams",
    "extract_char_ngrams",
    "extract_word_ngrams",
]
