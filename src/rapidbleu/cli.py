"""``rapidbleu`` / ``python -m rapidbleu``: sacreBLEU's command line for BLEU.

Same options, same reading of files and same output text as ``sacrebleu`` 2.x (only the
``version:`` value of the signature differs).  Unlike sacreBLEU, unreadable files, line-count
mismatches and undecodable bytes end with a one-line message naming the file (and line) and a
non-zero exit code instead of a traceback or a silently truncated score.
"""

import argparse
import io
import logging
import os
import sys
from typing import List, Optional

from ._stats import SMOOTH_DEFAULTS
from ._version import __version__
from .bleu import BLEU
from .report import Color, print_results_table, print_single_results
from .textio import InputError, read_lines, split_lines
from .tokenizers import available_tokenizers

logger = logging.getLogger("rapidbleu")

OUTPUT_FORMATS = ("json", "text", "latex")


class CLIError(Exception):
    """An error to report on stderr with an exit code (1 unless given)."""

    def __init__(self, message: str, code: int = 1):
        super().__init__(message)
        self.code = code


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="rapidbleu",
        description="rapidbleu: sacreBLEU-compatible BLEU, fast.\n"
                    "Quick usage: rapidbleu ref.txt -i output.txt",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--language-pair", "-l", dest="langpair", default=None,
                   help="Source-target language pair (e.g. en-zh); the target chooses the default tokenizer.")
    p.add_argument("--input", "-i", type=str, nargs="*", default=None,
                   help="Read input from file(s) instead of STDIN.")
    p.add_argument("refs", nargs="*", default=[],
                   help="Reference file(s); give them before -i/--input.")
    p.add_argument("--num-refs", "-nr", type=int, default=1,
                   help="Split the reference stream on tabs, and expect this many references. (Default: %(default)s)")
    p.add_argument("--encoding", "-e", type=str, default="utf-8",
                   help="Open text files with specified encoding (Default: %(default)s)")
    p.add_argument("--metrics", "-m", choices=["bleu"], nargs="+", default=["bleu"],
                   help="Metrics to compute (rapidbleu computes BLEU only).")
    p.add_argument("--sentence-level", "-sl", action="store_true", help="Compute metric for each sentence.")
    g = p.add_argument_group("BLEU related arguments")
    g.add_argument("--smooth-method", "-s", choices=list(SMOOTH_DEFAULTS), default="exp", dest="bleu_smooth_method",
                   help="Smoothing method: exponential decay, floor (increment zero counts), add-k (increment "
                        "num/denom by k for n>1), or none. (Default: %(default)s)")
    g.add_argument("--smooth-value", "-sv", type=float, default=None, dest="bleu_smooth_value",
                   help="The smoothing value. Only valid for floor and add-k. "
                        f"(Defaults: floor: {SMOOTH_DEFAULTS['floor']}, add-k: {SMOOTH_DEFAULTS['add-k']})")
    g.add_argument("--tokenize", "-tok", choices=available_tokenizers(), default=None, dest="bleu_tokenize",
                   help="Tokenization method to use for BLEU. If not provided, defaults to `zh` for Chinese, "
                        "`ja-mecab` for Japanese, `ko-mecab` for Korean and `13a` (mteval) otherwise.")
    g.add_argument("--lowercase", "-lc", dest="bleu_lowercase", action="store_true", default=False,
                   help="If True, enables case-insensitivity. (Default: %(default)s)")
    g.add_argument("--force", default=False, action="store_true", dest="bleu_force",
                   help="Insist that your tokenized input is actually detokenized.")
    g.add_argument("--workers", type=int, default=1,
                   help="Threads for the compiled core (-1 = all cores). (Default: %(default)s)")
    r = p.add_argument_group("Reporting related arguments")
    r.add_argument("--quiet", "-q", default=False, action="store_true", help="Suppress verbose messages.")
    r.add_argument("--short", "-sh", default=False, action="store_true",
                   help="Produce a shorter (less human readable) signature.")
    r.add_argument("--score-only", "-b", default=False, action="store_true", help="Print only the computed score.")
    r.add_argument("--width", "-w", type=int, default=1, help="Floating point width (Default: %(default)s).")
    r.add_argument("--no-color", "-nc", action="store_true", help="Disable the occasional use of terminal colors.")
    r.add_argument("--format", "-f", default="json", choices=OUTPUT_FORMATS,
                   help="Set the output format. `latex` is only valid for multi-system mode whereas `json` and "
                        "`text` apply to single-system mode only. This flag is overridden if the SACREBLEU_FORMAT "
                        "environment variable is set to one of the valid choices (Default: %(default)s).")
    p.add_argument("--version", "-V", action="version", version=f"%(prog)s {__version__}")
    return p


def parse_args(argv: Optional[List[str]] = None) -> argparse.Namespace:
    args = build_parser().parse_args(argv)
    env_format = os.environ.get("SACREBLEU_FORMAT", "").lower()
    if env_format in OUTPUT_FORMATS:
        args.format = env_format
    return args


def _read_refs(args) -> List[List[str]]:
    if not args.refs:
        raise CLIError("no reference files: give them as positional arguments before -i/--input "
                       "(rapidbleu does not download test sets)")
    if args.num_refs < 1:
        raise CLIError(f"--num-refs must be >= 1, got {args.num_refs}")
    if args.num_refs != 1 and len(args.refs) > 1:
        raise CLIError("--num-refs reads tab-separated references from a single file; give only one reference file")
    streams: List[List[str]] = [[] for _ in range(max(len(args.refs), args.num_refs))]
    for k, path in enumerate(args.refs):
        lines = read_lines(path, args.encoding)
        if args.num_refs == 1:
            streams[k] = lines
            continue
        for lineno, line in enumerate(lines, 1):
            fields = line.split("\t", args.num_refs - 1)
            if len(fields) != args.num_refs:
                raise CLIError(f"{path}: line {lineno}: expected {args.num_refs} tab-separated references, "
                               f"found {len(fields)}", code=17)
            for j, ref in enumerate(fields):
                streams[j].append(ref)
    return streams


def _read_systems(args):
    systems, names = [], []
    if args.input is None:
        stream = io.TextIOWrapper(sys.stdin.buffer, encoding=args.encoding)
        try:
            first = stream.readline()
            rest = stream.read()
        except UnicodeDecodeError as exc:
            raise InputError(f"<stdin>: cannot decode input as {args.encoding} ({exc.reason})") from None
        # sacreBLEU: the first line fixes the number of tab-separated systems.
        fields = first.rstrip().split("\t")
        systems = [[f] for f in fields]
        names = [f"System {i + 1}" for i in range(len(fields))]
        # Universal newlines, as Python's text-mode stdin: "\r\n" and "\r" end lines too.
        for lineno, line in enumerate(split_lines(rest.replace("\r\n", "\n").replace("\r", "\n")), 2):
            parts = line.rstrip().split("\t")
            if len(parts) != len(systems):
                raise CLIError(f"<stdin>: line {lineno}: {len(parts)} tab-separated fields, but the first line "
                               f"had {len(systems)} (one per system)", code=17)
            for s, sent in zip(systems, parts):
                s.append(sent.rstrip())
        if first == "" and not rest:
            raise CLIError("<stdin>: no input (give the system output on standard input or with -i)")
        return systems, names
    if not args.input:
        raise CLIError("-i/--input needs at least one file")
    for path in args.input:
        if path in names:
            raise CLIError(f"{path!r} already used to name a system; give each system file once")
        systems.append(read_lines(path, args.encoding))
        names.append(path)
    return systems, names


def _check_lengths(systems, names, refs, ref_names) -> None:
    for system, name in zip(systems, names):
        if not system:
            raise CLIError(f"{name}: is empty: no segment to score")
        for stream, ref_name in zip(refs, ref_names):
            if len(stream) != len(system):
                raise CLIError(f"{name} has {len(system)} lines but {ref_name} has {len(stream)}: "
                               "system and reference streams must have the same number of lines")


def run(args) -> None:
    Color.setup(args.no_color)
    refs = _read_refs(args)
    ref_names = (args.refs if args.num_refs == 1
                 else [f"{args.refs[0]} (reference field {j + 1})" for j in range(len(refs))])
    systems, names = _read_systems(args)
    if args.sentence_level and len(systems) > 1:
        raise CLIError("Only one system can be evaluated in sentence-level mode.")
    _check_lengths(systems, names, refs, ref_names)

    trg_lang = args.langpair.split("-")[1] if args.langpair and "-" in args.langpair else ""
    metric = BLEU(lowercase=args.bleu_lowercase, force=args.bleu_force, tokenize=args.bleu_tokenize,
                  smooth_method=args.bleu_smooth_method, smooth_value=args.bleu_smooth_value,
                  effective_order=args.sentence_level, trg_lang=trg_lang, references=refs,
                  workers=args.workers)

    if args.sentence_level:
        sig = metric.get_signature().format(args.short)
        stats = metric.corpus_statistics(systems[0], None)
        for row in stats:
            print(metric.score_from_stats(row).format(args.width, args.score_only, sig))
        return

    if len(systems) == 1:
        score = metric.corpus_score(systems[0], None)
        sig = metric.get_signature().format(args.short if args.format != "json" else False)
        print_single_results([score.format(args.width, args.score_only, sig, args.format == "json")], args.format)
        return

    logger.info("Found %d systems.", len(systems))
    cells = []
    for system in systems:
        cells.append(metric.corpus_score(system, None).format(args.width, True))
    sigs = {"BLEU": metric.get_signature().format(args.short)}
    print_results_table({"System": names, "BLEU": cells}, sigs, args.format, args.width)


def main(argv: Optional[List[str]] = None) -> int:
    """Entry point of the ``rapidbleu`` command; returns (and exits with) the exit code."""
    args = parse_args(argv)
    # Output is UTF-8 whatever the locale, as in sacreBLEU.
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(encoding="utf-8")
    if not args.quiet and not logging.getLogger().handlers:
        logging.basicConfig(level=logging.INFO, format="rapidbleu: %(message)s")
    try:
        run(args)
    except (CLIError, InputError, ValueError, TypeError, ImportError) as exc:
        print(f"rapidbleu: error: {exc}", file=sys.stderr)
        code = getattr(exc, "code", 1)
        if argv is None:
            sys.exit(code)
        return code
    except BrokenPipeError:
        # `rapidbleu ... | head`: stop quietly like a Unix filter.
        try:
            sys.stdout = None  # type: ignore[assignment]
        finally:
            pass
        return 0
    return 0


if __name__ == "__main__":
    main()
