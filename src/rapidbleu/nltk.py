"""Drop-in replacement for ``nltk.translate.bleu_score``, computed by rapidbleu's n-gram core.

Replace ``from nltk.translate.bleu_score import corpus_bleu, sentence_bleu, SmoothingFunction``
by ``from rapidbleu.nltk import ...``: the functions take the same arguments and return the
same values as NLTK 3.9/3.10 (every smoothing method, weights with any number of orders, lists
of weight tuples, ``auto_reweigh``), NLTK's quirks included.  Scores are NLTK's: a fraction
in [0, 1] (not sacreBLEU's 0-100).

Conventions (NLTK's):

* a hypothesis is a sequence of tokens; the references of one hypothesis are a list of such
  sequences; tokens are any hashable objects (``str``, ``int``, ...) compared with ``==``;
* ``weights`` is one tuple of per-order weights ``(w_1, ..., w_N)`` or a list of such tuples
  (then one score per tuple, all computed from one pass of statistics); the highest order
  computed is the longest tuple's length;
* the clipped n-gram counts come from the compiled core (``rapidbleu._core.backend.bleu_stats``), after
  the tokens are mapped to integer ids (one dictionary per call).

The module also has the names NLTK's module gets from its imports: ``ngrams`` (as
``nltk.util.ngrams``), ``Counter``, ``Fraction`` (see :class:`Fraction`), ``math``, ``sys``,
``warnings``.

Not in NLTK: ``sentence_bleu_batch`` (a loop of ``sentence_bleu`` in one call) and
``sentence_bleu_from_stats``, the same scores from a statistics matrix (rows ``[hyp_len,
ref_len, matches_1..N, totals_1..N]``, as ``rapidbleu.ids.stats_ids`` and sacreBLEU compute
them; N >= 5 for smoothing methods 5 and 7).  ``rapidbleu.batch`` (self-BLEU, pairwise
matrices) scores NLTK-style through it.

Formulas: BLEU and the brevity penalty from Papineni, Roukos, Ward and Zhu (2002), "BLEU: a
method for automatic evaluation of machine translation", ACL; smoothing methods 1-7 from Chen
and Cherry (2014), "A Systematic Comparison of Smoothing Techniques for Sentence-Level BLEU",
WMT; both as implemented (and adapted) by NLTK's ``nltk.translate.bleu_score``.

Where NLTK departs from the BLEU definition (kept here on purpose, for identical numbers):

* the precision denominator of a hypothesis shorter than n is ``max(1, 0) = 1`` n-gram, not 0,
  so short hypotheses lower the corpus precisions of high orders;
* with no smoothing a zero-match order gives the precision ``sys.float_info.min`` instead of
  making the score exactly 0, so the score is a tiny positive number (e.g. ``1.5e-154``);
* corpus-level smoothing reads the *last* sentence (methods 5-7 use its 5-gram precision,
  method 6 its n-gram counts) and the corpus hypothesis length (methods 4 and 7);
* a corpus whose hypotheses match no unigram scores ``0`` (an ``int``).

For BLEU as defined by Papineni et al. and computed by mteval-v13a/sacreBLEU use
``rapidbleu.BLEU`` (scores 0-100).

Errors: differing numbers of hypotheses and reference lists raise :class:`LengthMismatchError`
(a ``ValueError``, and an ``AssertionError`` as NLTK's assert); an empty corpus raises
:class:`EmptyCorpusError` (a ``ValueError`` and a ``ZeroDivisionError`` as NLTK's
``Fraction(0, 0)``); a hypothesis without any reference raises :class:`NoReferencesError`
(a ``ValueError``, and a ``KeyError`` as NLTK's); a ``None`` hypothesis, a dict or a set raises
``TypeError`` naming it.  Without smoothing, an order with no match warns with NLTK's text and
category (``UserWarning``).
"""

# math, sys, warnings, Counter and _Fraction: names NLTK's bleu_score module has (from its
# imports), which code written against it may reach for.
import math  # noqa: F401
import sys  # noqa: F401
import warnings  # noqa: F401
from collections import Counter, deque  # noqa: F401
from collections.abc import Iterable, Iterator, Sequence, Sized
from fractions import Fraction as _Fraction  # noqa: F401
from itertools import chain, islice, repeat
from typing import Any, overload

import numpy as np

from ._base.errors import EmptyCorpusError, LengthMismatchError, NoReferencesError, SmoothingError
from ._core import backend as _backend
from ._core.bleu.bleu_scores_py import DEFAULT_WEIGHTS, Fraction, brevity_penalty
from ._core.nltk.nltk_batch import sentence_bleu_rows
from ._core.nltk.nltk_inputs import Tokens, check_segments, checked_corpus, token_statistics
from ._core.nltk.nltk_scores import check_nltk_stats, sentence_scores_from_stats
from ._core.nltk.nltk_smoothing import SmoothingCallable, SmoothingFunction, modified_precision
from ._core.nltk.nltk_style import (
    check_fifth_order,
    check_weights_cover,
    parse_weights,
    stats_smoothing,
)
from ._core.validate import resolve_workers
from .nltk_bleu import NLTKBLEU, nltk_options_key, shared_nltk_metric

__all__ = [
    "EmptyCorpusError",
    "Fraction",
    "LengthMismatchError",
    "NoReferencesError",
    "SmoothingError",
    "SmoothingFunction",
    "brevity_penalty",
    "closest_ref_length",
    "corpus_bleu",
    "modified_precision",
    "ngrams",
    "sentence_bleu",
    "sentence_bleu_batch",
    "sentence_bleu_from_stats",
]


def ngrams(
    sequence: Iterable[Any],
    n: int,
    pad_left: bool = False,
    pad_right: bool = False,
    left_pad_symbol: Any = None,
    right_pad_symbol: Any = None,
) -> Iterator[tuple[Any, ...]]:
    """The n-grams of ``sequence`` as tuples, lazily: ``nltk.util.ngrams`` (which NLTK's
    ``bleu_score`` module imports), same results for the same arguments.

    >>> list(ngrams([1, 2, 3, 4], 3))
    [(1, 2, 3), (2, 3, 4)]

    Args:
        sequence: any iterable (read once).
        n: the order; 0 gives ``len(sequence) + 1`` empty tuples, as NLTK's.
        pad_left, pad_right: add ``n - 1`` pad symbols before / after the sequence.
        left_pad_symbol, right_pad_symbol: the pad symbols (default None).

    Returns:
        A generator of ``n``-tuples (nothing when the padded sequence is shorter than ``n``).
    """
    items: Iterator[Any] = iter(sequence)
    if pad_left:
        items = chain(repeat(left_pad_symbol, n - 1), items)
    if pad_right:
        items = chain(items, repeat(right_pad_symbol, n - 1))
    # A sliding window (the itertools documentation's recipe): fill n items, then slide by one.
    window = deque(islice(items, n), maxlen=n)
    if len(window) == n:
        yield tuple(window)
    for item in items:
        window.append(item)
        yield tuple(window)


# --------------------------------------------------------------------------- token ids, stats


# --------------------------------------------------------------------------- public helpers


def closest_ref_length(references: Iterable[Sized], hyp_len: int) -> int:
    """Length of the reference closest in length to ``hyp_len``; ties go to the shorter one.

    This is *r* of the brevity penalty (Papineni et al. 2002).

    Args:
        references: iterable of reference token sequences (at least one).
        hyp_len: hypothesis length in tokens.

    Returns:
        int, a reference length.

    Raises:
        ValueError: no references.
    """
    best: int | None = None
    for ref in references:
        ref_len = len(ref)
        if best is None or (abs(ref_len - hyp_len), ref_len) < (abs(best - hyp_len), best):
            best = ref_len
    if best is None:
        raise ValueError("closest_ref_length: no references")
    return best


# --------------------------------------------------------------------------- scoring


@overload
def corpus_bleu(
    list_of_references: Sequence[Sequence[Tokens]],
    hypotheses: Sequence[Tokens],
    weights: Sequence[float] = ...,
    smoothing_function: SmoothingCallable | None = ...,
    auto_reweigh: bool = ...,
    *,
    workers: int = ...,
) -> float: ...
@overload
def corpus_bleu(
    list_of_references: Sequence[Sequence[Tokens]],
    hypotheses: Sequence[Tokens],
    weights: Sequence[Sequence[float]],
    smoothing_function: SmoothingCallable | None = ...,
    auto_reweigh: bool = ...,
    *,
    workers: int = ...,
) -> list[float]: ...
def corpus_bleu(
    list_of_references: Sequence[Sequence[Tokens]],
    hypotheses: Sequence[Tokens],
    weights: Sequence[float] | Sequence[Sequence[float]] = DEFAULT_WEIGHTS,
    smoothing_function: SmoothingCallable | None = None,
    auto_reweigh: bool = False,
    *,
    workers: int = 1,
) -> float | list[float]:
    """Corpus-level BLEU, equal to NLTK's ``nltk.translate.bleu_score.corpus_bleu``.

    Clipped n-gram matches and n-gram counts are summed over the corpus before dividing
    (micro-average, Papineni et al. 2002); the brevity penalty uses the summed hypothesis
    lengths and summed closest reference lengths.  See the module docstring for NLTK's
    departures from the BLEU definition; ``rapidbleu.BLEU`` computes sacreBLEU's BLEU.

    Args:
        list_of_references: n lists of reference token sequences (at least one each).
        hypotheses: n hypothesis token sequences.
        weights: one tuple of per-order weights, or a list of such tuples.
        smoothing_function: a ``SmoothingFunction`` method (ours or NLTK's), any callable with
            NLTK's signature (it receives the precisions, the *last* references and hypothesis
            and the corpus hypothesis length), or ``None`` for method 0.
        auto_reweigh: if the corpus has fewer than 4 hypothesis tokens and ``weights`` is the
            default tuple, use ``(1/c,) * c`` instead.
        workers: threads for the compiled core (1 = serial, -1 = all cores); not in NLTK.

    Returns:
        The score in [0, 1] (a float; the int ``0`` when no unigram matches), or a list of
        them when ``weights`` is a list of several tuples.

    Raises:
        LengthMismatchError: ``len(list_of_references) != len(hypotheses)``.
        EmptyCorpusError: no hypotheses.
        NoReferencesError: a hypothesis without references (a ``ValueError`` and, as NLTK, a
            ``KeyError``).
        TypeError: a ``None`` hypothesis (named by index), a dict or set instead of a list.
        SmoothingError: method 6 on fewer than 3 orders or a zero trigram precision.
    """
    with checked_corpus(list_of_references, hypotheses):
        metric = NLTKBLEU(weights, smoothing_function, auto_reweigh, workers=workers)  # checks workers too
        if metric.order == 0:  # NLTK: no precision at all counts as "no unigram match"
            check_segments(list_of_references, hypotheses)
            return metric.corpus_from_row([])
        if len(hypotheses) == 0:
            raise EmptyCorpusError("corpus_bleu: no hypotheses (NLTK raises ZeroDivisionError here)")
        stats = token_statistics(list_of_references, hypotheses, metric.max_ngram_order, workers=workers)
    tokens = (list_of_references[-1], hypotheses[-1])
    row = metric.aggregate(stats)
    return metric.corpus_from_row(row[: metric.aggregate_width()], metric.last_segment(row), tokens)


@overload
def sentence_bleu(
    references: Sequence[Tokens],
    hypothesis: Tokens,
    weights: Sequence[float] = ...,
    smoothing_function: SmoothingCallable | None = ...,
    auto_reweigh: bool = ...,
) -> float: ...
@overload
def sentence_bleu(
    references: Sequence[Tokens],
    hypothesis: Tokens,
    weights: Sequence[Sequence[float]],
    smoothing_function: SmoothingCallable | None = ...,
    auto_reweigh: bool = ...,
) -> list[float]: ...
def sentence_bleu(
    references: Sequence[Tokens],
    hypothesis: Tokens,
    weights: Sequence[float] | Sequence[Sequence[float]] = DEFAULT_WEIGHTS,
    smoothing_function: SmoothingCallable | None = None,
    auto_reweigh: bool = False,
) -> float | list[float]:
    """Sentence-level BLEU, equal to NLTK's ``sentence_bleu``: ``corpus_bleu`` of one pair.

    Args:
        references: list of reference token sequences (at least one).
        hypothesis: token sequence.
        weights, smoothing_function, auto_reweigh: as in :func:`corpus_bleu`.

    Returns:
        The score in [0, 1] (the int ``0`` when no unigram matches, e.g. an empty hypothesis),
        or a list of scores for a list of weight tuples.  Without smoothing a sentence that
        misses some higher order scores a tiny positive number (NLTK), not 0.

    Raises:
        NoReferencesError: no references (a ``ValueError`` and a ``KeyError``, as NLTK).
        SmoothingError, TypeError: as in :func:`corpus_bleu`.
    """
    if hypothesis is None:
        raise TypeError("hypothesis is None (it must be a sequence of tokens; use [] for an empty output)")
    if type(hypothesis) is list and type(references) is list and references:
        metric = _sentence_metric(weights, smoothing_function, auto_reweigh)
        if metric is not None:
            try:
                row = _backend.bleu_stats.token_row(hypothesis, references, metric.max_ngram_order)
            except (TypeError, ValueError):
                pass  # (corpus_bleu below names the problem)
            else:
                return metric.sentence_row_score(row)
    return corpus_bleu([references], [hypothesis], weights, smoothing_function, auto_reweigh)


def _sentence_metric(weights: Any, smoothing_function: Any, auto_reweigh: bool) -> NLTKBLEU | None:
    """The metric of :func:`sentence_bleu`'s scoring options when one segment's row can be
    scored on its own (``NLTKBLEU.one_row_scoring``), built once per option set
    (``nltk_bleu.nltk_options_key``); None otherwise (the corpus path scores it, and reports
    bad options)."""
    key = nltk_options_key(weights, smoothing_function, auto_reweigh)
    if key is None:
        return None
    try:
        metric = shared_nltk_metric(
            ("sentence_bleu", *key), lambda: NLTKBLEU(weights, smoothing_function, auto_reweigh)
        )
    except (TypeError, ValueError):  # refused options: the corpus path says why
        return None
    return metric if metric.one_row_scoring else None


def sentence_bleu_from_stats(
    stats: Any,
    weights: Sequence[float] | Sequence[Sequence[float]] = DEFAULT_WEIGHTS,
    smoothing_function: SmoothingCallable | None = None,
    auto_reweigh: bool = False,
    max_ngram_order: int | None = None,
    *,
    workers: int = 1,
) -> np.ndarray:
    """NLTK's ``sentence_bleu`` of every row of a BLEU statistics matrix.

    Row i must be the statistics of one hypothesis against its references, laid out as
    ``[hyp_len, ref_len, matches_1..N, totals_1..N]`` (int): ``ref_len`` the closest reference
    length (ties to the shorter, NLTK's ``closest_ref_length``), ``matches_n`` the clipped
    n-gram matches, ``totals_n = max(0, hyp_len - n + 1)``.  That is what
    ``rapidbleu._core.backend.bleu_stats.token_stats``, ``rapidbleu.ids.stats_ids``, the self-BLEU and
    pairwise kernels of ``rapidbleu.batch`` and sacreBLEU's ``BLEU._extract_corpus_statistics``
    produce.  Then ``out[i] == nltk.translate.bleu_score.sentence_bleu(refs_i, hyp_i, weights,
    smoothing_function, auto_reweigh)``, the same float (tested).

    What each built-in method reads, and where it comes from here: methods 0-3 only the
    precisions ``matches_n / max(1, totals_n)``; method 4 also ``hyp_len``; method 6 the
    n-gram counts of the hypothesis, ``max(0, hyp_len - n + 1)``; methods 5 and 7 the 5-gram
    precision ``modified_precision(references, hypothesis, 5)`` whatever the weights, so for
    them ``stats`` must hold **at least 5 orders** (``ValueError`` otherwise).  A custom
    smoothing callable may read the tokens, which statistics do not hold: it is refused
    (``TypeError``); use :func:`sentence_bleu_batch`, which has the tokens.

    Args:
        stats: int array (n, 2 + 2N), N >= the longest weight tuple (>= 5 for methods 5, 7).
        weights: one tuple of per-order weights or a list of W tuples (NLTK's convention);
            orders beyond a tuple's length are ignored for it.
        smoothing_function: ``None`` (method 0) or a ``SmoothingFunction().methodK`` of
            rapidbleu.nltk or of NLTK, K = 0..7 (its ``epsilon``, ``alpha``, ``k`` are used).
        auto_reweigh: NLTK's: a hypothesis of fewer than 4 tokens scored with the default
            weights uses ``(1/hyp_len,) * hyp_len``.
        max_ngram_order: N, if given checked against the shape (default: from the shape).
        workers: threads of the compiled kernel (methods 0 and 1); same results.

    Returns:
        float64 array of scores in [0, 1]: shape (n,) for one weight tuple, (n, W) for a list
        of W tuples; 0 where no unigram matches.  Method 0 warns (``UserWarning``) once per
        order that some row does not match.

    Raises:
        TypeError: ``stats`` not an integer array; a smoothing callable other than the
            ``SmoothingFunction`` methods.
        ValueError: bad shape, ``max_ngram_order`` differing from it, inconsistent counts,
            more weight orders than N, methods 5/7 with N < 5.
        SmoothingError: method 6 on fewer than 3 orders, or on a row with matching unigrams but
            no matching trigram (NLTK's assertion; the whole call fails).
    """
    resolve_workers(workers)
    weight_list, several = parse_weights(weights)
    stats, N = check_nltk_stats(stats, max_ngram_order)
    K = max(len(w) for w in weight_list)
    check_weights_cover(K, N)
    method, smoother = stats_smoothing(smoothing_function)
    check_fifth_order(method, N, K)
    out = sentence_scores_from_stats(stats, N, weight_list, method, smoother, auto_reweigh, workers=workers)
    return out if several else out[:, 0]


def sentence_bleu_batch(
    list_of_references: Sequence[Sequence[Tokens]],
    hypotheses: Sequence[Tokens],
    weights: Sequence[float] | Sequence[Sequence[float]] = DEFAULT_WEIGHTS,
    smoothing_function: SmoothingCallable | None = None,
    auto_reweigh: bool = False,
    workers: int = 1,
) -> np.ndarray:
    """NLTK's ``sentence_bleu`` of every pair at once (a loop of ``sentence_bleu`` made fast).

    ``out[i] == sentence_bleu(list_of_references[i], hypotheses[i], ...)``: the statistics of
    all pairs come from one call of the compiled core (5 orders at least for methods 5 and 7),
    then :func:`sentence_bleu_from_stats` scores them; a custom smoothing callable is called
    per pair with that pair's references and hypothesis, as NLTK calls it.

    Args:
        list_of_references: n lists of reference token sequences (at least one each).
        hypotheses: n hypothesis token sequences.
        weights, smoothing_function, auto_reweigh: as in :func:`sentence_bleu`.
        workers: threads for the compiled core (1 = serial, -1 = all cores).

    Returns:
        float64 array of scores in [0, 1]: shape (n,) for one weight tuple, (n, W) for a list
        of W tuples.  Without smoothing, one ``UserWarning`` per order that some hypothesis
        does not match (instead of one per sentence).

    Raises:
        LengthMismatchError: ``len(list_of_references) != len(hypotheses)``.
        ValueError: a hypothesis without references.
        SmoothingError: method 6 and some sentence without a trigram match (the whole call
            fails, as the loop would at that sentence); filter such sentences first.
    """
    resolve_workers(workers)
    return sentence_bleu_rows(list_of_references, hypotheses, weights, smoothing_function, auto_reweigh, workers)
