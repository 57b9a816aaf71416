"""NLTK's input layout below ``rapidbleu.nltk``: one list of references per hypothesis, the
checks of that layout, and the token statistics the core computes from it.

Every NLTK-style entry point (``rapidbleu.nltk``, ``rapidbleu.stats.nltk_corpus_stats``,
``rapidbleu.batch``) reads its segments through these functions (:func:`checked_corpus`), so an input mistake has one
message and one type (``LengthMismatchError`` and the others are in ``rapidbleu._base.errors``).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence, Sized
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np
else:
    from ..._base.lazy import numpy as np  # imported on first use: the registry lists NLTKBLEU for the command line

from ..._base.errors import LengthMismatchError
from .. import backend as _backend
from ..validate import check_nltk_hypotheses, check_nltk_references, check_ordered

#: One hypothesis or reference: a sequence of hashable tokens (``str``, ``int``, ...).
Tokens = Sequence[Hashable]


def check_segments(list_of_references: Any, hypotheses: Any) -> None:
    """No ``None`` hypothesis (``TypeError``), then no empty list of references
    (``NoReferencesError``), each named by its first index (``rapidbleu._core.validate``)."""
    check_nltk_hypotheses(hypotheses)
    check_nltk_references(list_of_references)


def check_corpus_args(list_of_references: Any, hypotheses: Any) -> None:
    """Input checks of ``corpus_bleu`` and ``sentence_bleu_batch`` before any counting
    (``rapidbleu._core.validate``): dicts and sets refused; when the lengths differ, also
    :func:`check_segments` (its errors come first).  Otherwise the per-segment checks wait for
    :func:`segments_checked_on_error`: the core reads every segment anyway, and scanning 200,000
    segments twice in Python cost 5% of a ``sentence_bleu_batch`` call."""
    check_ordered(list_of_references, "list_of_references")
    check_ordered(hypotheses, "hypotheses")
    if len(list_of_references) != len(hypotheses):
        check_segments(list_of_references, hypotheses)


@contextmanager
def segments_checked_on_error(list_of_references: Any, hypotheses: Any) -> Iterator[None]:
    """Raise what :func:`check_segments` raises if the body raises ``TypeError`` or
    ``ValueError`` and the segments fail those checks; else the body's own error.

    The errors are then those of checking every segment before anything else: the core refuses a
    ``None`` hypothesis or an empty list of references too, but in segment order, and the
    weights are read before it counts.
    """
    try:
        yield
    except (TypeError, ValueError) as exc:
        error = exc
    else:
        return
    try:
        check_segments(list_of_references, hypotheses)
    except (TypeError, ValueError) as check_error:
        check_error.__context__ = None  # raised as if first: not "during handling of" the body's
        raise
    raise error


def check_lengths(list_of_references: Sized, hypotheses: Sized) -> None:
    n_refs, n_hyps = len(list_of_references), len(hypotheses)
    if n_refs != n_hyps:
        raise LengthMismatchError(
            f"{n_hyps} hypotheses but {n_refs} lists of references; give one list of references per hypothesis"
        )


@contextmanager
def checked_corpus(list_of_references: Any, hypotheses: Any) -> Iterator[None]:
    """The checks of an NLTK-style corpus, one rule for every entry point that counts one:
    :func:`check_corpus_args` and :func:`check_lengths` before the body, and the body under
    :func:`segments_checked_on_error`.

    Raises:
        LengthMismatchError: the lengths differ (after the per-segment checks).
        TypeError, NoReferencesError: as :func:`check_corpus_args` and :func:`check_segments`.
    """
    check_corpus_args(list_of_references, hypotheses)
    check_lengths(list_of_references, hypotheses)
    with segments_checked_on_error(list_of_references, hypotheses):
        yield


def token_statistics(
    list_of_references: Sequence[Sequence[Tokens]], hypotheses: Sequence[Tokens], max_order: int, workers: int = 1
) -> np.ndarray:
    """int64 (n, 2 + 2N) statistics from the core (layout in ``rapidbleu._core.bleu.bleu_row``).

    The tokens go to the core as they are: it reads lists of ``str`` or ``int`` tokens directly
    and maps any other segment's tokens through a dict (Python's equality, as NLTK's Counters).
    """
    if len(hypotheses) == 0:
        return np.zeros((0, 2 + 2 * max_order), dtype=np.int64)
    return _backend.bleu_stats.token_stats(hypotheses, list_of_references, max_order, workers=workers)
