"""Bootstrap confidence intervals and paired significance tests from the statistics matrix.

Everything here works on the per-segment sufficient statistics of ``BLEU.corpus_statistics``
(int64, shape ``(n, 2 + 2N)``) and reproduces sacreBLEU 2.x's ``significance`` module number
for number:

* the same seeds (``SACREBLEU_SEED``, default ``12345``; ``none`` draws entropy from the OS),
  the same generator (``numpy.random.default_rng``) and the same sequence of draws, so every
  resample and every randomisation trial is the one sacreBLEU uses;
* the same arithmetic: sacreBLEU sums bootstrap resamples in float32 and then computes BLEU on
  numpy float32 scalars (NumPy 2 keeps ``100. * np.float32`` in float32), whereas the
  approximate-randomisation trials are int64; both are reproduced bit for bit, with Python's
  ``math.log``/``math.exp`` for the transcendental functions;
* the same summaries: 95% interval from the sorted scores at ``n // 40`` and
  ``n - n // 40 - 1`` (half its width is reported), the bootstrap mean, and p-values
  ``(c + 1) / (trials + 1)``.

What differs is how the work is done.  sacreBLEU materialises a ``(resamples, segments,
columns)`` float32 array per system (800 MB for 1,000 resamples of 20,000 segments) and calls a
Python BLEU function once per resample; here the draws are consumed in chunks of rows, a
resample's sums are ``counts @ stats`` with ``counts`` the ``np.bincount`` of its indices, a
randomisation trial's sums are one matrix product with the bool selector, all systems that
share a seed share one stream of draws, and BLEU is computed for all resamples at once.
Working memory does not grow with the number of resamples, nor with segments times a chunk
of resamples: indices are drawn one resample at a time (8 bytes per segment), chunks of
counts are capped at ``_MAX_CHUNK_ELEMS`` values, and beside the statistics themselves the
only copy is a float32 one (4 bytes per value).  The statistics may be any integer type
(the command line keeps them in the narrowest unsigned type: 1-2 bytes per value, so
10-20 bytes per segment and system for BLEU-4); sums are taken in int64.  Measured on 1M
segments with 1,000 resamples, whole process, int64 inputs (76 MB per system) included: a
CI peaks at 283 MB, a paired bootstrap of two systems at 359 MB (``bench/results_scale.md``).

References: Koehn (2004), "Statistical significance tests for machine translation
evaluation"; Riezler and Maxwell (2005), "On some pitfalls in automatic evaluation and
significance testing for MT"; Clark et al. (2011, MultEval) for the p-value smoothing.
"""

import math
import os
import statistics
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from . import _backend
from ._validate import check_counts, check_stats_matrix

__all__ = [
    "DEFAULT_SAMPLES",
    "PairedTest",
    "Result",
    "bleu_scores",
    "bootstrap_ci",
    "estimate_ci",
    "paired_ar",
    "paired_bs",
    "seed_from_env",
]

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


# --------------------------------------------------------------------------------------------
# BLEU for many rows of statistics at once
# --------------------------------------------------------------------------------------------
def bleu_scores(sums: np.ndarray, metric, dtype=np.int64) -> np.ndarray:
    """BLEU (0-100) of every row of summed statistics, as sacreBLEU computes it.

    Args:
        sums: ``(m, 2 + 2N)`` array of aggregated statistics (integer values).
        metric: a ``rapidbleu.BLEU`` (smoothing, effective order and N are read from it).
        dtype: the numpy type sacreBLEU holds the statistics in: ``np.int64`` for
            approximate-randomisation trials, ``np.float32`` for bootstrap resamples (float32
            arithmetic in the precisions), ``None`` for Python ints (corpus scores).

    Returns:
        float64 array ``(m,)``; each value is the float sacreBLEU's ``compute_bleu`` returns
        for that row held in ``dtype`` (computed by the scoring layer,
        ``rapidbleu._scoring_py.sacre_scores`` or its compiled twin).

    Raises:
        ValueError: a width other than ``2 + 2N``, a ``dtype`` other than None/int64/float32.
    """
    return _backend.scoring.sacre_scores(
        sums, metric.max_ngram_order, metric.smooth_method, metric.smooth_value, bool(metric.effective_order), dtype
    )


# --------------------------------------------------------------------------------------------
# Summaries
# --------------------------------------------------------------------------------------------
def estimate_ci(scores: np.ndarray) -> tuple[float, float]:
    """``(mean, half-width)`` of the 95% interval of bootstrap ``scores`` (sacreBLEU's
    ``significance.estimate_ci``): sort, take ``s[n // 40]`` and ``s[n - n // 40 - 1]``; the mean
    is numpy's (pairwise) mean of the sorted array."""
    s = np.sort(np.asarray(scores, dtype=np.float64))
    lo = len(s) // 40
    return float(s.mean()), float(0.5 * (s[len(s) - lo - 1] - s[lo]))


def _p_value(stats: np.ndarray, real: float) -> float:
    """``(#{stats > real} + 1) / (len(stats) + 1)`` (MultEval's smoothed count).

    An observed difference of exactly 0 gives ``p = 1``: no resample can be less extreme than
    "no difference", so two systems with the same score are never significantly different
    (sacreBLEU returns ``1 / (trials + 1)`` there, i.e. "significant", for identical systems).
    """
    if real == 0:
        return 1.0
    c = int(np.count_nonzero(stats > real))
    return (c + 1) / (len(stats) + 1)


#: sacreBLEU's name for the same function (``sacrebleu.significance._compute_p_value``).
_compute_p_value = _p_value


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
    """Largest value of the matrices (already checked by ``check_stats_matrix``: counts >= 0)."""
    top = 0.0
    for m in mats:
        if m.size:
            top = max(top, float(m.max()))
    return top


def _bootstrap_sums(
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
    top = _max_count(mats)
    exact32 = float(n) * top <= _F32_EXACT  # upper bound on any resample's sum
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


def _ar_sums(
    rng: np.random.Generator, bl: np.ndarray, systems: Sequence[np.ndarray], n_trials: int, progress: Progress = None
) -> list[tuple[np.ndarray, np.ndarray]]:
    """Statistics of the two shuffled pseudo-systems of every randomisation trial.

    Draws ``rng.integers(2, size=(n_trials, n), dtype=bool)`` (selector: True takes the
    baseline's segment into pseudo-system A) in row chunks whose sizes keep numpy's 32-bit bool
    buffering aligned, so the stream is identical to one call.  With ``D = bl - sys`` and ``P``
    the selector, A = ``sum(sys) + P @ D`` and B = ``sum(bl) - P @ D`` (exact: integer sums
    in float32 while they stay <= 2**24, else in float64).  Returns per system ``(A, B)``,
    int64 ``(n_trials, C)``.  Working memory: ``D`` in float (4 or 8 bytes per value and
    system) and at most ``_MAX_CHUNK_ELEMS`` selector values.
    """
    n = bl.shape[0]
    c = bl.shape[1]
    top = _max_count([bl, *systems])
    ftype = np.float32 if top <= _F32_EXACT else np.float64  # differences of exact values stay exact
    dmat = np.hstack([bl.astype(ftype) - s.astype(ftype) for s in systems])
    if float(np.abs(dmat).sum(axis=0, dtype=np.float64).max(initial=0)) > _F32_EXACT:
        dmat = dmat.astype(np.float64)
    pd = np.empty((n_trials, dmat.shape[1]), dtype=np.int64)
    k = _chunk_rows(n, 32 // math.gcd(32, n))
    sub = max(1, _MAX_CHUNK_ELEMS // max(n, 1))  # rows converted to float at a time
    for start in range(0, n_trials, k):
        rows = min(k, n_trials - start)
        sel = rng.integers(2, size=(rows, n), dtype=bool)
        for r0 in range(0, rows, sub):
            r1 = min(rows, r0 + sub)
            pd[start + r0 : start + r1] = np.rint(sel[r0:r1].astype(dmat.dtype) @ dmat).astype(np.int64)
        if progress:
            progress(rows)
    bl_tot = bl.sum(axis=0, dtype=np.int64)
    out = []
    for j, s in enumerate(systems):
        block = pd[:, j * c : (j + 1) * c]
        out.append((s.sum(axis=0, dtype=np.int64) + block, bl_tot - block))
    return out


def _as_stats(stats) -> np.ndarray:
    a = np.asarray(stats)
    if a.ndim != 2 or a.shape[0] == 0:
        raise ValueError(f"statistics must be a non-empty 2-D matrix (segments x columns), got shape {a.shape}")
    if np.issubdtype(a.dtype, np.integer):
        return a  # any integer type: narrow ones (uint16, ...) are summed in int64 where it matters
    check_counts(a)
    return a.astype(np.int64)


# --------------------------------------------------------------------------------------------
# Single-system confidence interval
# --------------------------------------------------------------------------------------------
def bootstrap_ci(stats, metric, n_bootstrap: int, progress: Progress = None) -> tuple[str, float, float]:
    """95% bootstrap confidence interval of corpus BLEU (sacreBLEU's ``corpus_score(...,
    n_bootstrap)``).

    Args:
        stats: per-segment statistics ``(n, 2 + 2N)`` from ``BLEU.corpus_statistics``.
        metric: the ``rapidbleu.BLEU`` that produced them.
        n_bootstrap: number of resamples (each of ``n`` segments drawn with replacement).
        progress: optional callback, called with the number of resamples done per chunk
            (default: the metric's ``_progress`` attribute, if any, which the CLI sets).

    Returns:
        ``(seed, mean, half_width)``: ``seed`` is ``SACREBLEU_SEED`` lowercased (``"12345"`` by
        default, ``"none"`` for OS entropy) as the signature reports it; ``mean`` is the exact
        (``statistics.mean``) mean of the resampled scores and ``half_width`` half the distance
        between the 2.5% and 97.5% sorted scores, both BLEU points (0-100).

    Raises:
        ValueError: malformed statistics, ``n_bootstrap < 1`` or a non-integer seed.
    """
    text, seed = seed_from_env()
    n_bootstrap = int(n_bootstrap)
    if n_bootstrap < 1:
        raise ValueError("n_bootstrap must be >= 1")
    st = _as_stats(stats)
    check_stats_matrix(st, metric.max_ngram_order)
    if progress is None:
        progress = getattr(metric, "_progress", None)
    (sums,) = _bootstrap_sums(np.random.default_rng(seed), [st], n_bootstrap, progress)
    scores = sorted(bleu_scores(sums, metric, np.float32).tolist())
    lo = len(scores) // 40
    return text.lower(), statistics.mean(scores), 0.5 * (scores[len(scores) - lo - 1] - scores[lo])


# --------------------------------------------------------------------------------------------
# Paired tests
# --------------------------------------------------------------------------------------------
class Result:
    """One system's result in a paired test (sacreBLEU's ``significance.Result``).

    Attributes (in this order, which the JSON output follows):
        score: corpus BLEU (0-100).
        p_value: p-value against the baseline (None for the baseline itself).
        mean: bootstrap estimate of the true mean (None when no resampling was done).
        ci: half-width of the 95% bootstrap confidence interval (None likewise).
    """

    def __init__(self, score: float, p_value: float | None = None, mean: float | None = None, ci: float | None = None):
        self.score = score
        self.p_value = p_value
        self.mean = mean
        self.ci = ci

    def __repr__(self):
        return ",".join(f"{k}={v}" for k, v in self.__dict__.items())

    def __eq__(self, other):
        return isinstance(other, Result) and self.__dict__ == other.__dict__


def _seeds(seed: int | None) -> tuple[int | None, int | None]:
    """(baseline CI seed, per-system seed): both the seed as given.  (sacreBLEU seeds each
    comparison with ``seed if seed else None``, so its ``seed:0`` runs are not reproducible;
    here 0 fixes the draws like any other seed.)"""
    return seed, seed


def _corpus_score(st: np.ndarray, metric) -> float:
    check_stats_matrix(st, metric.max_ngram_order)
    return float(metric.score_from_stats(st.sum(axis=0, dtype=np.int64)).score)


def paired_bs(
    baseline_stats,
    systems_stats: Sequence,
    metric,
    n_samples: int = 1000,
    seed: int | None | str = "env",
    n_jobs: int = 1,
    progress: Progress = None,
) -> list[Result]:
    """Paired bootstrap resampling test (Koehn 2004) as sacreBLEU's ``_paired_bs_test``.

    Every comparison draws ``n_samples`` resamples of segment indices (shared by the baseline
    and the system); the p-value counts resamples whose centred absolute score difference
    ``|s - b| - mean(|s - b|)`` exceeds the observed ``|S - B|``: ``(c + 1) / (n_samples + 1)``.

    Args:
        baseline_stats: ``(n, 2 + 2N)`` statistics of the baseline.
        systems_stats: statistics of each other system (same shape).
        metric: the ``rapidbleu.BLEU`` used for all of them.
        n_samples: resamples (0 or less: the default, 1000).
        seed: an int, ``None`` (OS entropy), or ``"env"`` to read ``SACREBLEU_SEED``.
        n_jobs: threads for comparisons that do not share draws (only with OS entropy).
        progress: callback with the number of resamples done (per system and chunk).

    Returns:
        ``[baseline, system_1, ...]`` ``Result``s: scores, bootstrap means and CI half-widths
        in BLEU points; p-values for the systems.

    Raises:
        ValueError: a matrix that is not valid statistics (``_validate.check_stats_matrix``:
            width, negative counts, more matches than n-grams, named by row and column), systems
            of another shape than the baseline, a bad ``SACREBLEU_SEED`` with ``seed="env"``.
    """
    if seed == "env":
        seed = seed_from_env()[1]
    n_samples = n_samples if n_samples > 0 else DEFAULT_SAMPLES["bs"]
    bl = _as_stats(baseline_stats)
    systems = [_as_stats(s) for s in systems_stats]
    _check_shapes(bl, systems, metric)
    bl_seed, sys_seed = _seeds(seed)  # type: ignore[arg-type]  # "env" resolved above

    bl_score = _corpus_score(bl, metric)
    if sys_seed is not None:
        # Every comparison starts a generator from the same seed: one stream serves them all,
        # and the baseline's own CI too when it uses the same seed.
        sums = _bootstrap_sums(np.random.default_rng(sys_seed), [bl, *systems], n_samples, progress)
        pairs = [(sums[0], s) for s in sums[1:]]
        bl_ci_sums = (
            sums[0] if bl_seed == sys_seed else _bootstrap_sums(np.random.default_rng(bl_seed), [bl], n_samples)[0]
        )
    else:
        bl_ci_sums = _bootstrap_sums(np.random.default_rng(bl_seed), [bl], n_samples)[0]

        def one(s):
            b, x = _bootstrap_sums(np.random.default_rng(None), [bl, s], n_samples, progress)
            return b, x

        pairs = _map_jobs(one, systems, n_jobs)

    bl_mean, bl_ci = estimate_ci(bleu_scores(bl_ci_sums, metric, np.float32))
    results = [Result(bl_score, None, bl_mean, bl_ci)]
    bl_cache = {}
    for st, (b_sums, s_sums) in zip(systems, pairs, strict=False):
        key = id(b_sums)
        if key not in bl_cache:
            bl_cache[key] = bleu_scores(b_sums, metric, np.float32)
        b_scores = bl_cache[key]
        s_scores = bleu_scores(s_sums, metric, np.float32)
        score = _corpus_score(st, metric)
        mean, ci = estimate_ci(s_scores)
        diffs = np.abs(s_scores - b_scores)
        p = _p_value(diffs - diffs.mean(), abs(bl_score - score))
        results.append(Result(score, p, mean, ci))
    return results


def paired_ar(
    baseline_stats,
    systems_stats: Sequence,
    metric,
    n_samples: int = 10000,
    n_ar_confidence: int = -1,
    seed: int | None | str = "env",
    n_jobs: int = 1,
    progress: Progress = None,
) -> list[Result]:
    """Paired approximate randomization test (Riezler and Maxwell 2005) as sacreBLEU's
    ``_paired_ar_test``.

    Each trial swaps every segment between baseline and system with probability 1/2; the
    p-value counts trials whose absolute score difference of the two pseudo-systems exceeds
    the observed ``|S - B|``: ``(c + 1) / (n_samples + 1)``.

    Args:
        baseline_stats, systems_stats, metric, seed, n_jobs, progress: as in ``paired_bs``.
        n_samples: trials (0 or less: the default, 10,000).
        n_ar_confidence: bootstrap resamples for CIs (drawn after the trials, from the same
            generator); -1 disables them, 0 means 1000.

    Returns:
        ``[baseline, system_1, ...]`` ``Result``s (``mean``/``ci`` None without CIs).

    Raises:
        ValueError: as :func:`paired_bs`.
    """
    if seed == "env":
        seed = seed_from_env()[1]
    n_samples = n_samples if n_samples > 0 else DEFAULT_SAMPLES["ar"]
    n_conf = n_ar_confidence if n_ar_confidence != 0 else DEFAULT_SAMPLES["bs"]
    bl = _as_stats(baseline_stats)
    systems = [_as_stats(s) for s in systems_stats]
    _check_shapes(bl, systems, metric)
    bl_seed, sys_seed = _seeds(seed)  # type: ignore[arg-type]  # "env" resolved above

    bl_score = _corpus_score(bl, metric)
    bl_mean = bl_ci = None
    if n_conf > 0:
        (b,) = _bootstrap_sums(np.random.default_rng(bl_seed), [bl], n_conf)
        bl_mean, bl_ci = estimate_ci(bleu_scores(b, metric, np.float32))

    def run(rng, group):
        trials = _ar_sums(rng, bl, group, n_samples, progress)
        cis = _bootstrap_sums(rng, group, n_conf) if n_conf > 0 else [None] * len(group)
        return list(zip(trials, cis, strict=False))

    if sys_seed is not None:
        per_sys = run(np.random.default_rng(sys_seed), systems) if systems else []
    else:
        per_sys = [r[0] for r in _map_jobs(lambda s: run(np.random.default_rng(None), [s]), systems, n_jobs)]

    results = [Result(bl_score, None, bl_mean, bl_ci)]
    for st, ((a, b), ci_sums) in zip(systems, per_sys, strict=False):
        score = _corpus_score(st, metric)
        sa = bleu_scores(a, metric, np.int64)
        sb = bleu_scores(b, metric, np.int64)
        p = _p_value(np.abs(sa - sb), abs(bl_score - score))
        res = Result(score, p)
        if ci_sums is not None:
            res.mean, res.ci = estimate_ci(bleu_scores(ci_sums, metric, np.float32))
        results.append(res)
    return results


def _check_shapes(bl, systems, metric):
    """Every matrix valid statistics (``_validate.check_stats_matrix``), all of one shape."""
    check_stats_matrix(bl, metric.max_ngram_order, "baseline statistics")
    for i, s in enumerate(systems):
        check_stats_matrix(s, metric.max_ngram_order, f"statistics of system {i + 1}")
        if s.shape != bl.shape:
            raise ValueError(f"system {i + 1} has statistics of shape {s.shape}, the baseline {bl.shape}")


def _map_jobs(fn, items, n_jobs):
    if n_jobs == 1 or len(items) <= 1:
        return [fn(x) for x in items]
    workers = len(items) if n_jobs <= 0 else min(n_jobs, len(items))
    with ThreadPoolExecutor(max_workers=workers) as ex:
        return list(ex.map(fn, items))


class PairedTest:
    """Paired significance test of several systems against a baseline (the first system),
    a drop-in for ``sacrebleu.significance.PairedTest`` restricted to BLEU metrics.

    Args:
        named_systems: ``[(name, hypotheses), ...]``; the first is the baseline.
        metrics: ``{name: rapidbleu.BLEU}`` (the name is replaced by the score's, ``"BLEU"``).
        references: reference streams, or None to use each metric's cached references.
        test_type: ``"ar"`` (approximate randomization) or ``"bs"`` (paired bootstrap).
        n_samples: trials (``ar``) or resamples (``bs``); 0 uses 10,000 / 1,000.
        n_ar_confidence: for ``ar``, bootstrap resamples for CIs; -1 (default) none, 0 = 1000.
        n_jobs: threads; only used when comparisons do not share draws (OS entropy).
        progress: optional callback with the number of resamples/trials done.

    The seed comes from ``SACREBLEU_SEED`` (default 12345, ``none`` for OS entropy).

    Calling the object returns ``(signatures, scores)``: ``{metric: Signature}`` with
    ``seed``, ``bs``/``ar`` set, and ``{"System": [names], metric: [Result, ...]}``.

    Raises:
        AssertionError: unknown test type (as sacreBLEU).
        ValueError: systems of different lengths, malformed input.
    """

    _DEFAULT_SAMPLES = DEFAULT_SAMPLES

    def __init__(
        self,
        named_systems: list[tuple[str, Sequence[str]]],
        metrics: Mapping[str, Any],
        references: Sequence[Sequence[str]] | None,
        test_type: str = "ar",
        n_samples: int = 0,
        n_ar_confidence: int = -1,
        n_jobs: int = 1,
        progress: Progress = None,
    ):
        assert test_type in ("ar", "bs"), f"Unknown test type {test_type!r}"
        self.test_type = test_type
        _text, self._seed = seed_from_env()
        self.n_jobs = n_jobs
        self.references = references
        self.named_systems = named_systems
        self.n_ar_confidence = n_ar_confidence if n_ar_confidence != 0 else DEFAULT_SAMPLES["bs"]
        self.n_samples = n_samples if n_samples > 0 else DEFAULT_SAMPLES[test_type]
        self.n_systems = len(named_systems) - 1
        self.progress = progress
        self.metrics = {}
        self._signatures = {}
        self._stats: dict[str, list[np.ndarray]] = {}
        for _name, metric in metrics.items():
            stats = [metric.corpus_statistics(hyps, references) for _sys, hyps in named_systems]
            key = metric.score_from_stats(stats[0].sum(axis=0)).name
            self.metrics[key] = metric
            self._stats[key] = stats
            sig = metric.get_signature()
            sig.update("seed", str(self._seed).lower())
            sig.update(test_type, self.n_samples)
            if self.n_ar_confidence > 0:
                sig.update("bs", self.n_ar_confidence)
            self._signatures[key] = sig

    @property
    def progress_total(self) -> int:
        """Total the ``progress`` callback will count to: resamples or trials of each stream of
        draws (one stream shared by all systems when seeded, one per system otherwise)."""
        streams = 1 if self._seed is not None else max(self.n_systems, 1)
        return self.n_samples * streams * len(self.metrics)

    def __call__(self):
        scores: dict[str, list] = {"System": [name for name, _ in self.named_systems]}
        for key, metric in self.metrics.items():
            bl, *systems = self._stats[key]
            if self.test_type == "bs":
                scores[key] = paired_bs(bl, systems, metric, self.n_samples, self._seed, self.n_jobs, self.progress)
            else:
                scores[key] = paired_ar(
                    bl, systems, metric, self.n_samples, self.n_ar_confidence, self._seed, self.n_jobs, self.progress
                )
        return self._signatures, scores
