"""Reference-aggregated n-gram statistics in pure Python: the oracle of ``aggregate_cy``.

Minimum Bayes risk (MBR) decoding scores every hypothesis against a set of pseudo-references;
*reference aggregation* scores it once against their mean instead: the (weighted) mean of the
pseudo-references' n-gram counts (DeNero et al. 2009, "Fast Consensus Decoding over
Translation Forests", for BLEU; Vamvas and Sennrich 2024, "Linear-time Minimum Bayes Risk
Decoding with Reference Aggregation", for chrF).  The kernel here works on sequences of integer
*units*: the code points of a chrF segment (character n-grams), the word ids of chrF++'s words
or BLEU's tokens (word n-grams); ``rapidbleu.mbr`` turns text into units.

The numbers, for pseudo-references ``j = 0 .. m-1`` with weights ``v_j >= 0`` and a positive
``divisor`` (``m`` and ``v_j = 1`` for the plain mean; ``sum(v)`` for weights; a softmax of
log-probabilities as ``exp(lp_j - max lp)`` over their sum), per n-gram order ``k``:

* the aggregated count of an n-gram ``g``: ``A(g) = (v_0 c_0(g) + v_1 c_1(g) + ...) / divisor``,
  the products added in reference order, ``c_j(g)`` its count in reference ``j``;
* the aggregated reference length: ``(v_0 L_0k + v_1 L_1k + ...) / divisor``, ``L_jk`` the
  number of order-``k`` n-grams of reference ``j``;
* a hypothesis's row: ``[its order-k n-grams, the aggregated length, matches]``, matches the sum
  of ``min(c_h(g), A(g))`` over its distinct n-grams in order of first occurrence (sacreBLEU's
  clipping, with the expected counts of mbrs' ``expected_scores_reference_aggregation``).

Every sum is a left-to-right float64 sum in the order given, so the compiled twin computes the
very same floats.  The twins trust their arguments (``rapidbleu.mbr`` validates them).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np
else:
    from ..._base.lazy import numpy as np  # imported on first use (see rapidbleu._base.lazy)

from ..bleu.bleu_scores_py import bleu_from_stats
from ..chrf.chrf_py import f_score

NAME = "python"


def _grams(units: list[int], order: int) -> Counter[tuple[int, ...]]:
    """Counts of the order-``order`` n-grams of ``units``, keys in order of first occurrence."""
    return Counter(tuple(units[i : i + order]) for i in range(len(units) - order + 1))


def ngram_stats(
    hyp_units: np.ndarray,
    hyp_offsets: np.ndarray,
    ref_units: np.ndarray,
    ref_offsets: np.ndarray,
    ref_weights: np.ndarray,
    divisor: float,
    max_order: int,
    workers: int = 1,
) -> np.ndarray:
    """Every hypothesis's statistics against the aggregated pseudo-references.

    Args:
        hyp_units: int64 (H,), the n hypotheses' units one after the other; ``hyp_offsets``
            int64 (n + 1,), hypothesis ``i`` is ``hyp_units[hyp_offsets[i]:hyp_offsets[i+1]]``.
        ref_units, ref_offsets: the m pseudo-references the same way (m >= 1).
        ref_weights: float64 (m,), ``v_j >= 0`` (the module's formulas).
        divisor: positive float, the sum the weighted counts are divided by.
        max_order: n-gram orders 1 .. ``max_order`` (1 .. 64).
        workers: threads (the compiled twin); same results.

    Returns:
        float64 (n, 3 * max_order): per order ``[hypothesis n-grams, aggregated reference
        n-grams, clipped matches]`` (the module's formulas).
    """
    n, m = len(hyp_offsets) - 1, len(ref_offsets) - 1
    refs = ref_units.tolist()
    roff = ref_offsets.tolist()
    weights = [float(w) for w in ref_weights.tolist()]
    agg: list[dict[tuple[int, ...], float]] = []
    lengths: list[float] = []
    for k in range(1, max_order + 1):
        acc: dict[tuple[int, ...], float] = {}
        total = 0.0
        for j in range(m):
            units = refs[roff[j] : roff[j + 1]]
            for gram, count in _grams(units, k).items():
                acc[gram] = acc.get(gram, 0.0) + weights[j] * count
            total += weights[j] * max(0, len(units) - k + 1)
        agg.append({gram: value / divisor for gram, value in acc.items()})
        lengths.append(total / divisor)
    hyps = hyp_units.tolist()
    hoff = hyp_offsets.tolist()
    out = np.zeros((n, 3 * max_order), dtype=np.float64)
    for i in range(n):
        units = hyps[hoff[i] : hoff[i + 1]]
        row: list[float] = []
        for k in range(1, max_order + 1):
            table = agg[k - 1]
            match = 0.0
            for gram, count in _grams(units, k).items():
                match += min(count, table.get(gram, 0.0))
            row += [float(max(0, len(units) - k + 1)), lengths[k - 1], match]
        out[i] = row
    return out


def chrf_row_scores(rows: np.ndarray, beta: float, eps_smoothing: bool, workers: int = 1) -> np.ndarray:
    """chrF (0-100) of aggregated rows: sacreBLEU's ``CHRF._compute_f_score`` on float
    statistics (Popović 2015, 2017; :func:`rapidbleu._core.chrf.chrf_py.f_score`), the hypothesis
    count of an order taken as 0 where the aggregated reference has no n-gram of it (sacreBLEU's
    ``_get_match_statistics`` on an empty reference counter, as mbrs meets it).

    Args:
        rows: float64 (n, 3 * order) from :func:`ngram_stats` (character orders, then word
            orders).
        beta: recall's weight, a Python ``int`` or ``float`` (the compiled twin multiplies by
            ``float(beta ** 2)`` and ``float(1 + beta ** 2)``, as Python does).
        eps_smoothing: chrF++.py's mean of per-order F-scores instead of sacreBLEU's default.
        workers: threads (the compiled twin); same results.

    Returns:
        float64 (n,).
    """

    def score(row: list[Any], order: int) -> Any:
        for k in range(order):
            if row[3 * k + 1] == 0:
                row[3 * k] = 0.0
        return f_score(row, order, beta, eps_smoothing)

    return _row_scores(rows, score)


def bleu_row_scores(
    rows: np.ndarray, smooth_method: str, smooth_value: float | None, effective_order: bool
) -> np.ndarray:
    """Sentence BLEU (0-100) of aggregated rows from :func:`ngram_stats` (float64 ``(n, 3 N)``):
    ``c`` the hypothesis's unigrams, ``r`` the aggregated reference length (order 1), the
    matches and totals per order, scored by sacreBLEU's formula
    (:func:`rapidbleu._core.bleu.bleu_scores_py.bleu_from_stats`, Python floats, as mbrs'
    ``MetricBLEU._compute_bleu``).  One formula for both backends (not a twin): a row costs a
    few microseconds.

    Returns:
        float64 (n,).
    """

    def score(row: list[Any], order: int) -> float:
        totals = [int(row[3 * k]) for k in range(order)]
        correct = [row[3 * k + 2] for k in range(order)]
        return bleu_from_stats(correct, totals, totals[0], row[1], smooth_method, smooth_value, effective_order, order)[
            0
        ]

    return _row_scores(rows, score)


def _row_scores(rows: np.ndarray, score: Callable[[list[Any], int], Any]) -> np.ndarray:
    """float64 ``(n,)``: ``score(row, order)`` of each row of ``rows`` (``(n, 3 * order)``) as a
    list of Python floats."""
    order = rows.shape[1] // 3
    return np.array([score(row, order) for row in rows.tolist()], dtype=np.float64).reshape(len(rows))
