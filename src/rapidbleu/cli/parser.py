"""The command line's options and what they ask for: sacreBLEU's parser (each metric's argument
group comes from its class, through ``rapidbleu.registry``), the option values argparse cannot
check, and the metrics of ``-m`` built from them."""

from __future__ import annotations

import argparse
import codecs
import os
import textwrap
from typing import Any

from .. import registry
from .._base.errors import CLIError, UsageError
from .._base.version import __version__
from .._core.metric import CommandLineContext, CommandLineOption, CorpusWatch, Metric
from .._core.validate import resolve_workers

OUTPUT_FORMATS = ("json", "text", "latex")


def build_parser() -> argparse.ArgumentParser:
    """sacreBLEU's options (same names, short forms, defaults, dests), one argument group per
    command-line metric of the registry (``Metric.cli_title``, ``Metric.cli_options``), plus
    rapidbleu's own (``--workers``, ``--report``, ...)."""
    ids = registry.metric_ids(command_line=True)
    p = argparse.ArgumentParser(
        prog="rapidbleu",
        description="rapidbleu: sacreBLEU-compatible metrics, fast.\n"
        f"Quick usage: rapidbleu ref.txt -i output.txt [-m {' '.join(ids)}]",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _add_input_options(p, ids)
    _add_metric_groups(p, ids)
    _add_significance_options(p)
    _add_reporting_options(p)
    p.add_argument("--version", "-V", action="version", version=f"%(prog)s {__version__}")
    _add_unsupported(p)
    return p


def _add_input_options(p: argparse.ArgumentParser, ids: list[str]) -> None:
    """sacreBLEU's options of the inputs and of ``-m`` (``ids``: the command-line metrics; the
    first is the default), the test sets' among them (``rapidbleu.cli.testsets``)."""
    p.add_argument(
        "--citation", "--cite", default=False, action="store_true", help="Print the test set's citation and quit."
    )
    p.add_argument("--list", default=False, action="store_true", help="Print a list of all available test sets.")
    p.add_argument(
        "--test-set",
        "-t",
        type=str,
        default=None,
        help="The test set to use (see also --list) or a comma-separated list of test sets to be concatenated.",
    )
    p.add_argument(
        "--language-pair",
        "-l",
        dest="langpair",
        default=None,
        help="Source-target language pair (e.g. en-zh); the target chooses the default tokenizer.",
    )
    p.add_argument(
        "--origlang",
        "-ol",
        dest="origlang",
        default=None,
        help="Use a subset of sentences with a given original language (2-char ISO639-1 codes), "
        '"non-" prefix means negation.',
    )
    p.add_argument(
        "--subset",
        dest="subset",
        default=None,
        help="Use a subset of sentences whose document annotation matches a given regex.",
    )
    p.add_argument("--download", type=str, default=None, help="Download a test set and quit.")
    p.add_argument(
        "--echo",
        nargs="+",
        type=str,
        default=None,
        help="Output the source (src), reference (ref), or other available field (docid, ref:A, ...) to STDOUT "
        "and quit; several fields are printed tab-separated, in the order given; `--echo all` prints every "
        "field (list them with -t and --list).",
    )
    p.add_argument("--input", "-i", type=str, nargs="*", default=None, help="Read input from file(s) instead of STDIN.")
    p.add_argument("refs", nargs="*", default=[], help="Reference file(s); give them before -i/--input.")
    p.add_argument(
        "--num-refs",
        "-nr",
        type=int,
        default=1,
        help="Split the reference stream on tabs, and expect this many references. (Default: %(default)s)",
    )
    p.add_argument(
        "--encoding",
        "-e",
        type=str,
        default="utf-8",
        help="Open text files with specified encoding (Default: %(default)s)",
    )
    p.add_argument(
        "--metrics",
        "-m",
        choices=ids,
        nargs="+",
        default=ids[:1],
        help=f"Metrics to compute, separated by spaces: {', '.join(ids)} (Default: {', '.join(ids[:1])}).",
    )
    p.add_argument("--sentence-level", "-sl", action="store_true", help="Compute metric for each sentence.")


def _add_metric_groups(p: argparse.ArgumentParser, ids: list[str]) -> None:
    """One argument group per metric of ``ids`` (``Metric.cli_title``, ``Metric.cli_options``),
    with rapidbleu's ``--workers``."""
    flags, kwargs = WORKERS
    for k, metric_id in enumerate(ids):
        cls = registry.get(metric_id)
        group = p.add_argument_group(cls.cli_title or f"{metric_id} related arguments")
        for metric_flags, metric_kwargs in cls.cli_options:
            group.add_argument(*metric_flags, **metric_kwargs)
        if k == 0:  # --help and the usage line list it after the first metric's options (BLEU's)
            group.add_argument(*flags, **kwargs)
    if not ids:
        p.add_argument(*flags, **kwargs)


def _add_significance_options(p: argparse.ArgumentParser) -> None:
    """sacreBLEU's confidence-interval and paired-test options, with rapidbleu's ``-j``."""
    c = p.add_argument_group("Confidence interval (CI) estimation for single-system evaluation")
    c.add_argument(
        "--confidence", "-ci", action="store_true", help="Report confidence interval using bootstrap resampling."
    )
    c.add_argument(
        "--confidence-n",
        "-cin",
        type=int,
        default=1000,
        help="Set the number of bootstrap resamples for CI estimation (Default: %(default)s).",
    )
    t = p.add_argument_group("Paired significance testing for multi-system evaluation")
    choice = t.add_mutually_exclusive_group()
    choice.add_argument(
        "--paired-ar",
        "-par",
        action="store_true",
        help="Perform paired test using approximate randomization (AR). This option is "
        "mutually exclusive with --paired-bs (Default: %(default)s).",
    )
    choice.add_argument(
        "--paired-bs",
        "-pbs",
        action="store_true",
        help="Perform paired test using bootstrap resampling. This option is "
        "mutually exclusive with --paired-ar (Default: %(default)s).",
    )
    t.add_argument(
        "--paired-ar-n",
        "-parn",
        type=int,
        default=10000,
        help="Number of trials for approximate randomization test (Default: %(default)s).",
    )
    t.add_argument(
        "--paired-bs-n",
        "-pbsn",
        type=int,
        default=1000,
        help="Number of bootstrap resamples for paired bootstrap resampling test (Default: %(default)s).",
    )
    t.add_argument(
        "--paired-jobs",
        "-j",
        type=int,
        default=1,
        help="Threads for comparisons that do not share random draws (SACREBLEU_SEED=none); "
        "0 = one per system compared with the baseline. Results do not depend on it. (Default: %(default)s)",
    )


def _add_reporting_options(p: argparse.ArgumentParser) -> None:
    """sacreBLEU's reporting options, with rapidbleu's ``--report`` and its own."""
    r = p.add_argument_group("Reporting related arguments")
    r.add_argument("--quiet", "-q", default=False, action="store_true", help="Suppress verbose messages.")
    r.add_argument(
        "--short", "-sh", default=False, action="store_true", help="Produce a shorter (less human readable) signature."
    )
    r.add_argument("--score-only", "-b", default=False, action="store_true", help="Print only the computed score.")
    # "--w" is spelled out: sacreBLEU reads that abbreviation as --width, and our extra
    # --workers would make it ambiguous otherwise
    r.add_argument("--width", "-w", "--w", type=int, default=1, help="Floating point width (Default: %(default)s).")
    r.add_argument(
        "--detail",
        "-d",
        default=False,
        action="store_true",
        help="Print detailed information (split test sets based on origlang).",
    )
    r.add_argument("--no-color", "-nc", action="store_true", help="Disable the occasional use of terminal colors.")
    r.add_argument(
        "--report",
        metavar="FILE",
        default=None,
        help="Write a comparison report of the systems (the first one is the baseline): a self-contained "
        "HTML page with plots, or '-' for text tables on stdout. Uses --paired-bs (default) or "
        "--paired-ar and their sample counts; the HTML page needs the extra rapidbleu[report].",
    )
    r.add_argument(
        "--source",
        metavar="FILE",
        default=None,
        help="Source sentences, one per line, shown with the report's example segments.",
    )
    r.add_argument(
        "--report-segments",
        type=int,
        default=5,
        metavar="N",
        help="Segments shown per system and direction in the report (Default: %(default)s).",
    )
    r.add_argument(
        "--format",
        "-f",
        default="json",
        choices=OUTPUT_FORMATS,
        help="Set the output format. `latex` is only valid for multi-system mode whereas `json` and "
        "`text` apply to single-system mode only. This flag is overridden if the SACREBLEU_FORMAT "
        "environment variable is set to one of the valid choices (Default: %(default)s).",
    )


#: rapidbleu's ``--workers``, every metric's threads (``CommandLineContext.workers``).
WORKERS: CommandLineOption = (
    ("--workers",),
    {"type": int, "default": 1, "help": "Threads for the compiled core (-1 = all cores). (Default: %(default)s)"},
)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Parse ``argv``; ``SACREBLEU_FORMAT`` overrides ``-f`` as in sacreBLEU."""
    args = build_parser().parse_args(argv)
    env_format = os.environ.get("SACREBLEU_FORMAT", "").lower()
    if env_format in OUTPUT_FORMATS:
        args.format = env_format
    return args


#: sacreBLEU options rapidbleu does not implement: (flags, argparse keywords, why).  They are
#: declared with sacreBLEU's names and arities so that the command line parses as sacreBLEU's
#: does (argparse's abbreviations resolve the same way) and then ends with a one-line error
#: instead of doing something else.  Every sacreBLEU 2.6.0 option is implemented today.
UNSUPPORTED: tuple[tuple[tuple[str, ...], dict[str, Any], str], ...] = ()


def _unsupported_dest(flags: tuple[str, ...]) -> str:
    return "unsupported_" + flags[0].lstrip("-").replace("-", "_")


def _add_unsupported(p: argparse.ArgumentParser) -> None:
    """Declare the ``UNSUPPORTED`` options (listed in ``--help`` under their own heading)."""
    if not UNSUPPORTED:
        return
    g = p.add_argument_group("sacreBLEU options that rapidbleu does not support (each is an error)")
    for flags, kwargs, _ in UNSUPPORTED:
        g.add_argument(*flags, dest=_unsupported_dest(flags), default=None, help=argparse.SUPPRESS, **kwargs)
    names = ", ".join("/".join(flags) for flags, _, _ in UNSUPPORTED)
    g.description = textwrap.fill(names, 76, break_on_hyphens=False)


def check_unsupported(args: argparse.Namespace) -> None:
    """Raise ``CLIError`` naming the first ``UNSUPPORTED`` option given, and why (exit status 1:
    sacreBLEU would do it); then the option values argparse cannot check (``check_values``)."""
    for flags, _, why in UNSUPPORTED:
        if getattr(args, _unsupported_dest(flags), None) not in (None, False):
            raise CLIError(f"{'/'.join(sorted(flags, key=len))}: {why}")
    check_values(args)


def trg_lang_of(langpair: str | None) -> str:
    """The target language of ``-l SRC-TRG`` (``""`` without ``-l``), as sacreBLEU reads it: the
    second field between dashes.

    Raises:
        UsageError: no dash, or nothing before or after it (sacreBLEU silently ignores ``enzh``
            and tokenizes Chinese with 13a).
    """
    if langpair is None:
        return ""
    src, dash, trg = langpair.partition("-")
    if not dash or not src or not trg:
        raise UsageError(
            f"-l/--language-pair {langpair!r}: expected SRC-TRG with a dash, e.g. en-zh "
            "(the target language chooses the default tokenizer)"
        )
    return langpair.split("-")[1]


def check_values(args: argparse.Namespace) -> None:
    """Option values that argparse cannot check, refused before any input is read, each a
    :class:`UsageError` (exit status 2) naming the option: values sacreBLEU cannot use or
    misuses, and options that do not go together.

    Raises:
        UsageError: ``-l`` without a dash (:func:`trg_lang_of`); ``-w`` below 0 (sacreBLEU fails
            in a format string); ``-cin`` or ``-pbsn`` below 2 and ``-parn`` below 1 (sacreBLEU
            prints no interval for ``-cin 1``, and runs its default number of samples for
            ``-pbsn``/``-parn`` 0 or less while printing the number given); ``--workers 0``;
            ``-nr`` below 1; an unknown ``-e`` encoding; ``-i`` without a file; ``--report``
            with ``-sl``, ``--source`` without ``--report``, ``--report-segments`` below 0; a
            metric option its constructor refuses (``--chrf-beta -1``, ``-cc 65``, ``-sv
            nan``: see :func:`check_metric_options`).
    """
    trg_lang_of(args.langpair)
    if args.width < 0:
        raise UsageError(f"-w/--width {args.width}: the number of decimals must be >= 0")
    resamples = "give at least 2 bootstrap resamples (a confidence interval needs two)"
    for flags, value, least, advice in (
        ("-cin/--confidence-n", args.confidence_n, 2, resamples),
        ("-pbsn/--paired-bs-n", args.paired_bs_n, 2, resamples),
        ("-parn/--paired-ar-n", args.paired_ar_n, 1, "give at least 1 approximate randomization trial"),
    ):
        if value < least:
            raise UsageError(f"{flags} {value}: {advice}")
    try:
        resolve_workers(args.workers)
    except ValueError as exc:
        raise UsageError(f"--workers {args.workers}: {exc}") from None
    if args.num_refs < 1:
        raise UsageError(f"-nr/--num-refs {args.num_refs}: give at least 1 reference per line")
    try:
        codecs.lookup(args.encoding)
    except LookupError:
        raise UsageError(f"-e/--encoding {args.encoding}: unknown encoding") from None
    if args.input is not None and not args.input:
        raise UsageError("-i/--input needs at least one file")
    if args.report is not None and args.sentence_level:
        raise UsageError("--report cannot be combined with -sl/--sentence-level")
    if args.report is None and args.source is not None:
        raise UsageError("--source is only used by --report")
    if args.report_segments < 0:
        raise UsageError(f"--report-segments {args.report_segments}: give 0 or more segments")
    check_metric_options(args)


#: Constructor arguments ``check_metric_options`` leaves to others: the tokenizer (argparse's
#: choices; building it may load a model) and the target language (``-l``, checked above).
_CHECKED_ELSEWHERE = ("tokenize", "trg_lang")


def _flag(cls: type[Metric], param: str) -> str:
    """The command-line option (``-cc/--chrf-char-order``) of a metric's constructor argument."""
    dest = f"{cls.metric_id}_{param}"
    for flags, kwargs in cls.cli_options:
        if registry.option_dest(flags, kwargs) == dest:
            return "/".join(sorted(flags, key=len))
    return f"--{param.replace('_', '-')}"


def check_metric_options(args: argparse.Namespace) -> None:
    """Every metric of ``-m`` with its options, as its constructor checks them, before any input
    is read (the tokenizer is not built here).

    Raises:
        UsageError: the constructor's ``TypeError`` or ``ValueError``, naming the option and its
            value (``--chrf-beta -1: beta must be ...``), or the options that do not go together
            (``-cc 0 -cw 0``).
    """
    for metric_id in dict.fromkeys(args.metrics):
        cls = registry.get(metric_id)
        options = {k: v for k, v in metric_options(args, metric_id).items() if k not in _CHECKED_ELSEWHERE}
        try:
            cls(**options)
            continue
        except (TypeError, ValueError) as exc:
            error = exc
        # name the option whose default would make the rest acceptable, else all that were given
        import inspect  # (here, on the error path: it costs the command line 4 ms of start-up)

        defaults = {k: p.default for k, p in inspect.signature(cls).parameters.items()}
        given = {k: v for k, v in options.items() if v != defaults[k]}
        for param, value in given.items():
            try:
                cls(**{**options, param: defaults[param]})
            except (TypeError, ValueError):
                continue
            raise UsageError(f"{_flag(cls, param)} {value}: {error}") from None
        raise UsageError(f"{' '.join(f'{_flag(cls, k)} {v}' for k, v in given.items())}: {error}") from None


def _command_line(
    args: argparse.Namespace, metric_id: str, whole_corpus: bool
) -> tuple[dict[str, Any], CommandLineContext]:
    """A metric's parsed option values (each ``dest`` ``<metric_id>_<argument>``, as sacreBLEU
    groups them, keyed by ``<argument>``) and what every metric is told (``--workers``, ``-sl``,
    the target language of ``-l``; ``whole_corpus``: the inputs are read whole)."""
    cls = registry.get(metric_id)
    values = {}
    for flags, kwargs in cls.cli_options:
        dest = registry.option_dest(flags, kwargs)
        values[dest.removeprefix(f"{metric_id}_")] = getattr(args, dest)
    return values, CommandLineContext(args.workers, args.sentence_level, trg_lang_of(args.langpair), whole_corpus)


def metric_options(args: argparse.Namespace, metric_id: str, whole_corpus: bool = False) -> dict[str, Any]:
    """The constructor arguments of one metric from the command line: its option values and the
    common ones (:func:`_command_line`), through the metric's ``command_line_arguments``."""
    return registry.get(metric_id).command_line_arguments(*_command_line(args, metric_id, whole_corpus))


def make_watches(args: argparse.Namespace, metrics: dict[str, Metric], n_systems: int) -> list[tuple[int, CorpusWatch]]:
    """The checks over each system's whole corpus that the metrics ask for when the inputs are
    read chunk by chunk (``Metric.command_line_watch``): ``(system index, watch)`` pairs, by
    metric in ``metrics``' order, then by system."""
    watches = []
    for m in metrics:
        values, context = _command_line(args, m, False)
        for k in range(n_systems):
            watch = registry.get(m).command_line_watch(values, context)
            if watch is not None:
                watches.append((k, watch))
    return watches


def make_metrics(args: argparse.Namespace, whole_corpus: bool = False) -> dict[str, Metric]:
    """The metrics of ``-m`` in command-line order, each once: ``{metric_id: metric}`` (the
    order of sacreBLEU's paired tests; its other outputs sort them, see :func:`by_name`).

    Raises:
        TypeError, ValueError: a metric's option out of range (its constructor's check).
    """
    return {m: registry.get(m)(**metric_options(args, m, whole_corpus)) for m in dict.fromkeys(args.metrics)}


def by_name(metrics: dict[str, Metric]) -> dict[str, Metric]:
    """``metrics`` in the order sacreBLEU prints single-system results and tables: sorted by
    name (``BLEU``, ``CHRF``, ``TER``)."""
    return dict(sorted(metrics.items(), key=lambda item: item[0].upper()))
