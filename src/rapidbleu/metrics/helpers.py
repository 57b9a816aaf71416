"""sacreBLEU's n-gram helpers (``sacrebleu.metrics.helpers``), with the same return types.

rapidbleu's own scoring does not call these (the kernels count n-grams); they exist for code
that imports them from sacreBLEU's path.  The chrF ones (``extract_char_ngrams``,
``extract_all_char_ngrams``, ``extract_word_ngrams``) are the chrF oracle's own
(``rapidbleu._core.chrf.chrf_py``); ``extract_all_word_ngrams`` is BLEU's
(``rapidbleu._core.sacre_methods``).
"""

from .._core.chrf.chrf_py import extract_all_char_ngrams, extract_char_ngrams, extract_word_ngrams
from .._core.sacre_methods import extract_all_word_ngrams

__all__ = [
    "extract_all_char_ngrams",
    "extract_all_word_ngrams",
    "extract_char_ngrams",
    "extract_word_ngrams",
]
