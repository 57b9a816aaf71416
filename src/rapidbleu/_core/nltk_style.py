"""NLTK-style BLEU below the public ``rapidbleu.nltk`` surface: each rule of NLTK's scoring once.

Every module that scores the NLTK way -- ``rapidbleu.nltk`` (the drop-in), ``rapidbleu.batch``
(self-BLEU, pairwise and id batches), ``rapidbleu.stats`` (mergeable statistics) and the engines
(``rapidbleu._core.engines``) -- reads NLTK's arguments and scores through this module:

* input checks of NLTK's layout (one list of references per hypothesis) and the token
  statistics from the core (:func:`token_statistics`);
* reading ``weights`` (:func:`parse_weights`, :func:`max_order`) and ``smoothing_function``
  (:class:`SmoothingFunction`, :func:`resolve_smoothing`, :func:`stats_smoothing`,
  :func:`stats_order`);
* sentence scores from a statistics matrix (:func:`sentence_scores_from_stats`) and the corpus
  score from summed counts (:class:`NLTKBLEU`, the NLTK style on the metric protocol).

Formulas: Papineni et al. (2002) and Chen and Cherry (2014), as NLTK 3.9/3.10's
``nltk.translate.bleu_score`` implements them (``rapidbleu._core.bleu_scores_py`` holds them).
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence, Sized
from contextlib import contextmanager
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from . import backend as _backend
from .bleu_row import stats_columns
from .bleu_scores_py import (
    DEFAULT_WEIGHTS,
    FLOAT_METHODS,
    Fraction,
    SmoothingError,
    nltk_from_counts,
    nltk_method0,
    nltk_method1,
    nltk_method2,
    nltk_method3,
    nltk_method4,
    nltk_method5,
    nltk_method6,
    warn_zero_order,
)
from .errors import stream_length_error
from .inputs import (
    check_held,
    check_statistics_matrix,
    exact_column_sums,
    join_flat,
    num_refs_of,
    preprocess,
    token_ids,
)
from .metric import Metric, RewardTransform, register
from .validate import (
    MAX_ORDER_LIMIT,
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


class LengthMismatchError(ValueError, AssertionError):
    """Different numbers of hypotheses and reference lists (NLTK: a bare ``assert``)."""


class EmptyCorpusError(ValueError, ZeroDivisionError):
    """``corpus_bleu`` of no hypotheses (NLTK: ``ZeroDivisionError`` from ``Fraction(0, 0)``)."""


def check_segments(list_of_references: Any, hypotheses: Any) -> None:
    """No ``None`` hypothesis (``TypeError``), then no empty list of references
    (``NoReferencesError``), each named by its first index (``rapidbleu._core.validate``)."""
    check_nltk_hypotheses(hypotheses)
    check_nltk_references(list_of_references)


def check_corpus_args(list_of_references: Any, hypotheses: Any) -> None:
    """Input checks of ``corpus_bleu`` and ``sentence_bleu_batch`` before any counting
    (``rapidbleu._core.validate``): dicts and sets refused; when the lengths differ, also
    :func:`check_segments` (its errors come first).  Otherwise the per-segment checks wait for
    :func:`segments_checked_on_error`: the core reads every segment anyway, and scanning 200,000
    segments twice in Python cost 5% of a ``sentence_bleu_batch`` call."""
    check_ordered(list_of_references, "list_of_references")
    check_ordered(hypotheses, "hypotheses")
    if len(list_of_references) != len(hypotheses):
        check_segments(list_of_references, hypotheses)


@contextmanager
def segments_checked_on_error(list_of_references: Any, hypotheses: Any) -> Iterator[None]:
    """Raise what :func:`check_segments` raises if the body raises ``TypeError`` or
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
        check_segments(list_of_references, hypotheses)
    except (TypeError, ValueError) as check_error:
        check_error.__context__ = None  # raised as if first: not "during handling of" the body's
        raise
    raise error


def token_statistics(
    list_of_references: Sequence[Sequence[Tokens]], hypotheses: Sequence[Tokens], max_order: int, workers: int = 1
) -> np.ndarray:
    """int64 (n, 2 + 2N) statistics from the core (layout in ``rapidbleu._core.bleu_row``).

    The tokens go to the core as they are: it reads lists of ``str`` or ``int`` tokens directly
    and maps any other segment's tokens through a dict (Python's equality, as NLTK's Counters).
    """
    if len(hypotheses) == 0:
        return np.zeros((0, 2 + 2 * max_order), dtype=np.int64)
    return _backend.bleu_stats.token_stats(hypotheses, list_of_references, max_order, workers=workers)


def stats_order(order: int, method: int | None) -> int:
    """Orders of statistics that NLTK-style scoring of ``order`` orders needs: smoothing
    methods 5 and 7 also read each sentence's 5-gram precision, whatever the weights."""
    return max(order, 5) if method in (5, 7) else order


def max_order(weight_list: Sequence[Sequence[float]]) -> int:
    """The longest weight tuple's length (0 allowed: NLTK scores 0), within the order limit."""
    max_order = max(len(w) for w in weight_list)
    if max_order > MAX_ORDER_LIMIT:
        # NLTK scores any length; the compiled statistics stop at MAX_ORDER_LIMIT orders.  Say
        # so in terms of the argument given (check_order would name max_ngram_order)
        raise ValueError(
            f"weights has {max_order} entries (n-gram orders); rapidbleu supports at most {MAX_ORDER_LIMIT}"
        )
    return check_order(max_order) if max_order else 0


def check_lengths(list_of_references: Sized, hypotheses: Sized) -> None:
    n_refs, n_hyps = len(list_of_references), len(hypotheses)
    if n_refs != n_hyps:
        raise LengthMismatchError(
            f"{n_hyps} hypotheses but {n_refs} lists of references; give one list of references per hypothesis"
        )


def parse_weights(weights: Any) -> tuple[list[Sequence[float]], bool]:
    """NLTK's reading of ``weights``: ``(list of weight tuples, several scores wanted)``.

    ``weights`` counts as a list of tuples when ``weights[0][0]`` exists, else as one tuple.
    """
    try:
        weights[0][0]
    except (TypeError, IndexError):
        weights = [weights]
    weights = list(weights)
    return weights, len(weights) != 1


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
    row = token_statistics([references], [hypothesis], n)[0]
    return Fraction(int(row[1 + n]), max(1, int(row[1 + 2 * n])), _normalize=False)


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
        return nltk_method0(p_n)

    def method1(self, p_n: list[Any], *args: Any, **kwargs: Any) -> list[Any]:
        """Method 1 (Chen & Cherry 2014): a zero-match order gets ``epsilon / total``."""
        return nltk_method1(p_n, self.epsilon)

    def method2(self, p_n: list[Any], *args: Any, **kwargs: Any) -> list[Any]:
        """Method 2 (Lin & Och 2004, ORANGE): add 1 to numerator and denominator of every
        order above 1."""
        return nltk_method2(p_n)

    def method3(self, p_n: list[Any], *args: Any, **kwargs: Any) -> list[Any]:
        """Method 3 (NIST geometric sequence, mteval-v13a): the k-th zero-match order gets
        ``1 / (2**k * total)``."""
        return nltk_method3(p_n)

    def method4(
        self,
        p_n: list[Any],
        references: Sequence[Tokens],  # noqa: ARG002 -- NLTK's signature of every method
        hypothesis: Tokens,
        hyp_len: int | None = None,
        *args: Any,
        **kwargs: Any,
    ) -> list[Any]:
        """Method 4: like method 3, the k-th zero-match order gets
        ``ln(len) / (2**k * self.k) / total``, ``len`` = ``hyp_len`` or ``len(hypothesis)``;
        nothing changes when ``len <= 1``."""
        return nltk_method4(p_n, hyp_len if hyp_len else len(hypothesis), self.k)

    def method5(
        self,
        p_n: list[Any],
        references: Sequence[Tokens],
        hypothesis: Tokens,
        hyp_len: int | None = None,  # noqa: ARG002 -- NLTK's signature of every method
        *args: Any,
        **kwargs: Any,
    ) -> list[Any]:
        """Method 5: each order's precision becomes the mean of its smoothed lower neighbour
        (order 0 counts as ``p_1 + 1``), itself and the next order; after the last order comes
        the 5-gram precision of ``hypothesis`` against ``references`` (whatever N is)."""
        return nltk_method5(p_n, modified_precision(references, hypothesis, 5))

    def method6(
        self,
        p_n: list[Any],
        references: Sequence[Tokens],  # noqa: ARG002 -- NLTK's signature of every method
        hypothesis: Tokens,
        hyp_len: int | None = None,  # noqa: ARG002 -- NLTK's signature of every method
        *args: Any,
        **kwargs: Any,
    ) -> list[Any]:
        """Method 6 (Gao & He 2013): orders n >= 3 interpolate ``(m_n + alpha * pi0) /
        (l_n + alpha)`` with the prior ``pi0 = p_{n-1}**2 / p_{n-2}``; ``l_n`` counts the n-grams
        of ``hypothesis``. Raises :class:`SmoothingError` when fewer than 3 orders or the
        trigram precision is 0 (NLTK: ``IndexError`` / ``AssertionError``)."""
        return nltk_method6(p_n, len(hypothesis), self.alpha)

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
        p_n = nltk_method4(p_n, hyp_len if hyp_len else len(hypothesis), self.k)
        return nltk_method5(p_n, modified_precision(references, hypothesis, 5))


METHODS = tuple(f"method{i}" for i in range(8))


def resolve_smoothing(fn: Any) -> tuple[int | None, Any]:
    """``(method number, SmoothingFunction-like instance)`` for the known methods, else
    ``(None, fn)``; NLTK's own ``SmoothingFunction`` methods are recognised too."""
    if not fn:
        return 0, None
    owner = getattr(fn, "__self__", None)
    func = getattr(fn, "__func__", None)
    if owner is None or func is None:
        return None, fn
    classes: list[type] = [SmoothingFunction]
    nltk_bleu = sys.modules.get("nltk.translate.bleu_score")
    if nltk_bleu is not None and hasattr(nltk_bleu, "SmoothingFunction"):
        classes.append(nltk_bleu.SmoothingFunction)
    for cls in classes:
        if isinstance(owner, cls):
            for number, name in enumerate(METHODS):
                if func is getattr(cls, name, None):
                    return number, owner
    return None, fn


def check_nltk_stats(stats: npt.ArrayLike, max_ngram_order: int | None) -> tuple[np.ndarray, int]:
    """``(int64 array (n, 2 + 2N), N)`` after checking the layout of a statistics matrix."""
    arr = np.asarray(stats)
    if arr.dtype == object or not (np.issubdtype(arr.dtype, np.integer) or arr.size == 0):
        raise TypeError(f"stats must be an integer array, got dtype {arr.dtype}")
    if arr.ndim != 2 or arr.shape[1] < 4 or arr.shape[1] % 2:
        raise ValueError(
            f"stats must have shape (n, 2 + 2N) with N >= 1 ([hyp_len, ref_len, matches_1..N, "
            f"totals_1..N] per row), got {arr.shape}"
        )
    N = (arr.shape[1] - 2) // 2
    check_held(arr, np.int64, stats_columns(N), "stats")  # (uint64 past 2**63 - 1 would wrap)
    arr = arr.astype(np.int64, copy=False)
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


def _warn_method0_rows(M: np.ndarray, rows: np.ndarray, up: int) -> None:
    """Method 0's warnings, one per order that some scored row misses; ``up``: frames from
    this function's caller to the user's call."""
    zero = M[rows] == 0
    for j in range(M.shape[1]):
        missing = int(np.count_nonzero(zero[:, j]))
        if missing:
            warn_zero_order(j + 1, stacklevel=up + 3, count_=missing, n=len(M))


def _is_plain_number(x: object) -> bool:
    """A parameter the compiled methods reproduce exactly: an int or float (not a Fraction or
    Decimal, whose exact arithmetic only the Python formula follows)."""
    return isinstance(x, (int, float)) and not isinstance(x, bool) and abs(x) < 2**52


def _is_plain_float_tuple(weight: Iterable[object]) -> bool:
    return all(map(_is_plain_number, weight))


def sentence_scores_from_stats(
    stats: np.ndarray,
    N: int,
    weight_list: Sequence[Sequence[float]],
    method: int | None,
    smoother: Any,
    auto_reweigh: bool,
    tokens: tuple[Sequence[Any], Sequence[Any]] | None = None,
    workers: int = 1,
    stacklevel: int = 2,
) -> np.ndarray:
    """NLTK ``sentence_bleu`` of every statistics row: float64 (n, W).

    ``stats``: checked int64 (n, 2 + 2N); ``weight_list``: NLTK's list of weight tuples (the
    longest has K <= N orders); ``method``/``smoother`` from :func:`resolve_smoothing`
    (``method is None`` only with ``tokens = (list_of_references, hypotheses)``).  The float
    methods (0-4) with plain parameters go to ``backend.bleu_scores.nltk_scores`` (compiled, or
    its Python twin); methods 5-7, Fraction or Decimal parameters and callables are computed
    by the Python formula itself, ``nltk_from_counts``, once per distinct row (per row with the
    tokens for a callable).  ``stacklevel``: frames from here to the user's call.
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
    if method is None or not (params_plain and plain_weights):  # (params_plain is False for None)
        _rowwise(out, rows, stats, N, K, weight_list, method, smoother, auto_reweigh, tokens)
        return out
    for j, weight in enumerate(weight_list):
        if len(weight) == 0:
            continue
        out[:, j] = _backend.bleu_scores.nltk_scores(
            stats,
            N,
            weight,
            method,
            smoother.epsilon if method == 1 else 0.0,
            smoother.k if method == 4 else 0.0,
            bool(auto_reweigh and weight == DEFAULT_WEIGHTS),
            workers,
        )
    return out


def row_error(exc: SmoothingError, row: int, name: str) -> SmoothingError:
    """``exc``, raised for statistics row ``row``, as an error that names it (``name``, e.g.
    ``"hypothesis 7"``); ``row`` and ``reason`` (the message without the name) are attributes."""
    reason = exc.reason if exc.reason is not None else str(exc)
    err = SmoothingError(f"{name}: {reason}")
    err.row, err.reason = row, reason
    return err


@contextmanager
def rows_named(name: Callable[[int], str]) -> Iterator[None]:
    """Inside: an error about statistics row i (method 6) names it ``name(i)``, what that row is
    to the caller (a hypothesis, a sentence of a set, a pair of candidates)."""
    try:
        yield
    except SmoothingError as exc:
        if exc.row is None:
            raise
        raise row_error(exc, exc.row, name(exc.row)) from None


def _rowwise(
    out: np.ndarray,
    rows: np.ndarray,
    stats: np.ndarray,
    N: int,
    K: int,
    weight_list: Sequence[Sequence[float]],
    method: int | None,
    smoother: Any,
    auto_reweigh: bool,
    tokens: tuple[Sequence[Any], Sequence[Any]] | None,
) -> None:
    """The Python formula row by row (Fractions, NLTK's operations), for what
    ``nltk_scores`` does not compute.

    Without tokens each distinct statistics row is scored once (pairwise and self-BLEU
    matrices repeat rows a lot), in the order of their first rows; with tokens (a callable
    smoother) every row is scored with its own references and hypothesis.  An error (method 6)
    names the first row that has it, where a loop over the rows would meet it (``row i of
    stats``; :func:`rows_named` names it otherwise).
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

        def p5(row: list[int] = row) -> Fraction:
            return Fraction(row[6], max(1, row[6 + N]), _normalize=False)

        pair: tuple[Any, Any] | None = None
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
            i = int(rows_of[u])
            raise row_error(exc, i, f"row {i} of stats") from None
    out[rows, :] = scores if inverse is None else scores[inverse]


def stats_smoothing(smoothing_function: Any) -> tuple[int, Any]:
    """``resolve_smoothing`` for scoring from statistics: a built-in method or ``TypeError``."""
    method, smoother = resolve_smoothing(smoothing_function)
    if method is None:
        raise TypeError(
            f"smoothing_function {getattr(smoothing_function, '__qualname__', smoothing_function)!r} "
            "is not a SmoothingFunction method 0-7: a custom callable receives the references and "
            "the hypothesis, which statistics do not hold; use rapidbleu.nltk.sentence_bleu_batch "
            "(with the tokens) instead"
        )
    return method, smoother


def scores_of_core_stats(
    stats: np.ndarray, weights: Any, smoothing_function: Any, auto_reweigh: bool = False, workers: int = 1
) -> np.ndarray:
    """:func:`sentence_bleu_from_stats` for statistics the core has just computed (the
    self-BLEU, pairwise and id-batch paths of ``rapidbleu.batch``): the same scores without
    re-validating the matrix (a fifth of a small training-loop call)."""
    weight_list, several = parse_weights(weights)
    method, smoother = stats_smoothing(smoothing_function)
    N = (stats.shape[1] - 2) // 2
    out = sentence_scores_from_stats(
        stats, N, weight_list, method, smoother, auto_reweigh, workers=workers, stacklevel=2
    )
    return out if several else out[:, 0]


# --------------------------------------------------------------------------- the metric protocol


def _tokens(text: Any, tokenizer: Callable[[str], str] | None, lowercase: bool) -> list[Any] | None:
    """One segment as NLTK tokens: a string is lowercased (if asked) and split on whitespace,
    after sacreBLEU's tokenizer when one is given; a token sequence is taken as it is."""
    if text is None:
        return None
    if not isinstance(text, str):
        return list(text)
    if tokenizer is None:
        return (text.lower() if lowercase else text).split()
    return preprocess(text, tokenizer, lowercase).split()


def _pair_name(start: int, n: int, k: int) -> str:
    """Row ``k`` of a block of pairwise statistics that starts at candidate ``start``."""
    return f"candidate {start + k // n} against candidate {k % n}"


#: :meth:`NLTKBLEU.reward_transforms`: scores 0-1, higher is better, are rewards as they are.
_SCORE_REWARDS: Mapping[str, RewardTransform] = {"score": lambda scores: scores}


@register
class NLTKBLEU(Metric):
    """NLTK-style BLEU (``nltk.translate.bleu_score``'s scores, 0-1) on the metric protocol:
    what ``rapidbleu.stats``, ``rapidbleu.batch`` and the Spark/Dask/Ray engines use for
    ``style="nltk"``.

    Args:
        weights: one tuple of per-order weights or a list of them (NLTK's convention); the
            longest sets the n-gram orders counted.
        smoothing_function: ``None`` (method 0), a ``SmoothingFunction().methodK`` (ours or
            NLTK's), or ``"method0"``..``"method7"``.
        auto_reweigh: NLTK's ``auto_reweigh``.
        max_ngram_order: count at least this many orders (statistics for other weights later).
        tokenize: for text input: ``None`` splits on whitespace (``str.split()``); a sacreBLEU
            tokenizer name tokenizes first (sacreBLEU's preprocessing), then splits on spaces.
        lowercase: lowercase text input first.
        workers: threads of the compiled core.

    Raises:
        ValueError: an unknown smoothing method name, weights beyond the order limit.

    A smoothing callable that is not one of the ``SmoothingFunction`` methods reads tokens,
    which statistics do not hold: scoring statistics with it raises ``TypeError``
    (``rapidbleu.nltk.corpus_bleu`` passes the tokens).

    ``config()`` holds only the number of orders counted: NLTK-style statistics are scored
    with weights and smoothing given when scoring (as ``corpus_bleu`` takes them), see
    :meth:`with_scoring`.  NLTK has no signature (``get_signature`` raises ``TypeError``).
    """

    metric_id = "nltk"
    command_line = False

    def __init__(
        self,
        weights: Any = DEFAULT_WEIGHTS,
        smoothing_function: Any = None,
        auto_reweigh: bool = False,
        *,
        max_ngram_order: int | None = None,
        tokenize: str | None = None,
        lowercase: bool = False,
        workers: int = 1,
    ) -> None:
        from ..tokenizers import get_tokenizer

        resolve_workers(workers)
        if isinstance(smoothing_function, str):
            if smoothing_function not in METHODS:
                raise ValueError(f"smoothing_function must be one of {', '.join(METHODS)}, got {smoothing_function!r}")
            smoothing_function = getattr(SmoothingFunction(), smoothing_function)
        self.weights = weights
        self.weight_list, self.several = parse_weights(weights)
        self.order = max_order(self.weight_list)
        self.method, self.smoother = resolve_smoothing(smoothing_function)
        self.smoothing_function = smoothing_function
        self.auto_reweigh = bool(auto_reweigh)
        self.max_ngram_order = max(stats_order(self.order, self.method), int(max_ngram_order or 0), 1)
        self.tokenize = tokenize
        self.tokenizer = None if tokenize is None else get_tokenizer(tokenize)
        self.lowercase = bool(lowercase)
        self.workers = workers
        self.num_refs = 0

    def with_scoring(self, weights: Any = None, smoothing_function: Any = None, auto_reweigh: bool = False) -> NLTKBLEU:
        """A metric with these statistics settings (orders, tokenizer) and this scoring.

        Raises:
            ValueError: the weights need more orders than these statistics count.
        """
        weights = DEFAULT_WEIGHTS if weights is None else weights
        other = NLTKBLEU(
            weights,
            smoothing_function,
            auto_reweigh,
            max_ngram_order=self.max_ngram_order,
            tokenize=self.tokenize,
            lowercase=self.lowercase,
            workers=self.workers,
        )
        if other.order > self.max_ngram_order:
            raise ValueError(f"weights need {other.order} n-gram orders but the statistics hold {self.max_ngram_order}")
        other.max_ngram_order = self.max_ngram_order  # the layout of these statistics (methods 5, 7: a tail)
        return other

    # -- statistics -------------------------------------------------------------------------
    @property
    def stats_columns(self) -> tuple[str, ...]:
        """``("hyp_len", "ref_len", "matches_1", ..., "totals_N")`` (``ref_len``: the closest
        reference length, NLTK's ``closest_ref_length``)."""
        return stats_columns(self.max_ngram_order)

    def corpus_statistics(
        self, hypotheses: Sequence[Any], references: Sequence[Sequence[Any]] | None = None
    ) -> np.ndarray:
        """Per-segment statistics ``(n, 2 + 2N)`` int64 of hypotheses against reference streams
        (sacreBLEU's layout: the k-th reference of every segment, ``None`` where a segment has
        fewer); each segment is a string (tokenized as the constructor says) or a token
        sequence.

        Raises:
            ValueError: a segment without any reference, streams of another length.
            TypeError: a ``None`` hypothesis.
        """
        if references is None:
            raise TypeError("NLTK-style statistics need references (there is no cache)")
        hyps = [_tokens(h, self.tokenizer, self.lowercase) for h in hypotheses]
        for i, h in enumerate(hyps):
            if h is None:
                raise TypeError(f"hypothesis {i} is None")
        streams = [list(s) for s in references]
        for k, s in enumerate(streams):
            if len(s) != len(hyps):
                raise stream_length_error(f"reference stream {k}", len(s), len(hyps), n_streams=len(streams))
        token_streams = [[_tokens(r, self.tokenizer, self.lowercase) for r in s] for s in streams]
        refs = [[r for r in (s[i] for s in token_streams) if r is not None] for i in range(len(hyps))]
        self.num_refs = num_refs_of(len(r) for r in refs)
        checked = cast("list[list[Any]]", hyps)  # no None left (refused above)
        return token_statistics(refs, checked, self.max_ngram_order, workers=self.workers)

    def aggregate_row(self, stats: np.ndarray) -> list[int]:
        """The additive corpus row ``[hyp_len, ref_len, matches_1..N, totals_1..N,
        denominators_1..N]`` of checked integer rows: exact column sums, and the sums of NLTK's
        per-segment precision denominators ``max(1, totals_n)``."""
        st = np.asarray(stats).reshape(-1, 2 + 2 * self.max_ngram_order)
        dens = np.maximum(st[:, 2 + self.max_ngram_order :], 1)
        return exact_column_sums(st) + exact_column_sums(dens)

    def aggregate_columns(self) -> tuple[str, ...]:
        """:meth:`aggregate_row`'s names: the statistics columns, then ``denominators_1..N``."""
        return (*self.stats_columns, *(f"denominators_{n}" for n in range(1, self.max_ngram_order + 1)))

    def combine(self, stats: Any, start: Sequence[Any] | None = None) -> list[Any]:
        """:meth:`aggregate_row` (plus ``start``); rows other than an integer array are checked
        first (:meth:`check_statistics`).

        Raises:
            ValueError: such rows that are not valid statistics.
        """
        if not (isinstance(stats, np.ndarray) and stats.dtype.kind in "iu"):
            stats = self.check_statistics(stats)
        row = self.aggregate_row(stats)
        return row if start is None else [int(x) + y for x, y in zip(start, row, strict=True)]

    def aggregate_width(self) -> int:
        """``2 + 3N``: :meth:`aggregate_row`."""
        return 2 + 3 * self.max_ngram_order

    def tail(self, stats: np.ndarray, tokens: tuple[Any, Any] | None = None) -> tuple[int, int, int] | None:
        """What smoothing methods 5-7 read of the *last* segment of a corpus, which a sum does
        not keep: ``(hyp_len, matches_5, max(1, totals_5))`` (its 5-gram precision from the
        statistics when they count 5 orders, else from its ``tokens`` ``(references,
        hypothesis)``); None when neither is available."""
        st = np.asarray(stats)
        if not len(st):
            return None
        row = st[-1]
        n = self.max_ngram_order
        if n >= 5:
            return int(row[0]), int(row[6]), max(1, int(row[6 + n]))
        if tokens is None:
            return None
        f = modified_precision(tokens[0], tokens[1], 5)
        return int(row[0]), int(f.numerator), max(1, int(f.denominator))

    # -- scores -----------------------------------------------------------------------------
    def corpus_from_row(
        self, row: Sequence[int], tail: Sequence[int] | None = None, tokens: Any = None, stacklevel: int = 6
    ) -> float | list[float]:
        """NLTK's ``corpus_bleu`` from an aggregated row (:meth:`combine`): a float in [0, 1]
        (the int 0 when no unigram matches), or a list for a list of weight tuples.

        ``tail``: :meth:`tail` of the corpus (smoothing methods 5-7); ``tokens``: ``(last
        references, last hypothesis)`` for a custom smoothing callable (``rapidbleu.nltk``);
        ``stacklevel``: frames from NLTK's zero-order warning to the user's call.

        Raises:
            ValueError: methods 5-7 without the last segment's numbers.
            SmoothingError: method 6 on fewer than 3 orders or a zero trigram precision.
        """
        order, n = self.order, self.max_ngram_order
        if order == 0:  # NLTK: no precision at all counts as "no unigram match"
            return [0] * len(self.weight_list) if self.several else 0
        method, smoother = self.method, self.smoother
        if method is None and tokens is None:
            raise TypeError(
                "a custom smoothing callable receives the tokens of the last segment, which "
                "statistics do not hold; use one of SmoothingFunction's methods"
            )
        if method in (5, 6, 7) and tail is None and tokens is None:
            raise ValueError(
                f"smoothing method{method} reads the last segment of the corpus, which statistics "
                "rebuilt from a vector do not hold; merge CorpusStats objects instead"
            )

        def p5_last() -> Fraction:
            if tail is not None:
                return Fraction(tail[1], tail[2], _normalize=False)
            return modified_precision(tokens[0], tokens[1], 5)

        last_len = tail[0] if tail is not None else (len(tokens[1]) if tokens is not None else 0)
        scores = nltk_from_counts(
            [int(x) for x in row[2 : 2 + order]],
            [int(x) for x in row[2 + 2 * n : 2 + 2 * n + order]],
            int(row[0]),
            int(row[1]),
            self.weight_list,
            method,
            smoother,
            self.auto_reweigh,
            p5_last,
            last_len,
            tokens=tokens,
            stacklevel=stacklevel,
        )
        return scores if self.several else scores[0]

    def score_from_stats(self, stats: Any) -> Any:
        """NLTK's corpus score of an aggregated row (:meth:`combine`, ``2 + 3N`` whole counts of
        any size; without the last segment's numbers: for methods 5-7 use
        :meth:`corpus_from_row` with a tail).

        Raises:
            ValueError: not one row of ``2 + 3N`` whole counts >= 0 (the first bad value named).
        """
        row = check_statistics_matrix(stats, self.aggregate_columns(), "int64", "statistics")
        if row.ndim != 1:
            raise ValueError(f"statistics must be one aggregated row (combine(stats)), got shape {row.shape}")
        return self.corpus_from_row(row.tolist(), None)

    def scores_from_stats(self, sums: np.ndarray, dtype: Any = None) -> np.ndarray:  # noqa: ARG002 -- the protocol
        """NLTK's ``sentence_bleu`` of every per-segment row ``(n, 2 + 2N)``: float64 ``(n,)``
        (``(n, W)`` for a list of W weight tuples).

        Raises:
            TypeError, ValueError: rows that ``rapidbleu.nltk.sentence_bleu_from_stats`` refuses
                (not an integer array, not statistics of one hypothesis each, a count beyond
                int64).
        """
        stats_smoothing(self.smoothing_function)  # a custom callable needs the tokens
        out = sentence_scores_from_stats(
            check_nltk_stats(sums, self.max_ngram_order)[0],
            self.max_ngram_order,
            self.weight_list,
            self.method,
            self.smoother,
            self.auto_reweigh,
            workers=self.workers,
            stacklevel=3,
        )
        return out if self.several else out[:, 0]

    def sentence_scores(self, hypotheses: Sequence[Any], references: Sequence[Sequence[Any]]) -> np.ndarray:
        """NLTK's ``sentence_bleu`` of every segment (reference streams as
        :meth:`corpus_statistics` takes them)."""
        return self.scores_from_stats(self.corpus_statistics(hypotheses, references))

    def pairwise_id_scores(self, flat: np.ndarray, lens: np.ndarray) -> np.ndarray:
        """``(n, n)`` float64: NLTK's ``sentence_bleu([s_j], s_i)`` of every ordered pair of n
        token-id sequences stored end to end (``flat``, ``lens``: as
        ``rapidbleu._core.inputs.join_flat`` gives them), one weight tuple.  The statistics
        come from the set kernel a block of rows at a time (about 16 MB,
        ``rapidbleu._core.bleu_sets_py.pairwise_stats_blocks``): memory is the output and one
        block, never the ``(n, n, 2 + 2N)`` table.

        Raises:
            SmoothingError: method 6 on a pair without a trigram match (NLTK's assertion),
                naming the pair (``candidate i against candidate j``).
            TypeError: a custom smoothing callable (it needs the tokens).
        """
        n = len(lens)
        out = np.empty((n, n), dtype=np.float64)
        for start, block in _backend.bleu_sets.pairwise_stats_blocks(flat, lens, self.max_ngram_order, self.workers):
            rows = len(block)
            with rows_named(functools.partial(_pair_name, start, n)):
                out[start : start + rows] = self.scores_from_stats(block.reshape(rows * n, -1)).reshape(rows, n)
        return out

    def pairwise_scores(self, candidates: Sequence[Any]) -> np.ndarray:
        """``(n, n)`` float64: :meth:`pairwise_id_scores` of the candidates' tokens (strings
        tokenized as :meth:`corpus_statistics` tokenizes them, token sequences as they are) as
        ids of one vocabulary."""
        toks = [_tokens(c, self.tokenizer, self.lowercase) for c in candidates]
        for i, t in enumerate(toks):
            if t is None:
                raise TypeError(f"candidate {i} is None")
        return self.pairwise_id_scores(*join_flat(token_ids(cast("list[list[Any]]", toks), {})))

    @classmethod
    def reward_transforms(cls) -> Mapping[str, RewardTransform]:
        """NLTK's scores are 0-1 already: the reward is the score (``"score"``)."""
        return _SCORE_REWARDS

    def config(self) -> dict[str, Any]:
        """``{"max_ngram_order": N}``: the orders the statistics count (the scoring settings
        are given when scoring)."""
        return {"max_ngram_order": int(self.max_ngram_order)}

    @classmethod
    def from_config(cls, config: dict[str, Any]) -> NLTKBLEU:
        return cls(max_ngram_order=int(config["max_ngram_order"]))

    def get_signature(self) -> Any:
        """Raises ``TypeError``: NLTK has no signature."""
        raise TypeError("NLTK-style statistics have no sacreBLEU signature")
