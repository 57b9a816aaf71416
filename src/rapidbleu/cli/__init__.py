"""``rapidbleu`` / ``python -m rapidbleu``: sacreBLEU's command line, for every metric of the registry.

Same options, same reading of files and same output text as ``sacrebleu`` 2.x (only the
``version:`` value of the signature differs).  Unlike sacreBLEU, unreadable files, line-count
mismatches and undecodable bytes end with a one-line message naming the file (and line) and a
non-zero exit code (1; 17 for a line with the wrong number of tab-separated fields, as
sacreBLEU) instead of a traceback or a silently truncated score.  So do the sacreBLEU options it
does not implement (test sets: see ``parser.UNSUPPORTED``), a SentencePiece model that cannot be
downloaded, a missing optional extra, and a bad ``RAPIDBLEU_BACKEND`` (checked by
``rapidbleu._core.backend`` when the kernels are first needed): :data:`EXPECTED_ERRORS`.  Any
other exception is a bug and keeps its traceback.  Usage errors -- sacreBLEU's own (argparse's
choices and types, ``-m foo``) and the option values refused here (``parser.check_values``) --
print argparse's usage line and one error line and exit with status 2, as sacreBLEU's usage
errors do.

Metrics come from ``rapidbleu.registry``: ``-m`` offers every metric whose class has
``command_line = True``, each brings its argument group (``Metric.cli_title``,
``Metric.cli_options``, dests prefixed ``<metric_id>_``: sacreBLEU's grouping) and turns its
values into constructor arguments (``Metric.command_line_arguments``), and everything after
that -- streaming, CIs, paired tests, the tables, the report -- works on any metric through the
protocol.  A registered metric reaches the command line without a change here.

The jobs, one module each: :mod:`.parser` (the options, their checks, the metrics they ask
for), :mod:`.inputs` (opening references and systems), :mod:`.modes` (reading and the output
modes), :mod:`.progress` (the progress display).  Inputs are streamed: every file (or stdin) is
read in lockstep (``rapidbleu.cli.lockstep``), once, ``inputs.CHUNK_LINES`` lines at a time
(so pipes work), and only sums (or, for ``-ci``/``--paired-*``, per-segment statistics) are
kept, so memory does not grow with the corpus; ``-sl`` prints each chunk's scores as it is
scored.

``--report FILE`` (not in sacreBLEU) writes the comparison report of ``rapidbleu.compare``
instead of the table: an HTML page (extra ``rapidbleu[report]``), or text tables with ``-``
(the report shows segments, so it reads the inputs whole).
"""

from __future__ import annotations

import contextlib
import sys
import warnings
from collections.abc import Iterator
from typing import TYPE_CHECKING, TextIO

from .._base import log
from .._base.errors import USAGE_CODE, USER_ERRORS, BackendFallbackWarning, CLIError, UsageError
from .inputs import CHUNK_LINES
from .modes import run
from .parser import (
    OUTPUT_FORMATS,
    UNSUPPORTED,
    build_parser,
    by_name,
    check_metric_options,
    check_unsupported,
    check_values,
    make_metrics,
    parse_args,
)

if TYPE_CHECKING:
    import logging

# (the names of the single module this package was, kept)
__all__ = [
    "CHUNK_LINES",
    "EXPECTED_ERRORS",
    "OUTPUT_FORMATS",
    "UNSUPPORTED",
    "USAGE_CODE",
    "CLIError",
    "UsageError",
    "build_parser",
    "by_name",
    "check_metric_options",
    "check_unsupported",
    "check_values",
    "main",
    "make_metrics",
    "parse_args",
    "run",
]

#: What ends a command with a one-line message instead of a traceback
#: (``rapidbleu._base.errors.USER_ERRORS``, where each type is).
EXPECTED_ERRORS: tuple[type[Exception], ...] = USER_ERRORS


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


#: Loggers of the libraries the command line uses whose notices are theirs, not the user's
#: (matplotlib, under ``--report``: "Matplotlib is building the font cache; this may take a
#: moment.", a WARNING on its first run): kept at ERROR unless something set their level.
QUIET_LIBRARIES = ("matplotlib",)


def _show_own_messages(logger: logging.Logger) -> None:
    """rapidbleu's messages (INFO and up) on stderr as ``rapidbleu: <message>``, and only
    rapidbleu's: the handler goes on rapidbleu's logger, not the root's (``basicConfig`` printed
    every library's INFO lines under rapidbleu's name: matplotlib's "generated new fontManager"),
    and :data:`QUIET_LIBRARIES` stay below ERROR unless their level was set.  Nothing changes
    where the root logger or rapidbleu's has a handler already (the caller configured logging).
    Done at the first message (``log.when_used``): a run that logs nothing imports no logging."""
    import logging

    if logging.getLogger().handlers or logger.handlers:
        return
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("rapidbleu: %(message)s"))
    logger.addHandler(handler)
    if logger.level == logging.NOTSET:
        logger.setLevel(logging.INFO)
    for name in QUIET_LIBRARIES:
        library = logging.getLogger(name)
        if library.level == logging.NOTSET:
            library.setLevel(logging.ERROR)


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
    if not args.quiet:
        log.when_used(_show_own_messages)
    try:
        with _one_line_fallback_warning(args.quiet):
            run(args)
    except EXPECTED_ERRORS as exc:
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
