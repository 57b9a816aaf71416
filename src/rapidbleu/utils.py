"""The helpers of ``sacrebleu.utils``, with sacreBLEU's behaviour.

``smart_open``, ``my_log``, ``sum_of_lists``, ``args_to_dict``, ``sanity_check_lengths``, the
``SACREBLEU_DIR``/``USERHOME`` paths, the download helpers (``download_file``,
``extract_tarball``, ``get_md5sum``: ``rapidbleu._base.fetch``, which never leaves a partial file
nor calls ``sys.exit``), and the test-set functions of ``rapidbleu.dataset`` under the names
sacreBLEU's ``utils`` has them (``get_source_file``, ``get_reference_files``, ``DATASETS``, ...,
loaded on first use), with ``print_subset_results`` (the command line's ``-d``).  The table
printer, which takes sacreBLEU's own argument namespace, is not provided.
"""

from __future__ import annotations

import os
import sys
from argparse import Namespace
from collections.abc import Sequence
from typing import IO, TYPE_CHECKING, Any

from ._base.log import logger
from ._core.bleu.bleu_scores_py import my_log
from ._core.sacre_methods import sum_of_lists

if TYPE_CHECKING:
    import gzip

#: The user's home directory and sacreBLEU's cache directory (``$SACREBLEU`` or
#: ``~/.sacrebleu``), where the SentencePiece tokenizers look for their models.
USERHOME = os.path.expanduser("~")
SACREBLEU_DIR = os.environ.get("SACREBLEU", os.path.join(USERHOME, ".sacrebleu"))


def smart_open(file: str, mode: str = "rt", encoding: str = "utf-8") -> IO[Any] | gzip.GzipFile:
    """Open a plain or gzip-compressed (``.gz``) text file with ``newline="\\n"`` (lines end
    only at ``\\n``, as sacreBLEU reads them).

    Raises:
        OSError: the file cannot be opened.
    """
    import gzip  # (here: the command line starts without it)

    opener = gzip.open if file.endswith(".gz") else open
    return opener(file, mode=mode, encoding=encoding, newline="\n")


def args_to_dict(args: Namespace, prefix: str, strip_prefix: bool = False) -> dict[str, Any]:
    """The attributes of an ``argparse.Namespace`` whose names start with ``prefix + "_"``,
    as a dict (keys without the prefix when ``strip_prefix``)."""
    prefix += "_"
    out = {}
    for key, value in vars(args).items():
        if key.startswith(prefix):
            out[key.replace(prefix, "") if strip_prefix else key] = value
    return out


def sanity_check_lengths(
    system: Sequence[str],
    refs: Sequence[Sequence[str]],
    test_set: str | None = None,  # noqa: ARG001 -- sacreBLEU's signature
) -> None:
    """Exit with status 1 (``SystemExit``) after logging an error if any reference stream's
    length differs from the system's; ``test_set`` is accepted for sacreBLEU's signature."""
    n = len(system)
    bad = [k for k, stream in enumerate(refs) if len(stream) != n]
    if bad:
        logger.error(
            "System and reference streams have different lengths: the system has %d lines, reference stream %d has %d.",
            n,
            bad[0],
            len(refs[bad[0]]),
        )
        sys.exit(1)


def download_file(
    source_path: str, dest_path: str, extract_to: str | None = None, expected_md5: str | None = None
) -> None:
    """sacreBLEU's downloader, by ``rapidbleu._base.fetch.download``: ``source_path`` saved as
    ``dest_path`` (nothing done when it is there and not empty), its MD5 sum checked, an archive
    extracted into ``extract_to``.

    Raises:
        DownloadError: where sacreBLEU calls ``sys.exit(1)`` (a wrong MD5 sum, a network error);
            nothing partial is left at ``dest_path``.
    """
    from ._base import fetch  # (imported on first use: `import rapidbleu` stays light)

    fetch.download(source_path, dest_path, md5=expected_md5, extract_to=extract_to)


def extract_tarball(filepath: str, destdir: str) -> None:
    """Extract a ``.tar.gz``/``.tgz``/``.zip`` file into ``destdir`` (other files are left
    alone, as sacreBLEU); members outside ``destdir`` are refused (``DownloadError``)."""
    from ._base import fetch  # (imported on first use: `import rapidbleu` stays light)

    fetch.extract(filepath, destdir)


def get_md5sum(dest_path: str) -> str:
    """The hexadecimal MD5 sum of the file at ``dest_path``."""
    from ._base import fetch  # (imported on first use: `import rapidbleu` stays light)

    return fetch.md5sum(dest_path)


def print_subset_results(
    metrics: dict[str, Any], full_system: Sequence[str], full_refs: Sequence[Sequence[str]], args: Namespace
) -> None:
    """sacreBLEU's ``-d/--detail`` table: the corpus score of every metric of ``metrics`` for each
    original language (``args.origlang``, else every one of the test sets ``args.test_set``, pair
    ``args.langpair``) over all its documents (``domain=ALL``) and each subset (``args.subset``,
    else each domain or country the sets annotate), one line each, as sacreBLEU prints it
    (``args.width`` decimals).  ``full_system`` and ``full_refs``: every segment of the sets."""
    from . import dataset
    from .report import Color

    w = args.width
    if args.origlang:
        origlangs = [args.origlang]
    elif args.test_set is None:
        origlangs = []
    else:
        origlangs = dataset.get_available_origlangs(args.test_set, args.langpair)
    if len(origlangs) == 0:
        print("No subset information found. Consider using --origlang argument.")
        return
    results: dict[str, list[tuple[int, Any]]] = {}
    for origlang in origlangs:
        subsets: list[str | None] = [None]
        if args.subset is not None:
            subsets.append(args.subset)
        else:
            subsets += dataset.get_available_subsets(args.test_set, args.langpair)
        for subset in subsets:
            system, *refs = dataset.filter_subset(
                [list(full_system), *map(list, full_refs)], args.test_set, args.langpair, origlang, subset
            )
            if len(system) == 0:
                continue
            key = f"origlang={origlang}"
            if subset is None:
                key += " domain=ALL"
            elif subset.startswith("country:"):
                key += f" country={subset[8:]}"
            else:
                key += f" domain={subset}"
            results[key] = [(len(system), metric.corpus_score(system, refs)) for metric in metrics.values()]
    left = max(len(k) for k in results) + 1
    name_width = max(len(score.name) for _, score in next(iter(results.values())))
    for key, scores in results.items():
        label = Color.format(f"{key:<{left}}", "yellow")
        for n, score in scores:
            print(f"{label}: sentences={n:<6} {score.name:<{name_width}} = {score.score:.{w}f}")


def __getattr__(name: str) -> Any:
    """sacreBLEU's test-set names in ``utils``: ``DATASETS``, ``SUBSETS`` and the functions
    ``rapidbleu.dataset.functions`` lists (``get_reference_files``, ``download_test_set``, ...),
    from ``rapidbleu.dataset``, imported at the first look-up of a public name this module lacks
    (``import rapidbleu`` stays light)."""
    if not name.startswith("_"):
        from . import dataset

        if name in ("DATASETS", "SUBSETS") or name in dataset.functions.__all__:
            return getattr(dataset, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "SACREBLEU_DIR",
    "USERHOME",
    "args_to_dict",
    "download_file",
    "extract_tarball",
    "get_md5sum",
    "my_log",
    "print_subset_results",
    "sanity_check_lengths",
    "smart_open",
    "sum_of_lists",
]
