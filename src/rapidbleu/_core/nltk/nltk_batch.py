"""NLTK's ``sentence_bleu`` of every pair of a batch, on arguments whose ``workers`` the caller
checked (``rapidbleu.nltk.sentence_bleu_batch`` and ``rapidbleu.batch.sentence_bleu_batch``,
the two front doors that take it): the statistics of all pairs from one call of the compiled
core, scored by :func:`rapidbleu._core.nltk.nltk_scores.sentence_scores_from_stats`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .nltk_inputs import Tokens, check_segments, checked_corpus, token_statistics
from .nltk_scores import rows_named, sentence_scores_from_stats
from .nltk_smoothing import SmoothingCallable
from .nltk_style import max_order, parse_weights, resolve_smoothing, stats_order


def sentence_bleu_rows(
    list_of_references: Sequence[Sequence[Tokens]],
    hypotheses: Sequence[Tokens],
    weights: Any,
    smoothing_function: SmoothingCallable | None,
    auto_reweigh: bool,
    workers: int,
) -> np.ndarray:
    """``out[i] == nltk.translate.bleu_score.sentence_bleu(list_of_references[i], hypotheses[i],
    weights, smoothing_function, auto_reweigh)``: float64 ``(n,)`` for one weight tuple,
    ``(n, W)`` for a list of ``W`` tuples (``out[i, w]``); the statistics with 5 orders at least for
    methods 5 and 7; a custom smoothing callable gets each pair's references and hypothesis,
    as NLTK calls it.  ``workers`` is trusted (checked where it entered).

    Raises:
        LengthMismatchError, ValueError, TypeError, SmoothingError: as
            ``rapidbleu.nltk.sentence_bleu_batch`` documents.
    """
    with checked_corpus(list_of_references, hypotheses):
        weight_list, several = parse_weights(weights)
        n, W = len(hypotheses), len(weight_list)
        shape = (n, W) if several else (n,)
        order = max_order(weight_list)
        if order == 0 or n == 0:
            if order == 0:
                check_segments(list_of_references, hypotheses)
            return np.zeros(shape, dtype=np.float64)
        method, smoother = resolve_smoothing(smoothing_function)
        n_orders = stats_order(order, method)
        stats = token_statistics(list_of_references, hypotheses, n_orders, workers=workers)
    # The scoring of sentence_bleu_from_stats (same implementation, called directly so that
    # warnings point at the caller); a callable smoother gets each pair's tokens.
    tokens = None if method is not None else (list_of_references, hypotheses)
    with rows_named(lambda i: f"hypothesis {i}"):
        out: np.ndarray = sentence_scores_from_stats(
            stats, n_orders, weight_list, method, smoother, auto_reweigh, tokens=tokens, workers=workers
        )
    return out if several else out[:, 0]
