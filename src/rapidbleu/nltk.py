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
* the clipped n-gram counts come from the compiled core (``rapidbleu._backend.impl``), after
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

import math
import sys
import warnings
from collections import Counter, deque  # noqa: F401  (Counter: as NLTK's module)
from fractions import Fraction as _Fraction
from itertools import chain, islice, repeat
from typing import Tuple

import numpy as np

from . import _backend
from ._validate import NoReferencesError, check_nltk_hypotheses, check_nltk_references, check_ordered

__all__ = [
    "EmptyCorpusError",
    "NoReferencesError",
    "Fraction",
    "LengthMismatchError",
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

_DEFAULT_WEIGHTS = (0.25, 0.25, 0.25, 0.25)
_TINY = sys.float_info.min  # method0's stand-in for a zero precision
_MAX_VECTOR_ORDER = 60  # above this, 2**k overflows float math; use the exact per-row path



class LengthMismatchError(ValueError, AssertionError):
    """Different numbers of hypotheses and reference lists (NLTK: a bare ``assert``)."""


class EmptyCorpusError(ValueError, ZeroDivisionError):
    """``corpus_bleu`` of no hypotheses (NLTK: ``ZeroDivisionError`` from ``Fraction(0, 0)``)."""


class SmoothingError(ValueError, AssertionError, IndexError):
    """Smoothing method 6 cannot be applied (NLTK: ``AssertionError`` or ``IndexError``)."""


#: NLTK's Fraction shows the numbers as given in ``repr``/``str`` where ``fractions.Fraction``
#: still accepts ``_normalize=False`` (Python < 3.12); on 3.12+ it shows the reduced fraction.
_SHOWS_AS_GIVEN = sys.version_info < (3, 12)


class Fraction(_Fraction):
    """A ``fractions.Fraction`` that reports its numerator and denominator as given.

    ``Fraction(2, 4).numerator == 2`` and ``.denominator == 4`` (NLTK's ``_normalize=False``
    convention, which ``corpus_bleu`` relies on to add up counts); ``_normalize=True`` reports
    the reduced ones, as NLTK's.  ``repr``/``str`` are NLTK's on the running Python:
    ``Fraction(2, 4)``/``2/4`` before 3.12, ``Fraction(1, 2)``/``1/2`` from 3.12 on.  NLTK's
    attributes ``_normalize``, ``_original_numerator`` and ``_original_denominator`` exist.

    The value, comparisons, hashing, arithmetic and ``float()`` are those of the reduced
    fraction, on every Python version (NLTK's Fraction on Python < 3.12 compares
    ``Fraction(2, 4)`` unequal to ``0.5`` and to ``Fraction(1, 2)``; this one does not).
    """

    __slots__ = ("_raw_numerator", "_raw_denominator", "_normalize")

    def __new__(cls, numerator=0, denominator=None, _normalize=False):
        self = super().__new__(cls, numerator, denominator)
        if denominator is None:  # Fraction("3/4"), Fraction(0.5), ...: nothing to keep raw
            numerator, denominator = _Fraction.numerator.fget(self), _Fraction.denominator.fget(self)
        self._raw_numerator = numerator
        self._raw_denominator = denominator
        self._normalize = _normalize
        return self

    def __reduce__(self):
        return (type(self), (self._raw_numerator, self._raw_denominator, self._normalize))

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    @property
    def numerator(self):
        return _Fraction.numerator.fget(self) if self._normalize else self._raw_numerator

    @property
    def denominator(self):
        return _Fraction.denominator.fget(self) if self._normalize else self._raw_denominator

    @property
    def _original_numerator(self):
        return self._raw_numerator

    @property
    def _original_denominator(self):
        return self._raw_denominator

    def __repr__(self):
        if _SHOWS_AS_GIVEN and not self._normalize:
            return f"{type(self).__name__}({self._raw_numerator}, {self._raw_denominator})"
        return super().__repr__()

    def __str__(self):
        if _SHOWS_AS_GIVEN and not self._normalize:
            if self._raw_denominator == 1:
                return str(self._raw_numerator)
            return f"{self._raw_numerator}/{self._raw_denominator}"
        return super().__str__()


def ngrams(sequence, n, pad_left=False, pad_right=False, left_pad_symbol=None, right_pad_symbol=None):
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
    items = iter(sequence)
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


def _check_references(list_of_references):
    """Each hypothesis needs at least one reference: ``NoReferencesError``, a ``ValueError``
    and, as in NLTK, a ``KeyError``."""
    check_nltk_references(list_of_references)


def _nltk_zero_order_text(order):
    """NLTK's warning for a zero-match order without smoothing, line for line."""
    return (f"\nThe hypothesis contains 0 counts of {order}-gram overlaps.\n"
            "Therefore the BLEU score evaluates to 0, independently of\n"
            "how many N-gram overlaps of lower order it contains.\n"
            "Consider using lower n-gram order or use SmoothingFunction()")


def _check_corpus_args(list_of_references, hypotheses):
    """Input checks of ``corpus_bleu`` before any counting (``rapidbleu._validate``)."""
    check_ordered(list_of_references, "list_of_references")
    check_ordered(hypotheses, "hypotheses")
    check_nltk_hypotheses(hypotheses)
    check_nltk_references(list_of_references)


def _stats(list_of_references, hypotheses, max_order, workers=1):
    """int64 (n, 2 + 2N) statistics from the core (layout in ``rapidbleu._stats``).

    The tokens go to the core as they are: it reads lists of ``str`` or ``int`` tokens directly
    and maps any other segment's tokens through a dict (Python's equality, as NLTK's Counters).
    """
    if len(hypotheses) == 0:
        return np.zeros((0, 2 + 2 * max_order), dtype=np.int64)
    return _backend.impl.token_stats(hypotheses, list_of_references, max_order, workers=workers)


def _check_lengths(list_of_references, hypotheses):
    n_refs, n_hyps = len(list_of_references), len(hypotheses)
    if n_refs != n_hyps:
        raise LengthMismatchError(
            f"{n_hyps} hypotheses but {n_refs} lists of references; give one list of "
            "references per hypothesis"
        )


def _weight_list(weights) -> Tuple[list, bool]:
    """NLTK's reading of ``weights``: ``(list of weight tuples, several scores wanted)``.

    ``weights`` counts as a list of tuples when ``weights[0][0]`` exists, else as one tuple.
    """
    try:
        weights[0][0]
    except (TypeError, IndexError):
        weights = [weights]
    weights = list(weights)
    return weights, len(weights) != 1


# --------------------------------------------------------------------------- public helpers


def modified_precision(references, hypothesis, n):
    """Clipped n-gram precision of one hypothesis, as an unreduced :class:`Fraction`.

    Args:
        references: list of reference token sequences (at least one).
        hypothesis: token sequence.
        n: n-gram order, an int >= 1.

    Returns:
        ``Fraction(matches, max(1, total))`` with numerator and denominator as computed (not
        reduced): ``matches`` counts each hypothesis n-gram at most as often as it occurs in
        any single reference (Papineni et al. 2002), ``total = max(0, len(hypothesis) - n + 1)``.
        The ``max(1, .)`` is NLTK's (it keeps a hypothesis shorter than ``n`` from dividing by
        zero); the BLEU definition has 0 n-grams there.

    Raises:
        ValueError: ``n < 1`` or no references.
    """
    n = int(n)
    if n < 1:
        raise ValueError(f"modified_precision: n must be >= 1, got {n}")
    row = _stats([references], [hypothesis], n)[0]
    return Fraction(int(row[1 + n]), max(1, int(row[1 + 2 * n])), _normalize=False)


def closest_ref_length(references, hyp_len):
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
    best = None
    for ref in references:
        ref_len = len(ref)
        if best is None or (abs(ref_len - hyp_len), ref_len) < (abs(best - hyp_len), best):
            best = ref_len
    if best is None:
        raise ValueError("closest_ref_length: no references")
    return best


def brevity_penalty(closest_ref_len, hyp_len):
    """BLEU's brevity penalty (Papineni et al. 2002), with NLTK's return types.

    Args:
        closest_ref_len: effective reference length *r* (one sentence's, or a corpus sum).
        hyp_len: hypothesis length *c* (one sentence's, or a corpus sum).

    Returns:
        ``1`` (int) when ``c > r``; ``0`` (int) when ``c == 0``; else the float
        ``exp(1 - r / c)`` (which is ``1.0`` when ``c == r``).
    """
    if hyp_len > closest_ref_len:
        return 1
    if hyp_len == 0:
        return 0
    return math.exp(1 - closest_ref_len / hyp_len)


# --------------------------------------------------------------------------- smoothing


def _warn_zero_order(order, stacklevel=5, count_=None, n=None):
    if count_ is None:
        # NLTK's text and category, so that filters written for NLTK's warning apply.
        warnings.warn(_nltk_zero_order_text(order), UserWarning, stacklevel=stacklevel)
        return
    who = f"{count_} of {n} hypotheses have"
    warnings.warn(
        f"BLEU (NLTK convention): {who} no matching {order}-gram, so without smoothing the "
        f"{order}-gram precision is taken as sys.float_info.min and the score is close to 0 "
        "whatever the lower orders match. Use fewer orders or a SmoothingFunction method.",
        UserWarning,
        stacklevel=stacklevel,
    )


def _m0(p_n, warn=True):
    out = []
    for i, p in enumerate(p_n):
        if p.numerator != 0:
            out.append(p)
        else:
            if warn:
                _warn_zero_order(i + 1)
            out.append(_TINY)
    return out


def _m1(p_n, epsilon):
    return [(p.numerator + epsilon) / p.denominator if p.numerator == 0 else p for p in p_n]


def _m2(p_n):
    return [
        Fraction(p.numerator + 1, p.denominator + 1, _normalize=False) if i else p
        for i, p in enumerate(p_n)
    ]


def _m3(p_n):
    k = 1
    for i, p in enumerate(p_n):
        if p.numerator == 0:
            p_n[i] = 1 / (2**k * p.denominator)
            k += 1
    return p_n


def _m4(p_n, hyp_len, k):
    inc = 1
    for i, p in enumerate(p_n):
        if p.numerator == 0 and hyp_len > 1:
            # Chen & Cherry's 1/ln(len) scaling of the NIST 1/2**k (NLTK's arrangement).
            p_n[i] = (1 / (2**inc * k / math.log(hyp_len))) / p.denominator
            inc += 1
    return p_n


def _m5(p_n, p5_last):
    ahead = list(p_n) + [p5_last]
    prev = p_n[0] + 1
    for i in range(len(p_n)):
        prev = p_n[i] = (prev + ahead[i] + ahead[i + 1]) / 3
    return p_n


def _m6(p_n, last_hyp_len, alpha):
    if len(p_n) < 3:
        raise SmoothingError("smoothing method 6 needs weights for at least 3 n-gram orders")
    if not p_n[2]:
        # NLTK's message speaks of bigrams, but it tests the trigram precision.
        raise SmoothingError(
            "smoothing method 6 needs a non-zero trigram precision (NLTK: 'requires non-zero "
            "precision for bigrams')"
        )
    for i in range(2, len(p_n)):
        before = p_n[i - 2]
        prior = 0 if before == 0 else p_n[i - 1] ** 2 / before
        matches = p_n[i].numerator
        ngrams = max(0, last_hyp_len - i)  # (i+1)-grams in the (last) hypothesis
        p_n[i] = (matches + alpha * prior) / (ngrams + alpha)
    return p_n


class SmoothingFunction:
    """Smoothing techniques for sentence-level BLEU of Chen and Cherry (2014), as in NLTK.

    Each ``methodK(p_n, references, hypothesis, hyp_len=None)`` takes the list of modified
    precisions (:class:`Fraction` per order 1..N) and returns the smoothed list (Fractions or
    floats); methods 3, 4, 6 and 7 also modify ``p_n`` in place, as NLTK's do. Pass a bound
    method as ``smoothing_function``; ``corpus_bleu`` then uses a vectorised equivalent.

    Args:
        epsilon: count given to zero-match orders by method 1 (default 0.1).
        alpha: weight of the prior in method 6 (default 5).
        k: constant of method 4 (default 5).
    """

    def __init__(self, epsilon=0.1, alpha=5, k=5):
        self.epsilon = epsilon
        self.alpha = alpha
        self.k = k

    def method0(self, p_n, *args, **kwargs):
        """No smoothing: a zero-match order's precision becomes ``sys.float_info.min`` (NLTK),
        with a ``UserWarning``; the score is then a tiny positive number, not BLEU's 0."""
        return _m0(p_n)

    def method1(self, p_n, *args, **kwargs):
        """Method 1 (Chen & Cherry 2014): a zero-match order gets ``epsilon / total``."""
        return _m1(p_n, self.epsilon)

    def method2(self, p_n, *args, **kwargs):
        """Method 2 (Lin & Och 2004, ORANGE): add 1 to numerator and denominator of every
        order above 1."""
        return _m2(p_n)

    def method3(self, p_n, *args, **kwargs):
        """Method 3 (NIST geometric sequence, mteval-v13a): the k-th zero-match order gets
        ``1 / (2**k * total)``."""
        return _m3(p_n)

    def method4(self, p_n, references, hypothesis, hyp_len=None, *args, **kwargs):
        """Method 4: like method 3, the k-th zero-match order gets
        ``ln(len) / (2**k * self.k) / total``, ``len`` = ``hyp_len`` or ``len(hypothesis)``;
        nothing changes when ``len <= 1``."""
        return _m4(p_n, hyp_len if hyp_len else len(hypothesis), self.k)

    def method5(self, p_n, references, hypothesis, hyp_len=None, *args, **kwargs):
        """Method 5: each order's precision becomes the mean of its smoothed lower neighbour
        (order 0 counts as ``p_1 + 1``), itself and the next order; after the last order comes
        the 5-gram precision of ``hypothesis`` against ``references`` (whatever N is)."""
        return _m5(p_n, modified_precision(references, hypothesis, 5))

    def method6(self, p_n, references, hypothesis, hyp_len=None, *args, **kwargs):
        """Method 6 (Gao & He 2013): orders n >= 3 interpolate ``(m_n + alpha * pi0) /
        (l_n + alpha)`` with the prior ``pi0 = p_{n-1}**2 / p_{n-2}``; ``l_n`` counts the n-grams
        of ``hypothesis``. Raises :class:`SmoothingError` when fewer than 3 orders or the
        trigram precision is 0 (NLTK: ``IndexError`` / ``AssertionError``)."""
        return _m6(p_n, len(hypothesis), self.alpha)

    def method7(self, p_n, references, hypothesis, hyp_len=None, *args, **kwargs):
        """Method 7: method 4, then method 5."""
        p_n = _m4(p_n, hyp_len if hyp_len else len(hypothesis), self.k)
        return _m5(p_n, modified_precision(references, hypothesis, 5))


_METHODS = tuple(f"method{i}" for i in range(8))


def _resolve_smoothing(fn):
    """``(method number, SmoothingFunction-like instance)`` for the known methods, else
    ``(None, fn)``; NLTK's own ``SmoothingFunction`` methods are recognised too."""
    if not fn:
        return 0, None
    owner = getattr(fn, "__self__", None)
    func = getattr(fn, "__func__", None)
    if owner is None or func is None:
        return None, fn
    classes = [SmoothingFunction]
    nltk_bleu = sys.modules.get("nltk.translate.bleu_score")
    if nltk_bleu is not None and hasattr(nltk_bleu, "SmoothingFunction"):
        classes.append(nltk_bleu.SmoothingFunction)
    for cls in classes:
        if isinstance(owner, cls):
            for number, name in enumerate(_METHODS):
                if func is getattr(cls, name, None):
                    return number, owner
    return None, fn


# --------------------------------------------------------------------------- scoring


def _score(p_n, weight_list, bp, hyp_len, auto_reweigh):
    """NLTK's final step: ``bp * exp(fsum(w_n * log p_n for p_n > 0))`` per weight tuple."""
    scores = []
    for weight in weight_list:
        if auto_reweigh and hyp_len < 4 and weight == _DEFAULT_WEIGHTS:
            weight = (1 / hyp_len,) * hyp_len
        terms = [w * math.log(p) for w, p in zip(weight, p_n) if p > 0]
        scores.append(bp * math.exp(math.fsum(terms)))
    return scores


def _bleu_from_counts(
    numerators,
    denominators,
    hyp_len,
    ref_len,
    weight_list,
    method,
    smoother,
    auto_reweigh,
    p5_last,
    last_hyp_len,
    tokens=None,
    warn=True,
):
    """Scores (a list, one per weight tuple) from counts, as NLTK combines them.

    ``p5_last``: a callable returning the last pair's 5-gram modified precision (methods 5, 7);
    ``last_hyp_len``: the last hypothesis's length (method 6 counts its n-grams);
    ``tokens``: ``(last references, last hypothesis)``, needed only by a callable
    ``smoother`` (``method is None``), which receives them as NLTK passes them.
    """
    p_n = [Fraction(m, d, _normalize=False) for m, d in zip(numerators, denominators)]
    if numerators[0] == 0:
        return [0] * len(weight_list)
    bp = brevity_penalty(ref_len, hyp_len)
    if method is None:
        last_refs, last_hyp = tokens
        p_n = smoother(p_n, references=last_refs, hypothesis=last_hyp, hyp_len=hyp_len)
    elif method == 0:
        p_n = _m0(p_n, warn=warn)
    elif method == 1:
        p_n = _m1(p_n, smoother.epsilon)
    elif method == 2:
        p_n = _m2(p_n)
    elif method == 3:
        p_n = _m3(p_n)
    elif method == 4:
        p_n = _m4(p_n, hyp_len, smoother.k)
    elif method == 5:
        p_n = _m5(p_n, p5_last())
    elif method == 6:
        p_n = _m6(p_n, last_hyp_len, smoother.alpha)
    else:
        p_n = _m5(_m4(p_n, hyp_len, smoother.k), p5_last())
    return _score(p_n, weight_list, bp, hyp_len, auto_reweigh)


def corpus_bleu(
    list_of_references,
    hypotheses,
    weights=_DEFAULT_WEIGHTS,
    smoothing_function=None,
    auto_reweigh=False,
    *,
    workers=1,
):
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
    _check_corpus_args(list_of_references, hypotheses)
    _check_lengths(list_of_references, hypotheses)
    weight_list, several = _weight_list(weights)
    max_order = max(len(w) for w in weight_list)
    if max_order == 0:  # NLTK: no precision at all counts as "no unigram match"
        _check_references(list_of_references)
        return [0] * len(weight_list) if several else 0
    if len(hypotheses) == 0:
        raise EmptyCorpusError("corpus_bleu: no hypotheses (NLTK raises ZeroDivisionError here)")
    method, smoother = _resolve_smoothing(smoothing_function)
    stats = _stats(list_of_references, hypotheses, max_order, workers=workers)
    sums = stats.sum(axis=0)
    dens = np.maximum(stats[:, 2 + max_order :], 1).sum(axis=0)
    last_refs, last_hyp = list_of_references[-1], hypotheses[-1]

    def p5_last():
        if max_order >= 5:
            row = stats[-1]
            return Fraction(int(row[6]), max(1, int(row[6 + max_order])), _normalize=False)
        return modified_precision(last_refs, last_hyp, 5)

    scores = _bleu_from_counts(
        [int(v) for v in sums[2 : 2 + max_order]],
        [int(v) for v in dens],
        int(sums[0]),
        int(sums[1]),
        weight_list,
        method,
        smoother,
        auto_reweigh,
        p5_last,
        len(last_hyp),
        tokens=(last_refs, last_hyp),
    )
    return scores if several else scores[0]


def sentence_bleu(
    references,
    hypothesis,
    weights=_DEFAULT_WEIGHTS,
    smoothing_function=None,
    auto_reweigh=False,
):
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
    return corpus_bleu([references], [hypothesis], weights, smoothing_function, auto_reweigh)


def _log_map(values: np.ndarray) -> np.ndarray:
    """``math.log`` elementwise (the libm NLTK's floats come from; numpy's may differ by an ulp)."""
    flat = values.ravel()
    uniq, inverse = np.unique(flat, return_inverse=True)
    logs = np.fromiter(map(math.log, uniq.tolist()), dtype=np.float64, count=len(uniq))
    return logs[inverse].reshape(values.shape)


def _exp_map(values: np.ndarray) -> np.ndarray:
    return np.fromiter(map(math.exp, values.tolist()), dtype=np.float64, count=len(values))


def _is_plain_number(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and abs(x) < 2**52


def _vector_precisions(method, smoother, M, D, c):
    """Smoothed precisions as floats (n, K), computed as NLTK's scalar code would, or None when
    this method/parameters need the exact per-row path.  Entries <= 0 are skipped later."""
    Mf, Df = M.astype(np.float64), D.astype(np.float64)
    zero = M == 0
    if method == 0:
        return np.where(zero, _TINY, Mf / np.where(zero, 1.0, Df))
    if method == 1:
        eps = smoother.epsilon
        if not _is_plain_number(eps):
            return None
        return np.where(zero, float(eps) / Df, Mf / Df)
    if method == 2:
        P = (Mf + 1.0) / (Df + 1.0)
        P[:, 0] = Mf[:, 0] / Df[:, 0]
        return P
    if method in (3, 4):
        if M.shape[1] > _MAX_VECTOR_ORDER:
            return None
        K = np.cumsum(zero, axis=1).astype(np.float64)
        if method == 3:
            return np.where(zero, 1.0 / (2.0**K * Df), Mf / Df)
        k = smoother.k
        if not _is_plain_number(k):
            return None
        logc = np.zeros(len(c))
        long_ = c > 1
        logc[long_] = _log_map(c[long_].astype(np.float64))
        with np.errstate(divide="ignore", invalid="ignore"):
            smoothed = (1.0 / ((2.0**K * float(k)) / logc[:, None])) / Df
        use = zero & long_[:, None]
        return np.where(use, smoothed, Mf / Df)  # unsmoothed zeros stay 0 and are skipped
    return None


def _is_plain_float_tuple(weight) -> bool:
    return all(map(_is_plain_number, weight))


_KERNEL_MIN_ROWS = 4096  # below this, importing rapidbleu.batch (~0.25 s once) does not pay


def _compiled_kernel(n_rows):
    """``nltk_scores`` of the compiled batch kernels (methods 0 and 1), or None where it is not
    built, where its import-time check found it differs from :func:`_from_stats` here, or where
    ``rapidbleu.batch`` is not imported yet and ``n_rows`` is too few to make that worth it."""
    if n_rows < _KERNEL_MIN_ROWS and f"{__package__}.batch" not in sys.modules:
        return None
    try:
        from . import batch
    except ImportError:  # pragma: no cover - batch imports only what this package ships
        return None
    if not getattr(batch, "_C_NLTK", False):
        return None
    return batch._impl.nltk_scores


def _check_stats(stats, max_ngram_order):
    """``(int64 array (n, 2 + 2N), N)`` after checking the layout of a statistics matrix."""
    arr = np.asarray(stats)
    if arr.dtype == object or not (np.issubdtype(arr.dtype, np.integer) or arr.size == 0):
        raise TypeError(f"stats must be an integer array, got dtype {arr.dtype}")
    if arr.ndim != 2 or arr.shape[1] < 4 or arr.shape[1] % 2:
        raise ValueError(
            f"stats must have shape (n, 2 + 2N) with N >= 1 ([hyp_len, ref_len, matches_1..N, "
            f"totals_1..N] per row), got {arr.shape}"
        )
    arr = arr.astype(np.int64, copy=False)
    N = (arr.shape[1] - 2) // 2
    if max_ngram_order is not None and int(max_ngram_order) != N:
        raise ValueError(f"max_ngram_order={max_ngram_order} but stats hold {N} orders (shape {arr.shape})")
    c = arr[:, 0]
    M, T = arr[:, 2 : 2 + N], arr[:, 2 + N :]
    if len(arr) and (arr.min() < 0 or (M > T).any()):
        raise ValueError("stats must be non-negative counts with matches_n <= totals_n")
    if not np.array_equal(T, np.maximum(0, c[:, None] - np.arange(N)[None, :])):
        raise ValueError(
            "stats: totals_n must be max(0, hyp_len - n + 1) (the n-grams of the hypothesis); "
            "these rows do not come from BLEU statistics of one hypothesis each"
        )
    return arr, N


def _warn_method0_rows(M, rows, up):
    """Method 0's warnings, one per order that some scored row misses; ``up``: frames from
    this function's caller to the user's call."""
    zero = M[rows] == 0
    for j in range(M.shape[1]):
        missing = int(np.count_nonzero(zero[:, j]))
        if missing:
            _warn_zero_order(j + 1, stacklevel=up + 3, count_=missing, n=len(M))


def _from_stats(stats, N, weight_list, method, smoother, auto_reweigh, tokens=None, workers=1,
                compiled=True, stacklevel=2):
    """The one scoring implementation: NLTK ``sentence_bleu`` of every statistics row.

    ``stats``: checked int64 (n, 2 + 2N); ``weight_list``: NLTK's list of weight tuples (the
    longest has K <= N orders); ``method``/``smoother`` from :func:`_resolve_smoothing`
    (``method is None`` only with ``tokens = (list_of_references, hypotheses)``).  Returns
    float64 (n, W).  Paths, all giving NLTK's floats: the compiled kernel (methods 0, 1), numpy
    (methods 0-4), exact Fractions per distinct row (methods 5-7, unusual parameters) or per
    row with the tokens (callables).  ``stacklevel``: frames from here to the user's call
    (2 when called by a public function).
    """
    n, W = len(stats), len(weight_list)
    out = np.zeros((n, W), dtype=np.float64)
    K = max(len(w) for w in weight_list)
    if n == 0 or K == 0:
        return out
    c, r = stats[:, 0], stats[:, 1]
    M = stats[:, 2 : 2 + K]
    D = np.maximum(stats[:, 2 + N : 2 + N + K], 1)
    rows = np.flatnonzero(M[:, 0] > 0)  # NLTK returns 0 when no unigram matches
    plain = method is not None and all(map(_is_plain_float_tuple, weight_list))
    if plain and method == 0:
        _warn_method0_rows(M, rows, stacklevel)
    reweigh = auto_reweigh and any(w == _DEFAULT_WEIGHTS for w in weight_list)

    kernel = _compiled_kernel(n) if (compiled and plain and method in (0, 1) and not reweigh and K <= 64) else None
    eps = smoother.epsilon if method == 1 else 0.0
    if kernel is not None and (method == 0 or (_is_plain_number(eps) and eps > 0)):
        # (eps <= 0 gives precisions NLTK skips, which the kernel does not)
        for j, weight in enumerate(weight_list):
            k = len(weight)
            if k == 0:
                continue
            sub = stats if k == N else np.concatenate(
                [stats[:, :2], stats[:, 2 : 2 + k], stats[:, 2 + N : 2 + N + k]], axis=1)
            out[:, j] = kernel(sub, k, [float(x) for x in weight], method, float(eps), workers)
        return out

    P = _vector_precisions(method, smoother, M, D, c) if plain else None
    if P is None:
        _rowwise(out, rows, stats, N, K, weight_list, method, smoother, auto_reweigh, tokens)
        return out

    P, cs, rs = P[rows], c[rows], r[rows]
    positive = P > 0
    L = np.zeros_like(P)
    L[positive] = _log_map(P[positive])
    bp = np.ones(len(rows))
    short = cs <= rs
    bp[short] = _exp_map(1 - rs[short] / cs[short])
    for j, weight in enumerate(weight_list):
        Wm = np.zeros(P.shape)
        w = [float(x) for x in weight]
        Wm[:, : len(w)] = w
        if auto_reweigh and weight == _DEFAULT_WEIGHTS:
            for hl in (1, 2, 3):
                sel = cs == hl
                if sel.any():
                    Wm[sel] = 0.0
                    Wm[sel, :hl] = 1 / hl
        terms = np.where(positive, Wm * L, 0.0)
        sums = np.fromiter(map(math.fsum, terms.tolist()), dtype=np.float64, count=len(rows))
        out[rows, j] = bp * _exp_map(sums)
    return out


def _rowwise(out, rows, stats, N, K, weight_list, method, smoother, auto_reweigh, tokens):
    """Exact per-row path (Fractions, NLTK's operations) for what is not vectorised.

    Without tokens each distinct statistics row is scored once (pairwise and self-BLEU
    matrices repeat rows a lot); with tokens (a callable smoother) every row is scored with
    its own references and hypothesis.
    """
    sel = stats[rows]
    if tokens is None and len(sel) > 1:
        sel, inverse = np.unique(sel, axis=0, return_inverse=True)
        inverse = inverse.reshape(-1)
    else:
        inverse = None
    scores = np.empty((len(sel), len(weight_list)), dtype=np.float64)
    for u, row in enumerate(sel.tolist()):
        nums = row[2 : 2 + K]
        dens = [max(1, t) for t in row[2 + N : 2 + N + K]]

        def p5(row=row):
            return Fraction(row[6], max(1, row[6 + N]), _normalize=False)

        pair = None
        if tokens is not None:
            i = int(rows[u])
            pair = (tokens[0][i], tokens[1][i])
        scores[u, :] = _bleu_from_counts(
            nums, dens, row[0], row[1], weight_list, method, smoother, auto_reweigh,
            p5, row[0], tokens=pair, warn=True,
        )
    out[rows, :] = scores if inverse is None else scores[inverse]


def _stats_smoothing(smoothing_function):
    """``_resolve_smoothing`` for scoring from statistics: a built-in method or ``TypeError``."""
    method, smoother = _resolve_smoothing(smoothing_function)
    if method is None:
        raise TypeError(
            f"smoothing_function {getattr(smoothing_function, '__qualname__', smoothing_function)!r} "
            "is not a SmoothingFunction method 0-7: a custom callable receives the references and "
            "the hypothesis, which statistics do not hold; use rapidbleu.nltk.sentence_bleu_batch "
            "(with the tokens) instead"
        )
    return method, smoother


def sentence_bleu_from_stats(
    stats,
    weights=_DEFAULT_WEIGHTS,
    smoothing_function=None,
    auto_reweigh=False,
    max_ngram_order=None,
    *,
    workers=1,
) -> np.ndarray:
    """NLTK's ``sentence_bleu`` of every row of a BLEU statistics matrix.

    Row i must be the statistics of one hypothesis against its references, laid out as
    ``[hyp_len, ref_len, matches_1..N, totals_1..N]`` (int): ``ref_len`` the closest reference
    length (ties to the shorter, NLTK's ``closest_ref_length``), ``matches_n`` the clipped
    n-gram matches, ``totals_n = max(0, hyp_len - n + 1)``.  That is what
    ``rapidbleu._backend.impl.token_stats``, ``rapidbleu.ids.stats_ids``, the self-BLEU and
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
    weight_list, several = _weight_list(weights)
    stats, N = _check_stats(stats, max_ngram_order)
    K = max(len(w) for w in weight_list)
    if K > N:
        raise ValueError(f"weights have {K} orders but stats hold only {N}")
    method, smoother = _stats_smoothing(smoothing_function)
    if method in (5, 7) and N < 5 and K > 0:
        raise ValueError(
            f"smoothing method {method} reads the 5-gram precision of each sentence (NLTK: "
            f"modified_precision(references, hypothesis, 5)), but stats hold only {N} orders; "
            "compute the statistics with at least 5 orders"
        )
    out = _from_stats(stats, N, weight_list, method, smoother, auto_reweigh, workers=workers,
                      stacklevel=2)
    return out if several else out[:, 0]


def sentence_bleu_batch(
    list_of_references,
    hypotheses,
    weights=_DEFAULT_WEIGHTS,
    smoothing_function=None,
    auto_reweigh=False,
    workers=1,
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
    _check_corpus_args(list_of_references, hypotheses)
    _check_lengths(list_of_references, hypotheses)
    weight_list, several = _weight_list(weights)
    n, W = len(hypotheses), len(weight_list)
    shape = (n, W) if several else (n,)
    max_order = max(len(w) for w in weight_list)
    if max_order == 0 or n == 0:
        if max_order == 0:
            _check_references(list_of_references)
        return np.zeros(shape, dtype=np.float64)
    method, smoother = _resolve_smoothing(smoothing_function)
    stats_order = max(max_order, 5) if method in (5, 7) else max_order
    stats = _stats(list_of_references, hypotheses, stats_order, workers=workers)
    # The scoring of sentence_bleu_from_stats (same implementation, called directly so that
    # warnings point at the caller); a callable smoother gets each pair's tokens.
    tokens = None if method is not None else (list_of_references, hypotheses)
    out = _from_stats(stats, stats_order, weight_list, method, smoother, auto_reweigh,
                      tokens=tokens, workers=workers, stacklevel=2)
    return out if several else out[:, 0]
