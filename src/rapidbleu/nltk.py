"""Drop-in replacement for ``nltk.translate.bleu_score``, computed by rapidbleu's n-gram core.

Replace ``from nltk.translate.bleu_score import corpus_bleu, sentence_bleu, SmoothingFunction``
by ``from rapidbleu.nltk import ...``: the functions take the same arguments and return the
same values as NLTK 3.9/3.10 (every smoothing method, weights with any number of orders, lists
of weight tuples, ``auto_reweigh``), NLTK's quirks included.  Scores are NLTK's: a fraction
in [0, 1] (not sacreBLEU's 0-100).

Conventions (NLTK's):

* a hypothesis is a sequence of tokens; the references of one hypothesis are a list of such
  sequences; tokens are any hashable objects (``str``, ``int``, ...) compared with ``==``;
* ``weights`` is one tuple of per-order weights ``(w_1, ..., w_N)`` or a list of such tuples
  (then one score per tuple, all computed from one pass of statistics); the highest order
  computed is the longest tuple's length;
* the clipped n-gram counts come from the compiled core (``rapidbleu._backend.stats``), after
  the tokens are mapped to integer ids (one dictionary per call).

The module also has the names NLTK's module gets from its imports: ``ngrams`` (as
``nltk.util.ngrams``), ``Counter``, ``Fraction`` (see :class:`Fraction`), ``math``, ``sys``,
``warnings``.

Not in NLTK: ``sentence_bleu_batch`` (a loop of ``sentence_bleu`` in one call) and
``sentence_bleu_from_stats``, the same scores from a statistics matrix (rows ``[hyp_len,
ref_len, matches_1..N, totals_1..N]``, as ``rapidbleu.ids.stats_ids`` and sacreBLEU compute
them; N >= 5 for smoothing methods 5 and 7).  ``rapidbleu.batch`` (self-BLEU, pairwise
matrices) scores NLTK-style through it.

Formulas: BLEU and the brevity penalty from Papineni, Roukos, Ward and Zhu (2002), "BLEU: a
method for automatic evaluation of machine translation", ACL; smoothing methods 1-7 from Chen
and Cherry (2014), "A Systematic Comparison of Smoothing Techniques for Sentence-Level BLEU",
WMT; both as implemented (and adapted) by NLTK's ``nltk.translate.bleu_score``.

Where NLTK departs from the BLEU definition (kept here on purpose, for identical numbers):

* the precision denominator of a hypothesis shorter than n is ``max(1, 0) = 1`` n-gram, not 0,
  so short hypotheses lower the corpus precisions of high orders;
* with no smoothing a zero-match order gives the precision ``sys.float_info.min`` instead of
  making the score exactly 0, so the score is a tiny positive number (e.g. ``1.5e-154``);
* corpus-level smoothing reads the *last* sentence (methods 5-7 use its 5-gram precision,
  method 6 its n-gram counts) and the corpus hypothesis length (methods 4 and 7);
* a corpus whose hypotheses match no unigram scores ``0`` (an ``int``).

For BLEU as defined by Papineni et al. and computed by mteval-v13a/sacreBLEU use
``rapidbleu.BLEU`` (scores 0-100).

Errors: differing numbers of hypotheses and reference lists raise :class:`LengthMismatchError`
(a ``ValueError``, and an ``AssertionError`` as NLTK's assert); an empty corpus raises
:class:`EmptyCorpusError` (a ``ValueError`` and a ``ZeroDivisionError`` as NLTK's
``Fraction(0, 0)``); a hypothesis without any reference raises :class:`NoReferencesError`
(a ``ValueError``, and a ``KeyError`` as NLTK's); a ``None`` hypothesis, a dict or a set raises
``TypeError`` naming it.  Without smoothing, an order with no match warns with NLTK's text and
category (``UserWarning``).
"""

# math, sys, warnings, Counter and _Fraction: names NLTK's bleu_score module has (from its
# imports), which code written against it may reach for.
import math  # noqa: F401
import sys
import warnings  # noqa: F401
from collections import Counter, deque  # noqa: F401
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence, Sized
from contextlib import contextmanager
from fractions import Fraction as _Fraction  # noqa: F401
from itertools import chain, islice, repeat
from typing import Any, overload

import numpy as np

from . import _backend
from ._scoring_py import (
    _DEFAULT_WEIGHTS,
    FLOAT_METHODS,
    Fraction,
    SmoothingError,
    _m0,
    _m1,
    _m2,
    _m3,
    _m4,
    _m5,
    _m6,
    _warn_zero_order,
    brevity_penalty,
    nltk_from_counts,
)
from ._validate import (
    MAX_ORDER_LIMIT,
    NoReferencesError,
    check_nltk_hypotheses,
    check_nltk_references,
    check_order,
    check_ordered,
    resolve_workers,
)

#: A smoothing function: a ``SmoothingFunction().methodK`` or a callable with NLTK's signature.
SmoothingCallable = Callable[..., Any]
#: One hypothesis or reference: a sequence of hashable tokens (``str``, ``int``, ...).
Tokens = Sequence[Hashable]

__all__ = [
    "EmptyCorpusError",
    "Fraction",
    "LengthMismatchError",
    "NoReferencesError",
    "SmoothingError",
    "SmoothingFunction",
    "brevity_penalty",
    "closest_ref_length",
    "corpus_bleu",
    "modified_precision",
    "ngrams",
    "sentence_bleu",
    "sentence_bleu_batch",
    "sentence_bleu_from_stats",
]


class LengthMismatchError(ValueError, AssertionError):
    """Different numbers of hypotheses and reference lists (NLTK: a bare ``assert``)."""


class EmptyCorpusError(ValueError, ZeroDivisionError):
    """``corpus_bleu`` of no hypotheses (NLTK: ``ZeroDivisionError`` from ``Fraction(0, 0)``)."""


def ngrams(
    sequence: Iterable[Any],
    n: int,
    pad_left: bool = False,
    pad_right: bool = False,
    left_pad_symbol: Any = None,
    right_pad_symbol: Any = None,
) -> Iterator[tuple[Any, ...]]:
    """The n-grams of ``sequence`` as tuples, lazily: ``nltk.util.ngrams`` (which NLTK's
    ``bleu_score`` module imports), same results for the same arguments.

    >>> list(ngrams([1, 2, 3, 4], 3))
    [(1, 2, 3), (2, 3, 4)]

    Args:
        sequence: any iterable (read once).
        n: the order; 0 gives ``len(sequence) + 1`` empty tuples, as NLTK's.
        pad_left, pad_right: add ``n - 1`` pad symbols before / after the sequence.
        left_pad_symbol, right_pad_symbol: the pad symbols (default None).

    Returns:
        A generator of ``n``-tuples (nothing when the padded sequence is shorter than ``n``).
    """
    items: Iterator[Any] = iter(sequence)
    if pad_left:
        items = chain(repeat(left_pad_symbol, n - 1), items)
    if pad_right:
        items = chain(items, repeat(right_pad_symbol, n - 1))
    # A sliding window (the itertools documentation's recipe): fill n items, then slide by one.
    window = deque(islice(items, n), maxlen=n)
    if len(window) == n:
        yield tuple(window)
    for item in items:
        window.append(item)
        yield tuple(window)


# --------------------------------------------------------------------------- token ids, stats


def _check_segments(list_of_references, hypotheses):
    """No ``None`` hypothesis (``TypeError``), then no empty list of references
    (``NoReferencesError``), each named by its first index (``rapidbleu._validate``)."""
    check_nltk_hypotheses(hypotheses)
    check_nltk_references(list_of_references)


def _check_corpus_args(list_of_references, hypotheses):
    """Input checks of ``corpus_bleu`` and ``sentence_bleu_batch`` before any counting
    (``rapidbleu._validate``): dicts and sets refused; when the lengths differ, also
    :func:`_check_segments` (its errors come first).  Otherwise the per-segment checks wait for
    :func:`_segments_checked_on_error`: the core reads every segment anyway, and scanning 200,000
    segments twice in Python cost 5% of a ``sentence_bleu_batch`` call."""
    check_ordered(list_of_references, "list_of_references")
    check_ordered(hypotheses, "hypotheses")
    if len(list_of_references) != len(hypotheses):
        _check_segments(list_of_references, hypotheses)


@contextmanager
def _segments_checked_on_error(list_of_references, hypotheses):
    """Raise what :func:`_check_segments` raises if the body raises ``TypeError`` or
    ``ValueError`` and the segments fail those checks; else the body's own error.

    The errors are then those of checking every segment before anything else: the core refuses a
    ``None`` hypothesis or an empty list of references too, but in segment order, and the
    weights are read before it counts.
    """
    try:
        yield
    except (TypeError, ValueError) as exc:
        error = exc
    else:
        return
    try:
        _check_segments(list_of_references, hypotheses)
    except (TypeError, ValueError) as check_error:
        check_error.__context__ = None  # raised as if first: not "during handling of" the body's
        raise
    raise error


def _stats(list_of_references, hypotheses, max_order, workers=1):
    """int64 (n, 2 + 2N) statistics from the core (layout in ``rapidbleu._stats``).

    The tokens go to the core as they are: it reads lists of ``str`` or ``int`` tokens directly
    and maps any other segment's tokens through a dict (Python's equality, as NLTK's Counters).
    """
    if len(hypotheses) == 0:
        return np.zeros((0, 2 + 2 * max_order), dtype=np.int64)
    return _backend.stats.token_stats(hypotheses, list_of_references, max_order, workers=workers)


def stats_order(order: int, method) -> int:
    """Orders of statistics that NLTK-style scoring of ``order`` orders needs: smoothing
    methods 5 and 7 also read each sentence's 5-gram precision, whatever the weights."""
    return max(order, 5) if method in (5, 7) else order


def _max_order(weight_list) -> int:
    """The longest weight tuple's length (0 allowed: NLTK scores 0), within the order limit."""
    max_order = max(len(w) for w in weight_list)
    if max_order > MAX_ORDER_LIMIT:
        # NLTK scores any length; the compiled statistics stop at MAX_ORDER_LIMIT orders.  Say
        # so in terms of the argument given (check_order would name max_ngram_order)
        raise ValueError(
            f"weights has {max_order} entries (n-gram orders); rapidbleu supports at most {MAX_ORDER_LIMIT}"
        )
    return check_order(max_order) if max_order else 0


def _check_lengths(list_of_references, hypotheses):
    n_refs, n_hyps = len(list_of_references), len(hypotheses)
    if n_refs != n_hyps:
        raise LengthMismatchError(
            f"{n_hyps} hypotheses but {n_refs} lists of references; give one list of references per hypothesis"
        )


def _weight_list(weights) -> tuple[list, bool]:
    """NLTK's reading of ``weights``: ``(list of weight tuples, several scores wanted)``.

    ``weights`` counts as a list of tuples when ``weights[0][0]`` exists, else as one tuple.
    """
    try:
        weights[0][0]
    except (TypeError, IndexError):
        weights = [weights]
    weights = list(weights)
    return weights, len(weights) != 1


# --------------------------------------------------------------------------- public helpers


def modified_precision(references: Sequence[Tokens], hypothesis: Tokens, n: int) -> Fraction:
    """Clipped n-gram precision of one hypothesis, as an unreduced :class:`Fraction`.

    Args:
        references: list of reference token sequences (at least one).
        hypothesis: token sequence.
        n: n-gram order, an int >= 1.

    Returns:
        ``Fraction(matches, max(1, total))`` with numerator and denominator as computed (not
        reduced): ``matches`` counts each hypothesis n-gram at most as often as it occurs in
        any single reference (Papineni et al. 2002), ``total = max(0, len(hypothesis) - n + 1)``.
        The ``max(1, .)`` is NLTK's (it keeps a hypothesis shorter than ``n`` from dividing by
        zero); the BLEU definition has 0 n-grams there.

    Raises:
        ValueError: ``n < 1`` or no references.
    """
    n = int(n)
    if n < 1:
        raise ValueError(f"modified_precision: n must be >= 1, got {n}")
    row = _stats([references], [hypothesis], n)[0]
    return Fraction(int(row[1 + n]), max(1, int(row[1 + 2 * n])), _normalize=False)


def closest_ref_length(references: Iterable[Sized], hyp_len: int) -> int:
    """Length of the reference closest in length to ``hyp_len``; ties go to the shorter one.

    This is *r* of the brevity penalty (Papineni et al. 2002).

    Args:
        references: iterable of reference token sequences (at least one).
        hyp_len: hypothesis length in tokens.

    Returns:
        int, a reference length.

    Raises:
        ValueError: no references.
    """
    best: int | None = None
    for ref in references:
        ref_len = len(ref)
        if best is None or (abs(ref_len - hyp_len), ref_len) < (abs(best - hyp_len), best):
            best = ref_len
    if best is None:
        raise ValueError("closest_ref_length: no references")
    return best


class SmoothingFunction:
    """Smoothing techniques for sentence-level BLEU of Chen and Cherry (2014), as in NLTK.

    Each ``methodK(p_n, references, hypothesis, hyp_len=None)`` takes the list of modified
    precisions (:class:`Fraction` per order 1..N) and returns the smoothed list (Fractions or
    floats); methods 3, 4, 6 and 7 also modify ``p_n`` in place, as NLTK's do. Pass a bound
    method as ``smoothing_function``; ``corpus_bleu`` then uses a vectorised equivalent.

    Args:
        epsilon: count given to zero-match orders by method 1 (default 0.1).
        alpha: weight of the prior in method 6 (default 5).
        k: constant of method 4 (default 5).
    """

    def __init__(self, epsilon: float = 0.1, alpha: float = 5, k: float = 5) -> None:
        self.epsilon = epsilon
        self.alpha = alpha
        self.k = k

    def method0(self, p_n: list[Any], *args: Any, **kwargs: Any) -> list[Any]:
        """No smoothing: a zero-match order's precision becomes ``sys.float_info.min`` (NLTK),
        with a ``UserWarning``; the score is then a tiny positive number, not BLEU's 0."""
        return _m0(p_n)

    def method1(self, p_n: list[Any], *args: Any, **kwargs: Any) -> list[Any]:
        """Method 1 (Chen & Cherry 2014): a zero-match order gets ``epsilon / total``."""
        return _m1(p_n, self.epsilon)

    def method2(self, p_n: list[Any], *args: Any, **kwargs: Any) -> list[Any]:
        """Method 2 (Lin & Och 2004, ORANGE): add 1 to numerator and denominator of every
        order above 1."""
        return _m2(p_n)

    def method3(self, p_n: list[Any], *args: Any, **kwargs: Any) -> list[Any]:
        """Method 3 (NIST geometric sequence, mteval-v13a): the k-th zero-match order gets
        ``1 / (2**k * total)``."""
        return _m3(p_n)

    def method4(
        self,
        p_n: list[Any],
        references: Sequence[Tokens],
        hypothesis: Tokens,
        hyp_len: int | None = None,
        *args: Any,
        **kwargs: Any,
    ) -> list[Any]:
        """Method 4: like method 3, the k-th zero-match order gets
        ``ln(len) / (2**k * self.k) / total``, ``len`` = ``hyp_len`` or ``len(hypothesis)``;
        nothing changes when ``len <= 1``."""
        return _m4(p_n, hyp_len if hyp_len else len(hypothesis), self.k)

    def method5(
        self,
        p_n: list[Any],
        references: Sequence[Tokens],
        hypothesis: Tokens,
        hyp_len: int | None = None,
        *args: Any,
        **kwargs: Any,
    ) -> list[Any]:
        """Method 5: each order's precision becomes the mean of its smoothed lower neighbour
        (order 0 counts as ``p_1 + 1``), itself and the next order; after the last order comes
        the 5-gram precision of ``hypothesis`` against ``references`` (whatever N is)."""
        return _m5(p_n, modified_precision(references, hypothesis, 5))

    def method6(
        self,
        p_n: list[Any],
        references: Sequence[Tokens],
        hypothesis: Tokens,
        hyp_len: int | None = None,
        *args: Any,
        **kwargs: Any,
    ) -> list[Any]:
        """Method 6 (Gao & He 2013): orders n >= 3 interpolate ``(m_n + alpha * pi0) /
        (l_n + alpha)`` with the prior ``pi0 = p_{n-1}**2 / p_{n-2}``; ``l_n`` counts the n-grams
        of ``hypothesis``. Raises :class:`SmoothingError` when fewer than 3 orders or the
        trigram precision is 0 (NLTK: ``IndexError`` / ``AssertionError``)."""
        return _m6(p_n, len(hypothesis), self.alpha)

    def method7(
        self,
        p_n: list[Any],
        references: Sequence[Tokens],
        hypothesis: Tokens,
        hyp_len: int | None = None,
        *args: Any,
        **kwargs: Any,
    ) -> list[Any]:
        """Method 7: method 4, then method 5."""
        p_n = _m4(p_n, hyp_len if hyp_len else len(hypothesis), self.k)
        return _m5(p_n, modified_precision(references, hypothesis, 5))


_METHODS = tuple(f"method{i}" for i in range(8))


def _resolve_smoothing(fn):
    """``(method number, SmoothingFunction-like instance)`` for the known methods, else
    ``(None, fn)``; NLTK's own ``SmoothingFunction`` methods are recognised too."""
    if not fn:
        return 0, None
    owner = getattr(fn, "__self__", None)
    func = getattr(fn, "__func__", None)
    if owner is None or func is None:
        return None, fn
    classes = [SmoothingFunction]
    nltk_bleu = sys.modules.get("nltk.translate.bleu_score")
    if nltk_bleu is not None and hasattr(nltk_bleu, "SmoothingFunction"):
        classes.append(nltk_bleu.SmoothingFunction)
    for cls in classes:
        if isinstance(owner, cls):
            for number, name in enumerate(_METHODS):
                if func is getattr(cls, name, None):
                    return number, owner
    return None, fn


# --------------------------------------------------------------------------- scoring


@overload
def corpus_bleu(
    list_of_references: Sequence[Sequence[Tokens]],
    hypotheses: Sequence[Tokens],
    weights: Sequence[float] = ...,
    smoothing_function: SmoothingCallable | None = ...,
    auto_reweigh: bool = ...,
    *,
    workers: int = ...,
) -> float: ...
@overload
def corpus_bleu(
    list_of_references: Sequence[Sequence[Tokens]],
    hypotheses: Sequence[Tokens],
    weights: Sequence[Sequence[float]],
    smoothing_function: SmoothingCallable | None = ...,
    auto_reweigh: bool = ...,
    *,
    workers: int = ...,
) -> list[float]: ...
def corpus_bleu(
    list_of_references: Sequence[Sequence[Tokens]],
    hypotheses: Sequence[Tokens],
    weights: Sequence[float] | Sequence[Sequence[float]] = _DEFAULT_WEIGHTS,
    smoothing_function: SmoothingCallable | None = None,
    auto_reweigh: bool = False,
    *,
    workers: int = 1,
) -> float | list[float]:
    """Corpus-level BLEU, equal to NLTK's ``nltk.translate.bleu_score.corpus_bleu``.

    Clipped n-gram matches and n-gram counts are summed over the corpus before dividing
    (micro-average, Papineni et al. 2002); the brevity penalty uses the summed hypothesis
    lengths and summed closest reference lengths.  See the module docstring for NLTK's
    departures from the BLEU definition; ``rapidbleu.BLEU`` computes sacreBLEU's BLEU.

    Args:
        list_of_references: n lists of reference token sequences (at least one each).
        hypotheses: n hypothesis token sequences.
        weights: one tuple of per-order weights, or a list of such tuples.
        smoothing_function: a ``SmoothingFunction`` method (ours or NLTK's), any callable with
            NLTK's signature (it receives the precisions, the *last* references and hypothesis
            and the corpus hypothesis length), or ``None`` for method 0.
        auto_reweigh: if the corpus has fewer than 4 hypothesis tokens and ``weights`` is the
            default tuple, use ``(1/c,) * c`` instead.
        workers: threads for the compiled core (1 = serial, -1 = all cores); not in NLTK.

    Returns:
        The score in [0, 1] (a float; the int ``0`` when no unigram matches), or a list of
        them when ``weights`` is a list of several tuples.

    Raises:
        LengthMismatchError: ``len(list_of_references) != len(hypotheses)``.
        EmptyCorpusError: no hypotheses.
        NoReferencesError: a hypothesis without references (a ``ValueError`` and, as NLTK, a
            ``KeyError``).
        TypeError: a ``None`` hypothesis (named by index), a dict or set instead of a list.
        SmoothingError: method 6 on fewer than 3 orders or a zero trigram precision.
    """
    resolve_workers(workers)
    _check_corpus_args(list_of_references, hypotheses)
    _check_lengths(list_of_references, hypotheses)
    with _segments_checked_on_error(list_of_references, hypotheses):
        weight_list, several = _weight_list(weights)
        max_order = _max_order(weight_list)
        if max_order == 0:  # NLTK: no precision at all counts as "no unigram match"
            _check_segments(list_of_references, hypotheses)
            return [0] * len(weight_list) if several else 0
        if len(hypotheses) == 0:
            raise EmptyCorpusError("corpus_bleu: no hypotheses (NLTK raises ZeroDivisionError here)")
        method, smoother = _resolve_smoothing(smoothing_function)
        stats = _stats(list_of_references, hypotheses, max_order, workers=workers)
    sums = stats.sum(axis=0)
    dens = np.maximum(stats[:, 2 + max_order :], 1).sum(axis=0)
    last_refs, last_hyp = list_of_references[-1], hypotheses[-1]

    def p5_last():
        if max_order >= 5:
            row = stats[-1]
            return Fraction(int(row[6]), max(1, int(row[6 + max_order])), _normalize=False)
        return modified_precision(last_refs, last_hyp, 5)

    scores = nltk_from_counts(
        [int(v) for v in sums[2 : 2 + max_order]],
        [int(v) for v in dens],
        int(sums[0]),
        int(sums[1]),
        weight_list,
        method,
        smoother,
        auto_reweigh,
        p5_last,
        len(last_hyp),
        tokens=(last_refs, last_hyp),
    )
    return scores if several else scores[0]


@overload
def sentence_bleu(
    references: Sequence[Tokens],
    hypothesis: Tokens,
    weights: Sequence[float] = ...,
    smoothing_function: SmoothingCallable | None = ...,
    auto_reweigh: bool = ...,
) -> float: ...
@overload
def sentence_bleu(
    references: Sequence[Tokens],
    hypothesis: Tokens,
    weights: Sequence[Sequence[float]],
    smoothing_function: SmoothingCallable | None = ...,
    auto_reweigh: bool = ...,
) -> list[float]: ...
def sentence_bleu(
    references: Sequence[Tokens],
    hypothesis: Tokens,
    weights: Sequence[float] | Sequence[Sequence[float]] = _DEFAULT_WEIGHTS,
    smoothing_function: SmoothingCallable | None = None,
    auto_reweigh: bool = False,
) -> float | list[float]:
    """Sentence-level BLEU, equal to NLTK's ``sentence_bleu``: ``corpus_bleu`` of one pair.

    Args:
        references: list of reference token sequences (at least one).
        hypothesis: token sequence.
        weights, smoothing_function, auto_reweigh: as in :func:`corpus_bleu`.

    Returns:
        The score in [0, 1] (the int ``0`` when no unigram matches, e.g. an empty hypothesis),
        or a list of scores for a list of weight tuples.  Without smoothing a sentence that
        misses some higher order scores a tiny positive number (NLTK), not 0.

    Raises:
        NoReferencesError: no references (a ``ValueError`` and a ``KeyError``, as NLTK).
        SmoothingError, TypeError: as in :func:`corpus_bleu`.
    """
    if hypothesis is None:
        raise TypeError("hypothesis is None (it must be a sequence of tokens; use [] for an empty output)")
    return corpus_bleu([references], [hypothesis], weights, smoothing_function, auto_reweigh)  # type: ignore[arg-type]


def _check_stats(stats, max_ngram_order):
    """``(int64 array (n, 2 + 2N), N)`` after checking the layout of a statistics matrix."""
    arr = np.asarray(stats)
    if arr.dtype == object or not (np.issubdtype(arr.dtype, np.integer) or arr.size == 0):
        raise TypeError(f"stats must be an integer array, got dtype {arr.dtype}")
    if arr.ndim != 2 or arr.shape[1] < 4 or arr.shape[1] % 2:
        raise ValueError(
            f"stats must have shape (n, 2 + 2N) with N >= 1 ([hyp_len, ref_len, matches_1..N, "
            f"totals_1..N] per row), got {arr.shape}"
        )
    arr = arr.astype(np.int64, copy=False)
    N = (arr.shape[1] - 2) // 2
    if max_ngram_order is not None and int(max_ngram_order) != N:
        raise ValueError(f"max_ngram_order={max_ngram_order} but stats hold {N} orders (shape {arr.shape})")
    c = arr[:, 0]
    M, T = arr[:, 2 : 2 + N], arr[:, 2 + N :]
    if len(arr) and (arr.min() < 0 or (M > T).any()):
        raise ValueError("stats must be non-negative counts with matches_n <= totals_n")
    if not np.array_equal(T, np.maximum(0, c[:, None] - np.arange(N)[None, :])):
        raise ValueError(
            "stats: totals_n must be max(0, hyp_len - n + 1) (the n-grams of the hypothesis); "
            "these rows do not come from BLEU statistics of one hypothesis each"
        )
    return arr, N


def _warn_method0_rows(M, rows, up):
    """Method 0's warnings, one per order that some scored row misses; ``up``: frames from
    this function's caller to the user's call."""
    zero = M[rows] == 0
    for j in range(M.shape[1]):
        missing = int(np.count_nonzero(zero[:, j]))
        if missing:
            _warn_zero_order(j + 1, stacklevel=up + 3, count_=missing, n=len(M))


def _is_plain_number(x) -> bool:
    """A parameter the compiled methods reproduce exactly: an int or float (not a Fraction or
    Decimal, whose exact arithmetic only the Python formula follows)."""
    return isinstance(x, (int, float)) and not isinstance(x, bool) and abs(x) < 2**52


def _is_plain_float_tuple(weight) -> bool:
    return all(map(_is_plain_number, weight))


def _from_stats(
    stats, N, weight_list, method, smoother, auto_reweigh, tokens=None, workers=1, stacklevel=2, label=None
):
    """NLTK ``sentence_bleu`` of every statistics row: float64 (n, W).

    ``stats``: checked int64 (n, 2 + 2N); ``weight_list``: NLTK's list of weight tuples (the
    longest has K <= N orders); ``method``/``smoother`` from :func:`_resolve_smoothing`
    (``method is None`` only with ``tokens = (list_of_references, hypotheses)``).  The float
    methods (0-4) with plain parameters go to ``_backend.scoring.nltk_scores`` (compiled, or
    its Python twin); methods 5-7, Fraction or Decimal parameters and callables are computed
    by the Python formula itself, ``nltk_from_counts``, once per distinct row (per row with the
    tokens for a callable).  ``stacklevel``: frames from here to the user's call.  ``label``:
    how an error names row i (default ``"row i of stats"``, see :func:`_row_error`).
    """
    n, W = len(stats), len(weight_list)
    out = np.zeros((n, W), dtype=np.float64)
    K = max(len(w) for w in weight_list)
    if n == 0 or K == 0:
        return out
    M = stats[:, 2 : 2 + K]
    rows = np.flatnonzero(M[:, 0] > 0)  # NLTK returns 0 when no unigram matches
    params_plain = method in FLOAT_METHODS and (
        (method != 1 or _is_plain_number(smoother.epsilon)) and (method != 4 or _is_plain_number(smoother.k))
    )
    plain_weights = all(map(_is_plain_float_tuple, weight_list))
    if method == 0 and plain_weights:
        _warn_method0_rows(M, rows, stacklevel)
    if not (params_plain and plain_weights):
        _rowwise(out, rows, stats, N, K, weight_list, method, smoother, auto_reweigh, tokens, label)
        return out
    for j, weight in enumerate(weight_list):
        if len(weight) == 0:
            continue
        out[:, j] = _backend.scoring.nltk_scores(
            stats,
            N,
            weight,
            method,
            smoother.epsilon if method == 1 else 0.0,
            smoother.k if method == 4 else 0.0,
            bool(auto_reweigh and weight == _DEFAULT_WEIGHTS),
            workers,
        )
    return out


def _row_error(exc: SmoothingError, row: int, label=None) -> SmoothingError:
    """``exc`` (raised for one row) as an error that names the row: ``label(row)`` or ``"row
    {row} of stats"``; ``row`` and ``reason`` (the message without the row) are attributes, for
    callers that name the row another way (a global row of a partitioned input)."""
    err = SmoothingError(f"{label(row) if label is not None else f'row {row} of stats'}: {exc}")
    err.row, err.reason = row, str(exc)
    return err


def _rowwise(out, rows, stats, N, K, weight_list, method, smoother, auto_reweigh, tokens, label=None):
    """The Python formula row by row (Fractions, NLTK's operations), for what
    ``nltk_scores`` does not compute.

    Without tokens each distinct statistics row is scored once (pairwise and self-BLEU
    matrices repeat rows a lot), in the order of their first rows; with tokens (a callable
    smoother) every row is scored with its own references and hypothesis.  An error (method 6)
    names the first row that has it, as a loop over the rows would meet it (``label``).
    """
    sel = stats[rows]
    first = None
    if tokens is None and len(sel) > 1:
        sel, first, inverse = np.unique(sel, axis=0, return_index=True, return_inverse=True)
        inverse = inverse.reshape(-1)
    else:
        inverse = None
    scores = np.empty((len(sel), len(weight_list)), dtype=np.float64)
    order = range(len(sel)) if first is None else np.argsort(first, kind="stable").tolist()
    rows_of = rows if first is None else rows[first]
    sel_rows = sel.tolist()
    for u in order:
        row = sel_rows[u]
        nums = row[2 : 2 + K]
        dens = [max(1, t) for t in row[2 + N : 2 + N + K]]

        def p5(row=row):
            return Fraction(row[6], max(1, row[6 + N]), _normalize=False)

        pair = None
        if tokens is not None:
            i = int(rows[u])
            pair = (tokens[0][i], tokens[1][i])
        try:
            scores[u, :] = nltk_from_counts(
                nums,
                dens,
                row[0],
                row[1],
                weight_list,
                method,
                smoother,
                auto_reweigh,
                p5,
                row[0],
                tokens=pair,
                warn=True,
            )
        except SmoothingError as exc:
            raise _row_error(exc, int(rows_of[u]), label) from None
    out[rows, :] = scores if inverse is None else scores[inverse]


def _hypothesis_label(i: int) -> str:
    return f"hypothesis {i}"


def _stats_smoothing(smoothing_function):
    """``_resolve_smoothing`` for scoring from statistics: a built-in method or ``TypeError``."""
    method, smoother = _resolve_smoothing(smoothing_function)
    if method is None:
        raise TypeError(
            f"smoothing_function {getattr(smoothing_function, '__qualname__', smoothing_function)!r} "
            "is not a SmoothingFunction method 0-7: a custom callable receives the references and "
            "the hypothesis, which statistics do not hold; use rapidbleu.nltk.sentence_bleu_batch "
            "(with the tokens) instead"
        )
    return method, smoother


def sentence_bleu_from_stats(
    stats: Any,
    weights: Sequence[float] | Sequence[Sequence[float]] = _DEFAULT_WEIGHTS,
    smoothing_function: SmoothingCallable | None = None,
    auto_reweigh: bool = False,
    max_ngram_order: int | None = None,
    *,
    workers: int = 1,
) -> np.ndarray:
    """NLTK's ``sentence_bleu`` of every row of a BLEU statistics matrix.

    Row i must be the statistics of one hypothesis against its references, laid out as
    ``[hyp_len, ref_len, matches_1..N, totals_1..N]`` (int): ``ref_len`` the closest reference
    length (ties to the shorter, NLTK's ``closest_ref_length``), ``matches_n`` the clipped
    n-gram matches, ``totals_n = max(0, hyp_len - n + 1)``.  That is what
    ``rapidbleu._backend.stats.token_stats``, ``rapidbleu.ids.stats_ids``, the self-BLEU and
    pairwise kernels of ``rapidbleu.batch`` and sacreBLEU's ``BLEU._extract_corpus_statistics``
    produce.  Then ``out[i] == nltk.translate.bleu_score.sentence_bleu(refs_i, hyp_i, weights,
    smoothing_function, auto_reweigh)``, the same float (tested).

    What each built-in method reads, and where it comes from here: methods 0-3 only the
    precisions ``matches_n / max(1, totals_n)``; method 4 also ``hyp_len``; method 6 the
    n-gram counts of the hypothesis, ``max(0, hyp_len - n + 1)``; methods 5 and 7 the 5-gram
    precision ``modified_precision(references, hypothesis, 5)`` whatever the weights, so for
    them ``stats`` must hold **at least 5 orders** (``ValueError`` otherwise).  A custom
    smoothing callable may read the tokens, which statistics do not hold: it is refused
    (``TypeError``); use :func:`sentence_bleu_batch`, which has the tokens.

    Args:
        stats: int array (n, 2 + 2N), N >= the longest weight tuple (>= 5 for methods 5, 7).
        weights: one tuple of per-order weights or a list of W tuples (NLTK's convention);
            orders beyond a tuple's length are ignored for it.
        smoothing_function: ``None`` (method 0) or a ``SmoothingFunction().methodK`` of
            rapidbleu.nltk or of NLTK, K = 0..7 (its ``epsilon``, ``alpha``, ``k`` are used).
        auto_reweigh: NLTK's: a hypothesis of fewer than 4 tokens scored with the default
            weights uses ``(1/hyp_len,) * hyp_len``.
        max_ngram_order: N, if given checked against the shape (default: from the shape).
        workers: threads of the compiled kernel (methods 0 and 1); same results.

    Returns:
        float64 array of scores in [0, 1]: shape (n,) for one weight tuple, (n, W) for a list
        of W tuples; 0 where no unigram matches.  Method 0 warns (``UserWarning``) once per
        order that some row does not match.

    Raises:
        TypeError: ``stats`` not an integer array; a smoothing callable other than the
            ``SmoothingFunction`` methods.
        ValueError: bad shape, ``max_ngram_order`` differing from it, inconsistent counts,
            more weight orders than N, methods 5/7 with N < 5.
        SmoothingError: method 6 on fewer than 3 orders, or on a row with matching unigrams but
            no matching trigram (NLTK's assertion; the whole call fails).
    """
    resolve_workers(workers)
    weight_list, several = _weight_list(weights)
    stats, N = _check_stats(stats, max_ngram_order)
    K = max(len(w) for w in weight_list)
    if K > N:
        raise ValueError(f"weights have {K} orders but stats hold only {N}")
    method, smoother = _stats_smoothing(smoothing_function)
    if method in (5, 7) and N < 5 and K > 0:
        raise ValueError(
            f"smoothing method {method} reads the 5-gram precision of each sentence (NLTK: "
            f"modified_precision(references, hypothesis, 5)), but stats hold only {N} orders; "
            "compute the statistics with at least 5 orders"
        )
    out = _from_stats(stats, N, weight_list, method, smoother, auto_reweigh, workers=workers, stacklevel=2)
    return out if several else out[:, 0]


def _from_core_stats(stats, weights, smoothing_function, auto_reweigh: bool = False, workers: int = 1, label=None):
    """:func:`sentence_bleu_from_stats` for statistics the core has just computed (the
    self-BLEU, pairwise and id-batch paths of ``rapidbleu.batch``): the same scores without
    re-validating the matrix (a fifth of a small training-loop call).  ``label``: how an error
    names row i (see :func:`_from_stats`)."""
    weight_list, several = _weight_list(weights)
    method, smoother = _stats_smoothing(smoothing_function)
    N = (stats.shape[1] - 2) // 2
    out = _from_stats(stats, N, weight_list, method, smoother, auto_reweigh, workers=workers, stacklevel=2, label=label)
    return out if several else out[:, 0]


def sentence_bleu_batch(
    list_of_references: Sequence[Sequence[Tokens]],
    hypotheses: Sequence[Tokens],
    weights: Sequence[float] | Sequence[Sequence[float]] = _DEFAULT_WEIGHTS,
    smoothing_function: SmoothingCallable | None = None,
    auto_reweigh: bool = False,
    workers: int = 1,
) -> np.ndarray:
    """NLTK's ``sentence_bleu`` of every pair at once (a loop of ``sentence_bleu`` made fast).

    ``out[i] == sentence_bleu(list_of_references[i], hypotheses[i], ...)``: the statistics of
    all pairs come from one call of the compiled core (5 orders at least for methods 5 and 7),
    then :func:`sentence_bleu_from_stats` scores them; a custom smoothing callable is called
    per pair with that pair's references and hypothesis, as NLTK calls it.

    Args:
        list_of_references: n lists of reference token sequences (at least one each).
        hypotheses: n hypothesis token sequences.
        weights, smoothing_function, auto_reweigh: as in :func:`sentence_bleu`.
        workers: threads for the compiled core (1 = serial, -1 = all cores).

    Returns:
        float64 array of scores in [0, 1]: shape (n,) for one weight tuple, (n, W) for a list
        of W tuples.  Without smoothing, one ``UserWarning`` per order that some hypothesis
        does not match (instead of one per sentence).

    Raises:
        LengthMismatchError: ``len(list_of_references) != len(hypotheses)``.
        ValueError: a hypothesis without references.
        SmoothingError: method 6 and some sentence without a trigram match (the whole call
            fails, as the loop would at that sentence); filter such sentences first.
    """
    resolve_workers(workers)
    _check_corpus_args(list_of_references, hypotheses)
    _check_lengths(list_of_references, hypotheses)
    with _segments_checked_on_error(list_of_references, hypotheses):
        weight_list, several = _weight_list(weights)
        n, W = len(hypotheses), len(weight_list)
        shape = (n, W) if several else (n,)
        max_order = _max_order(weight_list)
        if max_order == 0 or n == 0:
            if max_order == 0:
                _check_segments(list_of_references, hypotheses)
            return np.zeros(shape, dtype=np.float64)
        method, smoother = _resolve_smoothing(smoothing_function)
        n_orders = stats_order(max_order, method)
        stats = _stats(list_of_references, hypotheses, n_orders, workers=workers)
    # The scoring of sentence_bleu_from_stats (same implementation, called directly so that
    # warnings point at the caller); a callable smoother gets each pair's tokens.
    tokens = None if method is not None else (list_of_references, hypotheses)
    out = _from_stats(
        stats,
        n_orders,
        weight_list,
        method,
        smoother,
        auto_reweigh,
        tokens=tokens,
        workers=workers,
        stacklevel=2,
        label=_hypothesis_label,
    )
    return out if several else out[:, 0]
