"""The helpers of ``sacrebleu.utils`` that BLEU code imports, with sacreBLEU's behaviour.

``smart_open``, ``my_log``, ``sum_of_lists``, ``args_to_dict``, ``sanity_check_lengths`` and the
``SACREBLEU_DIR``/``USERHOME`` paths.  Test-set functions (downloads, ``get_source_file``, ...)
and the table printer, which takes sacreBLEU's own argument namespace, are not provided.
"""

from __future__ import annotations

import gzip
import os
import sys
from argparse import Namespace
from collections.abc import Sequence
from typing import IO, TYPE_CHECKING, Any, NoReturn

from ._core.bleu_scores_py import my_log
from ._base.log import logger
from ._base.not_provided import not_provided

if TYPE_CHECKING:
    import numpy as np

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
    opener = gzip.open if file.endswith(".gz") else open
    return opener(file, mode=mode, encoding=encoding, newline="\n")


def sum_of_lists(lists: Sequence[Sequence[Any]] | np.ndarray) -> Sequence[Any] | np.ndarray:
    """Element-wise sum of equally long numeric rows, as sacreBLEU aggregates statistics.

    A single row is returned as it is (the same object).  Otherwise the result is a new
    ``list`` whose values start from zero in the type of ``lists[0][0]`` (so numpy ``float32``
    rows add up in float32, in order).

    Raises:
        IndexError: rows shorter than the first.
    """
    if len(lists) == 1:
        return lists[0]
    zero = type(lists[0][0])(0.0)
    total = [zero] * len(lists[0])
    for row in lists:
        for i in range(len(total)):
            total[i] += row[i]
    return total


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


def __getattr__(name: str) -> NoReturn:
    """sacreBLEU's test-set functions (``get_reference_files``, ``download_test_set``, ...)
    raise ``rapidbleu.NotProvidedError`` saying that rapidbleu does not provide them."""
    error = not_provided("sacrebleu.utils", name)
    if error is not None:
        raise error
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["SACREBLEU_DIR", "USERHOME", "args_to_dict", "my_log", "sanity_check_lengths", "smart_open", "sum_of_lists"]
