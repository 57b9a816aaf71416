"""What a parsed command line does: read the inputs in lockstep, chunk by chunk, score them with
every metric of ``-m`` through the metric protocol, and print in one of sacreBLEU's modes --
a corpus score per metric (with ``-ci`` its interval), sentence scores (``-sl``), a table of
systems, paired tests (``--paired-bs``/``--paired-ar``) -- or rapidbleu's comparison report
(``--report``)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np
else:
    from .._base.lazy import numpy as np  # imported on first use: a corpus score needs none

from .._base.errors import CLIError
from .._base.log import logger
from .._core.metric import Metric
from ..report import Color, print_results_table, print_single_results
from ..textio import read_lines
from ..utils import print_subset_results
from .inputs import chunk_lines, in_memory, open_refs, open_systems, open_test_set_refs, read_whole
from .lockstep import Stream, filtered, line_counts_differ, read_lockstep
from .parser import by_name, check_unsupported, make_metrics, make_watches
from .progress import Progress, reading_delay
from .testsets import (
    check_test_sets,
    kept_segments,
    no_sentence_error,
    raw_file_errors,
    reference_files,
    run_info_modes,
)

#: How the progress bar names each paired test (``--paired-bs``, ``--paired-ar``).
_TESTS = {"bs": "paired bootstrap", "ar": "approximate randomization"}

#: Per metric, per system: the corpus row, and the chunks of per-segment statistics.
Sums = dict[str, list[Any]]
Rows = dict[str, list[list["np.ndarray"]]]


def run(args: argparse.Namespace) -> None:
    """Check the options, open the inputs and run the mode the options ask for.

    Memory holds one chunk of lines per input plus the statistics: their column sums for a
    corpus score or a table of systems; per-segment statistics (integer ones in the narrowest
    unsigned type that holds them: 10 bytes per segment and system for BLEU-4 with lengths
    < 256 tokens, 20 below 65,536) only for ``--confidence`` and ``--paired-*``.  With ``-sl``
    each chunk's sentence scores are printed as soon as it is scored.

    Raises ``CLIError``/``InputError`` for bad input.
    """
    check_unsupported(args)
    Color.setup(args.no_color)
    with raw_file_errors():
        if run_info_modes(args):  # --download, --list, --citation, --echo
            return
        check_test_sets(args)
        if args.test_set is None:
            refs = open_refs(args.refs, args.num_refs, args.encoding)
        else:
            refs = open_test_set_refs(reference_files(args), args.encoding)
            args.keep_segments = kept_segments(args)
            if args.keep_segments is not None and not any(args.keep_segments):
                raise no_sentence_error(args)
    if args.detail and args.format == "json":  # as sacreBLEU: the per-subset lines are text
        args.format = "text"
    test = "bs" if args.paired_bs else ("ar" if args.paired_ar else "")
    if args.report is not None:
        _report(args, refs, test or "bs")
        return
    systems = open_systems(args.input, args.encoding, bool(test))
    check_modes(args, len(systems), test)
    metrics = make_metrics(args)
    if args.sentence_level:
        _print_sentences(args, metrics, refs, systems)
    elif len(systems) == 1 and args.detail:
        _score_with_detail(args, metrics, refs, systems)
    elif len(systems) == 1:
        _score_corpus(args, metrics, refs, systems)
    elif test:
        _paired(args, test, metrics, refs, systems)
    else:
        _print_table(args, metrics, refs, systems)


def check_modes(args: argparse.Namespace, n_systems: int, test: str) -> None:
    """The options of one mode that another refuses (sacreBLEU's messages and exit status 1).

    Raises:
        CLIError: ``-sl`` with several metrics or systems, or with ``-ci``/paired tests; a
            paired test of one system; ``-ci`` with several systems.
    """
    if args.sentence_level and len(args.metrics) > 1:
        raise CLIError("Only one metric can be used in sentence-level mode.")
    if args.sentence_level and n_systems > 1:
        raise CLIError("Only one system can be evaluated in sentence-level mode.")
    if args.sentence_level and (args.confidence or test):
        raise CLIError("Statistical tests are unavailable in sentence-level mode.")
    if test and n_systems == 1:
        raise CLIError("Paired tests require multiple input systems given to --input (-i).")
    if n_systems > 1 and args.confidence:
        raise CLIError("Use paired tests (--paired) for multiple systems.")


def _read_statistics(
    args: argparse.Namespace,
    metrics: dict[str, Metric],
    refs: list[Stream],
    systems: list[Stream],
    keep_rows: bool,
    on_rows: Callable[[Metric, np.ndarray], None] | None = None,
) -> tuple[Sums, Rows]:
    """Read every input once, chunk by chunk, and keep for each metric and system its corpus
    row (``Metric.corpus_totals``, continued chunk after chunk: a corpus score and a table need
    nothing more, and BLEU's core then returns them without numpy), with ``keep_rows`` also
    its per-segment statistics, narrowed; ``on_rows`` gets each chunk's statistics instead.
    The metrics' checks over the whole corpus (``parser.make_watches``; BLEU's warning about
    tokenized input) see every chunk and report at the end."""
    sums: Sums = {m: [None] * len(systems) for m in metrics}
    rows: Rows = {m: [[] for _ in systems] for m in metrics}
    per_segment = keep_rows or on_rows is not None
    watches = make_watches(args, metrics, len(systems))
    with Progress(args.quiet, "reading", " lines", delay=reading_delay()) as progress:
        for ref_chunk, sys_chunks in filtered(read_lockstep(refs, systems, chunk_lines()), _keep(args)):
            for k, watch in watches:
                watch.see(sys_chunks[k])
            for k, hyps in enumerate(sys_chunks):
                for m, metric in metrics.items():
                    if not per_segment:
                        sums[m][k] = metric.corpus_totals(hyps, ref_chunk, sums[m][k])
                        continue
                    st = metric.corpus_statistics(hyps, ref_chunk)
                    if keep_rows:
                        sums[m][k] = metric.combine(st, sums[m][k])
                        rows[m][k].append(_narrow(st))
                    if on_rows is not None:
                        on_rows(metric, st)
            progress.update(len(ref_chunk[0]))
    for _k, watch in watches:
        watch.done()
    return sums, rows


def _narrow(st: np.ndarray) -> np.ndarray:
    """Integer ``st`` in the narrowest unsigned type that holds it (statistics are
    non-negative); float statistics as they are."""
    if st.dtype.kind not in "iu":
        return st
    top = int(st.max(initial=0))
    for dt in (np.uint8, np.uint16, np.uint32):
        if top <= np.iinfo(dt).max:
            return st.astype(dt)
    return st


def _stats_of(rows: Rows, m: str, k: int) -> np.ndarray:
    """The per-segment statistics of metric ``m`` and system ``k``, its chunks freed."""
    st = np.concatenate(rows[m][k])
    rows[m][k].clear()
    return st


def _print_sentences(
    args: argparse.Namespace, metrics: dict[str, Metric], refs: list[Stream], systems: list[Stream]
) -> None:
    """``-sl``: the sentence score of every segment (one metric, one system), printed chunk by
    chunk as it is scored; nothing when the files' line counts already differ (the reading then
    raises its usual error: sacreBLEU prints no score either)."""
    files = [s.name for s in refs if os.path.isfile(s.name)]  # noqa: PTH113 -- pathlib would slow the start-up
    hold = line_counts_differ([*files, *(args.input or [])])
    signature: list[str] = []

    def write(metric: Metric, st: np.ndarray) -> None:
        if hold:
            return
        if not signature:
            signature.append(metric.get_signature().format(args.short))
        out = [metric.score_from_stats(row).format(args.width, args.score_only, signature[0]) for row in st]
        sys.stdout.write("\n".join(out) + "\n")

    _read_statistics(args, metrics, refs, systems, keep_rows=False, on_rows=write)


def _score_corpus(
    args: argparse.Namespace, metrics: dict[str, Metric], refs: list[Stream], systems: list[Stream]
) -> None:
    """One system: a corpus score per metric (with ``-ci`` its bootstrap interval), JSON or a
    line of text each, sorted by name."""
    n_bootstrap = args.confidence_n if args.confidence else 1
    sums, rows = _read_statistics(args, metrics, refs, systems, keep_rows=n_bootstrap > 1)
    results = []
    for m, metric in by_name(metrics).items():
        score = metric.score_from_stats(sums[m][0])
        if n_bootstrap > 1:
            from .._core.bootstrap import bootstrap_summary

            metric.n_bootstrap = n_bootstrap
            with Progress(args.quiet, "bootstrap", "sample", n_bootstrap) as bar:
                metric.seed, mean, ci = bootstrap_summary(_stats_of(rows, m, 0), metric, n_bootstrap, bar.callback)
            score.with_ci(mean, ci)
        sig = metric.get_signature().format(args.short if args.format != "json" else False)
        results.append(score.format(args.width, args.score_only, sig, args.format == "json"))
    print_single_results(results, args.format)


def _score_with_detail(
    args: argparse.Namespace, metrics: dict[str, Metric], refs: list[Stream], systems: list[Stream]
) -> None:
    """``-d`` (one system): the corpus scores, then the scores per original language and subset
    (``utils.print_subset_results``), from the inputs read whole once; text output (sacreBLEU
    turns JSON into text with ``-d``, see :func:`run`).  Without a test set there are none:
    sacreBLEU's line saying so follows the scores."""
    if args.test_set is None:
        _score_corpus(args, metrics, refs, systems)
        print_subset_results(metrics, [], [], args)
        return
    ref_lines, sys_lines = read_whole(refs, systems)
    _score_corpus(args, metrics, in_memory(refs, ref_lines), in_memory(systems, sys_lines))
    with raw_file_errors():
        print_subset_results(metrics, sys_lines[0], ref_lines, args)


def _keep(args: argparse.Namespace) -> list[bool] | None:
    """The segments ``--origlang``/``--subset`` keep (``testsets.kept_segments``), or None."""
    keep: list[bool] | None = getattr(args, "keep_segments", None)
    return keep


def _print_table(
    args: argparse.Namespace, metrics: dict[str, Metric], refs: list[Stream], systems: list[Stream]
) -> None:
    """Several systems: sacreBLEU's table of their corpus scores (text, JSON or LaTeX)."""
    sums, _rows = _read_statistics(args, metrics, refs, systems, keep_rows=False)
    logger.info("Found %d systems.", len(systems))
    table: dict[str, list[Any]] = {"System": [s.name for s in systems]}
    sigs = {}
    for m, metric in by_name(metrics).items():
        scores = [metric.score_from_stats(s) for s in sums[m]]
        table[scores[0].name] = [score.format(args.width, True) for score in scores]
        sigs[scores[0].name] = metric.get_signature().format(args.short)
    print_results_table(table, sigs, args.format, args.width)


def _n_samples(args: argparse.Namespace, test: str) -> int:
    """``-pbsn`` or ``-parn``: the resamples or trials of the paired test ``test``."""
    n: int = args.paired_bs_n if test == "bs" else args.paired_ar_n
    return n


def _paired(
    args: argparse.Namespace, test: str, metrics: dict[str, Metric], refs: list[Stream], systems: list[Stream]
) -> None:
    """Paired bootstrap (``bs``) or approximate randomization (``ar``) of every system against the
    first one, for every metric (in ``-m`` order), from their per-segment statistics, printed
    as sacreBLEU's multi-system table (or JSON / LaTeX); signatures as
    ``significance.PairedTest`` makes them."""
    from ..significance import paired_ar, paired_bs, progress_total, seed_from_env

    sums, rows = _read_statistics(args, metrics, refs, systems, keep_rows=True)
    logger.info("Found %d systems.", len(systems))
    stats = {m: [_stats_of(rows, m, k) for k in range(len(systems))] for m in metrics}
    # sacreBLEU marks the first system as the baseline (stdin systems have no file names)
    names = (
        ["Baseline"] + [f"System {i + 1}" for i in range(len(systems) - 1)]
        if args.input is None
        else [f"Baseline: {systems[0].name}", *(s.name for s in systems[1:])]
    )
    n_samples = _n_samples(args, test)
    seed = seed_from_env()[1]
    scores: dict[str, list[Any]] = {"System": names}
    sigs = {}
    total = progress_total(n_samples, len(systems) - 1, seed, len(metrics))
    with Progress(args.quiet, _TESTS[test], "sample", total) as progress:
        for m, metric in metrics.items():
            key = metric.score_from_stats(sums[m][0]).name
            sig = metric.get_signature()
            sig.update("seed", str(seed).lower())
            sig.update(test, n_samples)
            st = stats[m]
            if test == "bs":
                scores[key] = paired_bs(st[0], st[1:], metric, n_samples, seed, args.paired_jobs, progress.callback)
            else:
                scores[key] = paired_ar(st[0], st[1:], metric, n_samples, -1, seed, args.paired_jobs, progress.callback)
            sigs[key] = sig.format(args.short)
    print_results_table(scores, sigs, args.format, args.width, paired=test, n_samples=n_samples)


def _report(args: argparse.Namespace, ref_streams: list[Stream], test: str) -> None:
    """``--report FILE|-``: the comparison report of ``rapidbleu.compare`` (HTML or text)."""
    from ..compare import comparison_report, require_report_extra
    from ..significance import progress_total, seed_from_env

    to_stdout = args.report == "-"
    if not to_stdout:
        require_report_extra()  # fail before scoring when the extra is missing ...
        # (the folder as the user's path names it: Path.resolve would follow links)
        folder = os.path.dirname(os.path.abspath(args.report))  # noqa: PTH100, PTH120
        if not os.path.isdir(folder):  # noqa: PTH112 -- ... or the report cannot be written
            raise CLIError(f"{args.report}: cannot write the report (no folder {folder})")
    # the metrics of -m as the tables order them; read whole, each warns as on any whole corpus
    metrics = by_name(make_metrics(args, whole_corpus=True))
    sys_streams = open_systems(args.input, args.encoding, paired=True)
    names = [stream.name for stream in sys_streams]
    ref_names = [stream.name for stream in ref_streams]
    refs, systems = read_whole(ref_streams, sys_streams, _keep(args))
    sources = None
    if args.source is not None:
        sources = read_lines(args.source, args.encoding)
        if len(sources) != len(systems[0]):
            raise CLIError(
                f"{args.source} has {len(sources)} lines but {ref_names[0]} has {len(refs[0])}: "
                "the source must have one line per reference line"
            )
    n_samples = _n_samples(args, test)
    if len(systems) == 1:
        total, desc = args.confidence_n * len(metrics), "bootstrap"
    else:
        total, desc = progress_total(n_samples, len(systems) - 1, seed_from_env()[1], len(metrics)), _TESTS[test]
    with Progress(args.quiet, desc, "sample", total) as progress:
        report = comparison_report(
            systems,
            refs,
            names=names,
            sources=sources,
            metrics=list(metrics.values()),
            test=test,
            n_samples=n_samples,
            n_bootstrap=args.confidence_n,
            n_examples=args.report_segments,
            width=args.width,
            progress=progress.callback,
        )
    if to_stdout:
        sys.stdout.write(report.to_text())
        return
    try:
        report.save(args.report)
    except OSError as exc:
        raise CLIError(f"{args.report}: cannot write the report ({exc.strerror or exc})") from None
    logger.info("Wrote the comparison report of %d system(s) to %s", len(systems), args.report)
