"""Resampling for confidence intervals and paired tests, for any metric of the protocol.

The draws, the seeds and the summaries are sacreBLEU 2.x's (``sacrebleu.significance``) number
for number; what differs is how the work is done (see ``rapidbleu.significance``).  This module
knows nothing of any metric: statistics are matrices of per-segment rows (``Metric.
corpus_statistics``), resampled rows are column sums, and scores of many sums at once come from
``Metric.scores_from_stats`` -- so a confidence interval or a paired test serves BLEU, chrF and
TER from the same code.

Exactness.  sacreBLEU sums bootstrap resamples in float32 (``np.array(stats, dtype="float32")``)
and approximate-randomisation trials with a matrix product in the statistics' own type; sums of
float32 values are exact while they are integers (or halves, quarters, ...) that stay below
2**24, which is when the fast paths below are taken; otherwise every resample is summed row by
row in float32 as sacreBLEU sums it.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import numpy as np
else:
    from .._base.lazy import numpy as np  # imported on first use: a corpus score without a CI needs none

from .._base.errors import MAX_EXACT_COUNT, resample_range_error
from .validate import check_resamples

#: Default number of bootstrap resamples (``bs``) and randomisation trials (``ar``).
DEFAULT_SAMPLES = {"ar": 10000, "bs": 1000}

#: Sums of float32 values are exact while they stay at or below 2**24.
_F32_EXACT = float(1 << 24)
#: Target number of matrix elements per chunk of draws (bounds the working memory) ...
_CHUNK_ELEMS = 1 << 21
#: ... but at least this many rows: BLAS (OpenBLAS threads) is very slow on thin products ...
_MIN_CHUNK_ROWS = 128
#: ... and never more than this many elements (64 MB of float32), whatever the number of segments.
_MAX_CHUNK_ELEMS = 1 << 24

Progress = Callable[[int], None] | None


class Scorer(Protocol):
    """What resampling needs of a metric (``rapidbleu._core.metric.Metric`` has these)."""

    @property
    def stats_columns(self) -> tuple[str, ...]: ...

    def check_statistics(self, stats: Any, what: str = ..., nonempty: bool = ...) -> np.ndarray: ...

    def scores_from_stats(self, sums: np.ndarray, dtype: Any = ...) -> np.ndarray: ...

    def score_scalars(self, scores: np.ndarray, dtype: Any = ...) -> list[Any]: ...


# --------------------------------------------------------------------------------------------
# Seeds
# --------------------------------------------------------------------------------------------
def seed_from_env() -> tuple[str, int | None]:
    """``(text, seed)`` from ``SACREBLEU_SEED`` (default ``"12345"``).

    ``text`` is the variable's value as given; ``seed`` is ``None`` when it is ``none`` in any
    case (entropy from the OS), else ``int(text)`` (``ValueError`` if it is not an integer).
    ``0`` is a seed like any other (it fixes the draws; sacreBLEU's paired tests read it as
    "unseeded" while the signature says ``seed:0``).
    """
    text = os.environ.get("SACREBLEU_SEED", "12345")
    if text.lower() == "none":
        return text, None
    try:
        seed = int(text)
    except ValueError:
        raise ValueError(f"SACREBLEU_SEED={text!r}: give a non-negative integer or 'none'") from None
    if seed < 0:
        raise ValueError(f"SACREBLEU_SEED={text!r}: give a non-negative integer or 'none'")
    return text, seed


def check_resample_range(st: np.ndarray, metric: Scorer, what: str = "statistics") -> None:
    """Checked statistics ``(n, k)`` (``metric.check_statistics``) whose resamples and trials
    sum exactly: no column's largest value times ``n`` (what a resample drawing it ``n`` times,
    or a trial, can reach) beyond 2**53 - 1.  Below, the float64 products and int64 sums of
    :func:`ar_sums` are exact and no sum wraps; the resamples' float32 sums are sacreBLEU's.

    Raises:
        ValueError: the largest value of the first column beyond it, quoted with its row.
    """
    n = st.shape[0]
    if not st.size or (st.dtype.kind in "iub" and st.dtype.itemsize <= 2):
        return
    top = st.max(axis=0)
    limit = MAX_EXACT_COUNT // n
    for c, v in enumerate(top.tolist()):
        if v > limit:
            r = int(np.argmax(st[:, c] == v))
            raise resample_range_error(what, r, c, metric.stats_columns[c], v, n)


# --------------------------------------------------------------------------------------------
# Summaries
# --------------------------------------------------------------------------------------------
def estimate_ci(scores: np.ndarray) -> tuple[float, float]:
    """``(mean, half-width)`` of the 95% interval of bootstrap ``scores`` (sacreBLEU's
    ``significance.estimate_ci``): sort, take ``s[n // 40]`` and ``s[n - n // 40 - 1]``; the mean
    is numpy's (pairwise) mean of the sorted array.  Both are computed in the array's floating
    type (float32 scores -- chrF's -- give float32 arithmetic, as in sacreBLEU; other types
    float64) and returned as Python floats."""
    s = np.sort(np.asarray(scores))
    if s.dtype != np.float32:
        s = s.astype(np.float64)
    lo = len(s) // 40
    return float(s.mean()), float(0.5 * (s[len(s) - lo - 1] - s[lo]))


def p_value(stats: np.ndarray, real: float) -> float:
    """``(#{stats > real} + 1) / (len(stats) + 1)`` (MultEval's smoothed count).

    An observed difference of exactly 0 gives ``p = 1``: no resample can be less extreme than
    "no difference", so two systems with the same score are never significantly different
    (sacreBLEU returns ``1 / (trials + 1)`` there, i.e. "significant", for identical systems).
    """
    if real == 0:
        return 1.0
    c = int(np.count_nonzero(stats > real))
    return (c + 1) / (len(stats) + 1)


# --------------------------------------------------------------------------------------------
# Drawing resamples and trials, chunk by chunk
# --------------------------------------------------------------------------------------------
def _chunk_rows(n: int, multiple: int = 1) -> int:
    """Rows of draws per chunk: about ``_CHUNK_ELEMS`` matrix elements, at least
    ``_MIN_CHUNK_ROWS`` rows for small ``n`` (thin products are slow) but never more than
    ``_MAX_CHUNK_ELEMS`` elements, so working memory does not grow with ``n`` times the chunk;
    a multiple of ``multiple``."""
    k = max(_MIN_CHUNK_ROWS, _CHUNK_ELEMS // max(n, 1))
    k = min(k, max(1, _MAX_CHUNK_ELEMS // max(n, 1)))
    return max(multiple, (k // multiple) * multiple)


def _max_count(mats: Sequence[np.ndarray]) -> float:
    """Largest value of the matrices (already checked: statistics are >= 0)."""
    top = 0.0
    for m in mats:
        if m.size:
            top = max(top, float(m.max()))
    return top


def _exact_in_float32(mats: Sequence[np.ndarray]) -> bool:
    """Whether every sum of up to ``n`` rows of each matrix is exact in float32, whatever the
    order of the additions: integer values (of any dtype) whose sums stay <= 2**24.  Fractional
    values (TER's average reference lengths) take the row-by-row path."""
    n = max((m.shape[0] for m in mats), default=0)
    for m in mats:
        if m.dtype.kind == "f" and not np.array_equal(m, np.rint(m)):
            return False
    return float(n) * _max_count(mats) <= _F32_EXACT


def bootstrap_sums(
    rng: np.random.Generator, mats: Sequence[np.ndarray], n_samples: int, progress: Progress = None
) -> list[np.ndarray]:
    """Column sums of ``n_samples`` bootstrap resamples of each matrix in ``mats``.

    Draws ``rng.choice(n, size=(n_samples, n), replace=True)`` one row (resample) at a time:
    the same stream as one call (numpy's bounded-integer generator keeps no state between
    calls that a split could lose).  Returns one float64 ``(n_samples, C)`` array per matrix,
    holding the float32 sums sacreBLEU gets by summing the float32 rows in order.

    Two ways, by the size of the sums:

    * every sum <= 2**24 (``n * max`` bounds them): float32 sums are exact, so a chunk of
      resamples is ``counts @ stats`` with ``counts`` the ``np.bincount`` of each row of indices
      (float32 BLAS);
    * otherwise float32 rounding matters and each resample is summed as sacreBLEU sums it,
      ``stats32[idx].sum(0)`` (rows in order), for every matrix.

    Working memory besides the statistics: one row of indices (8 bytes per segment), a float32
    copy of the statistics (4 bytes per value), and either at most ``_MAX_CHUNK_ELEMS`` counts
    or one gathered resample (4 bytes per value): about 120 MB for two 1M-segment systems of
    BLEU-4 statistics, whatever ``n_samples``.
    """
    n = mats[0].shape[0]
    widths = [m.shape[1] for m in mats]
    exact32 = _exact_in_float32(mats)  # n * max bounds any resample's sum
    out = np.empty((n_samples, sum(widths)), dtype=np.float64)
    if exact32:
        mat = np.hstack([m.astype(np.float32) for m in mats])
        k = _chunk_rows(n)
        counts = np.empty((min(k, n_samples), n), dtype=np.float32)
        for start in range(0, n_samples, k):
            rows = min(k, n_samples - start)
            for r in range(rows):  # a row of draws at a time: bins stay in cache, idx stays small
                counts[r] = np.bincount(rng.choice(n, size=n, replace=True), minlength=n)
            out[start : start + rows] = counts[:rows] @ mat
            if progress:
                progress(rows)
    else:
        # one gather serves all matrices: each column is still summed on its own, rows in order
        m32 = np.hstack([m.astype(np.float32) for m in mats])
        step = max(1, _chunk_rows(n))
        done = 0
        for i in range(n_samples):
            out[i] = m32[rng.choice(n, size=n, replace=True)].sum(0)
            done += 1
            if progress and (done == step or i == n_samples - 1):
                progress(done)
                done = 0
    res, col0 = [], 0
    for w in widths:
        res.append(out[:, col0 : col0 + w])
        col0 += w
    return res


def ar_sums(
    rng: np.random.Generator, bl: np.ndarray, systems: Sequence[np.ndarray], n_trials: int, progress: Progress = None
) -> list[tuple[np.ndarray, np.ndarray]]:
    """Statistics of the two shuffled pseudo-systems of every randomisation trial.

    Draws ``rng.integers(2, size=(n_trials, n), dtype=bool)`` (selector: True takes the
    baseline's segment into pseudo-system A) in row chunks whose sizes keep numpy's 32-bit bool
    buffering aligned, so the stream is identical to one call.  With ``D = bl - sys`` and ``P``
    the selector, A = ``sum(sys) + P @ D`` and B = ``sum(bl) - P @ D`` (exact: integer sums
    in float32 while they stay <= 2**24, else in float64).  Returns per system ``(A, B)``,
    int64 ``(n_trials, C)`` for integer statistics; for fractional ones (TER's average
    reference lengths) float64 sums ``P @ bl + ~P @ sys`` as sacreBLEU forms them.  Working
    memory: ``D`` in float (4 or 8 bytes per value and system) and at most
    ``_MAX_CHUNK_ELEMS`` selector values.
    """
    n = bl.shape[0]
    c = bl.shape[1]
    mats = [bl, *systems]
    integral = all(m.dtype.kind in "iub" or np.array_equal(m, np.rint(m)) for m in mats)
    if integral:
        top = _max_count(mats)
        ftype = np.float32 if top <= _F32_EXACT else np.float64  # differences of exact values stay exact
        dmat = np.hstack([bl.astype(ftype) - s.astype(ftype) for s in systems])
        if float(np.abs(dmat).sum(axis=0, dtype=np.float64).max(initial=0)) > _F32_EXACT:
            dmat = dmat.astype(np.float64)
    else:
        dmat = np.hstack([np.hstack([bl, s]).astype(np.float64) for s in systems])
    pd = np.empty((n_trials, dmat.shape[1]), dtype=np.int64 if integral else np.float64)
    k = _chunk_rows(n, 32 // math.gcd(32, n))
    sub = max(1, _MAX_CHUNK_ELEMS // max(n, 1))  # rows converted to float at a time
    for start in range(0, n_trials, k):
        rows = min(k, n_trials - start)
        sel = rng.integers(2, size=(rows, n), dtype=bool)
        for r0 in range(0, rows, sub):
            r1 = min(rows, r0 + sub)
            if integral:
                pd[start + r0 : start + r1] = np.rint(sel[r0:r1].astype(dmat.dtype) @ dmat).astype(np.int64)
            else:  # A and B of every system side by side: [P @ bl, P @ sys] then B from ~P
                pos = sel[r0:r1].astype(np.float64)
                pd[start + r0 : start + r1] = pos @ dmat
        if progress:
            progress(rows)
    out = []
    if integral:
        bl_tot = bl.sum(axis=0, dtype=np.int64)
        for j, s in enumerate(systems):
            block = pd[:, j * c : (j + 1) * c]
            out.append((s.sum(axis=0, dtype=np.int64) + block, bl_tot - block))
        return out
    bl_tot64 = bl.astype(np.float64).sum(axis=0)
    for j, s in enumerate(systems):
        pos_bl = pd[:, 2 * j * c : (2 * j + 1) * c]
        pos_sys = pd[:, (2 * j + 1) * c : (2 * j + 2) * c]
        sys_tot64 = s.astype(np.float64).sum(axis=0)
        out.append((pos_bl + (sys_tot64 - pos_sys), (bl_tot64 - pos_bl) + pos_sys))
    return out


# --------------------------------------------------------------------------------------------
# Single-system confidence interval
# --------------------------------------------------------------------------------------------
def bootstrap_summary(
    stats: np.ndarray, metric: Scorer, n_bootstrap: int, progress: Progress = None
) -> tuple[str, Any, Any]:
    """95% bootstrap confidence interval of a corpus score as sacreBLEU's ``corpus_score(...,
    n_bootstrap)`` leaves it in ``Score._mean`` and ``Score._ci``, for any metric: the numbers
    and their types.

    Args:
        stats: per-segment statistics ``(n, k)`` from ``metric.corpus_statistics``.
        metric: the metric that produced them (``rapidbleu._core.metric.Metric``).
        n_bootstrap: number of resamples (each of ``n`` segments drawn with replacement).
        progress: optional callback, called with the number of resamples done per chunk.

    Returns:
        ``(seed, mean, half_width)``: ``seed`` is ``SACREBLEU_SEED`` lowercased (``"12345"`` by
        default, ``"none"`` for OS entropy) as the signature reports it; ``mean`` is the
        ``statistics.mean`` of the resampled scores and ``half_width`` half the distance
        between the 2.5% and 97.5% sorted scores, both in the metric's points (0-100),
        computed as sacreBLEU's ``Score.estimate_ci`` computes them on the scores its score
        objects hold (``metric.score_scalars`` of ``metric.scores_from_stats(sums,
        np.float32)``): Python floats for BLEU, ``numpy.float32`` for chrF and TER (whose
        formulas stay in the resamples' float32).

    Raises:
        TypeError: ``n_bootstrap`` not an int.
        ValueError: malformed statistics (``metric.check_statistics``), statistics whose
            resamples could sum beyond 2**53 - 1 (:func:`check_resample_range`),
            ``n_bootstrap < 1`` or a non-integer seed.
    """
    import statistics  # (here: it imports random, which starting the command line does not need)

    text, seed = seed_from_env()
    n_bootstrap = check_resamples(n_bootstrap, "n_bootstrap")
    if n_bootstrap < 1:
        raise ValueError("n_bootstrap must be >= 1")
    st = metric.check_statistics(stats, nonempty=True)
    check_resample_range(st, metric)
    (sums,) = bootstrap_sums(np.random.default_rng(seed), [st], n_bootstrap, progress)
    scores = sorted(metric.score_scalars(metric.scores_from_stats(sums, np.float32), np.float32))
    lo = len(scores) // 40
    return text.lower(), statistics.mean(scores), 0.5 * (scores[len(scores) - lo - 1] - scores[lo])


def bootstrap_ci(
    stats: np.ndarray, metric: Scorer, n_bootstrap: int, progress: Progress = None
) -> tuple[str, float, float]:
    """:func:`bootstrap_summary` with the mean and half-width as Python floats (the same
    values): ``(seed, mean, half_width)``.

    Raises:
        as :func:`bootstrap_summary`.
    """
    text, mean, ci = bootstrap_summary(stats, metric, n_bootstrap, progress)
    return text, float(mean), float(ci)
