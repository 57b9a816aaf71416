"""``rapidbleu`` / ``python -m rapidbleu``: sacreBLEU's command line for BLEU, chrF and TER.

Same options, same reading of files and same output text as ``sacrebleu`` 2.x (only the
``version:`` value of the signature differs).  Unlike sacreBLEU, unreadable files, line-count
mismatches and undecodable bytes end with a one-line message naming the file (and line) and a
non-zero exit code (1; 17 for a line with the wrong number of tab-separated fields, as
sacreBLEU) instead of a traceback or a silently truncated score.  So do the sacreBLEU options it
does not implement (test sets: see ``UNSUPPORTED``), a SentencePiece model that cannot be
downloaded, and a bad ``RAPIDBLEU_BACKEND`` (checked by ``rapidbleu._core.backend`` when the kernels
are first needed).  Usage errors -- sacreBLEU's own (argparse's choices and types, ``-m foo``)
and the option values refused here (:func:`check_values`) -- print argparse's usage line and one
error line and exit with status 2, as sacreBLEU's usage errors do.

Metrics come from the registry of the metric protocol (``rapidbleu._core.metric.METRICS``): ``-m``
offers every metric whose class has ``command_line = True``, each metric's options form one
argument group (``METRIC_OPTIONS``) whose dests are prefixed ``<metric_id>_`` (sacreBLEU's
grouping), and everything after that -- streaming, CIs, paired tests, the tables -- works on
any metric through the protocol.

Inputs are streamed: every file (or stdin) is read in lockstep (``rapidbleu._core.lockstep``), once,
``CHUNK_LINES`` lines at a time (so pipes work), and only sums (or, for ``-ci``/``--paired-*``,
per-segment statistics) are kept, so memory does not grow with the corpus; ``-sl`` prints each chunk's scores as it is scored.

``--report FILE`` (not in sacreBLEU) writes the comparison report of ``rapidbleu.compare``
instead of the table: an HTML page (extra ``rapidbleu[report]``), or text tables with ``-``
(the report shows segments, so it reads the inputs whole).
"""

from __future__ import annotations

import argparse
import codecs
import contextlib
import inspect
import logging
import os
import sys
import textwrap
import time
import warnings
from collections.abc import Callable, Iterator
from itertools import repeat
from typing import TYPE_CHECKING, Any, Literal, TextIO

if TYPE_CHECKING:
    import numpy as np
else:
    from ._core.lazy import numpy as np  # imported on first use: --help, --version and errors need none

from ._core.bleu_scores_py import SMOOTH_DEFAULTS
from ._core.errors import USER_ERRORS, BackendFallbackWarning, CLIError, UsageError
from ._core.lockstep import Source, Stream, line_counts_differ, read_lockstep
from ._core.log import logger
from ._core.metric import METRICS, Metric
from ._core.validate import resolve_workers
from ._core.version import __version__
from .bleu import BLEU, warn_tokenized
from .chrf import CHRF
from .report import Color, print_results_table, print_single_results
from .textio import STDIN, LineReader, read_lines
from .tokenizers import available_tokenizers
from .utils import args_to_dict

OUTPUT_FORMATS = ("json", "text", "latex")


def build_parser() -> argparse.ArgumentParser:
    """sacreBLEU's options (same names, short forms, defaults, dests) for BLEU, chrF and TER,
    plus ``--workers``."""
    p = argparse.ArgumentParser(
        prog="rapidbleu",
        description="rapidbleu: sacreBLEU-compatible BLEU, chrF and TER, fast.\n"
        "Quick usage: rapidbleu ref.txt -i output.txt [-m bleu chrf ter]",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--language-pair",
        "-l",
        dest="langpair",
        default=None,
        help="Source-target language pair (e.g. en-zh); the target chooses the default tokenizer.",
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
        choices=[m for m, cls in METRICS.items() if cls.command_line],
        nargs="+",
        default=["bleu"],
        help="Metrics to compute, separated by spaces: bleu, chrf, ter (Default: bleu).",
    )
    p.add_argument("--sentence-level", "-sl", action="store_true", help="Compute metric for each sentence.")
    g = p.add_argument_group("BLEU related arguments")
    for flags, kwargs in BLEU_OPTIONS:
        g.add_argument(*flags, **kwargs)
    g.add_argument(
        "--workers", type=int, default=1, help="Threads for the compiled core (-1 = all cores). (Default: %(default)s)"
    )
    for title, options in METRIC_OPTIONS.values():
        group = p.add_argument_group(title)
        for flags, kwargs in options:
            group.add_argument(*flags, **kwargs)
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
        "0 = one per system. Results do not depend on it. (Default: %(default)s)",
    )
    r = p.add_argument_group("Reporting related arguments")
    r.add_argument("--quiet", "-q", default=False, action="store_true", help="Suppress verbose messages.")
    r.add_argument(
        "--short", "-sh", default=False, action="store_true", help="Produce a shorter (less human readable) signature."
    )
    r.add_argument("--score-only", "-b", default=False, action="store_true", help="Print only the computed score.")
    # "--w" is spelled out: sacreBLEU reads that abbreviation as --width, and our extra
    # --workers would make it ambiguous otherwise
    r.add_argument("--width", "-w", "--w", type=int, default=1, help="Floating point width (Default: %(default)s).")
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
    p.add_argument("--version", "-V", action="version", version=f"%(prog)s {__version__}")
    _add_unsupported(p)
    return p


#: BLEU's options (sacreBLEU's names, short forms, types, defaults and dests ``bleu_<BLEU
#: argument>``), as ``(flags, argparse keywords)``.
BLEU_OPTIONS: tuple[tuple[tuple[str, ...], dict[str, Any]], ...] = (
    (
        ("--smooth-method", "-s"),
        {
            "choices": list(SMOOTH_DEFAULTS),
            "default": "exp",
            "dest": "bleu_smooth_method",
            "help": "Smoothing method: exponential decay, floor (increment zero counts), add-k (increment "
            "num/denom by k for n>1), or none. (Default: %(default)s)",
        },
    ),
    (
        ("--smooth-value", "-sv"),
        {
            "type": float,
            "default": None,
            "dest": "bleu_smooth_value",
            "help": "The smoothing value. Only valid for floor and add-k. "
            f"(Defaults: floor: {SMOOTH_DEFAULTS['floor']}, add-k: {SMOOTH_DEFAULTS['add-k']})",
        },
    ),
    (
        ("--tokenize", "-tok"),
        {
            "choices": available_tokenizers(),
            "default": None,
            "dest": "bleu_tokenize",
            "help": "Tokenization method to use for BLEU. If not provided, defaults to `zh` for Chinese, "
            "`ja-mecab` for Japanese, `ko-mecab` for Korean and `13a` (mteval) otherwise.",
        },
    ),
    (
        ("--lowercase", "-lc"),
        {
            "dest": "bleu_lowercase",
            "action": "store_true",
            "default": False,
            "help": "If True, enables case-insensitivity. (Default: %(default)s)",
        },
    ),
    (
        ("--force",),
        {
            "default": False,
            "action": "store_true",
            "dest": "bleu_force",
            "help": "Insist that your tokenized input is actually detokenized.",
        },
    ),
)

#: Each metric's option group after BLEU's, in sacreBLEU's order: ``metric_id -> (title,
#: ((flags, argparse keywords), ...))``.  Names, short forms, types, defaults and dests are
#: sacreBLEU's; every dest is ``<metric_id>_<constructor argument>``, so ``_metric_options``
#: hands them to the metric's constructor, which validates them before any input is read.
METRIC_OPTIONS: dict[str, tuple[str, tuple[tuple[tuple[str, ...], dict[str, Any]], ...]]] = {
    "chrf": (
        "chrF related arguments",
        (
            (
                ("--chrf-char-order", "-cc"),
                {"type": int, "default": CHRF.CHAR_ORDER, "help": "Character n-gram order. (Default: %(default)s)"},
            ),
            (
                ("--chrf-word-order", "-cw"),
                {
                    "type": int,
                    "default": CHRF.WORD_ORDER,
                    "help": "Word n-gram order; 2 gives chrF++. (Default: %(default)s)",
                },
            ),
            (
                ("--chrf-beta",),
                {
                    "type": int,
                    "default": CHRF.BETA,
                    "help": "Weight of recall relative to precision in the F-score. (Default: %(default)s)",
                },
            ),
            (
                ("--chrf-whitespace",),
                {
                    "action": "store_true",
                    "default": False,
                    "help": "Keep whitespace in character n-grams. (Default: %(default)s)",
                },
            ),
            (
                ("--chrf-lowercase",),
                {"action": "store_true", "default": False, "help": "Lowercase before scoring. (Default: %(default)s)"},
            ),
            (
                ("--chrf-eps-smoothing",),
                {
                    "action": "store_true",
                    "default": False,
                    "help": "Average the per-order F-scores with epsilon smoothing (chrF++.py, NLTK, Moses) "
                    "instead of effective-order smoothing. (Default: %(default)s)",
                },
            ),
        ),
    ),
    "ter": (
        "TER related arguments (the defaults are tercom's)",
        (
            (
                ("--ter-case-sensitive",),
                {"action": "store_true", "default": False, "help": "Keep the case. (Default: %(default)s)"},
            ),
            (
                ("--ter-asian-support",),
                {
                    "action": "store_true",
                    "default": False,
                    "help": "Split CJK characters with --ter-normalized, remove CJK and full-width "
                    "punctuation with --ter-no-punct. (Default: %(default)s)",
                },
            ),
            (
                ("--ter-no-punct",),
                {"action": "store_true", "default": False, "help": "Remove punctuation. (Default: %(default)s)"},
            ),
            (
                ("--ter-normalized",),
                {
                    "action": "store_true",
                    "default": False,
                    "help": "Tercom's normalization: split off punctuation, unescape XML entities. "
                    "(Default: %(default)s)",
                },
            ),
        ),
    ),
}

#: sacreBLEU options rapidbleu does not implement: (flags, argparse keywords, why).  They are
#: declared with sacreBLEU's names and arities so that the command line parses as sacreBLEU's
#: does (argparse's abbreviations resolve the same way: ``-t`` is ``--test-set``, never a prefix
#: of ``-tok``) and then ends with a one-line error instead of doing something else.
_TEST_SETS = "test sets are not supported; give reference files"
UNSUPPORTED: tuple[tuple[tuple[str, ...], dict[str, Any], str], ...] = (
    (("--test-set", "-t"), {}, _TEST_SETS),
    (("--list",), {"action": "store_true"}, _TEST_SETS),
    (("--echo",), {"nargs": "+"}, _TEST_SETS),
    (("--download",), {}, _TEST_SETS),
    (("--origlang", "-ol"), {}, _TEST_SETS),
    (("--subset",), {}, _TEST_SETS),
    (("--citation", "--cite"), {"action": "store_true"}, _TEST_SETS),
    (
        ("--detail", "-d"),
        {"action": "store_true"},
        "per-subset scores (--detail) need test sets, which are not supported; give reference files",
    ),
)


def _unsupported_dest(flags: tuple[str, ...]) -> str:
    return "unsupported_" + flags[0].lstrip("-").replace("-", "_")


def _add_unsupported(p: argparse.ArgumentParser) -> None:
    """Declare the ``UNSUPPORTED`` options (listed in ``--help`` under their own heading)."""
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


def check_values(args: argparse.Namespace) -> None:
    """Option values that argparse cannot check, refused before any input is read, each a
    :class:`UsageError` (exit status 2) naming the option: values sacreBLEU cannot use or
    misuses, and options that do not go together.

    Raises:
        UsageError: ``-l`` without a dash (sacreBLEU silently ignores ``enzh`` and tokenizes
            Chinese with 13a); ``-w`` below 0 (sacreBLEU fails in a format string); ``-cin``
            or ``-pbsn`` below 2 and ``-parn`` below 1 (sacreBLEU prints no interval for ``-cin
            1``, and runs its default number of samples for ``-pbsn``/``-parn`` 0 or less while
            printing the number given); ``--workers 0``; ``-nr`` below 1; an unknown ``-e``
            encoding; ``-i`` without a file; ``--report`` with ``-sl``, ``--source`` without
            ``--report``, ``--report-segments`` below 0; a metric option its constructor refuses
            (``--chrf-beta -1``, ``-cc 65``, ``-sv nan``: see :func:`check_metric_options`).
    """
    if args.langpair is not None:
        src, dash, trg = args.langpair.partition("-")
        if not dash or not src or not trg:
            raise UsageError(
                f"-l/--language-pair {args.langpair!r}: expected SRC-TRG with a dash, e.g. en-zh "
                "(the target language chooses the default tokenizer)"
            )
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


def _flag(metric_id: str, param: str) -> str:
    """The command-line option (``-cc/--chrf-char-order``) of a metric's constructor argument."""
    dest = f"{metric_id}_{param}"
    options = BLEU_OPTIONS if metric_id == "bleu" else METRIC_OPTIONS.get(metric_id, ("", ()))[1]
    for flags, kwargs in options:
        if kwargs.get("dest", flags[0].lstrip("-").replace("-", "_")) == dest:
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
        cls = METRICS[metric_id]
        options = {k: v for k, v in _metric_options(args, metric_id).items() if k not in _CHECKED_ELSEWHERE}
        try:
            cls(**options)
            continue
        except (TypeError, ValueError) as exc:
            error = exc
        # name the option whose default would make the rest acceptable, else all that were given
        defaults = {k: p.default for k, p in inspect.signature(cls).parameters.items()}
        given = {k: v for k, v in options.items() if v != defaults[k]}
        for param, value in given.items():
            try:
                cls(**{**options, param: defaults[param]})
            except (TypeError, ValueError):
                continue
            raise UsageError(f"{_flag(metric_id, param)} {value}: {error}") from None
        raise UsageError(f"{' '.join(f'{_flag(metric_id, k)} {v}' for k, v in given.items())}: {error}") from None


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Parse ``argv``; ``SACREBLEU_FORMAT`` overrides ``-f`` as in sacreBLEU."""
    args = build_parser().parse_args(argv)
    env_format = os.environ.get("SACREBLEU_FORMAT", "").lower()
    if env_format in OUTPUT_FORMATS:
        args.format = env_format
    return args


#: Lines read from every input per step of the streaming loop (``RAPIDBLEU_CHUNK_LINES``
#: overrides it): memory holds this many lines of each input, never the whole corpus.
CHUNK_LINES = 20000


def _chunk_lines() -> int:
    value = os.environ.get("RAPIDBLEU_CHUNK_LINES", "")
    if not value:
        return CHUNK_LINES
    try:
        n = int(value)
    except ValueError:
        n = 0
    if n < 1:
        raise CLIError(f"RAPIDBLEU_CHUNK_LINES must be a positive integer, got {value!r}")
    return n


def _open_refs(args: argparse.Namespace) -> list[Stream]:
    if not args.refs:
        raise CLIError(
            "no reference files: give them as positional arguments before -i/--input "
            "(rapidbleu does not download test sets)"
        )
    if args.num_refs != 1 and len(args.refs) > 1:
        raise CLIError("--num-refs reads tab-separated references from a single file; give only one reference file")
    if args.num_refs == 1:
        return [Stream(path, Source(LineReader(path, args.encoding))) for path in args.refs]
    src = Source(LineReader(args.refs[0], args.encoding), args.num_refs, "refs")
    return [Stream(f"{args.refs[0]} (reference field {j + 1})", src, j) for j in range(args.num_refs)]


def _open_systems(args: argparse.Namespace, paired: bool = False) -> list[Stream]:
    if args.input is None:
        reader = LineReader(None, args.encoding)
        first = reader.read(1)
        if not first:
            raise CLIError(f"{STDIN}: is empty (give the system output on standard input or with -i)")
        # sacreBLEU: the first line fixes the number of tab-separated systems.
        n = len(first[0].split("\t"))
        src = Source(reader, n, "stdin", first=first[0])
        return [Stream(f"System {i + 1}", src, i) for i in range(n)]
    streams: list[Stream] = []
    for path in args.input:
        names = [s.name for s in streams]
        if paired and names and path == names[0]:
            logger.info("Ignoring %r as it was also given as the baseline.", path)
            continue
        if path in names:
            raise CLIError(f"{path!r} already used to name a system; give each system file once")
        streams.append(Stream(path, Source(LineReader(path, args.encoding))))
    return streams


class _LineProgress:
    """A tqdm counter of lines and lines/s on stderr, shown only when stderr is a terminal, not
    with -q, and only once a run has lasted ``RAPIDBLEU_PROGRESS_DELAY`` seconds (default 1.5)."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.bar: Any = None  # a tqdm bar once shown
        self.enabled = not args.quiet and hasattr(sys.stderr, "isatty") and sys.stderr.isatty()
        try:
            self.delay = float(os.environ.get("RAPIDBLEU_PROGRESS_DELAY", "1.5"))
        except ValueError:
            self.delay = 1.5
        self.start = time.monotonic()
        self.lines = 0

    def update(self, n: int) -> None:
        self.lines += n
        if not self.enabled:
            return
        if self.bar is None:
            if time.monotonic() - self.start < self.delay:
                return
            from tqdm import tqdm

            self.bar = tqdm(
                desc="reading", unit=" lines", unit_scale=True, file=sys.stderr, leave=False, initial=self.lines - n
            )
        self.bar.update(n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None


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


def _metric_options(args: argparse.Namespace, metric_id: str) -> dict[str, Any]:
    """The constructor arguments of one metric from the command line: its options (``dest``
    prefixed with ``<metric_id>_``, as sacreBLEU groups them), ``workers``, and the rules
    sacreBLEU's command line applies to BLEU (the target language chooses its tokenizer,
    ``-sl`` turns effective order on).  ``force`` is handled by :func:`run` over the whole
    corpus, not per chunk."""
    options = args_to_dict(args, metric_id, strip_prefix=True)
    options["workers"] = args.workers
    if metric_id == "bleu":
        options["force"] = True
        options["effective_order"] = args.sentence_level
        options["trg_lang"] = args.langpair.split("-")[1] if args.langpair and "-" in args.langpair else ""
    return options


def make_metrics(args: argparse.Namespace) -> dict[str, Metric]:
    """The metrics of ``-m`` in command-line order, each once: ``{metric_id: metric}`` (the
    order of sacreBLEU's paired tests; its other outputs sort them, see :func:`by_name`).

    Raises:
        TypeError, ValueError: a metric's option out of range (its constructor's check).
    """
    return {m: METRICS[m](**_metric_options(args, m)) for m in dict.fromkeys(args.metrics)}


def by_name(metrics: dict[str, Metric]) -> dict[str, Metric]:
    """``metrics`` in the order sacreBLEU prints single-system results and tables: sorted by
    name (``BLEU``, ``CHRF``, ``TER``)."""
    return dict(sorted(metrics.items(), key=lambda item: item[0].upper()))


def run(args: argparse.Namespace) -> None:
    """Read the inputs in lockstep, chunk by chunk, score with every metric of ``-m``, print.

    Memory holds one chunk of lines per input plus the statistics: their column sums for a
    corpus score or a table of systems; per-segment statistics (integer ones in the narrowest
    unsigned type that holds them: 10 bytes per segment and system for BLEU-4 with lengths
    < 256 tokens, 20 below 65,536) only for ``--confidence`` and ``--paired-*``.  With ``-sl``
    each chunk's sentence scores are printed as soon as it is scored.

    Raises ``CLIError``/``InputError`` for bad input.
    """
    check_unsupported(args)
    Color.setup(args.no_color)
    refs = _open_refs(args)
    paired = "bs" if args.paired_bs else ("ar" if args.paired_ar else "")
    if args.report is not None:
        _run_report(args, refs, paired or "bs")
        return
    systems = _open_systems(args, bool(paired))
    names = [s.name for s in systems]
    if paired:
        # sacreBLEU marks the first system as the baseline (stdin systems have no file names).
        names = (
            ["Baseline"] + [f"System {i + 1}" for i in range(len(systems) - 1)]
            if args.input is None
            else [f"Baseline: {names[0]}", *names[1:]]
        )
    if args.sentence_level and len(args.metrics) > 1:
        raise CLIError("Only one metric can be used in sentence-level mode.")
    if args.sentence_level and len(systems) > 1:
        raise CLIError("Only one system can be evaluated in sentence-level mode.")
    if args.sentence_level and (args.confidence or paired):
        raise CLIError("Statistical tests are unavailable in sentence-level mode.")
    if paired and len(systems) == 1:
        raise CLIError("Paired tests require multiple input systems given to --input (-i).")
    if len(systems) > 1 and args.confidence:
        raise CLIError("Use paired tests (--paired) for multiple systems.")

    metrics = make_metrics(args)
    n_bootstrap = args.confidence_n if args.confidence else 1
    keep_rows = bool(paired) or n_bootstrap > 1
    # the corpus row of each metric and system (a corpus score, or a table of systems, needs
    # only these: BLEU's core then returns them without any per-segment array, and numpy is
    # never imported)
    sums: dict[str, list[Any]] = {m: [None] * len(systems) for m in metrics}
    per_segment = keep_rows or args.sentence_level
    rows: dict[str, list[list[np.ndarray]]] = {m: [[] for _ in systems] for m in metrics}
    count_tokenized = "bleu" in metrics and not args.bleu_force
    n_tokenized = [0] * len(systems)
    sig_text = None
    progress = _LineProgress(args)
    # -sl prints chunk by chunk; when the files' line counts already differ, print nothing and
    # let the reading below raise its usual error (sacreBLEU prints no score then either).
    hold_sentences = args.sentence_level and line_counts_differ([*args.refs, *(args.input or [])])
    try:
        for ref_chunk, sys_chunks in read_lockstep(refs, systems, _chunk_lines()):
            for k, hyps in enumerate(sys_chunks):
                if count_tokenized:
                    n_tokenized[k] += sum(map(str.endswith, hyps, repeat(" .")))
                for m, metric in metrics.items():
                    if not per_segment:
                        sums[m][k] = metric.corpus_totals(hyps, ref_chunk, sums[m][k])
                        continue
                    st = metric.corpus_statistics(hyps, ref_chunk)
                    if keep_rows:
                        sums[m][k] = metric.combine(st, sums[m][k])
                        rows[m][k].append(_narrow(st))
                    if args.sentence_level and not hold_sentences:
                        if sig_text is None:
                            sig_text = metric.get_signature().format(args.short)
                        out = [metric.score_from_stats(row).format(args.width, args.score_only, sig_text) for row in st]
                        sys.stdout.write("\n".join(out) + "\n")
            progress.update(len(ref_chunk[0]))
    finally:
        progress.close()
    for count in n_tokenized:
        warn_tokenized(count)
    if args.sentence_level:
        return

    def stats_of(m: str, k: int) -> np.ndarray:
        st = np.concatenate(rows[m][k])
        rows[m][k].clear()
        return st

    if len(systems) == 1:
        results = []
        for m, metric in by_name(metrics).items():
            score = metric.score_from_stats(sums[m][0])
            if n_bootstrap > 1:
                from ._core.bootstrap import bootstrap_summary

                metric.n_bootstrap = n_bootstrap
                with _progress_bar(args, n_bootstrap) as bar:
                    metric.seed, mean, ci = bootstrap_summary(stats_of(m, 0), metric, n_bootstrap, bar)
                score.with_ci(mean, ci)
            sig = metric.get_signature().format(args.short if args.format != "json" else False)
            results.append(score.format(args.width, args.score_only, sig, args.format == "json"))
        print_single_results(results, args.format)
        return

    logger.info("Found %d systems.", len(systems))
    if paired:
        per_system = {m: [stats_of(m, k) for k in range(len(systems))] for m in metrics}
        _run_paired(args, paired, metrics, names, per_system, sums)
        return
    table: dict[str, list[Any]] = {"System": names}
    sigs = {}
    for m, metric in by_name(metrics).items():
        scores = [metric.score_from_stats(s) for s in sums[m]]
        table[scores[0].name] = [score.format(args.width, True) for score in scores]
        sigs[scores[0].name] = metric.get_signature().format(args.short)
    print_results_table(table, sigs, args.format, args.width)


def _read_whole(refs: list[Stream], systems: list[Stream]) -> tuple[list[list[str]], list[list[str]]]:
    """All lines of the reference and system streams (same checks and errors as streaming)."""
    ref_lines: list[list[str]] = [[] for _ in refs]
    sys_lines: list[list[str]] = [[] for _ in systems]
    for ref_chunk, sys_chunks in read_lockstep(refs, systems, _chunk_lines()):
        for acc, chunk in zip(ref_lines + sys_lines, ref_chunk + sys_chunks, strict=False):
            acc.extend(chunk)
    return ref_lines, sys_lines


def _run_report(args: argparse.Namespace, ref_streams: list[Stream], test: str) -> None:
    """``--report FILE|-``: the comparison report of ``rapidbleu.compare`` (HTML or text)."""
    from .compare import comparison_report, require_report_extra
    from .significance import seed_from_env

    to_stdout = args.report == "-"
    if not to_stdout:
        require_report_extra()  # fail before scoring when the extra is missing ...
        # (the folder as the user's path names it: Path.resolve would follow links)
        folder = os.path.dirname(os.path.abspath(args.report))  # noqa: PTH100, PTH120
        if not os.path.isdir(folder):  # noqa: PTH112 -- ... or the report cannot be written
            raise CLIError(f"{args.report}: cannot write the report (no folder {folder})")
    # the metrics of -m as the tables order them; BLEU warns about tokenized input itself here
    metrics = by_name(make_metrics(args))
    if "bleu" in metrics:
        metrics["bleu"] = BLEU(**{**_metric_options(args, "bleu"), "force": args.bleu_force})
    sys_streams = _open_systems(args, paired=True)
    names = [stream.name for stream in sys_streams]
    ref_names = [stream.name for stream in ref_streams]
    refs, systems = _read_whole(ref_streams, sys_streams)
    sources = None
    if args.source is not None:
        sources = read_lines(args.source, args.encoding)
        if len(sources) != len(systems[0]):
            raise CLIError(
                f"{args.source} has {len(sources)} lines but {ref_names[0]} has {len(refs[0])}: "
                "the source must have one line per reference line"
            )
    n_samples = args.paired_bs_n if test == "bs" else args.paired_ar_n
    if len(systems) == 1:
        total, desc = args.confidence_n, "bootstrap"
    else:
        # one stream of draws for all systems when seeded, one per system otherwise (PairedTest)
        streams = 1 if seed_from_env()[1] else len(systems) - 1
        total = n_samples * streams
        desc = "paired bootstrap" if test == "bs" else "approximate randomization"
    with _progress_bar(args, total * len(metrics), desc) as progress:
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
            progress=progress,
        )
    if to_stdout:
        sys.stdout.write(report.to_text())
        return
    try:
        report.save(args.report)
    except OSError as exc:
        raise CLIError(f"{args.report}: cannot write the report ({exc.strerror or exc})") from None
    logger.info("Wrote the comparison report of %d system(s) to %s", len(systems), args.report)


class _progress_bar:
    """A tqdm bar on stderr for ``total`` steps; off with -q, when stderr is not a terminal, when
    tqdm is missing, or for totals too small to matter.  Yields an ``update(n)`` callback or None."""

    def __init__(self, args: argparse.Namespace, total: int, desc: str = "bootstrap") -> None:
        self.bar: Any = None  # a tqdm bar, when shown
        if total >= 1000 and not args.quiet and hasattr(sys.stderr, "isatty") and sys.stderr.isatty():
            try:
                from tqdm import tqdm
            except ImportError:
                return
            self.bar = tqdm(total=total, desc=desc, unit="sample", file=sys.stderr, leave=False)

    def __enter__(self) -> Callable[[int], None] | None:
        return self.bar.update if self.bar is not None else None

    def __exit__(self, *exc: object) -> Literal[False]:
        if self.bar is not None:
            self.bar.close()
        return False


def _run_paired(
    args: argparse.Namespace,
    paired: str,
    metrics: dict[str, Metric],
    names: list[str],
    stats: dict[str, list[np.ndarray]],
    sums: dict[str, list[Any]],
) -> None:
    """Paired bootstrap (``bs``) or approximate randomization (``ar``) of every system against the
    first one, for every metric, from their per-segment statistics, printed as sacreBLEU's
    multi-system table (or JSON / LaTeX); signatures as ``significance.PairedTest`` makes them."""
    from .significance import paired_ar, paired_bs, seed_from_env

    n_samples = args.paired_bs_n if paired == "bs" else args.paired_ar_n
    seed = seed_from_env()[1]
    streams = 1 if seed is not None else max(len(names) - 1, 1)
    desc = "paired bootstrap" if paired == "bs" else "approximate randomization"
    scores: dict[str, list[Any]] = {"System": names}
    sigs = {}
    with _progress_bar(args, n_samples * streams * len(metrics), desc) as progress:
        for m, metric in metrics.items():
            key = metric.score_from_stats(sums[m][0]).name
            sig = metric.get_signature()
            sig.update("seed", str(seed).lower())
            sig.update(paired, n_samples)
            st = stats[m]
            if paired == "bs":
                scores[key] = paired_bs(st[0], st[1:], metric, n_samples, seed, args.paired_jobs, progress)
            else:
                scores[key] = paired_ar(st[0], st[1:], metric, n_samples, -1, seed, args.paired_jobs, progress)
            sigs[key] = sig.format(args.short)
    print_results_table(scores, sigs, args.format, args.width, paired=paired, n_samples=n_samples)


@contextlib.contextmanager
def _one_line_fallback_warning(quiet: bool) -> Iterator[None]:
    """While the command runs, the warning of a pure-Python install (the compiled core is not
    available) is one line on stderr, ``rapidbleu: compiled core not available (...) ...``,
    without Python's source location and line; none with ``-q``.  Other warnings as usual."""
    shown = warnings.showwarning

    def show(
        message: Warning | str,
        category: type[Warning],
        filename: str,
        lineno: int,
        file: TextIO | None = None,
        line: str | None = None,
    ) -> None:
        if not issubclass(category, BackendFallbackWarning):
            shown(message, category, filename, lineno, file, line)
        elif not quiet:
            print(message, file=sys.stderr)

    warnings.showwarning = show
    try:
        yield
    finally:
        warnings.showwarning = shown


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``rapidbleu`` command; returns (and exits with) the exit code: 0, 2 for
    a usage error (argparse's, or a :class:`UsageError`), 1 or 17 for input that cannot be
    scored (17: a line with the wrong number of tab-separated fields, as sacreBLEU)."""
    try:
        args = parse_args(argv)
    except SystemExit as exc:  # argparse: --help, --version, or a usage error (2)
        if argv is None:
            raise
        return exc.code if isinstance(exc.code, int) else 0
    # Output is UTF-8 whatever the locale, as in sacreBLEU.
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(encoding="utf-8")
    if not args.quiet and not logging.getLogger().handlers:
        logging.basicConfig(level=logging.INFO, format="rapidbleu: %(message)s")
    try:
        with _one_line_fallback_warning(args.quiet):
            run(args)
    # Expected failures, each a one-line message: bad input or options, a missing optional
    # extra (ImportError), a SentencePiece model that is neither on disk nor downloadable.
    except USER_ERRORS as exc:
        if isinstance(exc, UsageError):  # as argparse reports its own: the usage line first
            build_parser().print_usage(sys.stderr)
        print(f"rapidbleu: error: {exc}", file=sys.stderr)
        code = getattr(exc, "code", 1)
        if argv is None:
            sys.exit(code)
        return code
    except BrokenPipeError:
        # `rapidbleu ... | head`: stop quietly like a Unix filter.
        sys.stdout = None  # no flush of the closed pipe at exit
        return 0
    return 0


if __name__ == "__main__":
    main()
