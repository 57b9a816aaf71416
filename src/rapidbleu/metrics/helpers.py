"""sacreBLEU's word n-gram helpers (``sacrebleu.metrics.helpers``), with the same return types.

rapidbleu's own scoring never calls these (the compiled core counts n-grams); they exist for
code that imports them from sacreBLEU's path.
"""

from collections import Counter
from itertools import islice


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


def extract_word_ngrams(tokens: list[str], n: int) -> Counter[str]:
    """The order-``n`` n-grams of a token list, as sacreBLEU returns them: a ``Counter`` whose
    keys are the n-grams' tokens joined with single spaces (``str``, not tuples)."""
    return Counter(" ".join(tokens[i : i + n]) for i in range(len(tokens) - n + 1))


__all__ = ["extract_all_word_ngrams", "extract_word_ngrams"]
