"""NLTK's ``sentence_bleu`` from statistics rows (``rapidbleu.nltk.sentence_bleu_from_stats``,
``sentence_bleu_batch``, the NLTK-style metric's sentence scores, self-BLEU and pairwise
matrices): the float methods 0-4 in the compiled kernel, the rest by NLTK's own operations row
by row, and the errors of smoothing method 6 named as the caller names its rows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt
else:
    from ..._base.lazy import numpy as np  # imported on first use: the registry lists NLTKBLEU for the command line

from ..._base.errors import SmoothingError
from .. import backend as _backend
from ..bleu.bleu_row import stats_columns
from ..bleu.bleu_scores_py import (
    DEFAULT_WEIGHTS,
    FLOAT_METHODS,
    Fraction,
    is_plain_number,
    nltk_from_counts,
    warn_zero_order,
)
from ..inputs import check_held


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


def _warn_method0_rows(M: np.ndarray, rows: np.ndarray) -> None:
    """Method 0's warnings, one per order that some scored row misses."""
    zero = M[rows] == 0
    for j in range(M.shape[1]):
        missing = int(np.count_nonzero(zero[:, j]))
        if missing:
            warn_zero_order(j + 1, count_=missing, n=len(M))


def plain_weights(weight: Iterable[object]) -> bool:
    """Whether a weight tuple holds only plain numbers (``is_plain_number``: the float kernels
    compute with it as NLTK does)."""
    return all(map(is_plain_number, weight))


def plain_parameters(method: int | None, smoother: Any) -> bool:
    """Whether ``method`` (:func:`resolve_smoothing`'s) is a float method (0-4) whose parameters
    are plain numbers now: method 1's ``epsilon``, method 4's ``k`` (a ``SmoothingFunction``'s
    may change between calls), so that the float kernels give NLTK's floats."""
    return method in FLOAT_METHODS and (
        (method != 1 or is_plain_number(smoother.epsilon)) and (method != 4 or is_plain_number(smoother.k))
    )


def sentence_scores_from_stats(
    stats: np.ndarray,
    N: int,
    weight_list: Sequence[Sequence[float]],
    method: int | None,
    smoother: Any,
    auto_reweigh: bool,
    tokens: tuple[Sequence[Any], Sequence[Any]] | None = None,
    workers: int = 1,
    kernel_rows: bool = False,
) -> np.ndarray:
    """NLTK ``sentence_bleu`` of every statistics row: float64 (n, W).

    ``stats``: checked int64 (n, 2 + 2N); ``weight_list``: NLTK's list of weight tuples (the
    longest has K <= N orders); ``method``/``smoother`` from :func:`resolve_smoothing`
    (``method is None`` only with ``tokens = (list_of_references, hypotheses)``).  The float
    methods (0-4) with plain parameters go to ``backend.bleu_scores.nltk_scores`` (compiled, or
    its Python twin), or, with ``kernel_rows`` (``stats`` a counting kernel's fresh rows, the
    caller's own), to ``nltk_kernel_scores``, which scores them without checking them again;
    methods 5-7, Fraction or Decimal parameters and callables are computed by the Python
    formula itself, ``nltk_from_counts``, once per distinct row (per row with the tokens for a
    callable).
    """
    n, W = len(stats), len(weight_list)
    K = max(len(w) for w in weight_list)
    if n == 0 or K == 0:
        return np.zeros((n, W), dtype=np.float64)
    params_plain = plain_parameters(method, smoother)
    weights_plain = all(map(plain_weights, weight_list))
    if method == 0 and weights_plain:
        M = stats[:, 2 : 2 + K]
        _warn_method0_rows(M, np.flatnonzero(M[:, 0] > 0))  # (NLTK returns 0 when no unigram matches)
    if method is None or not (params_plain and weights_plain):  # (params_plain is False for None)
        out = np.zeros((n, W), dtype=np.float64)
        rows = np.flatnonzero(stats[:, 2] > 0)  # NLTK returns 0 when no unigram matches
        _rowwise(out, rows, stats, N, K, weight_list, method, smoother, auto_reweigh, tokens)
        return out
    score = _backend.bleu_scores.nltk_kernel_scores if kernel_rows else _backend.bleu_scores.nltk_scores
    epsilon = smoother.epsilon if method == 1 else 0.0
    k = smoother.k if method == 4 else 0.0
    if W == 1:  # (one weight tuple, K > 0: the column is the result)
        weight = weight_list[0]
        reweigh = bool(auto_reweigh and weight == DEFAULT_WEIGHTS)
        return score(stats, N, weight, method, epsilon, k, reweigh, workers).reshape(n, 1)
    out = np.zeros((n, W), dtype=np.float64)
    for j, weight in enumerate(weight_list):
        if len(weight) == 0:
            continue
        out[:, j] = score(
            stats, N, weight, method, epsilon, k, bool(auto_reweigh and weight == DEFAULT_WEIGHTS), workers
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
