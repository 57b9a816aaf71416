"""The command line's test-set options, as sacreBLEU 2.6.0's: ``-t`` (one set, or several joined
by commas and read one after the other), ``-l``, ``--echo``, ``--list`` (with and without ``-t``),
``--citation``, ``--download``, ``--origlang``/``--subset`` (only the segments of the matching
documents are scored) and ``-d/--detail`` (scores split by original language and subset).

The test sets themselves are ``rapidbleu.dataset``, imported only when one of these options is
given (the command line's start-up does not grow).  Every error is one line and exit status 1,
as sacreBLEU's; sacreBLEU's ``--citation`` fails with a ``TypeError`` traceback in 2.6.0, here it
prints the citation (docs/test-sets.md lists the difference).
"""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Iterator
from typing import Any

from .._base.errors import CLIError, TestSetError
from .._base.log import logger


def _dataset() -> Any:
    from .. import dataset

    return dataset


@contextlib.contextmanager
def raw_file_errors() -> Iterator[None]:
    """A test set's raw file that cannot be read (missing from an incomplete cache, not
    well-formed XML, undecodable) as one line (:class:`CLIError`) instead of a traceback.
    (``xml.etree.ElementTree.ParseError`` is a ``SyntaxError``: caught as such, so a run without
    test sets imports no XML parser.)"""
    try:
        yield
    except (SyntaxError, UnicodeDecodeError, IsADirectoryError, PermissionError) as exc:
        raise CLIError(f"a test set's raw file cannot be read: {exc}") from exc


def _names(args: argparse.Namespace) -> list[str]:
    return args.test_set.split(",") if args.test_set else []


def run_info_modes(args: argparse.Namespace) -> bool:
    """``--download``, ``--list``, ``--citation`` and ``--echo``, in sacreBLEU's order: print what
    they ask for and return True (the command then ends with status 0); False when none is given.

    Raises:
        CLIError: ``--citation`` or ``--echo`` without what they need, an unknown test set or
            pair (:func:`check_test_sets`); TestSetError, DownloadError from ``rapidbleu.dataset``.
    """
    if args.download:
        _dataset().download_test_set(args.download, args.langpair)
        return True
    if args.list:
        _print_list(args)
        return True
    if args.citation:
        if not args.test_set:
            raise CLIError("--citation: I need a test set (-t).")
        datasets = _dataset().DATASETS
        _check_names(args)
        for name in _names(args):
            citation = datasets[name].citation
            if citation:
                print(citation)
            else:
                logger.error("No citation found for %s", name)
        return True
    if args.echo:
        if args.langpair is None or args.test_set is None:
            raise CLIError("--echo requires a test set (-t) and a language pair (-l)")
        check_test_sets(args)
        for name in _names(args):
            _dataset().print_test_set(name, args.langpair, args.echo, args.origlang, args.subset)
        return True
    return False


def _print_list(args: argparse.Namespace) -> None:
    ds = _dataset()
    if args.test_set:
        if args.test_set not in ds.DATASETS:
            raise CLIError(f"-t/--test-set {args.test_set!r}: unknown test set (--list without -t lists them)")
        dataset = ds.DATASETS[args.test_set]
        for pair in [args.langpair] if args.langpair else ds.get_langpairs_for_testset(args.test_set):
            print(f"{pair}: {', '.join(dataset.fieldnames(pair))}")
        return
    if args.langpair:
        print(f"The available test sets for {args.langpair} are:")
        names = ds.get_available_testsets_for_langpair(args.langpair)
    else:
        print("The available test sets are:")
        names = ds.get_available_testsets()
    for name in sorted(names):
        print(f"{name:<30}: {ds.DATASETS[name].description.strip()}")


def check_test_sets(args: argparse.Namespace) -> None:
    """``-t`` and what goes with it, before anything is read (sacreBLEU's rules, one line each).

    Raises:
        CLIError: an unknown test set; ``-t`` with reference files; ``-t`` without ``-l``, or a
            pair a set lacks; ``-nr`` above 1 with ``-t``; ``--origlang``/``--subset``/``-d``
            without ``-t``; no ``-t`` and no reference files.
    """
    if args.test_set is None:
        if not args.refs:
            raise CLIError(
                "no reference files: give them as positional arguments before -i/--input, "
                "or a test set with -t and -l (--list shows them)"
            )
        if args.origlang is not None or args.subset is not None:
            raise CLIError("--origlang and --subset need a test set (-t) and a language pair (-l)")
        return
    ds = _dataset()
    _check_names(args)
    if args.refs:
        raise CLIError("I need exactly one of (a) a predefined test set (-t) or (b) a list of references")
    if args.langpair is None:
        raise CLIError("I need a language pair (-l). Use --list to see available language pairs for this test set.")
    for name in _names(args):
        pairs = ds.get_langpairs_for_testset(name)
        if args.langpair not in pairs:
            raise CLIError(
                f"-l/--language-pair: no such language pair {args.langpair!r} for test set {name!r}; "
                f"available: {', '.join(pairs)}"
            )
    if args.num_refs != 1:
        raise CLIError(
            "--num-refs reads tab-separated references from a single file you give: it cannot be used with -t"
        )


def _check_names(args: argparse.Namespace) -> None:
    """Each test set of ``-t`` exists (CLIError otherwise)."""
    datasets = _dataset().DATASETS
    for name in _names(args):
        if name not in datasets:
            raise CLIError(f"-t/--test-set: unknown test set {name!r}; run with --list to see the available test sets")


def reference_files(args: argparse.Namespace) -> list[list[str]]:
    """For each reference stream, its file in each test set of ``-t``, in order (the sets'
    references are read one set after the other, as sacreBLEU concatenates them).

    Raises:
        TestSetError, DownloadError: from ``rapidbleu.dataset``; CLIError: sets with different
            numbers of references, or a set without any.
    """
    per_set = []
    for name in _names(args):
        files = _dataset().get_reference_files(name, args.langpair)
        if not files:
            raise CLIError(f"-t/--test-set: no references found for test set {name}/{args.langpair}")
        per_set.append(files)
    if len({len(files) for files in per_set}) > 1:
        counts = ", ".join(f"{n}: {len(f)}" for n, f in zip(_names(args), per_set, strict=True))
        raise CLIError(f"-t/--test-set: the test sets have different numbers of references ({counts})")
    if args.test_set and args.metrics and "bleu" in args.metrics and getattr(args, "bleu_tokenize", None) == "none":
        logger.warning("You are turning off BLEU's internal tokenizer presumably to supply your own tokenized files.")
        logger.warning("Published numbers will not be comparable to other papers.")
    return [list(files) for files in zip(*per_set, strict=True)]


def kept_segments(args: argparse.Namespace) -> list[bool] | None:
    """One flag per segment of the test sets of ``-t`` (all sets, in order): whether its
    document matches ``--origlang`` and ``--subset``; None when neither is given (every segment
    is kept).

    Raises:
        CLIError: the set's format carries no such annotation (plain text, TSV, IWSLT).
    """
    origlang, subset = args.origlang, args.subset
    if origlang is None and subset is None:
        return None
    total = 0
    for name in _names(args):
        with open(_dataset().get_source_file(name, args.langpair), encoding="utf-8", newline="\n") as f:
            total += sum(1 for _ in f)
    try:
        (kept,) = _dataset().filter_subset([list(range(total))], args.test_set, args.langpair, origlang, subset)
    except (TestSetError, ValueError) as exc:
        raise CLIError(str(exc)) from exc
    flags = [False] * total
    for i in kept:
        flags[i] = True
    return flags


def no_sentence_error(args: argparse.Namespace) -> CLIError:
    """sacreBLEU's error for a filter that keeps no segment."""
    message = f"Test set {args.test_set!r} contains no sentence"
    if args.origlang is not None or args.subset is not None:
        message += " with"
        if args.origlang:
            message += f" origlang={args.origlang}"
        if args.subset:
            message += f" subset={args.subset}"
    return CLIError(message)
