"""Any metric of the protocol on strings: :func:`sentence_batch` (every segment's sentence
score in one call) and :func:`pairwise` (the ``(n, n)`` matrix of one set of candidates, each
against each), and chrF's and TER's front doors to them, with sacreBLEU's options
(:func:`sentence_chrf_batch`, :func:`pairwise_chrf`, :func:`sentence_ter_batch`,
:func:`pairwise_ter`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from .._base.nogc import without_gc
from .._core.metric import Metric, check_metric
from .._core.validate import check_keywords, check_ordered
from ..chrf import CHRF, CHRFOptions
from ..ter import TER, TEROptions
from .forms import StringReferences, Strings, first_item, reference_streams, strings, text_arrays

if TYPE_CHECKING:
    from typing_extensions import Unpack


def pairwise_matrix(n: int, scores: Callable[[], np.ndarray], diagonal: float | None) -> np.ndarray:
    """The pairwise scheme, for every metric and input form: no candidates is an error, then
    the ``(n, n)`` scores, their diagonal overwritten when ``diagonal`` is given."""
    if n == 0:
        raise ValueError("candidates is empty")
    out = scores()
    if diagonal is not None:
        np.fill_diagonal(out, diagonal)
    return out


def _sentence_batch(metric: Metric, hypotheses: Any, references: Any, reference_layout: str | None) -> np.ndarray:
    hyps = strings(hypotheses, "hypotheses", metric.display_name)
    check_ordered(references, "references")
    references = text_arrays(references)
    if reference_layout is not None:
        hyps, references = reference_streams(hyps, references, reference_layout)
    streams = (
        [references]
        if isinstance(references, (list, tuple)) and isinstance(first_item(references), str)
        else references
    )
    return metric.sentence_scores(hyps, streams)


def _pairwise(metric: Metric, candidates: Any, diagonal: float | None) -> np.ndarray:
    sents = strings(candidates, "candidates", metric.display_name)
    return pairwise_matrix(len(sents), lambda: metric.pairwise_scores(sents), diagonal)


@without_gc
def sentence_batch(
    hypotheses: Strings,
    references: StringReferences,
    *,
    metric: Metric,
    reference_layout: str | None = None,
) -> np.ndarray:
    """The sentence score of every segment in one call, for any metric: ``out[i] ==
    metric.sentence_score(hyp_i, refs_i).score`` (the metric's ``sentence_scores``, its
    kernels' batch); float64 ``(n,)`` (wider only where the metric's scores are, as a chrF with a
    numpy ``beta``).

    Args:
        hypotheses: n strings (a list, tuple or numpy array of strings).
        references: one stream (n strings) or a list of K streams (``references[k][i]``;
            ``None`` = no k-th reference for segment i); with
            ``reference_layout="per_hypothesis"``, n lists of references instead
            (``references[i][k]``, NLTK's layout).
        metric: a metric object of the protocol (``rapidbleu.BLEU(...)``, ``rapidbleu.CHRF(...)``,
            ``rapidbleu.TER(...)``, ...), with its options and ``workers``; scored as it is
            configured (for sacreBLEU's sentence BLEU: ``BLEU(effective_order=True)``).
        reference_layout: ``"streams"`` or ``None`` (default: sacreBLEU's layout, above) or
            ``"per_hypothesis"``.

    Raises:
        TypeError: a hypothesis or reference that is not a string, a dict or set instead of a
            sequence, ``metric`` not a metric object.
        ValueError: mismatched stream lengths (named), a segment without any reference, and
            what the metric refuses.
    """
    return _sentence_batch(check_metric(metric), hypotheses, references, reference_layout)


@without_gc
def pairwise(candidates: Strings, *, metric: Metric, diagonal: float | None = None) -> np.ndarray:
    """The pairwise sentence-score matrix of one set of candidates, for any metric (the
    utility, or cost, matrix of minimum-Bayes-risk decoding): float64 ``(n, n)``, ``out[i, j] ==
    metric.sentence_score(c_i, [c_j]).score``, candidate i the hypothesis and candidate j its
    single reference (not symmetric in general).  MBR picks ``argmax_i out[i].mean()`` (or
    ``argmin`` for an error rate, ``metric.higher_is_better`` False).

    Computed by ``metric.pairwise_scores`` (the protocol): the metric's pairwise kernel where it
    has one (BLEU, chrF), else blocks of rows through its batch of sentence scores (memory: the
    output and one block).

    Args:
        candidates: n strings (a list, tuple or numpy array of strings).
        metric: a metric object of the protocol, with its options and ``workers``.
        diagonal: a value for every ``out[i, i]`` (e.g. ``0.0`` or ``np.nan`` to leave the
            self-pair out of an MBR mean), or None to keep the computed ones.

    Raises:
        ValueError: no candidates, and what the metric refuses.
        TypeError: a candidate that is not a string, a dict or set, ``metric`` not a metric
            object.
    """
    return _pairwise(check_metric(metric), candidates, diagonal)


def _pairwise_door(
    make: Callable[..., Metric],
    declared: Any,
    door: str,
    options: dict[str, Any],
    workers: int,
    candidates: Any,
    diagonal: float | None,
) -> np.ndarray:
    """A metric's own pairwise door: its options by name (``declared``, the ``TypedDict``;
    unknown ones refused as Python refuses them in ``door``), then :func:`pairwise`."""
    check_keywords(options, declared, door)
    return _pairwise(make(**options, workers=workers), candidates, diagonal)


# ----------------------------------------------------------------------- chrF


@without_gc
def sentence_chrf_batch(
    hypotheses: Strings,
    references: StringReferences,
    char_order: int = 6,
    word_order: int = 0,
    beta: float = 2,
    lowercase: bool = False,
    whitespace: bool = False,
    eps_smoothing: bool = False,
    workers: int = 1,
    *,
    reference_layout: str | None = None,
) -> np.ndarray:
    """Sentence chrF of every segment in one call: float64 array of shape (n,), 0-100.

    ``out[i] == sacrebleu.sentence_chrf(hyp_i, refs_i, char_order, word_order, beta,
    remove_whitespace=not whitespace, eps_smoothing).score`` (with ``lowercase``:
    ``CHRF(..., lowercase=True).sentence_score``): the same float, not just a close one (tested
    against sacreBLEU's loop).  With several references the best one counts, as in sacreBLEU
    (Popović 2015 for chrF, 2017 for chrF++; sacreBLEU's effective-order averaging, or
    chrF++.py's epsilon smoothing with ``eps_smoothing``).

    Args:
        hypotheses, references, reference_layout: as :func:`sentence_batch` (strings).
        char_order, word_order, beta, lowercase, whitespace, eps_smoothing: ``rapidbleu.CHRF``'s
            options (``word_order=2``: chrF++).
        workers: threads of the compiled core (1 serial, -1 all cores); same results.

    Raises:
        TypeError: as :func:`sentence_batch`, and a bad option type.
        ValueError: as :func:`sentence_batch`, and an option out of range (orders 0-64 and not
            both 0, ``beta`` a number >= 0, ``workers``).
    """
    metric = CHRF(char_order, word_order, beta, lowercase, whitespace, eps_smoothing, workers=workers)
    return _sentence_batch(metric, hypotheses, references, reference_layout)


@without_gc
def pairwise_chrf(
    candidates: Strings,
    *,
    diagonal: float | None = None,
    workers: int = 1,
    **options: Unpack[CHRFOptions],
) -> np.ndarray:
    """Pairwise sentence-chrF matrix (the usual MBR utility matrix): float64 array (n, n), 0-100.

    ``out[i, j]`` = sentence chrF of candidate i (hypothesis) against candidate j (its single
    reference), ``sacrebleu.sentence_chrf(c_i, [c_j], ...).score``; not symmetric (recall and
    precision swap, and ``beta`` weighs them differently).  MBR picks ``argmax_i
    out[i].mean()`` (or a weighted sum).  A candidate against itself scores 100.0 (0.0 when
    empty), sacreBLEU's values, unless ``diagonal`` replaces them.

    Memory (compiled core): the ``(n, n)`` float64 output (8 n^2 bytes: 200 MB for 5,000
    candidates) plus, per thread, one block: a row of the matrix's statistics (``n`` rows of
    ``3 * (char_order + word_order)`` int64) and the candidates' unit ids of the order being
    counted (4 bytes per character; ``chrf.h``).  Each row of pairs is scored as soon as its
    statistics are counted, so the ``(n, n, 3 * (char_order + word_order))`` table never exists.

    Args:
        candidates, diagonal: as :func:`pairwise` (strings).
        workers: threads over row chunks (1 serial, -1 all cores); same results.
        options: ``rapidbleu.CHRF``'s options by name (``rapidbleu.chrf.CHRFOptions``:
            ``char_order``, ``word_order``, ``beta``, ``lowercase``, ``whitespace``,
            ``eps_smoothing``; each missing one has ``CHRF``'s default).

    Raises:
        ValueError: as :func:`pairwise`; an option out of range (as :func:`sentence_chrf_batch`).
        TypeError: as :func:`pairwise`; a bad option type, an unknown keyword.
    """
    return _pairwise_door(CHRF, CHRFOptions, "pairwise_chrf", dict(options), workers, candidates, diagonal)


# ----------------------------------------------------------------------- TER


@without_gc
def sentence_ter_batch(
    hypotheses: Strings,
    references: StringReferences,
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = False,
    workers: int = 1,
    *,
    reference_layout: str | None = None,
) -> np.ndarray:
    """Sentence TER of every segment in one call: float64 array of shape (n,), 0-100 (lower is
    better; above 100 when the edits outnumber the reference words).

    ``out[i] == sacrebleu.sentence_ter(hyp_i, refs_i, normalized, no_punct, asian_support,
    case_sensitive).score``: the same float (tested against sacreBLEU's loop).  The fewest
    edits (insertions, deletions, substitutions, shifts of word blocks) over the segment's
    references, divided by the mean reference length (Snover et al. 2006; tercom's algorithm
    as sacreBLEU runs it, ``rapidbleu._core.ter.ter_py``).

    Args:
        hypotheses, references, reference_layout: as :func:`sentence_batch` (strings).
        normalized, no_punct, asian_support, case_sensitive: ``rapidbleu.TER``'s options.
        workers: threads of the compiled core (1 serial, -1 all cores); same results.

    Raises:
        TypeError: as :func:`sentence_batch`, and an option that is not True/False (0/1).
        ValueError: as :func:`sentence_batch`, and a segment longer than
            ``rapidbleu._core.ter.ter_py.MAX_WORDS`` words, a bad ``workers``.
    """
    metric = TER(normalized, no_punct, asian_support, case_sensitive, workers=workers)
    return _sentence_batch(metric, hypotheses, references, reference_layout)


@without_gc
def pairwise_ter(
    candidates: Strings,
    *,
    diagonal: float | None = None,
    workers: int = 1,
    **options: Unpack[TEROptions],
) -> np.ndarray:
    """Pairwise sentence-TER matrix (an MBR cost matrix): float64 array (n, n), 0-100, lower is
    better.

    ``out[i, j]`` = sentence TER of candidate i (hypothesis) against candidate j (its single
    reference), ``sacrebleu.sentence_ter(c_i, [c_j], ...).score``; not symmetric (the
    reference's length divides).  MBR picks ``argmin_i out[i].mean()``.  A candidate against
    itself scores 0.0 unless ``diagonal`` replaces it.

    Each candidate is tokenized and its words interned once (as a hypothesis and as a
    reference, ``TER.pairwise_scores``); the n^2 edit-rate computations then run in the compiled
    kernel, ``workers`` threads, on word ids: memory is the output plus the candidates' words.

    Args:
        candidates, diagonal: as :func:`pairwise` (strings).
        workers: threads of the compiled core (1 serial, -1 all cores); same results.
        options: ``rapidbleu.TER``'s options by name (``rapidbleu.ter.TEROptions``:
            ``normalized``, ``no_punct``, ``asian_support``, ``case_sensitive``; each off
            unless given).

    Raises:
        ValueError: as :func:`pairwise`; a candidate longer than
            ``rapidbleu._core.ter.ter_py.MAX_WORDS`` words, a bad ``workers``.
        TypeError: as :func:`pairwise`; a bad option type, an unknown keyword.
    """
    return _pairwise_door(TER, TEROptions, "pairwise_ter", dict(options), workers, candidates, diagonal)
