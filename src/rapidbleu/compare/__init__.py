"""Comparison report: one or more systems against a baseline, as one HTML page or as text.

``comparison_report(systems, references)`` scores every system with one ``rapidbleu.BLEU`` (or
with each metric of ``metrics=[...]``: BLEU, chrF, ... through the metric protocol) and collects
what a comparison of machine-translation systems usually looks at.  For every metric:

* the corpus score with a 95% bootstrap confidence interval and the p-value of a paired test
  against the baseline (``rapidbleu.significance``, as the command line's ``--paired-bs`` /
  ``--paired-ar`` with ``-m``);
* the sentence score of every segment (the metric's ``sentence_metric``: what ``-sl`` prints)
  and the distribution of its difference to the baseline: wins, ties, losses.

And for BLEU, its own parts:

* corpus BLEU (0-100) with a 95% bootstrap confidence interval and the p-value of a paired test
  against the baseline (the first system): the very functions and seeds of the command line's
  ``--paired-bs`` / ``--paired-ar`` (``rapidbleu.significance``), so the report shows the same
  numbers as the table ``rapidbleu REF -i BASELINE SYSTEM ... --paired-bs`` prints;
* modified n-gram precisions by order, brevity penalty and length ratio (Papineni et al. 2002);
* sentence BLEU of every segment (effective order, the smoothing of the metric: what ``-sl``
  prints) and the distribution of its difference to the baseline: wins, ties, losses;
* corpus BLEU per bucket of hypothesis length, reference length and the baseline's sentence
  BLEU, each computed from the summed statistics of the bucket's segments (not an average of
  sentence scores), as in compare-mt's bucketed analysis (Neubig et al. 2019);
* the segments whose sentence BLEU differs most from the baseline's in each direction, with
  source, references and both hypotheses, the matched n-grams marked;
* the BLEU signature (with the test, the number of resamples and the seed) to cite, and each
  other metric's.

The returned ``ComparisonReport`` holds these numbers (``to_dict()``) and renders them as text
tables (``to_text()``, no extra dependency) or as a self-contained HTML page with plots
(``to_html()``/``save()``, which need the optional extra ``rapidbleu[report]``: matplotlib and
Jinja2, imported only then).
"""

import itertools
import math
import os
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields, is_dataclass
from typing import Any

import numpy as np

from .. import registry
from .._base.errors import unknown_metric_error
from .._core.inputs import preprocess
from .._core.metric import Metric
from ..bleu import BLEU
from ..significance import DEFAULT_SAMPLES, bootstrap_ci, paired_ar, paired_bs, seed_from_env

__all__ = ["REPORT_EXTRA", "ComparisonReport", "comparison_report", "require_report_extra"]

#: How to install what ``to_html()`` needs.
REPORT_EXTRA = "pip install 'rapidbleu[report]'"

#: Sentence-BLEU edges of the baseline buckets (BLEU points): [0, 10), [10, 20), ... [60, 100].
BLEU_EDGES = (10.0, 20.0, 30.0, 40.0, 60.0)


def require_report_extra() -> None:
    """Check that the HTML report's dependencies (matplotlib, Jinja2) can be imported.

    Raises:
        ImportError: naming the missing packages and the extra that installs them
            (``pip install 'rapidbleu[report]'``).
    """
    missing = []
    for module in ("jinja2", "matplotlib"):
        try:
            __import__(module)
        except ImportError:
            missing.append(module)
    if missing:
        raise ImportError(
            f"the HTML comparison report needs {' and '.join(missing)}, which "
            f"{'is' if len(missing) == 1 else 'are'} not installed: {REPORT_EXTRA}"
        )


# --------------------------------------------------------------------------------------------
# The data behind the report
# --------------------------------------------------------------------------------------------
@dataclass
class SystemResult:
    """Corpus-level result of one system.

    Attributes:
        name: the system's name (its file name on the command line).
        is_baseline: True for the first system of a comparison of two or more.
        bleu: corpus BLEU, 0-100 (``BLEU.corpus_score``'s float).
        mean: bootstrap estimate of the mean BLEU (0-100).
        ci: half-width of the 95% bootstrap confidence interval (BLEU points), as sacreBLEU
            reports it (``μ = mean ± ci``).
        p_value: paired-test p-value against the baseline (None for the baseline and for a
            single system).
        precisions: modified n-gram precisions by order 1..N, in percent.
        counts, totals: clipped matches and hypothesis n-grams by order.
        bp: brevity penalty (0-1); ratio: hypothesis length / reference length.
        hyp_len, ref_len: hypothesis and effective reference length (tokens).
    """

    name: str
    is_baseline: bool
    bleu: float
    mean: float | None
    ci: float | None
    p_value: float | None
    precisions: list[float]
    counts: list[int]
    totals: list[int]
    bp: float
    ratio: float
    hyp_len: int
    ref_len: int


@dataclass
class SentenceComparison:
    """A metric's sentence scores of one system against the baseline's, segment by segment.

    Attributes:
        name: the system's name.
        wins, ties, losses: segments where its sentence score is better than, equal to, worse
            than the baseline's (better: higher, or lower for a metric where lower is better,
            TER: ``Metric.higher_is_better``).
        mean_diff, median_diff: mean and median of the differences, system minus baseline
            (points of the metric; negative is better for TER).
    """

    name: str
    wins: int
    ties: int
    losses: int
    mean_diff: float
    median_diff: float


@dataclass
class SystemScore:
    """One system's corpus score under one metric.

    Attributes:
        name: the system's name; is_baseline: True for the first of two or more systems.
        score: the corpus score (0-100, the metric's ``corpus_score``).
        mean, ci: bootstrap mean and half-width of the 95% confidence interval (points).
        p_value: paired-test p-value against the baseline (None for the baseline and for a
            single system).
    """

    name: str
    is_baseline: bool
    score: float
    mean: float | None
    ci: float | None
    p_value: float | None


@dataclass
class MetricComparison:
    """The systems compared under one metric.

    Attributes:
        metric_id: the metric (``"bleu"``, ``"chrf"``, ...).
        name: the score's name as sacreBLEU prints it (``BLEU``, ``chrF2``, ``chrF2++``).
        signature: the metric's signature with the test settings (``...|seed:12345|bs:1000``).
        scores: ``SystemScore`` per system, the baseline first.
        sentences: ``SentenceComparison`` per non-baseline system, on the metric's sentence
            scores (empty for one system).
        sentence_scores: float64 ``(systems, n_segments)`` sentence scores (0-100).
        higher_is_better: False for a metric where lower scores are better (TER), as
            ``Metric.higher_is_better``; wins, tables and plots read it.
    """

    metric_id: str
    name: str
    signature: str
    scores: list[SystemScore]
    sentences: list[SentenceComparison]
    # (_compare always sets it; None is only the dataclass default)
    sentence_scores: np.ndarray = field(default=None, repr=False)  # type: ignore[arg-type]
    higher_is_better: bool = True

    @property
    def key(self) -> str:
        """A name for HTML ids: ``bleu``, ``chrf2pp`` (chrF2++), ``chrf1_5``."""
        return self.name.lower().replace("+", "p").replace(".", "_")


@dataclass
class Bucket:
    """One bucket of segments.

    Attributes:
        label: its range, e.g. ``"10-19"`` tokens or ``"[10, 20)"`` BLEU.
        segments: number of segments of each system in it (they differ only for hypothesis
            length, where each system's own hypotheses are bucketed).
        bleu: corpus BLEU (0-100) of each system over those segments, from their summed
            statistics; None where the bucket holds no segment of that system.
    """

    label: str
    segments: list[int]
    bleu: list[float | None]


@dataclass
class BucketTable:
    """Corpus BLEU per bucket of one segment attribute.

    Attributes:
        key: ``"hyp_len"``, ``"ref_len"`` or ``"baseline_bleu"``.
        title: what the segments are bucketed by, in words.
        buckets: the buckets, in increasing order.
    """

    key: str
    title: str
    buckets: list[Bucket]


@dataclass
class Token:
    """A token of a displayed segment; ``order`` is the highest n-gram order of a matched
    n-gram covering it (0: unmatched)."""

    text: str
    order: int


@dataclass
class SegmentExample:
    """A segment where a system and the baseline differ much in sentence BLEU.

    Attributes:
        system: the system's name; direction: ``"better"`` or ``"worse"`` than the baseline.
        line: 1-based line number in the input files.
        diff: system minus baseline sentence BLEU (BLEU points).
        system_bleu, baseline_bleu: the two sentence BLEU scores (0-100).
        source: the source sentence (None without sources).
        references: the reference tokens, each token marked if it is in an n-gram the system's
            hypothesis also contains (clipped as BLEU clips).
        baseline, hypothesis: the tokens of both hypotheses, marked if in a matched n-gram.
    """

    system: str
    direction: str
    line: int
    diff: float
    system_bleu: float
    baseline_bleu: float
    source: str | None
    references: list[list[Token]]
    baseline: list[Token]
    hypothesis: list[Token]


@dataclass
class ComparisonReport:
    """Everything the comparison report shows; ``to_html``/``save``/``to_text`` render it.

    The BLEU-specific attributes (``systems`` to ``signature``, ``max_ngram_order``,
    ``statistics``, ``sentence_bleu``) describe the report's BLEU; they are empty (``[]``,
    ``""``, 0, None) when BLEU is not among its metrics.

    Attributes:
        systems: ``SystemResult`` per system (BLEU, with its precisions and brevity penalty),
            the baseline first.
        sentences: ``SentenceComparison`` per non-baseline system (sentence BLEU; empty for one
            system).
        buckets: ``BucketTable`` per attribute (hypothesis length, reference length, and the
            baseline's sentence BLEU when there is a baseline).
        examples: ``SegmentExample`` per system and direction, largest differences first.
        signature: the BLEU signature with the test settings (``...|seed:12345|bs:1000|...``).
        test: ``"bs"`` (paired bootstrap), ``"ar"`` (approximate randomization) or None (one
            system: bootstrap confidence interval only); n_samples: resamples or trials.
        n_segments: segments per system; max_ngram_order: N.
        width: decimals of the displayed scores (p-values always show 4).
        statistics: int64 ``(systems, n_segments, 2 + 2N)`` per-segment BLEU statistics.
        sentence_bleu: float64 ``(systems, n_segments)`` sentence BLEU (0-100).
        metrics: ``MetricComparison`` per metric (BLEU's too), in the order they were given.
    """

    systems: list[SystemResult]
    sentences: list[SentenceComparison]
    buckets: list[BucketTable]
    examples: list[SegmentExample]
    signature: str
    test: str | None
    n_samples: int
    n_segments: int
    max_ngram_order: int
    width: int = 1
    # (comparison_report always sets both; None is only the dataclass default)
    statistics: np.ndarray = field(default=None, repr=False)  # type: ignore[arg-type]
    sentence_bleu: np.ndarray = field(default=None, repr=False)  # type: ignore[arg-type]
    metrics: list[MetricComparison] = field(default_factory=list)

    @property
    def baseline(self) -> str | None:
        """The baseline's name, or None for a single system."""
        names = self.names
        return names[0] if len(names) > 1 else None

    @property
    def names(self) -> list[str]:
        """The systems' names, the baseline first."""
        return [s.name for s in self.metrics[0].scores] if self.metrics else [s.name for s in self.systems]

    @property
    def bleu(self) -> MetricComparison | None:
        """The comparison under BLEU (the one the BLEU-specific attributes describe), or None."""
        return next((m for m in self.metrics if m.metric_id == "bleu"), None)

    def to_dict(self) -> dict[str, Any]:
        """The report's numbers as plain JSON-serialisable data (no per-segment arrays)."""
        skip = ("statistics", "sentence_bleu", "metrics")
        d: dict[str, Any] = {f.name: _plain(getattr(self, f.name)) for f in fields(self) if f.name not in skip}
        d["metrics"] = [
            {f.name: _plain(getattr(m, f.name)) for f in fields(m) if f.name != "sentence_scores"} for m in self.metrics
        ]
        d["baseline"] = self.baseline
        return d

    # -- rendering ------------------------------------------------------------------------
    def to_text(self) -> str:
        """A terminal summary: the same comparison as tables (tabulate), without plots."""
        from .render import render_text

        return render_text(self)

    def to_html(self) -> str:
        """One self-contained HTML page (plots as inline SVG images; no network needed).

        Raises:
            ImportError: matplotlib or Jinja2 missing (``pip install 'rapidbleu[report]'``).
        """
        require_report_extra()
        from .render import render_html

        return render_html(self)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write ``to_html()`` to ``path`` (UTF-8)."""
        html = self.to_html()
        with open(path, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(html)

    def _repr_html_(self) -> str:
        """Jupyter: the page in an iframe, so that its style sheet leaves the notebook alone."""
        import html

        return (
            f'<iframe srcdoc="{html.escape(self.to_html(), quote=True)}" title="BLEU comparison" '
            'style="width: 100%; height: 900px; border: 1px solid #ddd"></iframe>'
        )


def _plain(value: Any) -> Any:
    """Dataclasses (in lists) as dicts, for ``to_dict``."""
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return asdict(value) if is_dataclass(value) and not isinstance(value, type) else value


# --------------------------------------------------------------------------------------------
# Building it
# --------------------------------------------------------------------------------------------
def comparison_report(
    systems: Sequence[Sequence[str]] | Mapping[str, Sequence[str]],
    references: Sequence[Sequence[str]],
    *,
    names: Sequence[str] | None = None,
    sources: Sequence[str] | None = None,
    metric: BLEU | None = None,
    metrics: Sequence[Metric | str] | None = None,
    test: str = "bs",
    n_samples: int = 0,
    n_bootstrap: int = 1000,
    n_examples: int = 5,
    n_buckets: int = 5,
    width: int = 1,
    progress: Callable[[int], None] | None = None,
) -> ComparisonReport:
    """Compare systems on one test set: the data of the comparison report.

    Args:
        systems: hypotheses of each system (lists of n strings), the baseline first; or a
            mapping ``{name: hypotheses}`` in that order.
        references: reference streams, each n strings (as ``BLEU.corpus_score``).
        names: a name per system (default: the mapping's keys, else ``System 1``, ...).
        sources: the n source sentences, shown with the example segments (optional).
        metric: the ``rapidbleu.BLEU`` to score with (default ``BLEU()``: 13a, exp smoothing).
        metrics: instead of ``metric``, the metrics to compare the systems with, in the order
            shown: metric objects (``rapidbleu.BLEU(...)``, ``rapidbleu.CHRF(word_order=2)``,
            ...) or names of the command line's metrics (``rapidbleu.registry.metric_ids(
            command_line=True)``: ``"bleu"``, ``"chrf"``, ``"ter"``, ...) with their default
            options.  Each gets its scores, intervals, p-values and sentence-level
            comparison; the n-gram precisions, brevity penalty, buckets and highlighted example
            segments are BLEU's and appear when a BLEU is among them.
        test: paired test against the baseline, ``"bs"`` (paired bootstrap resampling, Koehn
            2004) or ``"ar"`` (approximate randomization, Riezler and Maxwell 2005); the seed
            comes from ``SACREBLEU_SEED`` as for the command line.
        n_samples: resamples (``bs``) or trials (``ar``); 0: 1,000 / 10,000, the CLI defaults.
        n_bootstrap: resamples of the confidence intervals when there is no paired bootstrap
            (one system, or ``ar``, where they come from the same generator after the trials,
            as ``PairedTest(n_ar_confidence=...)``).
        n_examples: segments shown per system and direction.
        n_buckets: (at most) buckets of hypothesis and reference length (quantiles of the
            baseline's lengths).
        width: decimals of displayed BLEU scores (the CLI's ``-w``).
        progress: optional callback with the number of resamples/trials done (as in
            ``rapidbleu.significance``; the CLI's progress bar).

    Returns:
        A ``ComparisonReport``.  Its scores, means, CIs and p-values equal those of
        ``rapidbleu.significance.paired_bs``/``paired_ar`` (``bootstrap_ci`` for one system)
        on each metric's ``corpus_statistics`` of the same input.

    Raises:
        ValueError: no system, names that are not unique or not one per system, a system or
            the sources with another number of lines than the references, an unknown ``test``,
            ``n_examples``/``n_buckets`` < 0 / < 1, both ``metric`` and ``metrics``, no metric,
            an unknown metric name or two metrics of the same score name; and what
            ``corpus_statistics`` raises for malformed input.
        TypeError: systems or sources that are not sequences of strings, references given as a
            flat list of strings.
    """
    hyps: list[Any]
    if isinstance(systems, Mapping):
        if names is None:
            names = list(systems.keys())
        hyps = [list(h) for h in systems.values()]
    else:
        if isinstance(systems, str):
            raise TypeError("systems must be a list of systems (each a list of hypothesis strings), got a string")
        hyps = [list(h) if not isinstance(h, str) else h for h in systems]
    if not hyps:
        raise ValueError("no system to compare: give at least one list of hypotheses")
    for i, h in enumerate(hyps):
        if isinstance(h, str):
            raise TypeError(f"system {i + 1} is a string; each system must be a list of hypothesis strings")
    names = [f"System {i + 1}" for i in range(len(hyps))] if names is None else [str(n) for n in names]
    if len(names) != len(hyps):
        raise ValueError(f"{len(names)} names for {len(hyps)} systems")
    if len(set(names)) != len(names):
        dup = next(n for n in names if names.count(n) > 1)
        raise ValueError(f"system name {dup!r} is used twice; names must be unique")
    if test not in ("bs", "ar"):
        raise ValueError(f"test must be 'bs' (paired bootstrap) or 'ar' (approximate randomization), got {test!r}")
    if n_examples < 0 or n_buckets < 1:
        raise ValueError(f"n_examples must be >= 0 and n_buckets >= 1, got {n_examples} and {n_buckets}")
    if isinstance(references, str) or not references:
        raise ValueError("references must be a non-empty list of reference streams (each a list of strings)")
    if isinstance(references[0], str):
        raise TypeError(
            "references must be a list of reference streams, each a list of n strings; got a flat "
            "list of strings (for one reference per segment, pass [references])"
        )
    n_ref = len(references[0])
    for h, name in zip(hyps, names, strict=False):
        if len(h) != n_ref:
            raise ValueError(
                f"system {name!r} has {len(h)} hypotheses but the references have {n_ref} segments; "
                "every system must have one line per reference line"
            )
    if sources is not None:
        if isinstance(sources, str):
            raise TypeError("sources must be a list of source sentences, got a string")
        sources = list(sources)
        if len(sources) != n_ref:
            raise ValueError(f"the sources have {len(sources)} lines but the references have {n_ref} segments")
    chosen = _chosen_metrics(metric, metrics)
    stats = [
        np.stack([_statistics(m, h, references, name) for h, name in zip(hyps, names, strict=False)]) for m in chosen
    ]
    _seed_text, seed = seed_from_env()
    test_used: str | None = None if len(hyps) == 1 else test
    n_used = n_bootstrap if len(hyps) == 1 else (n_samples if n_samples > 0 else DEFAULT_SAMPLES[test])
    comparisons = [
        _compare(m, st, names, test_used, n_used, n_bootstrap, seed, progress)
        for m, st in zip(chosen, stats, strict=True)
    ]
    if len({c.name for c in comparisons}) != len(comparisons):
        dup = next(c.name for c in comparisons if [x.name for x in comparisons].count(c.name) > 1)
        raise ValueError(f"two metrics score {dup}: give each metric once")

    report = ComparisonReport(
        systems=[],
        sentences=[],
        buckets=[],
        examples=[],
        signature="",
        test=test_used,
        n_samples=n_used,
        n_segments=n_ref,
        max_ngram_order=0,
        width=width,
        metrics=comparisons,
    )
    first_bleu = next(((i, m) for i, m in enumerate(chosen) if isinstance(m, BLEU)), None)
    if first_bleu is not None:
        k, bleu = first_bleu
        _add_bleu_parts(report, bleu, stats[k], comparisons[k], hyps, references, sources, n_examples, n_buckets)
    return report


def _chosen_metrics(metric: BLEU | None, metrics: Sequence[Metric | str] | None) -> list[Metric]:
    """The report's metrics: ``metrics`` (names made with their default options), else
    ``[metric]``, else ``[BLEU()]``."""
    if metrics is None:
        return [BLEU() if metric is None else metric]
    if metric is not None:
        raise ValueError("give metric or metrics, not both")
    if isinstance(metrics, (str, Metric)):
        metrics = [metrics]
    out: list[Metric] = []
    for m in metrics:
        if isinstance(m, str):
            known = registry.metric_ids(command_line=True)  # (NLTK's BLEU has no signature)
            if m not in known:
                raise unknown_metric_error(m, known)
            out.append(registry.get(m)())
        elif isinstance(m, Metric):
            out.append(m)
        else:
            raise TypeError(f"metrics holds a {type(m).__name__}; give metric objects or names")
    if not out:
        raise ValueError("metrics is empty: give at least one metric")
    return out


def _compare(
    metric: Metric,
    stats: np.ndarray,
    names: list[str],
    test: str | None,
    n_used: int,
    n_bootstrap: int,
    seed: int | None,
    progress: Callable[[int], None] | None,
) -> MetricComparison:
    """One metric's scores, intervals, p-values (``rapidbleu.significance``, as the CLI) and
    sentence-level comparison."""
    sig = metric.get_signature()
    if test is None:
        seed_sig, mean, ci = bootstrap_ci(stats[0], metric, n_bootstrap, progress)
        tested: list[tuple[float | None, float | None, float | None]] = [(None, mean, ci)]
        sig.update("seed", seed_sig)
        sig.update("bs", n_bootstrap)
    else:
        if test == "bs":
            res = paired_bs(stats[0], list(stats[1:]), metric, n_used, seed, progress=progress)
        else:
            res = paired_ar(stats[0], list(stats[1:]), metric, n_used, n_bootstrap, seed, progress=progress)
        tested = [(r.p_value, r.mean, r.ci) for r in res]
        # as PairedTest signs its results
        sig.update("seed", str(seed).lower())
        sig.update(test, n_used)
        if test == "ar":
            sig.update("bs", n_bootstrap)
    corpus = [metric.score_from_stats(metric.combine(st)) for st in stats]
    scores = [
        SystemScore(
            name=name,
            is_baseline=(i == 0 and len(names) > 1),
            score=float(sc.score),
            mean=None if mean is None else float(mean),
            ci=None if ci is None else float(ci),
            p_value=None if p is None else float(p),
        )
        for i, (name, sc, (p, mean, ci)) in enumerate(zip(names, corpus, tested, strict=True))
    ]
    # Sentence scores as -sl prints them (BLEU: effective order).
    smetric = metric.sentence_metric()
    sent = np.array([smetric.scores_from_stats(st) for st in stats], dtype=np.float64)
    sentences = []
    better = 1.0 if metric.higher_is_better else -1.0  # TER: a lower score is a win
    for i in range(1, len(names)):
        d = sent[i] - sent[0]
        sentences.append(
            SentenceComparison(
                name=names[i],
                wins=int((better * d > 0).sum()),
                ties=int((d == 0).sum()),
                losses=int((better * d < 0).sum()),
                mean_diff=float(d.mean()),
                median_diff=float(np.median(d)),
            )
        )
    return MetricComparison(
        metric.metric_id, corpus[0].name, sig.format(), scores, sentences, sent, metric.higher_is_better
    )


def _add_bleu_parts(
    report: ComparisonReport,
    metric: BLEU,
    stats: np.ndarray,
    comparison: MetricComparison,
    hyps: list[list[str]],
    references: Sequence[Sequence[str]],
    sources: list[str] | None,
    n_examples: int,
    n_buckets: int,
) -> None:
    """The BLEU-specific parts of ``report``: precisions and brevity penalty, buckets, the
    example segments with their matched n-grams."""
    names = [s.name for s in comparison.scores]
    results = []
    for i, s in enumerate(comparison.scores):
        sc = metric.score_from_stats(metric.combine(stats[i]))
        results.append(
            SystemResult(
                name=s.name,
                is_baseline=s.is_baseline,
                bleu=s.score,
                mean=s.mean,
                ci=s.ci,
                p_value=s.p_value,
                precisions=[float(x) for x in sc.precisions],
                counts=[int(x) for x in sc.counts],
                totals=[int(x) for x in sc.totals],
                bp=float(sc.bp),
                ratio=float(sc.ratio),
                hyp_len=int(sc.sys_len),
                ref_len=int(sc.ref_len),
            )
        )
    sent = comparison.sentence_scores
    examples: list[SegmentExample] = []
    if len(hyps) > 1 and n_examples > 0:
        highlighter = _Highlighter(metric, references)
        for i in range(1, len(hyps)):
            d = sent[i] - sent[0]
            order = np.argsort(-d, kind="stable")
            better = [int(j) for j in order[:n_examples] if d[j] > 0]
            worse = [int(j) for j in order[::-1][:n_examples] if d[j] < 0]
            # largest loss first, ties broken by line number
            worse = sorted(worse, key=lambda j: (d[j], j))
            for direction, idx in (("better", better), ("worse", worse)):
                for j in idx:
                    examples.append(
                        highlighter.example(
                            names[i],
                            direction,
                            j,
                            float(d[j]),
                            float(sent[i][j]),
                            float(sent[0][j]),
                            None if sources is None else sources[j],
                            hyps[0][j],
                            hyps[i][j],
                        )
                    )
    report.systems = results
    report.sentences = comparison.sentences
    report.buckets = _bucket_tables(metric, stats, sent, n_buckets)
    report.examples = examples
    report.signature = comparison.signature
    report.max_ngram_order = metric.max_ngram_order
    report.statistics = stats
    report.sentence_bleu = sent


def _statistics(
    metric: Metric, hypotheses: Sequence[str], references: Sequence[Sequence[str | None]], name: str
) -> np.ndarray:
    """``metric.corpus_statistics``; its errors (same exception type) name the system too."""
    try:
        return metric.corpus_statistics(hypotheses, references)
    except (TypeError, ValueError) as exc:
        try:
            renamed = type(exc)(f"system {name!r}: {exc}")
        except Exception:  # an exception class with other constructor arguments
            raise exc from None
        raise renamed from exc


# --------------------------------------------------------------------------------------------
# Buckets
# --------------------------------------------------------------------------------------------
def _length_edges(values: np.ndarray, n_buckets: int) -> list[int]:
    """Inner integer edges at the quantiles of ``values``: bucket k holds
    ``edges[k-1] <= v < edges[k]``."""
    qs = np.quantile(values, np.linspace(0, 1, n_buckets + 1)[1:-1]) if n_buckets > 1 else []
    lo = int(values.min())
    return sorted({math.ceil(q) for q in qs if math.ceil(q) > lo})


def _length_labels(edges: list[int]) -> list[str]:
    bounds: list[int | None] = [None, *edges, None]
    labels = []
    for a, b in itertools.pairwise(bounds):
        if a is None and b is None:
            labels.append("all")
        elif a is None:
            labels.append(f"0-{b - 1}")  # type: ignore[operator]  # (b is not None: handled above)
        elif b is None:
            labels.append(f"{a}+")
        else:
            labels.append(f"{a}-{b - 1}" if b - 1 > a else f"{a}")
    return labels


def _bucket_tables(metric: BLEU, stats: np.ndarray, sent: np.ndarray, n_buckets: int) -> list[BucketTable]:
    k = stats.shape[0]
    tables = []

    def table(key: str, title: str, assign: np.ndarray, labels: list[str]) -> None:
        buckets = []
        for b, label in enumerate(labels):
            seg_counts, scores = [], []
            for i in range(k):
                mask = assign[i] == b
                seg_counts.append(int(mask.sum()))
                scores.append(
                    float(metric.score_from_stats(metric.combine(stats[i][mask])).score) if mask.any() else None
                )
            buckets.append(Bucket(label, seg_counts, scores))
        tables.append(BucketTable(key, title, buckets))

    hyp_len = stats[:, :, 0]
    edges = _length_edges(hyp_len[0], n_buckets)
    table(
        "hyp_len",
        "hypothesis length (tokens; each system's own hypotheses)",
        np.searchsorted(edges, hyp_len, side="right"),
        _length_labels(edges),
    )
    # The effective reference length of the baseline's segments (the closest reference length to
    # the baseline's hypothesis; the same for every system when there is one reference).
    ref_len = stats[0, :, 1]
    edges = _length_edges(ref_len, n_buckets)
    assign = np.broadcast_to(np.searchsorted(edges, ref_len, side="right"), (k, ref_len.size))
    table("ref_len", "reference length (tokens)", assign, _length_labels(edges))
    if k > 1:
        assign = np.broadcast_to(np.searchsorted(BLEU_EDGES, sent[0], side="right"), (k, ref_len.size))
        bounds = (0.0, *BLEU_EDGES, 100.0)
        labels = [f"[{a:g}, {b:g})" for a, b in itertools.pairwise(bounds[:-1])] + [f"[{bounds[-2]:g}, 100]"]
        table("baseline_bleu", "sentence BLEU of the baseline", assign, labels)
    # drop buckets no system has a segment in (e.g. a BLEU range the baseline never reaches)
    for t in tables:
        t.buckets = [b for b in t.buckets if any(b.segments)]
    return tables


# --------------------------------------------------------------------------------------------
# Matched n-grams of the example segments
# --------------------------------------------------------------------------------------------
class _Highlighter:
    """Tokenizes segments as the metric does and marks matched n-grams (clipped counts)."""

    def __init__(self, metric: BLEU, references: Sequence[Sequence[str]]) -> None:
        self.tok = metric.tokenizer
        self.lowercase = metric.lowercase
        self.n = metric.max_ngram_order
        self.references = references

    def tokens(self, text: str) -> tuple[list[str], list[str]]:
        shown = preprocess(text, self.tok, False).split()
        if not self.lowercase:
            return shown, shown
        compared = preprocess(text, self.tok, True).split()
        return (shown if len(shown) == len(compared) else compared), compared

    def _ngrams(self, toks: list[str]) -> Counter[tuple[str, ...]]:
        c: Counter[tuple[str, ...]] = Counter()
        for n in range(1, self.n + 1):
            for i in range(len(toks) - n + 1):
                c[tuple(toks[i : i + n])] += 1
        return c

    def _mark(self, shown: list[str], compared: list[str], available: Counter[tuple[str, ...]]) -> list[Token]:
        orders = [0] * len(compared)
        for n in range(1, self.n + 1):
            left = Counter({g: c for g, c in available.items() if len(g) == n})
            for i in range(len(compared) - n + 1):
                g = tuple(compared[i : i + n])
                if left[g] > 0:
                    left[g] -= 1
                    for j in range(i, i + n):
                        orders[j] = n
        return [Token(t, o) for t, o in zip(shown, orders, strict=False)]

    def example(
        self,
        system: str,
        direction: str,
        j: int,
        diff: float,
        sys_bleu: float,
        bl_bleu: float,
        source: str | None,
        bl_hyp: str,
        hyp: str,
    ) -> SegmentExample:
        refs = [stream[j] for stream in self.references if stream[j] is not None]
        ref_toks = [self.tokens(r) for r in refs]
        ref_max: Counter[tuple[str, ...]] = Counter()
        for _shown, cmp in ref_toks:
            ref_max |= self._ngrams(cmp)  # BLEU clips by the maximum count over references

        def hyp_tokens(h: str) -> tuple[list[Token], list[str]]:
            shown, cmp = self.tokens(h)
            return self._mark(shown, cmp, ref_max), cmp

        bl_marked, _ = hyp_tokens(bl_hyp)
        sys_marked, sys_cmp = hyp_tokens(hyp)
        sys_counts = self._ngrams(sys_cmp)
        ref_marked = [self._mark(shown, cmp, sys_counts) for shown, cmp in ref_toks]
        return SegmentExample(
            system=system,
            direction=direction,
            line=j + 1,
            diff=diff,
            system_bleu=sys_bleu,
            baseline_bleu=bl_bleu,
            source=source,
            references=ref_marked,
            baseline=bl_marked,
            hypothesis=sys_marked,
        )
