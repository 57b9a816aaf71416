"""Every formula from sufficient statistics to a score, in Python: the oracle of ``bleu_scores_cy``.

Two families, each written once here and once in C (``bleu_scores_cy.pyx``, same function names,
signatures and floats; the tests compare them on random statistics on every Python version):

* **sacreBLEU's BLEU** (0-100): :func:`bleu_from_stats` for one row, :func:`sacre_scores` for
  many.  Brevity penalty ``exp(1 - r/c)`` (Papineni et al. 2002), smoothing ``none``,
  ``floor``, ``add-k``, ``exp`` (Chen and Cherry 2014, methods 1-3; ``exp`` is mteval-v13a's),
  effective order, and sacreBLEU 2.x's exact operations: the logs are added by the builtin
  ``sum()`` of the running interpreter (compensated from Python 3.12 on), and statistics held
  in numpy ``int64`` or ``float32`` (sacreBLEU's significance tests) keep numpy's arithmetic
  (NEP 50 promotion, NumPy >= 2).
* **NLTK's ``sentence_bleu``** (0-1): :func:`nltk_from_counts` (NLTK's operations on unreduced
  :class:`Fraction` precisions, smoothing methods 0-7 of Chen and Cherry 2014 as NLTK
  implements them) and :func:`nltk_scores` for many rows.

Rows are the layout of ``rapidbleu._core.bleu.bleu_row``: ``[hyp_len, ref_len, matches_1..N, totals_1..N]``.
Nothing here counts n-grams, and nothing below this module chooses a backend: callers get the
compiled twin from ``rapidbleu._core.backend.bleu_scores``.
"""

from __future__ import annotations

import math
import numbers
import sys
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction as _Fraction
from typing import TYPE_CHECKING, Any, SupportsInt, cast

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt
else:
    from ..._base.lazy import numpy as np  # imported on first use (see rapidbleu._base.lazy)

from ..._base.errors import (
    MAX_EXACT_COUNT,
    SmoothingError,
    UnknownSmoothingError,
    addk_overflow_error,
    float_method_error,
    reweigh_weights_error,
    stats_dtype_error,
    stats_range_error,
    stats_shape_error,
    warn_outside,
    weights_count_error,
)
from ..._base.lazy import is_ndarray
from ..validate import check_order
from .bleu_row import MAX_NGRAM_ORDER

NAME = "python"

# ============================================================================================
# sacreBLEU
# ============================================================================================

#: sacreBLEU's defaults for the smoothing value of each method (Chen and Cherry, WMT 2014).
SMOOTH_DEFAULTS = {"none": None, "floor": 0.1, "add-k": 1, "exp": None}

#: mteval/sacreBLEU's floor for log(0) (an ``int``: ``sum()`` adds it without compensation).
LOG_ZERO = -9999999999

#: The numpy types sacreBLEU holds statistics in, besides Python ints: ``int64`` arrays in
#: approximate randomization, ``float32`` arrays in bootstrap resampling.
ARRAY_DTYPES = ("int64", "float32")


def check_smoothing(smooth_method: str) -> None:
    """Raise :class:`~rapidbleu._base.errors.UnknownSmoothingError` (a ``ValueError``, and an
    ``AssertionError`` as sacreBLEU's assert) unless ``smooth_method`` is one of sacreBLEU's
    four methods."""
    if smooth_method not in SMOOTH_DEFAULTS:
        raise UnknownSmoothingError(
            f"unknown smooth_method {smooth_method!r}; choose one of: {', '.join(SMOOTH_DEFAULTS)}"
        )


def my_log(num: float) -> float:
    """sacreBLEU's ``my_log``: ``math.log(num)``, or the int ``LOG_ZERO`` (-9999999999) for
    ``num == 0`` (mteval's floor).

    Raises:
        ValueError: ``num`` < 0 (as ``math.log``).
    """
    return LOG_ZERO if num == 0.0 else math.log(num)


def bleu_from_stats(
    correct: Sequence[float] | np.ndarray,
    total: Sequence[float] | np.ndarray,
    sys_len: int,
    ref_len: int,
    smooth_method: str,
    smooth_value: float | None,
    effective_order: bool,
    max_ngram_order: int,
) -> tuple[float, list[float] | np.ndarray, list[float] | np.ndarray, list[float], float]:
    """BLEU (0-100) from aggregated statistics, float for float as sacreBLEU 2.x computes it.

    Args:
        correct: clipped matches per order 1..N: a sequence of numbers (Python arithmetic) or
            a numpy array (its dtype's arithmetic); a copy is made.
        total: hypothesis n-gram totals per order 1..N, the same way.
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

    Every option is the caller's (no defaults here: those of sacreBLEU's entry points,
    ``BLEU.compute_bleu``'s no smoothing among them, are theirs), and ``smooth_method`` is
    trusted: checked (:func:`check_smoothing`) where it entered, by ``BLEU(...)``,
    ``BLEU.compute_bleu`` or the function that took it.
    """
    # A copy in the caller's container type: numpy arrays keep their dtype (add-k on int64
    # truncates, float32 stays float32, as in sacreBLEU's significance tests); anything else
    # becomes a list of the caller's numbers (Python arithmetic, sacreBLEU's corpus scores).
    correct = correct.copy() if is_ndarray(correct) else list(correct)
    total = total.copy() if is_ndarray(total) else list(total)
    # The method's default when None ("none" and "exp" have none and never read the value).
    value: float = (SMOOTH_DEFAULTS[smooth_method] or 0.0) if smooth_value is None else smooth_value

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
            correct[n - 1] += value
            total[n - 1] += value
        if total[n - 1] == 0:
            break
        if effective_order:
            eff_order = n
        if correct[n - 1] == 0:
            if smooth_method == "exp":
                smooth_mteval *= 2
                precisions[n - 1] = 100.0 / (smooth_mteval * total[n - 1])
            elif smooth_method == "floor":
                precisions[n - 1] = 100.0 * value / total[n - 1]  # (in value's own type, as sacreBLEU)
        else:
            precisions[n - 1] = 100.0 * correct[n - 1] / total[n - 1]

    # The builtin sum() of a list (compensated from Python 3.12, with the int LOG_ZERO terms
    # added plainly), then one division: sacreBLEU's very float on the running interpreter.
    score = bp * math.exp(sum([my_log(p) for p in precisions[:eff_order]]) / eff_order)
    return score, correct, total, precisions, bp


def bleu_of_row(
    row: Sequence[Any],
    max_ngram_order: int = MAX_NGRAM_ORDER,
    smooth_method: str = "none",
    smooth_value: float | None = None,
    effective_order: bool = False,
) -> tuple[float, list[float], list[float], list[float], float]:
    """:func:`bleu_from_stats` of one statistics row ``[sys_len, ref_len, matches_1..N,
    totals_1..N]`` (a list, as the counting kernels' ``sentence_row`` gives it), with the same
    result: the scoring of a sentence-level call.  The compiled twin computes rows of exact ints
    below 2**53 in C (no add-k) and hands any other to this formula.

    Raises:
        ValueError: a row of another length than ``2 + 2N``.
    """
    n = check_order(max_ngram_order)
    values = list(row)
    if len(values) != 2 + 2 * n:
        raise stats_shape_error((len(values),), n)
    return cast(
        "tuple[float, list[float], list[float], list[float], float]",
        bleu_from_stats(
            values[2 : 2 + n], values[2 + n :], values[0], values[1], smooth_method, smooth_value, effective_order, n
        ),
    )


def split_row(row: Iterable[SupportsInt], max_ngram_order: int) -> tuple[int, int, list[int], list[int]]:
    """``(sys_len, ref_len, correct, total)`` as Python ints from one aggregated stats row."""
    values = [int(v) for v in row]
    n = max_ngram_order
    return values[0], values[1], values[2 : 2 + n], values[2 + n : 2 + 2 * n]


def check_matrix(
    stats: npt.ArrayLike, max_ngram_order: int, dtype: npt.DTypeLike | None, python_ints: bool = False
) -> np.ndarray:
    """``stats`` as a checked private copy: (n, 2 + 2N), in ``dtype`` (None: int64), every value
    a count from 0 to ``MAX_EXACT_COUNT`` (2**53 - 1).

    Both scoring twins take their rows from here: the copy is the call's own (the compiled
    kernels read it without the GIL while the caller's array may change), and within the range
    every count is exact in a float64, so the twins' arithmetic (Python ints, C doubles) gives
    the same floats.  With ``python_ints`` (``dtype=None`` rows that sacreBLEU scores as Python
    ints, of any size) a matrix with a count beyond the range comes back as an object array of
    Python ints instead, which both twins score with the Python formula.

    Raises:
        ValueError: a shape other than (n, 2 + 2N), a ``dtype`` other than None/int64/float32, or
            a value outside 0 .. 2**53 - 1 (or not finite; beyond it only with ``python_ints``),
            naming its row and column and quoting the value given.
    """
    arr = np.asarray(stats)
    width = 2 + 2 * max_ngram_order
    if arr.ndim != 2 or arr.shape[1] != width:
        raise stats_shape_error(arr.shape, max_ngram_order)
    if dtype is not None and np.dtype(dtype).name not in ARRAY_DTYPES:
        raise stats_dtype_error(dtype)
    if not arr.size:
        return np.array(arr, dtype=np.int64 if dtype is None else dtype, order="C")
    low = np.asarray(arr >= 0, dtype=bool)  # (nan fails both)
    high = np.asarray(arr <= MAX_EXACT_COUNT, dtype=bool)
    if python_ints and dtype is None and low.all() and not high.all() and arr.dtype.kind in "iuO":
        return np.array(arr.tolist(), dtype=object).reshape(arr.shape)
    ok = low & high
    if ok.all():
        out = np.array(arr, dtype=np.int64 if dtype is None else dtype, order="C")  # always a copy, C-ordered
        ok = (out >= 0) & (out <= MAX_EXACT_COUNT)  # (float32 rounds 2**53 - 1 up)
        if ok.all():
            return out
    row, col = (int(v) for v in np.argwhere(~ok)[0])
    v = arr[row, col]
    raise stats_range_error(row, col, v.item() if hasattr(v, "item") else v)


def check_addk_range(
    arr: np.ndarray, max_ngram_order: int, smooth_method: str, smooth_value: float | None, dtype: npt.DTypeLike | None
) -> None:
    """add-k on numpy int64 rows (sacreBLEU's approximate randomization) adds ``smooth_value`` to
    the counts of orders 2..N and stores the sums back as int64: refuse a value that takes a
    count of ``arr`` (from :func:`check_matrix`) past ``MAX_EXACT_COUNT``, where float64 and
    int64 arithmetic part (and, past 2**63, numpy fails with an unrelated message).

    Raises:
        OverflowError: a count plus ``smooth_value`` above 2**53 - 1.
    """
    if dtype is None or smooth_method != "add-k" or max_ngram_order < 2 or not arr.size:
        return
    value = cast(float, SMOOTH_DEFAULTS["add-k"]) if smooth_value is None else smooth_value  # (its default: 1)
    n = max_ngram_order
    top = max(int(arr[:, 3 : 2 + n].max()), int(arr[:, 3 + n :].max()))
    if top + value > MAX_EXACT_COUNT:
        raise addk_overflow_error(value)


def is_plain_smooth_value(smooth_value: object) -> bool:
    """A smoothing value that C doubles add exactly as sacreBLEU's Python numbers do: ``None``, a
    ``float``, or an ``int`` within 2**53 (not a numpy scalar: under NEP 50 a ``numpy.float64``
    meeting float32 statistics is not rounded to float32).  Any other is scored by the Python
    formulas here."""
    return (
        smooth_value is None
        or type(smooth_value) is float
        or (type(smooth_value) is int and -(2**53) <= smooth_value <= 2**53)
    )


def sacre_scores(
    stats: npt.ArrayLike,
    max_ngram_order: int,
    smooth_method: str,
    smooth_value: float | None,
    effective_order: bool,
    dtype: npt.DTypeLike | None = None,
    workers: int = 1,
) -> np.ndarray:
    """sacreBLEU's BLEU (0-100) of every row of a statistics matrix.

    Args:
        stats: (n, 2 + 2N) integer (or integer-valued) statistics, one corpus or segment per row.
        max_ngram_order, smooth_method, smooth_value, effective_order: as
            :func:`bleu_from_stats`.
        dtype: the arithmetic sacreBLEU applies: ``None`` for Python ints (corpus and sentence
            scores, ``compute_bleu`` on lists), ``numpy.int64`` (approximate randomization
            trials: add-k truncates), ``numpy.float32`` (bootstrap resamples: float32
            precisions; values are rounded to float32 first, as sacreBLEU's sums are).
        workers: threads (compiled twin; checked here, computed serially).

    Returns:
        float64 (n,): ``out[i] == bleu_from_stats(row_i ...)[0]``, the float sacreBLEU gives.

    Raises:
        ValueError: bad shape or dtype, a statistic outside 0 .. 2**53 - 1 (for ``dtype=None``
            only a negative or non-finite one: Python ints of any size are scored), a bad
            order (``smooth_method`` and ``smooth_value`` are trusted, as in
            :func:`bleu_from_stats`: checked where they entered).
        OverflowError: add-k on int64 rows taking a count past 2**53 - 1.
    """
    N = check_order(max_ngram_order)
    arr = check_matrix(stats, N, dtype, python_ints=True)
    check_addk_range(arr, N, smooth_method, smooth_value, dtype)
    out = np.empty(len(arr), dtype=np.float64)
    if dtype is None:
        for i, row in enumerate(arr.tolist()):
            out[i] = bleu_from_stats(
                row[2 : 2 + N], row[2 + N :], row[0], row[1], smooth_method, smooth_value, effective_order, N
            )[0]
        return out
    for i in range(len(arr)):
        row = arr[i]  # sacreBLEU's _compute_score_from_stats on an array row
        out[i] = bleu_from_stats(
            row[2 : 2 + N], row[2 + N :], int(row[0]), int(row[1]), smooth_method, smooth_value, effective_order, N
        )[0]
    return out


# ============================================================================================
# NLTK
# ============================================================================================

DEFAULT_WEIGHTS = (0.25, 0.25, 0.25, 0.25)
_TINY = sys.float_info.min  # method0's stand-in for a zero precision

#: Smoothing methods whose formula is float arithmetic on the precisions (and so has a compiled
#: twin); methods 5-7 combine exact Fractions and are computed here only.
FLOAT_METHODS = (0, 1, 2, 3, 4)


#: NLTK's Fraction shows the numbers as given in ``repr``/``str`` where ``fractions.Fraction``
#: still accepts ``_normalize=False`` (Python < 3.12); on 3.12+ it shows the reduced fraction.
_SHOWS_AS_GIVEN = sys.version_info < (3, 12)

#: ``fractions.Fraction``'s own (reduced) numerator and denominator: its property getters
#: (typeshed spells the properties as methods, hence the casts).
_reduced_numerator = cast("Callable[[_Fraction], int]", cast(property, _Fraction.numerator).fget)
_reduced_denominator = cast("Callable[[_Fraction], int]", cast(property, _Fraction.denominator).fget)


class Fraction(_Fraction):
    """A ``fractions.Fraction`` that reports its numerator and denominator as given.

    ``Fraction(2, 4).numerator == 2`` and ``.denominator == 4`` (NLTK's ``_normalize=False``
    convention, which ``corpus_bleu`` relies on to add up counts); ``_normalize=True`` reports
    the reduced ones, as NLTK's.  ``repr``/``str`` are NLTK's on the running Python:
    ``Fraction(2, 4)``/``2/4`` before 3.12, ``Fraction(1, 2)``/``1/2`` from 3.12 on.  NLTK's
    attributes ``_normalize``, ``_original_numerator`` and ``_original_denominator`` exist.

    The value, comparisons, hashing, arithmetic and ``float()`` are those of the reduced
    fraction, on every Python version (NLTK's Fraction on Python < 3.12 compares
    ``Fraction(2, 4)`` unequal to ``0.5`` and to ``Fraction(1, 2)``; this one does not).
    """

    __slots__ = ("_normalize", "_raw_denominator", "_raw_numerator")
    _normalize: bool
    _raw_numerator: int
    _raw_denominator: int

    # (the arguments are whatever fractions.Fraction accepts)
    def __new__(cls, numerator: Any = 0, denominator: Any = None, _normalize: bool = False) -> Fraction:
        self = super().__new__(cls, numerator, denominator)
        if denominator is None:  # Fraction("3/4"), Fraction(0.5), ...: nothing to keep raw
            numerator, denominator = _reduced_numerator(self), _reduced_denominator(self)
        self._raw_numerator = numerator
        self._raw_denominator = denominator
        self._normalize = _normalize
        return self

    def __reduce__(self) -> tuple[type[Fraction], tuple[int, int, bool]]:
        return (type(self), (self._raw_numerator, self._raw_denominator, self._normalize))

    def __eq__(self, other: object) -> bool:
        # fractions.Fraction compares a Rational by its public numerator and denominator, which
        # are the raw ones here (and NLTK's may be raw too): compare values.  (Being a subclass,
        # this method also answers ``stdlib_fraction == ours``.)
        n, d = _reduced_numerator(self), _reduced_denominator(self)
        if isinstance(other, numbers.Rational):  # cross-multiplied: right for unreduced ones too
            # (typeshed types a Rational's parts as _IntegralLike, which int * does not list)
            return n * other.denominator == other.numerator * d  # type: ignore[operator]
        return _Fraction(n, d) == other

    __hash__ = _Fraction.__hash__

    def __copy__(self) -> Fraction:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Fraction:
        return self

    @property
    def numerator(self) -> int:
        return _reduced_numerator(self) if self._normalize else self._raw_numerator

    @property
    def denominator(self) -> int:
        return _reduced_denominator(self) if self._normalize else self._raw_denominator

    @property
    def _original_numerator(self) -> int:
        return self._raw_numerator

    @property
    def _original_denominator(self) -> int:
        return self._raw_denominator

    def __repr__(self) -> str:
        if _SHOWS_AS_GIVEN and not self._normalize:
            return f"{type(self).__name__}({self._raw_numerator}, {self._raw_denominator})"
        return super().__repr__()

    def __str__(self) -> str:
        if _SHOWS_AS_GIVEN and not self._normalize:
            if self._raw_denominator == 1:
                return str(self._raw_numerator)
            return f"{self._raw_numerator}/{self._raw_denominator}"
        return super().__str__()


def brevity_penalty(closest_ref_len: int, hyp_len: int) -> float:
    """BLEU's brevity penalty (Papineni et al. 2002), with NLTK's return types.

    Args:
        closest_ref_len: effective reference length *r* (one sentence's, or a corpus sum).
        hyp_len: hypothesis length *c* (one sentence's, or a corpus sum).

    Returns:
        ``1`` (int) when ``c > r``; ``0`` (int) when ``c == 0``; else the float
        ``exp(1 - r / c)`` (which is ``1.0`` when ``c == r``).
    """
    if hyp_len > closest_ref_len:
        return 1
    if hyp_len == 0:
        return 0
    return math.exp(1 - closest_ref_len / hyp_len)


def _nltk_zero_order_text(order: int) -> str:
    """NLTK's warning for a zero-match order without smoothing, line for line."""
    return (
        f"\nThe hypothesis contains 0 counts of {order}-gram overlaps.\n"
        "Therefore the BLEU score evaluates to 0, independently of\n"
        "how many N-gram overlaps of lower order it contains.\n"
        "Consider using lower n-gram order or use SmoothingFunction()"
    )


def warn_zero_order(order: int, count_: int | None = None, n: int | None = None) -> None:
    """NLTK's warning for an order without a match (method 0), at the user's line; for ``count_``
    of ``n`` hypotheses of a batch, one warning that says how many."""
    if count_ is None:
        # NLTK's text and category, so that filters written for NLTK's warning apply.
        warn_outside(_nltk_zero_order_text(order), UserWarning)
        return
    who = f"{count_} of {n} hypotheses have"
    warn_outside(
        f"BLEU (NLTK convention): {who} no matching {order}-gram, so without smoothing the "
        f"{order}-gram precision is taken as sys.float_info.min and the score is close to 0 "
        "whatever the lower orders match. Use fewer orders or a SmoothingFunction method.",
        UserWarning,
    )


# NLTK's precisions p_n: a list of Fractions, which smoothing turns into floats in place.


def nltk_method0(p_n: list[Any], warn: bool = True) -> list[Any]:
    out: list[Any] = []
    for i, p in enumerate(p_n):
        if p.numerator != 0:
            out.append(p)
        else:
            if warn:
                warn_zero_order(i + 1)
            out.append(_TINY)
    return out


def nltk_method1(p_n: list[Any], epsilon: float) -> list[Any]:
    return [(p.numerator + epsilon) / p.denominator if p.numerator == 0 else p for p in p_n]


def nltk_method2(p_n: list[Any]) -> list[Any]:
    return [Fraction(p.numerator + 1, p.denominator + 1, _normalize=False) if i else p for i, p in enumerate(p_n)]


def nltk_method3(p_n: list[Any]) -> list[Any]:
    k = 1
    for i, p in enumerate(p_n):
        if p.numerator == 0:
            p_n[i] = 1 / (2**k * p.denominator)
            k += 1
    return p_n


def nltk_method4(p_n: list[Any], hyp_len: int, k: float) -> list[Any]:
    inc = 1
    for i, p in enumerate(p_n):
        if p.numerator == 0 and hyp_len > 1:
            # Chen & Cherry's 1/ln(len) scaling of the NIST 1/2**k (NLTK's arrangement).
            p_n[i] = (1 / (2**inc * k / math.log(hyp_len))) / p.denominator
            inc += 1
    return p_n


def nltk_method5(p_n: list[Any], p5_last: Any) -> list[Any]:
    ahead = [*list(p_n), p5_last]
    prev = p_n[0] + 1
    for i in range(len(p_n)):
        prev = p_n[i] = (prev + ahead[i] + ahead[i + 1]) / 3
    return p_n


def nltk_method6(p_n: list[Any], last_hyp_len: int, alpha: float) -> list[Any]:
    if len(p_n) < 3:
        raise SmoothingError("smoothing method 6 needs weights for at least 3 n-gram orders")
    if not p_n[2]:
        # NLTK's message speaks of bigrams, but it tests the trigram precision.
        raise SmoothingError(
            "smoothing method 6 needs a non-zero trigram precision (NLTK: 'requires non-zero precision for bigrams')"
        )
    for i in range(2, len(p_n)):
        before = p_n[i - 2]
        prior = 0 if before == 0 else p_n[i - 1] ** 2 / before
        matches = p_n[i].numerator
        ngrams = max(0, last_hyp_len - i)  # (i+1)-grams in the (last) hypothesis
        p_n[i] = (matches + alpha * prior) / (ngrams + alpha)
    return p_n


def _score(
    p_n: list[Any], weight_list: Sequence[Sequence[float]], bp: float, hyp_len: int, auto_reweigh: bool
) -> list[float]:
    """NLTK's final step: ``bp * exp(fsum(w_n * log p_n for p_n > 0))`` per weight tuple."""
    scores: list[float] = []
    for weights in weight_list:
        weight = (1 / hyp_len,) * hyp_len if auto_reweigh and hyp_len < 4 and weights == DEFAULT_WEIGHTS else weights
        terms = [w * math.log(p) for w, p in zip(weight, p_n, strict=False) if p > 0]
        scores.append(bp * math.exp(math.fsum(terms)))
    return scores


def nltk_from_counts(
    numerators: Sequence[int],
    denominators: Sequence[int],
    hyp_len: int,
    ref_len: int,
    weight_list: Sequence[Sequence[float]],
    method: int | None,
    smoother: Any,
    auto_reweigh: bool,
    p5_last: Callable[[], Any] | None,
    last_hyp_len: int,
    tokens: tuple[Any, Any] | None = None,
    warn: bool = True,
) -> list[float]:
    """Scores (a list, one per weight tuple) from counts, as NLTK combines them.

    ``smoother``: a ``SmoothingFunction`` (its ``epsilon``, ``k``, ``alpha``) or, when ``method``
    is None, the user's own smoothing callable;
    ``p5_last``: a callable returning the last pair's 5-gram modified precision (methods 5, 7);
    ``last_hyp_len``: the last hypothesis's length (method 6 counts its n-grams);
    ``tokens``: ``(last references, last hypothesis)``, needed only by a callable
    ``smoother`` (``method is None``), which receives them as NLTK passes them.

    Scores are NLTK's (0-1): ``bp * exp(fsum(w_n * log p_n))`` over the positive smoothed
    precisions (Papineni et al. 2002; smoothing methods of Chen and Cherry 2014 as NLTK 3.9/3.10
    implement them); the int ``0`` when no unigram matches.

    Raises:
        SmoothingError: method 6 on fewer than 3 orders or a zero trigram precision.
    """
    p_n = [Fraction(m, d, _normalize=False) for m, d in zip(numerators, denominators, strict=False)]
    if numerators[0] == 0:
        return [0] * len(weight_list)
    bp = brevity_penalty(ref_len, hyp_len)
    if method is None:
        assert tokens is not None, "a custom smoothing callable needs the tokens"  # the callers' contract
        last_refs, last_hyp = tokens
        p_n = smoother(p_n, references=last_refs, hypothesis=last_hyp, hyp_len=hyp_len)
    elif method == 0:
        p_n = nltk_method0(p_n, warn=warn)
    elif method == 1:
        p_n = nltk_method1(p_n, smoother.epsilon)
    elif method == 2:
        p_n = nltk_method2(p_n)
    elif method == 3:
        p_n = nltk_method3(p_n)
    elif method == 4:
        p_n = nltk_method4(p_n, hyp_len, smoother.k)
    elif method == 6:
        p_n = nltk_method6(p_n, last_hyp_len, smoother.alpha)
    else:
        assert p5_last is not None, "methods 5 and 7 need p5_last"  # the callers' contract
        p_n = nltk_method5(p_n if method == 5 else nltk_method4(p_n, hyp_len, smoother.k), p5_last())
    return _score(p_n, weight_list, bp, hyp_len, auto_reweigh)


def check_nltk_weights(weights: Sequence[float], max_ngram_order: int, method: int, reweigh: bool) -> tuple[float, ...]:
    """The checks both ``nltk_scores`` twins make on their parameters; the weights as floats.

    Raises:
        ValueError: a method not in :data:`FLOAT_METHODS`, no weights or more than N, or
            ``reweigh`` (NLTK's ``auto_reweigh``, defined for its default weights only) with
            other weights.
    """
    if method not in FLOAT_METHODS:
        raise float_method_error(method, FLOAT_METHODS)
    weight = tuple(float(w) for w in weights)
    if not 1 <= len(weight) <= max_ngram_order:
        raise weights_count_error(len(weight), max_ngram_order)
    if reweigh and weight != DEFAULT_WEIGHTS:
        raise reweigh_weights_error(weight)
    return weight


def is_plain_number(x: object, bound: float = 2.0**52) -> bool:
    """An ``int`` or ``float`` (not ``bool``) of magnitude below ``bound``: a parameter the
    compiled formulas reproduce operation for operation (exact as a float64, no overflow on the
    way); anything else (numpy scalars, Fractions, Decimals, huge values) is computed by the
    Python formulas here."""
    if type(x) is float:  # (the usual case, without the isinstance calls; nan is not plain)
        return -bound < x < bound
    return isinstance(x, (int, float)) and not isinstance(x, bool) and abs(x) < bound


class _Params:
    """The parameters of the float methods, as a ``SmoothingFunction``'s attributes."""

    def __init__(self, epsilon: float, k: float) -> None:
        self.epsilon = epsilon
        self.k = k


def nltk_of_row(
    row: Sequence[Any],
    max_ngram_order: int,
    weights: Sequence[float],
    method: int,
    epsilon: float,
    k: float,
    reweigh: bool,
) -> float:
    """:func:`nltk_scores` of one statistics row (a list of ``2 + 2N`` counts, as the counting
    kernels' ``token_row`` gives it) as a float: the scoring of NLTK's ``sentence_bleu`` called
    once per segment, without the matrix.  Same parameters and errors as :func:`nltk_scores`."""
    return float(nltk_scores([list(row)], max_ngram_order, weights, method, epsilon, k, reweigh)[0])


def nltk_scores(
    stats: npt.ArrayLike,
    max_ngram_order: int,
    weights: Sequence[float],
    method: int,
    epsilon: float,
    k: float,
    reweigh: bool,
    workers: int = 1,
) -> np.ndarray:
    """NLTK's ``sentence_bleu`` (0-1) of every row of a statistics matrix, for one weight tuple
    and a float smoothing method (0-4).

    Args:
        stats: int64 (n, 2 + 2N): row i the statistics of one hypothesis against its references.
        max_ngram_order: N.
        weights: K <= N per-order weights (orders beyond K are not read).
        method: NLTK's ``SmoothingFunction`` method number, one of :data:`FLOAT_METHODS`.
        epsilon: method 1's count for zero-match orders; k: method 4's constant.
        reweigh: NLTK's ``auto_reweigh`` with the default weights: a hypothesis of c < 4
            tokens is scored with ``(1/c,) * c``.
        workers: threads (compiled twin; checked here, computed serially).

    Returns:
        float64 (n,): each value ``nltk_from_counts`` of the row (0.0 where no unigram matches).

    Raises:
        ValueError: bad shape, a statistic outside 0 .. 2**53 - 1, bad order, method, weights
            (``reweigh`` with weights other than NLTK's default included) or workers.
    """
    N = check_order(max_ngram_order)
    return _nltk_scores(check_matrix(stats, N, None), N, weights, method, epsilon, k, reweigh)


def nltk_kernel_scores(
    stats: np.ndarray,
    max_ngram_order: int,
    weights: Sequence[float],
    method: int,
    epsilon: float,
    k: float,
    reweigh: bool,
    workers: int = 1,
) -> np.ndarray:
    """:func:`nltk_scores` of rows a counting kernel of this package has just returned
    (``flat_stats``, ``token_stats``, the set and pairwise kernels): an int64 C-contiguous
    ``(n, 2 + 2N)`` array that the caller owns and nobody else holds, every row one
    hypothesis's statistics (counts far below 2**53, ``totals_n = max(0, hyp_len - n + 1)``).

    Those rows need no check, so this entry skips :func:`check_matrix` (its copy and its range
    check cost more than scoring a small batch): the same floats as :func:`nltk_scores` for
    such rows.  Anything else (another dtype, shape or layout, a list) is scored by
    :func:`nltk_scores`, checks included; the compiled twin reads the rows in place without
    the GIL, which is why they must be the caller's own.  Same other arguments and errors.
    """
    N = check_order(max_ngram_order)
    if not (
        type(stats) is np.ndarray
        and stats.dtype == np.int64
        and stats.ndim == 2
        and stats.shape[1] == 2 + 2 * N
        and stats.flags.c_contiguous
    ):
        return nltk_scores(stats, N, weights, method, epsilon, k, reweigh, workers)
    return _nltk_scores(stats, N, weights, method, epsilon, k, reweigh)


def _nltk_scores(
    arr: np.ndarray, N: int, weights: Sequence[float], method: int, epsilon: float, k: float, reweigh: bool
) -> np.ndarray:
    """:func:`nltk_scores` of a checked int64 ``(n, 2 + 2N)`` matrix."""
    weight = check_nltk_weights(weights, N, method, reweigh)
    params = _Params(epsilon, k)
    out = np.zeros(len(arr), dtype=np.float64)
    if len(arr) == 0:
        return out
    K = len(weight)
    # Each distinct row once: self-BLEU and pairwise matrices repeat rows a lot.
    uniq, inverse = np.unique(arr, axis=0, return_inverse=True)
    scores = np.empty(len(uniq), dtype=np.float64)
    for u, row in enumerate(uniq.tolist()):
        if row[0] == 0:  # an empty hypothesis: brevity penalty 0 (NLTK: no unigram can match)
            scores[u] = 0.0
            continue
        nums = row[2 : 2 + K]
        dens = [max(1, t) for t in row[2 + N : 2 + N + K]]
        scores[u] = nltk_from_counts(
            nums, dens, row[0], row[1], [weight], method, params, reweigh, None, row[0], warn=False
        )[0]
    return scores[inverse.reshape(-1)]
