"""Bootstrap confidence intervals and paired significance tests from the statistics matrix.

Everything here works on the per-segment sufficient statistics of any metric
(``Metric.corpus_statistics``: BLEU's int64 ``(n, 2 + 2N)``, chrF's, TER's) through the metric
protocol (``rapidbleu._core.metric``), and reproduces sacreBLEU 2.x's ``significance`` module number
for number:

* the same seeds (``SACREBLEU_SEED``, default ``12345``; ``none`` draws entropy from the OS),
  the same generator (``numpy.random.default_rng``) and the same sequence of draws, so every
  resample and every randomisation trial is the one sacreBLEU uses;
* the same arithmetic: sacreBLEU sums bootstrap resamples in float32 and then computes BLEU on
  numpy float32 scalars (NumPy 2 keeps ``100. * np.float32`` in float32), whereas the
  approximate-randomisation trials keep the statistics' type; both are reproduced bit for bit
  by each metric's ``scores_from_stats``;
* the same summaries: 95% interval from the sorted scores at ``n // 40`` and
  ``n - n // 40 - 1`` (half its width is reported), the bootstrap mean, and p-values
  ``(c + 1) / (trials + 1)``.

What differs is how the work is done.  sacreBLEU materialises a ``(resamples, segments,
columns)`` float32 array per system (800 MB for 1,000 resamples of 20,000 segments) and calls a
Python BLEU function once per resample; here the draws are consumed in chunks of rows, a
resample's sums are ``counts @ stats`` with ``counts`` the ``np.bincount`` of its indices, a
randomisation trial's sums are one matrix product with the bool selector, all systems that
share a seed share one stream of draws, and the scores of all resamples are computed at once.
The resampling itself is in ``rapidbleu._core.bootstrap`` (which ``Metric.corpus_score`` also uses).
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

from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from ._core.bootstrap import (
    DEFAULT_SAMPLES,
    Progress,
    ar_sums,
    bootstrap_ci,
    bootstrap_sums,
    check_resample_range,
    estimate_ci,
    p_value,
    seed_from_env,
)
from ._core.metric import Metric
from ._core.validate import check_resamples

__all__ = [
    "DEFAULT_SAMPLES",
    "PairedTest",
    "Result",
    "bleu_scores",
    "bootstrap_ci",
    "estimate_ci",
    "paired_ar",
    "paired_bs",
    "progress_total",
    "seed_from_env",
]

#: sacreBLEU's name for the p-value rule (``sacrebleu.significance._compute_p_value``).
_compute_p_value = p_value


def bleu_scores(sums: np.ndarray, metric: Metric, dtype: Any = np.int64) -> np.ndarray:
    """The score (0-100) of every row of summed statistics, as sacreBLEU computes it: the
    metric's ``scores_from_stats`` (the name is from when only BLEU was scored here).

    Args:
        sums: ``(m, k)`` array of aggregated statistics.
        metric: the metric (``rapidbleu.BLEU``, ...) whose settings score them.
        dtype: the numpy type sacreBLEU holds the statistics in: ``np.int64`` for
            approximate-randomisation trials, ``np.float32`` for bootstrap resamples (float32
            arithmetic), ``None`` for Python numbers (corpus scores).

    Returns:
        float64 array ``(m,)``.

    Raises:
        ValueError: a width other than the metric's, an unsupported ``dtype``.
    """
    return metric.scores_from_stats(sums, dtype)


# --------------------------------------------------------------------------------------------
# Paired tests
# --------------------------------------------------------------------------------------------
class Result:
    """One system's result in a paired test (sacreBLEU's ``significance.Result``).

    Attributes (in this order, which the JSON output follows):
        score: the corpus score (0-100).
        p_value: p-value against the baseline (None for the baseline itself).
        mean: bootstrap estimate of the true mean (None when no resampling was done).
        ci: half-width of the 95% bootstrap confidence interval (None likewise).
    """

    def __init__(
        self, score: float, p_value: float | None = None, mean: float | None = None, ci: float | None = None
    ) -> None:
        self.score = score
        self.p_value = p_value
        self.mean = mean
        self.ci = ci

    def __repr__(self) -> str:
        return ",".join(f"{k}={v}" for k, v in self.__dict__.items())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Result) and self.__dict__ == other.__dict__

    __hash__ = None  # type: ignore[assignment]  # compared by value


def _seeds(seed: int | None) -> tuple[int | None, int | None]:
    """(baseline CI seed, per-system seed): both the seed as given.  (sacreBLEU seeds each
    comparison with ``seed if seed else None``, so its ``seed:0`` runs are not reproducible;
    here 0 fixes the draws like any other seed.)"""
    return seed, seed


def _corpus_score(st: np.ndarray, metric: Metric) -> float:
    return float(metric.score_from_stats(metric.combine(st)).score)


def _trial_dtype(sums: np.ndarray) -> Any:
    """The numpy type sacreBLEU's randomisation trials hold their sums in: int64 for counts,
    float64 for float statistics."""
    return np.int64 if sums.dtype.kind in "iu" else np.float64


def paired_bs(
    baseline_stats: Any,
    systems_stats: Sequence[Any],
    metric: Metric,
    n_samples: int = 1000,
    seed: int | str | None = "env",
    n_jobs: int = 1,
    progress: Progress = None,
) -> list[Result]:
    """Paired bootstrap resampling test (Koehn 2004) as sacreBLEU's ``_paired_bs_test``.

    Every comparison draws ``n_samples`` resamples of segment indices (shared by the baseline
    and the system); the p-value counts resamples whose centred absolute score difference
    ``|s - b| - mean(|s - b|)`` exceeds the observed ``|S - B|``: ``(c + 1) / (n_samples + 1)``.

    Args:
        baseline_stats: ``(n, k)`` statistics of the baseline (``metric.corpus_statistics``).
        systems_stats: statistics of each other system (same shape).
        metric: the metric (any ``rapidbleu._core.metric.Metric``) used for all of them.
        n_samples: resamples (0 or less: the default, 1000).
        seed: an int, ``None`` (OS entropy), or ``"env"`` to read ``SACREBLEU_SEED``.
        n_jobs: threads for comparisons that do not share draws (only with OS entropy).
        progress: callback with the number of resamples done (per system and chunk).

    Returns:
        ``[baseline, system_1, ...]`` ``Result``s: scores, bootstrap means and CI half-widths
        in the metric's points; p-values for the systems.

    Raises:
        ValueError: a matrix that is not valid statistics (``metric.check_statistics``: width,
            negative counts, more matches than n-grams, named by row and column), one whose
            resamples could sum beyond 2**53 - 1 (``n`` times a column's largest value), systems
            of another shape than the baseline, a bad ``SACREBLEU_SEED`` with ``seed="env"``.
    """
    if seed == "env":
        seed = seed_from_env()[1]
    n_samples = check_resamples(n_samples, "n_samples")
    n_samples = n_samples if n_samples > 0 else DEFAULT_SAMPLES["bs"]
    bl, systems = _checked(baseline_stats, systems_stats, metric)
    bl_seed, sys_seed = _seeds(seed)  # type: ignore[arg-type]  # "env" resolved above

    bl_score = _corpus_score(bl, metric)
    if sys_seed is not None:
        # Every comparison starts a generator from the same seed: one stream serves them all,
        # and the baseline's own CI too when it uses the same seed.
        sums = bootstrap_sums(np.random.default_rng(sys_seed), [bl, *systems], n_samples, progress)
        pairs = [(sums[0], s) for s in sums[1:]]
        bl_ci_sums = (
            sums[0] if bl_seed == sys_seed else bootstrap_sums(np.random.default_rng(bl_seed), [bl], n_samples)[0]
        )
    else:
        bl_ci_sums = bootstrap_sums(np.random.default_rng(bl_seed), [bl], n_samples)[0]

        def one(s: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            b, x = bootstrap_sums(np.random.default_rng(None), [bl, s], n_samples, progress)
            return b, x

        pairs = _map_jobs(one, systems, n_jobs)

    bl_mean, bl_ci = estimate_ci(metric.scores_from_stats(bl_ci_sums, np.float32))
    results = [Result(bl_score, None, bl_mean, bl_ci)]
    bl_cache: dict[int, np.ndarray] = {}
    for st, (b_sums, s_sums) in zip(systems, pairs, strict=True):
        key = id(b_sums)
        if key not in bl_cache:
            bl_cache[key] = metric.scores_from_stats(b_sums, np.float32)
        b_scores = bl_cache[key]
        s_scores = metric.scores_from_stats(s_sums, np.float32)
        score = _corpus_score(st, metric)
        mean, ci = estimate_ci(s_scores)
        diffs = np.abs(s_scores - b_scores)
        p = p_value(diffs - diffs.mean(), abs(bl_score - score))
        results.append(Result(score, p, mean, ci))
    return results


def paired_ar(
    baseline_stats: Any,
    systems_stats: Sequence[Any],
    metric: Metric,
    n_samples: int = 10000,
    n_ar_confidence: int = -1,
    seed: int | str | None = "env",
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
    n_samples = check_resamples(n_samples, "n_samples")
    n_samples = n_samples if n_samples > 0 else DEFAULT_SAMPLES["ar"]
    n_conf = check_resamples(n_ar_confidence, "n_ar_confidence")
    n_conf = n_conf if n_conf != 0 else DEFAULT_SAMPLES["bs"]
    bl, systems = _checked(baseline_stats, systems_stats, metric)
    bl_seed, sys_seed = _seeds(seed)  # type: ignore[arg-type]  # "env" resolved above

    bl_score = _corpus_score(bl, metric)
    bl_mean = bl_ci = None
    if n_conf > 0:
        (b,) = bootstrap_sums(np.random.default_rng(bl_seed), [bl], n_conf)
        bl_mean, bl_ci = estimate_ci(metric.scores_from_stats(b, np.float32))

    def run(rng: np.random.Generator, group: Sequence[np.ndarray]) -> list[Any]:
        trials = ar_sums(rng, bl, group, n_samples, progress)
        cis = bootstrap_sums(rng, group, n_conf) if n_conf > 0 else [None] * len(group)
        return list(zip(trials, cis, strict=True))

    if sys_seed is not None:
        per_sys = run(np.random.default_rng(sys_seed), systems) if systems else []
    else:
        per_sys = [r[0] for r in _map_jobs(lambda s: run(np.random.default_rng(None), [s]), systems, n_jobs)]

    results = [Result(bl_score, None, bl_mean, bl_ci)]
    for st, ((a, b), ci_sums) in zip(systems, per_sys, strict=True):
        score = _corpus_score(st, metric)
        sa = metric.scores_from_stats(a, _trial_dtype(a))
        sb = metric.scores_from_stats(b, _trial_dtype(b))
        p = p_value(np.abs(sa - sb), abs(bl_score - score))
        res = Result(score, p)
        if ci_sums is not None:
            res.mean, res.ci = estimate_ci(metric.scores_from_stats(ci_sums, np.float32))
        results.append(res)
    return results


def _checked(baseline_stats: Any, systems_stats: Sequence[Any], metric: Metric) -> tuple[np.ndarray, list[np.ndarray]]:
    """Every matrix valid statistics of ``metric`` (``Metric.check_statistics``), all of one
    shape."""
    bl = metric.check_statistics(baseline_stats, "baseline statistics", nonempty=True)
    check_resample_range(bl, metric, "baseline statistics")
    systems = []
    for i, s in enumerate(systems_stats):
        st = metric.check_statistics(s, f"statistics of system {i + 1}", nonempty=True)
        if st.shape != bl.shape:
            raise ValueError(f"system {i + 1} has statistics of shape {st.shape}, the baseline {bl.shape}")
        check_resample_range(st, metric, f"statistics of system {i + 1}")
        systems.append(st)
    return bl, systems


def progress_total(n_samples: int, n_systems: int, seed: int | None, n_metrics: int = 1) -> int:
    """The count a paired test's ``progress`` callback reaches: ``n_samples`` resamples or trials
    per stream of draws -- one stream shared by all ``n_systems`` systems compared with the
    baseline when seeded (``seed`` an int, as :func:`seed_from_env` returns it), one per system
    with OS entropy (``seed`` None) -- for each of ``n_metrics`` metrics (:func:`paired_bs`,
    :func:`paired_ar`)."""
    streams = 1 if seed is not None else max(n_systems, 1)
    return n_samples * streams * n_metrics


def _map_jobs(fn: Callable[[Any], Any], items: Sequence[Any], n_jobs: int) -> list[Any]:
    """``[fn(x) for x in items]``, on threads when ``n_jobs`` is not 1 (0 or less: one per item,
    sacreBLEU's ``n_jobs`` rule; never more threads than items)."""
    if n_jobs == 1 or len(items) <= 1:
        return [fn(x) for x in items]
    workers = len(items) if n_jobs <= 0 else min(n_jobs, len(items))
    with ThreadPoolExecutor(max_workers=workers) as ex:
        return list(ex.map(fn, items))


class PairedTest:
    """Paired significance test of several systems against a baseline (the first system),
    a drop-in for ``sacrebleu.significance.PairedTest``.

    Args:
        named_systems: ``[(name, hypotheses), ...]``; the first is the baseline.
        metrics: ``{name: metric}`` of rapidbleu metrics (``rapidbleu.BLEU``, ...); the name is
            replaced by the score's (``"BLEU"``).
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
    ) -> None:
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
        self.metrics: dict[str, Metric] = {}
        self._signatures: dict[str, Any] = {}
        self._stats: dict[str, list[np.ndarray]] = {}
        for _name, metric in metrics.items():
            stats = [metric.corpus_statistics(hyps, references) for _sys, hyps in named_systems]
            key = metric.score_from_stats(metric.combine(stats[0])).name
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
        return progress_total(self.n_samples, self.n_systems, self._seed, len(self.metrics))

    def __call__(self) -> tuple[dict[str, Any], dict[str, list[Any]]]:
        scores: dict[str, list[Any]] = {"System": [name for name, _ in self.named_systems]}
        for key, metric in self.metrics.items():
            bl, *systems = self._stats[key]
            if self.test_type == "bs":
                scores[key] = paired_bs(bl, systems, metric, self.n_samples, self._seed, self.n_jobs, self.progress)
            else:
                scores[key] = paired_ar(
                    bl, systems, metric, self.n_samples, self.n_ar_confidence, self._seed, self.n_jobs, self.progress
                )
        return self._signatures, scores
