"""The sufficient-statistics layout and BLEU computed from it, written once for both backends.

Layout of one row (sacreBLEU's, so that rows add up to a corpus)::

    [hyp_len, ref_len, matches_1 .. matches_N, totals_1 .. totals_N]      (2 + 2N int64)

* ``hyp_len``: number of hypothesis tokens;
* ``ref_len``: length of the reference closest in length to the hypothesis, ties going to the
  shorter reference (Papineni et al. 2002, as in mteval-v13a and sacreBLEU);
* ``matches_n``: clipped n-gram matches, each hypothesis n-gram counted at most as often as it
  occurs in any single reference (the maximum over references, not the sum);
* ``totals_n``: hypothesis n-grams of order n, ``max(0, hyp_len - n + 1)``.

Everything that turns these numbers into scores lives here, so the compiled and the pure-Python
backends can only ever differ in the statistics themselves.
"""

import math
from typing import List, Optional, Sequence, Tuple

import numpy as np

from ._validate import UnknownSmoothingError

#: sacreBLEU's defaults for the smoothing value of each method (Chen and Cherry, WMT 2014).
SMOOTH_DEFAULTS = {"none": None, "floor": 0.1, "add-k": 1, "exp": None}

#: Default maximum n-gram order.
MAX_NGRAM_ORDER = 4

#: mteval/sacreBLEU's floor for log(0).
_LOG_ZERO = -9999999999


def n_columns(max_ngram_order: int) -> int:
    """Number of columns of the statistics matrix for a given maximum n-gram order."""
    return 2 + 2 * max_ngram_order


def check_order(max_ngram_order) -> int:
    """The maximum n-gram order N as an int >= 1.

    Raises:
        TypeError: not an integer (``bool`` included).
        ValueError: N < 1.
    """
    if isinstance(max_ngram_order, bool) or not isinstance(max_ngram_order, (int, np.integer)):
        raise TypeError(f"max_ngram_order must be an int, got {type(max_ngram_order).__name__}")
    if max_ngram_order < 1:
        raise ValueError(f"max_ngram_order must be >= 1, got {max_ngram_order}")
    return int(max_ngram_order)


def closest_ref_len(hyp_len: int, ref_lens: Sequence[int]) -> int:
    """Length of the reference closest to ``hyp_len``; ties go to the shorter reference."""
    best_len, best_diff = -1, -1
    for ref_len in ref_lens:
        diff = abs(hyp_len - ref_len)
        if best_diff == -1 or diff < best_diff or (diff == best_diff and ref_len < best_len):
            best_len, best_diff = ref_len, diff
    return best_len


def _log(x: float) -> float:
    return _LOG_ZERO if x == 0.0 else math.log(x)


def check_smoothing(smooth_method: str) -> None:
    """Raise :class:`~rapidbleu._validate.UnknownSmoothingError` (a ``ValueError``, and an
    ``AssertionError`` as sacreBLEU's assert) unless ``smooth_method`` is one of sacreBLEU's
    four methods."""
    if smooth_method not in SMOOTH_DEFAULTS:
        raise UnknownSmoothingError(
            f"unknown smooth_method {smooth_method!r}; choose one of: {', '.join(SMOOTH_DEFAULTS)}"
        )


def bleu_from_stats(
    correct: List,
    total: List,
    sys_len: int,
    ref_len: int,
    smooth_method: str = "none",
    smooth_value: Optional[float] = None,
    effective_order: bool = False,
    max_ngram_order: int = MAX_NGRAM_ORDER,
) -> Tuple[float, List, List, List[float], float]:
    """BLEU (0-100) from aggregated statistics, float for float as sacreBLEU 2.x computes it.

    Args:
        correct: clipped matches per order 1..N (Python ints; a copy is made).
        total: hypothesis n-gram totals per order 1..N.
        sys_len, ref_len: hypothesis length c and effective reference length r.
        smooth_method: ``none``; ``floor`` (a zero-match order gets ``smooth_value / total``);
            ``add-k`` (``smooth_value`` added to matches and totals of orders n > 1);
            ``exp`` (mteval-v13a's NIST smoothing: the k-th zero-match order gets
            ``1 / (2**k * total)``).  Methods 1-3 of Chen and Cherry (WMT 2014).
        smooth_value: value for ``floor`` (default 0.1) and ``add-k`` (default 1).
        effective_order: average the log precisions only over the orders whose hypothesis
            n-gram total is non-zero (sentence-level BLEU).
        max_ngram_order: N.

    Returns:
        ``(score, counts, totals, precisions, bp)``: score 0-100; counts/totals as used (add-k
        included, as sacreBLEU reports them); precisions in percent; brevity penalty
        ``exp(1 - r/c)`` when ``c < r``, 0 when ``c == 0 < r``, else 1 (Papineni et al. 2002).

    Quirks kept on purpose: no match at all gives exactly 0.0 before any smoothing; a perfect
    match gives 100.00000000000004 (the mean of four logs of 100 is not exactly log 100).
    """
    check_smoothing(smooth_method)
    correct = list(correct)
    total = list(total)
    if smooth_value is None:
        smooth_value = SMOOTH_DEFAULTS[smooth_method]

    bp = 1.0
    if sys_len < ref_len:
        bp = math.exp(1 - ref_len / sys_len) if sys_len > 0 else 0.0

    precisions = [0.0] * max_ngram_order
    if not any(correct):
        return 0.0, correct, total, precisions, bp

    smooth_mteval = 1.0
    eff_order = max_ngram_order
    for n in range(1, max_ngram_order + 1):
        if smooth_method == "add-k" and n > 1:
            correct[n - 1] += smooth_value
            total[n - 1] += smooth_value
        if total[n - 1] == 0:
            break
        if effective_order:
            eff_order = n
        if correct[n - 1] == 0:
            if smooth_method == "exp":
                smooth_mteval *= 2
                precisions[n - 1] = 100.0 / (smooth_mteval * total[n - 1])
            elif smooth_method == "floor":
                precisions[n - 1] = 100.0 * float(smooth_value) / total[n - 1]  # type: ignore[arg-type]
        else:
            precisions[n - 1] = 100.0 * correct[n - 1] / total[n - 1]

    # sum() of a list, left to right, then one division: the same float as sacreBLEU.
    score = bp * math.exp(sum([_log(p) for p in precisions[:eff_order]]) / eff_order)
    return score, correct, total, precisions, bp


def split_row(row, max_ngram_order: int):
    """``(sys_len, ref_len, correct, total)`` as Python ints from one aggregated stats row."""
    values = [int(v) for v in row]
    n = max_ngram_order
    return values[0], values[1], values[2 : 2 + n], values[2 + n : 2 + 2 * n]
