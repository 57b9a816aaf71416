"""chrF and chrF++ in pure Python: the oracle of ``chrf_cy`` and the fallback without it.

chrF (Popović, WMT 2015) is an F-score of character n-gram precision and recall; chrF++
(Popović, WMT 2017) adds word n-grams.  Everything here follows sacreBLEU 2.6.0's
``sacrebleu.metrics.chrf`` as observed, including its quirks:

* **Character n-grams** of orders 1..``char_order`` are substrings of the segment with every
  whitespace character removed (the characters ``str.split()`` splits on, i.e. ``str.isspace``,
  Unicode ones included), or of the segment as it is with ``whitespace=True`` (leading and
  trailing whitespace included).
* **Word n-grams** of orders 1..``word_order`` are runs of consecutive *words*: the segment is
  split on whitespace, and from each token of two or more characters one ASCII punctuation
  character (``string.punctuation``) is split off, at the end if the last character is one,
  else at the start if the first is one (so ``"(hi)"`` gives ``"(hi"`` and ``")"``).
* **Lowercasing** is Python's ``str.lower()`` of hypothesis and references.
* **Statistics** of one hypothesis against one reference, per order (character orders first,
  then word orders): ``[hypothesis n-grams, reference n-grams, matches]``, where matches are
  clipped (each distinct n-gram counts ``min(count in hypothesis, count in reference)``) and the
  hypothesis count is reported as 0 when the reference has no n-gram of that order.
* **Several references**: the segment's statistics are those of the first reference with the
  highest sentence-level score (:func:`f_score` of its row; strictly greater replaces).
* **Score** (:func:`f_score`): per order precision P and recall R, F_beta =
  (1 + beta^2) P R / (beta^2 P + R).  Default ("effective order", sacreBLEU < 2.0): P and R are
  averaged over the orders where both the hypothesis and the reference have n-grams, then one
  F_beta of the averages; ``eps_smoothing`` (chrF++.py, Moses, NLTK): the mean of the per-order
  F_beta, with ``1e-16`` standing in for an undefined P, R or F.

Statistics rows have ``3 * (char_order + word_order)`` int64 columns (:func:`stats_columns`);
rows add up to a corpus.  The compiled twin ``rapidbleu._core.chrf.chrf_cy`` has the same functions,
signatures and results; ``rapidbleu._core.backend`` chooses between them.
"""

from __future__ import annotations

import numbers
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypedDict

if TYPE_CHECKING:
    import numpy as np
else:
    from ..._base.lazy import numpy as np  # imported on first use (see rapidbleu._base.lazy)

from ..._base.errors import MAX_EXACT_COUNT, TooLargeError, no_reference_error, stream_length_error
from ..validate import MAX_ORDER_LIMIT

NAME = "python"

#: sacreBLEU's defaults: character order, word order (0: chrF; 2: chrF++), beta.
CHAR_ORDER = 6
WORD_ORDER = 0
BETA = 2

#: The characters split off words for word n-grams: Python's ``string.punctuation`` (ASCII).
PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")

#: What stands in for an undefined precision, recall or F-score (chrF++.py's epsilon).
EPS = 1e-16

#: The numpy types sacreBLEU holds statistics in besides Python ints: ``int64`` in approximate
#: randomization trials, ``float32`` in bootstrap resamples.
ARRAY_DTYPES = ("int64", "float32")


class CHRFOptions(TypedDict, total=False):
    """chrF's options by name, as ``rapidbleu.CHRF`` takes them (``rapidbleu.chrf`` exports this
    type): the keywords of the entry points that build a ``CHRF`` (``**options:
    Unpack[CHRFOptions]``, a missing one has CHRF's default), and the one value the kernels take
    (``CHRF.options``: every key, checked once by the constructor; :func:`option_values` reads
    it).  What each option means: ``rapidbleu.CHRF``."""

    char_order: int
    word_order: int
    beta: float
    lowercase: bool
    whitespace: bool
    eps_smoothing: bool


def option_values(options: CHRFOptions) -> tuple[Any, Any, Any, bool, bool, bool]:
    """``(char_order, word_order, beta, lowercase, whitespace, eps_smoothing)`` of ``options``
    (sacreBLEU's default for a missing one): how both twins read their options."""
    return (
        options.get("char_order", CHAR_ORDER),
        options.get("word_order", WORD_ORDER),
        options.get("beta", BETA),
        options.get("lowercase", False),
        options.get("whitespace", False),
        options.get("eps_smoothing", False),
    )


# ------------------------------------------------------------------------------------------
# Options: one check each (the compiled twin and rapidbleu.CHRF call these).
# ------------------------------------------------------------------------------------------
def check_orders(char_order: Any, word_order: Any) -> tuple[int, int]:
    """``(char_order, word_order)`` as ints, each in ``0 .. MAX_ORDER_LIMIT`` (64), not both 0.

    Raises:
        TypeError: an order that is not an integer (``bool`` and floats included).
        ValueError: an order below 0 or above 64, or both 0 (no n-gram to score).
    """
    out = []
    for name, value in (("char_order", char_order), ("word_order", word_order)):
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            raise TypeError(f"{name} must be an int, got {type(value).__name__}")
        if not 0 <= int(value) <= MAX_ORDER_LIMIT:
            raise ValueError(f"{name} must be between 0 and {MAX_ORDER_LIMIT}, got {value}")
        out.append(int(value))
    if out[0] == 0 and out[1] == 0:
        raise ValueError("char_order and word_order are both 0: chrF needs at least one n-gram order")
    return out[0], out[1]


def is_plain_beta(beta: object) -> bool:
    """A ``beta`` that C doubles multiply exactly as Python does: a Python ``int`` or ``float``
    (the compiled kernels take ``float(beta ** 2)`` and ``float(1 + beta ** 2)``).  Any other
    number -- numpy scalars, whose arithmetic (float32, float16, numpy's type promotion) sacreBLEU
    then follows, ``fractions.Fraction`` -- is scored by the Python formulas here, on both
    backends."""
    return type(beta) is int or type(beta) is float


def _factors_finite(beta: Any) -> tuple[Any, Any, bool]:
    """``(beta ** 2, 1 + beta ** 2, finite)`` in ``beta``'s arithmetic; ``finite``: both stay
    finite when sacreBLEU's formula multiplies them by a float (``x - x`` is 0 for every finite
    number of any type, nan for nan and inf).

    Raises:
        OverflowError: Python's (a float square, or an int too large for a float)."""
    factor = beta**2
    one_plus = 1 + factor
    return factor, one_plus, bool(factor * 1.0 - factor * 1.0 == 0 and one_plus * 1.0 - one_plus * 1.0 == 0)


def check_beta(beta: Any) -> Any:
    """``beta`` as given (its type decides sacreBLEU's arithmetic and the score's name, e.g.
    ``chrF0.5`` or ``chrF2.0``), after checking that sacreBLEU can score it and that it means
    something.

    sacreBLEU scores every real number: ``beta = 0`` is character precision, ``0.5`` weighs
    precision higher, numpy scalars compute in their own type (a ``numpy.float32`` beta gives a
    float32 score).  Refused: values sacreBLEU cannot score (``nan`` and ``inf``: no reference is
    ever chosen and it fails; a square too large for a float: ``OverflowError``) and nonsense
    (a negative weight: sacreBLEU squares the sign away and names the score ``chrF-2``; a bool:
    ``chrFTrue``; a numpy integer whose square wraps around).

    Raises:
        TypeError: not a real number (``bool``, ``numpy.bool_``, strings, ``None``, complex
            and ``decimal.Decimal`` included).
        ValueError: negative, not finite, or so large that ``1 + beta ** 2`` is not finite in
            ``beta``'s type (for a float beta above about 1.34e154; then a ``TooLargeError``,
            also an ``OverflowError`` as sacreBLEU raises) or wraps around.
    """
    if not is_plain_beta(beta) and (isinstance(beta, bool) or not isinstance(beta, numbers.Real)):
        raise TypeError(f"beta must be a number >= 0, got {type(beta).__name__}")
    if not beta - beta == 0 or not beta >= 0:  # (x - x: 0 for finite numbers, nan for nan and inf)
        raise ValueError(f"beta must be a finite number >= 0, got {beta!r}")
    too_large = (
        f"beta={beta!r} is too large: 1 + beta ** 2 is not finite in its type ({type(beta).__name__}; "
        "a float beta must be at most about 1.34e154)"
    )
    try:
        if is_plain_beta(beta):
            factor, one_plus, finite = _factors_finite(beta)
        else:
            with np.errstate(all="ignore"):  # (numpy's overflow warnings: the error below says it)
                factor, one_plus, finite = _factors_finite(beta)
    except OverflowError:
        raise TooLargeError(too_large) from None
    if not finite:
        raise TooLargeError(too_large)
    if isinstance(beta, numbers.Integral) and (int(factor) != int(beta) ** 2 or int(one_plus) != int(factor) + 1):
        raise ValueError(
            f"beta={beta!r} ({type(beta).__name__}): 1 + beta ** 2 wraps around in its integer type "
            "(sacreBLEU would score with the wrapped value); give a Python int"
        )
    return beta


def check_rows(rows: np.ndarray, char_order: int, word_order: int, what: str = "statistics") -> None:
    """chrF's own rules for valid-looking statistics rows (``(m, k)``, whole numbers >= 0, as
    ``Metric.check_statistics`` has made sure): per order at most as many matches as
    hypothesis n-grams and as reference n-grams, and no hypothesis n-grams where there is no
    reference n-gram (how rows are made, and so how their sums are).

    Raises:
        ValueError: the first row breaking a rule, with the order and its three values.
    """
    names = stats_columns(char_order, word_order)
    hyp, ref, match = rows[:, 0::3], rows[:, 1::3], rows[:, 2::3]
    for broken, rule in (
        (match > hyp, "more matches than hypothesis n-grams"),
        (match > ref, "more matches than reference n-grams"),
        ((ref == 0) & (hyp > 0), "hypothesis n-grams counted where the reference has none"),
    ):
        if broken.any():
            r, k = (int(v) for v in np.argwhere(broken)[0])
            raise ValueError(
                f"{what}: row {r}, order {names[3 * k][:-4]}: {rule} ({rows[r, 3 * k : 3 * k + 3].tolist()})"
            )


def stats_columns(char_order: int, word_order: int) -> tuple[str, ...]:
    """Names of the ``3 * (char_order + word_order)`` statistics columns, in row order:
    ``char{n}_hyp``, ``char{n}_ref``, ``char{n}_match`` for n = 1..char_order, then the same
    with ``word``."""
    names: list[str] = []
    for unit, top in (("char", char_order), ("word", word_order)):
        for n in range(1, top + 1):
            names += [f"{unit}{n}_hyp", f"{unit}{n}_ref", f"{unit}{n}_match"]
    return tuple(names)


# ------------------------------------------------------------------------------------------
# N-grams of one segment (sacreBLEU's helper names, arguments and return types)
# ------------------------------------------------------------------------------------------
def extract_char_ngrams(line: str, n: int, include_whitespace: bool = False) -> Counter[str]:
    """The character n-grams of order ``n`` of ``line``: a ``Counter`` of ``str`` keys.

    Whitespace (``str.isspace`` characters, as ``str.split()`` splits) is removed first unless
    ``include_whitespace``.  Any ``n`` gives sacreBLEU's slices ``line[i:i + n]`` for ``i`` in
    ``range(len(line) - n + 1)`` (so ``n <= 0`` counts empty strings, as there)."""
    if not include_whitespace:
        line = "".join(line.split())
    return Counter(line[i : i + n] for i in range(len(line) - n + 1))


def extract_all_char_ngrams(line: str, max_order: int, include_whitespace: bool = False) -> list[Counter[str]]:
    """``[extract_char_ngrams(line, n, include_whitespace) for n in 1..max_order]``: a list of
    ``Counter`` (whitespace removed once)."""
    if not include_whitespace:
        line = "".join(line.split())
    return [Counter(line[i : i + n] for i in range(len(line) - n + 1)) for n in range(1, max_order + 1)]


def extract_word_ngrams(tokens: list[str], n: int) -> Counter[str]:
    """The order-``n`` n-grams of a token list, as sacreBLEU returns them: a ``Counter`` whose
    keys are the n-grams' tokens joined with single spaces (``str``, not tuples).  Words hold no
    whitespace, so two n-grams are equal exactly when their words are."""
    return Counter(" ".join(tokens[i : i + n]) for i in range(len(tokens) - n + 1))


def split_words(text: str) -> list[str]:
    """The words of ``text`` for chrF++'s word n-grams: whitespace-separated tokens, each of
    two or more characters with one ASCII punctuation character split off its end (if it ends
    with one) or else its start (sacreBLEU's ``CHRF._remove_punctuation``)."""
    words: list[str] = []
    for tok in text.split():
        if len(tok) > 1 and tok[-1] in PUNCTUATION:
            words += (tok[:-1], tok[-1])
        elif len(tok) > 1 and tok[0] in PUNCTUATION:
            words += (tok[0], tok[1:])
        else:
            words.append(tok)
    return words


def segment_ngrams(text: str, char_order: int, word_order: int, whitespace: bool) -> list[Counter[str]]:
    """Every order's n-grams of one (already lowercased, if asked) segment: character orders
    1..``char_order`` then word orders 1..``word_order`` (sacreBLEU's reference info)."""
    grams = extract_all_char_ngrams(text, char_order, whitespace)
    if word_order:
        words = split_words(text)
        grams += [extract_word_ngrams(words, n) for n in range(1, word_order + 1)]
    return grams


def match_stats(hyp_ngrams: Counter[Any], ref_ngrams: Counter[Any]) -> list[Any]:
    """``[hypothesis n-grams, reference n-grams, clipped matches]`` of one order: each
    hypothesis n-gram counts ``min(its count, the reference's)``; the hypothesis count is
    reported as 0 when the reference ``Counter`` is empty (sacreBLEU's
    ``CHRF._get_match_statistics``; counts may be floats, added in sacreBLEU's order)."""
    hyp_count = match_count = 0
    for gram, count in hyp_ngrams.items():
        hyp_count += count
        if gram in ref_ngrams:
            match_count += min(count, ref_ngrams[gram])
    return [hyp_count if ref_ngrams else 0, sum(ref_ngrams.values()), match_count]


def pair_stats(hyp_grams: list[Counter[Any]], ref_grams: list[Counter[Any]]) -> list[Any]:
    """The statistics row of a hypothesis against one reference, from their
    :func:`segment_ngrams`: :func:`match_stats` of each order, one after the other."""
    row: list[Any] = []
    for hyp, ref in zip(hyp_grams, ref_grams, strict=False):
        row += match_stats(hyp, ref)
    return row


# ------------------------------------------------------------------------------------------
# The score of one row
# ------------------------------------------------------------------------------------------
def f_score(row: Any, order: int, beta: Any, eps_smoothing: bool) -> Any:
    """sacreBLEU's chrF (0-100) of one statistics row, computed with the row's own number type.

    Args:
        row: ``3 * order`` numbers ``[hyp, ref, match]`` per order: Python ints (corpus and
            sentence scores), a numpy ``int64`` array (approximate randomization) or a numpy
            ``float32`` array (bootstrap resampling: with NumPy >= 2, NEP 50, a Python number
            meeting a float32 is converted to float32, so part of the arithmetic runs in
            float32, exactly as in sacreBLEU).
        order: ``char_order + word_order``.
        beta: recall's weight (any number :func:`check_beta` accepts, in its own type: a numpy
            ``float32`` beta makes the arithmetic float32, as in sacreBLEU).
        eps_smoothing: the mean of the per-order F-scores (chrF++.py), instead of the F-score
            of the precision and recall averaged over the orders both sides have.

    Returns:
        The score, of the type the arithmetic leaves (``float``, ``numpy.float64`` or
        ``numpy.float32``).  Formula: Popović (2015, 2017); averaging and epsilon as sacreBLEU
        2.6.0 (``CHRF._compute_f_score``).
    """
    factor = beta**2
    score: Any = 0.0
    avg_prec: Any = 0.0
    avg_rec: Any = 0.0
    effective = 0
    for k in range(order):
        n_hyp, n_ref, n_match = row[3 * k], row[3 * k + 1], row[3 * k + 2]
        prec = n_match / n_hyp if n_hyp > 0 else EPS
        rec = n_match / n_ref if n_ref > 0 else EPS
        denom = factor * prec + rec
        score += (1 + factor) * prec * rec / denom if denom > 0 else EPS
        if n_hyp > 0 and n_ref > 0:
            avg_prec += prec
            avg_rec += rec
            effective += 1
    if eps_smoothing:
        return 100 * score / order
    if effective:
        avg_prec /= effective
        avg_rec /= effective
    else:
        avg_prec = avg_rec = 0.0
    if not avg_prec + avg_rec:
        return 0.0
    score = (1 + factor) * avg_prec * avg_rec
    score /= factor * avg_prec + avg_rec
    return 100 * score


def best_reference(rows: Sequence[Sequence[Any]], order: int, beta: Any, eps_smoothing: bool) -> int:
    """Index of the best of a segment's rows, one per reference: the first whose
    :func:`f_score` (on Python ints, in ``beta``'s arithmetic) is the highest (sacreBLEU's
    choice: a later reference replaces the best only with a strictly higher score)."""
    best, best_f = 0, -1.0
    for k, row in enumerate(rows):
        f = f_score(row, order, beta, eps_smoothing)
        if f > best_f:
            best, best_f = k, f
    return best


def best_row(
    hyp_grams: list[Counter[Any]], refs_grams: list[list[Counter[Any]]], beta: Any, eps_smoothing: bool
) -> list[Any]:
    """The statistics row against the best reference (:func:`best_reference`)."""
    rows = [pair_stats(hyp_grams, ref_grams) for ref_grams in refs_grams]
    return rows[best_reference(rows, len(hyp_grams), beta, eps_smoothing)]


def plain_arithmetic(char_order: Any, word_order: Any, beta: Any, eps_smoothing: bool) -> bool:
    """Whether sacreBLEU's score is the C kernels' double arithmetic (``rb_chrf_f_int``,
    ``rb_chrf_f_f32``): a plain ``beta`` (:func:`is_plain_beta`) and, with ``eps_smoothing``
    (whose last step divides by the number of orders), orders that are Python ints (a numpy
    order makes that division numpy's: float32 resamples end in float64)."""
    return is_plain_beta(beta) and (not eps_smoothing or (type(char_order) is int and type(word_order) is int))


def score_type(beta: Any, dtype: Any, order: Any = 1, eps_smoothing: bool = False) -> type:
    """The type of sacreBLEU's chrF score of a row held in ``dtype`` (None: Python ints,
    ``numpy.int64``, ``numpy.float32``) with this ``beta`` (and ``order``, the number of
    orders as given, which the epsilon-smoothed score divides by): ``float`` where the
    arithmetic stays Python's, else the numpy type it ends in (float32 for float32 rows and a
    Python beta; a numpy ``float64`` beta keeps float32 resamples in float64, a ``float16``
    beta makes Python-int rows float16).  Found by scoring a row of ones (a row without any
    match scores a Python ``0.0`` whatever the types)."""
    row: Any = [1, 1, 1] * int(order) if dtype is None else np.ones(3 * int(order), dtype=dtype)
    with np.errstate(all="ignore"):
        return type(f_score(row, order, beta, eps_smoothing))


def score_dtype(beta: Any, dtype: Any, order: Any = 1, eps_smoothing: bool = False) -> np.dtype[Any]:
    """:func:`score_type` as a numpy dtype (float64 for ``float``)."""
    kind = score_type(beta, dtype, order, eps_smoothing)
    return np.dtype(np.float64) if kind is float else np.dtype(kind)


def scores_dtype(beta: Any, dtype: Any, order: Any = 1, eps_smoothing: bool = False) -> np.dtype[Any]:
    """The dtype of :func:`chrf_scores`' array: :func:`score_dtype` for float32 rows (bootstrap
    resamples, whose summaries keep sacreBLEU's arithmetic), otherwise float64 or wider (a
    float32 or float16 score is held exactly; a sentence score whose formula never met a
    float32 number, such as the epsilon of a segment with no n-grams at all, stays a double)."""
    sd = score_dtype(beta, dtype, order, eps_smoothing)
    if dtype is not None and np.dtype(dtype) == np.float32:
        return sd
    return np.promote_types(sd, np.float64)


# ------------------------------------------------------------------------------------------
# Kernels (the compiled twin has the same functions)
# ------------------------------------------------------------------------------------------
def check_segments(hypotheses: Any, ref_streams: Any) -> tuple[list[str], list[list[str | None]]]:
    """The kernels' own input check: private lists of the hypotheses and reference streams.

    Raises:
        TypeError: a hypothesis that is not a ``str``, a reference neither ``str`` nor ``None``.
        ValueError: a stream of another length than the hypotheses.
    """
    hyps = list(hypotheses)
    streams = [list(s) for s in ref_streams]
    for k, stream in enumerate(streams):
        if len(stream) != len(hyps):
            raise stream_length_error(f"reference stream {k}", len(stream), len(hyps), n_streams=len(streams))
    if set(map(type, hyps)) - {str}:
        for i, h in enumerate(hyps):
            if not isinstance(h, str):
                raise TypeError(f"hypotheses[{i}] is a {type(h).__name__}, expected str")
    for k, stream in enumerate(streams):
        if set(map(type, stream)) - {str, type(None)}:
            for i, r in enumerate(stream):
                if r is not None and not isinstance(r, str):
                    raise TypeError(f"references[{k}][{i}] is a {type(r).__name__}, expected str or None")
    return hyps, streams


def check_sentences(sentences: Any) -> list[str]:
    """A private list of the sentences of a pairwise call.

    Raises:
        TypeError: a sentence that is not a ``str``.
    """
    sents = list(sentences)
    if set(map(type, sents)) - {str}:
        for i, s in enumerate(sents):
            if not isinstance(s, str):
                raise TypeError(f"sentences[{i}] is a {type(s).__name__}, expected str")
    return sents


def chrf_stats(
    hypotheses: Sequence[str], ref_streams: Sequence[Sequence[str | None]], options: CHRFOptions, workers: int = 1
) -> np.ndarray:
    """Per-segment chrF statistics, each against the segment's best reference.

    Args:
        hypotheses: n ``str``.
        ref_streams: reference streams, each n ``str`` or ``None`` (no reference in this
            stream for that segment); every segment needs at least one reference.
        options: :class:`CHRFOptions` (:func:`option_values`): ``char_order``, ``word_order``
            (the n-gram orders, 0..64 each, not both 0); ``beta``, recall's weight, and
            ``eps_smoothing``, the scoring rule (:func:`f_score`), which choose the best
            reference; ``lowercase`` (``str.lower()`` hypotheses and references first);
            ``whitespace`` (keep whitespace in character n-grams).
        workers: threads of the compiled twin (checked here, computed serially).

    Returns:
        int64 array (n, 3 * (char_order + word_order)): per order (character orders first)
        ``[hypothesis n-grams, reference n-grams, clipped matches]``; a column sum is the
        corpus statistics.

    Raises:
        TypeError: a hypothesis that is not a ``str``, a reference neither ``str`` nor
            ``None``, a bad option type.
        ValueError: a stream of another length than the hypotheses, a segment without any
            reference, a bad order or beta, a bad ``workers``.
    """
    char_order, word_order, beta, lowercase, whitespace, eps_smoothing = option_values(options)
    char_order, word_order = check_orders(char_order, word_order)
    beta = check_beta(beta)
    hyps, streams = check_segments(hypotheses, ref_streams)
    out = np.zeros((len(hyps), 3 * (char_order + word_order)), dtype=np.int64)
    for i, segment in enumerate(hyps):
        refs = [r for r in (s[i] for s in streams) if r is not None]
        if not refs:
            raise no_reference_error(i)
        hyp = segment
        if lowercase:
            hyp = hyp.lower()
            refs = [r.lower() for r in refs]
        hyp_grams = segment_ngrams(hyp, char_order, word_order, whitespace)
        refs_grams = [segment_ngrams(r, char_order, word_order, whitespace) for r in refs]
        out[i] = best_row(hyp_grams, refs_grams, beta, eps_smoothing)
    return out


def chrf_sentence_row(hypothesis: str, references: Sequence[str | None], options: CHRFOptions) -> list[int]:
    """The statistics of one segment: ``chrf_stats([hypothesis], [[r] for r in
    references], options)[0]`` as a list of ``3 * (char_order + word_order)`` Python ints (the
    row against the best reference), with its errors, for the sentence-level entries a Python
    loop calls once per segment (the compiled twin builds no array and starts no thread; see
    ``chrf_one.pxi`` for its memory).

    Args:
        hypothesis: the hypothesis string.
        references: its references (``str`` or ``None``; ``None`` skipped).
        options: as :func:`chrf_stats`.

    Raises:
        TypeError: a hypothesis that is not a ``str``, a reference neither ``str`` nor
            ``None``, a bad option type.
        ValueError: no ``str`` reference, a bad order or beta.
    """
    return [int(v) for v in chrf_stats([hypothesis], [[r] for r in references], options)[0].tolist()]


def chrf_of_row(row: Sequence[Any], options: CHRFOptions) -> Any:
    """sacreBLEU's chrF (0-100) of one statistics row (a list, as :func:`chrf_sentence_row` gives
    it): :func:`f_score` of the row's values with ``char_order + word_order`` (as given) orders,
    the scoring of a sentence-level call.  The compiled twin computes rows of exact ints below
    2**53 with a Python ``int`` or ``float`` beta and int orders in C and hands any other to this
    formula.

    Raises:
        ValueError: a row of another length than ``3 * (char_order + word_order)``.
    """
    char_order, word_order, beta, _, _, eps_smoothing = option_values(options)
    co, wo = check_orders(char_order, word_order)
    values = list(row)
    if len(values) != 3 * (co + wo):
        raise ValueError(
            f"a chrF row has {3 * (co + wo)} values for char_order={co}, word_order={wo}, got {len(values)}"
        )
    return f_score(values, char_order + word_order, beta, eps_smoothing)


def as_stats_matrix(stats: Any, char_order: int, word_order: int, dtype: Any) -> np.ndarray:
    """``stats`` as a 2-D array of ``3 * (char_order + word_order)`` columns in ``dtype``
    (None: int64).  For ``dtype=None`` (Python ints) rows with a count beyond 2**53 - 1 come back
    as an object array of Python ints: the compiled twin's C doubles are exact only below, and
    sacreBLEU divides the Python ints, so both twins score such a matrix with :func:`f_score`
    on Python ints.

    Raises:
        ValueError: another shape, or a dtype other than None, int64 and float32.
    """
    arr = np.asarray(stats)
    width = 3 * (char_order + word_order)
    if arr.ndim != 2 or arr.shape[1] != width:
        raise ValueError(
            f"statistics must have shape (m, {width}) for char_order={char_order}, word_order={word_order} "
            f"([hyp, ref, match] per order), got {arr.shape}"
        )
    if dtype is not None and np.dtype(dtype).name not in ARRAY_DTYPES:
        raise ValueError(f"dtype must be None, numpy.int64 or numpy.float32, got {dtype!r}")
    if dtype is None and (arr.dtype == object or (arr.size and arr.max() > MAX_EXACT_COUNT)):
        return np.array(arr.tolist(), dtype=object).reshape(arr.shape)
    return arr.astype(np.int64 if dtype is None else dtype, copy=False)


def chrf_scores(sums: Any, options: CHRFOptions, dtype: Any = None, workers: int = 1) -> np.ndarray:
    """sacreBLEU's chrF (0-100) of every row of summed statistics.

    Args:
        sums: (m, 3 * (char_order + word_order)) statistics, one corpus (or segment) per row.
        options: as :func:`chrf_stats` (its ``char_order``, ``word_order``, ``beta`` and
            ``eps_smoothing``).
        dtype: the number type sacreBLEU holds the row in: ``None`` Python ints (corpus and
            sentence scores; counts of any size), ``numpy.int64`` (approximate randomization),
            ``numpy.float32`` (bootstrap resamples; values are rounded to float32 first).
        workers: threads (compiled twin; checked here, computed serially).

    Returns:
        ``(m,)``: ``out[i] == f_score(row_i ...)`` (see :func:`f_score`), in the type
        ``numpy.array`` gives sacreBLEU's scores of the rows: :func:`scores_dtype` (float64, or
        float32 for float32 rows; a numpy ``beta`` may change it), except that float32 rows
        whose scores are not all numpy float32 give float64 (a Python float among them: ``0.0``
        for a row without any match, epsilon-smoothed rows that no float32 value reaches).

    Raises:
        ValueError: bad shape or dtype, bad orders, beta or workers.
    """
    char_order, word_order, beta, _, _, eps_smoothing = option_values(options)
    co, wo = check_orders(char_order, word_order)
    beta = check_beta(beta)
    arr = as_stats_matrix(sums, co, wo, dtype)
    order = char_order + word_order  # (as given: a numpy order is numpy arithmetic, as in sacreBLEU)
    kind = scores_dtype(beta, dtype, order, eps_smoothing)
    every_f32 = kind == np.float32
    out = np.empty(len(arr), dtype=np.float64 if every_f32 else kind)  # (float32 values: exact in float64)
    rows = arr.tolist() if dtype is None else arr
    for i in range(len(arr)):
        score = f_score(rows[i], order, beta, eps_smoothing)
        every_f32 = every_f32 and isinstance(score, np.float32)
        out[i] = score
    return out.astype(np.float32) if every_f32 else out


def _pairwise_grams(
    sentences: Sequence[str], char_order: int, word_order: int, lowercase: bool, whitespace: bool, workers: int
) -> list[list[Counter[Any]]]:
    sents = check_sentences(sentences)
    if lowercase:
        sents = [s.lower() for s in sents]
    return [segment_ngrams(s, char_order, word_order, whitespace) for s in sents]


def chrf_pairwise_stats(sentences: Sequence[str], options: CHRFOptions, workers: int = 1) -> np.ndarray:
    """Statistics of every ordered pair of one set of sentences (the utility matrix of MBR
    decoding): ``out[i, j]`` is sentence i (hypothesis) against sentence j (its single
    reference), the diagonal included.

    ``options`` as :func:`chrf_stats` (its ``beta`` and ``eps_smoothing`` choose nothing here).

    Returns:
        int64 (n, n, 3 * (char_order + word_order)), rows as :func:`chrf_stats`'.

    Raises:
        TypeError: a sentence that is not a ``str``; ValueError: bad orders or workers.
    """
    char_order, word_order, _, lowercase, whitespace, _ = option_values(options)
    char_order, word_order = check_orders(char_order, word_order)
    grams = _pairwise_grams(sentences, char_order, word_order, lowercase, whitespace, workers)
    n = len(grams)
    out = np.zeros((n, n, 3 * (char_order + word_order)), dtype=np.int64)
    for i in range(n):
        for j in range(n):
            out[i, j] = pair_stats(grams[i], grams[j])
    return out


def chrf_pairwise_scores(sentences: Sequence[str], options: CHRFOptions, workers: int = 1) -> np.ndarray:
    """Sentence chrF (0-100) of every ordered pair: (n, n) float64 (or wider for a numpy
    ``beta``: :func:`scores_dtype`), ``[i, j]`` = sentence i against sentence j as its single
    reference (``CHRF(**options).sentence_score(s[i], [s[j]])``).

    Raises:
        as :func:`chrf_pairwise_stats`, and a bad ``beta``.
    """
    char_order, word_order, beta, lowercase, whitespace, eps_smoothing = option_values(options)
    char_order, word_order = check_orders(char_order, word_order)
    beta = check_beta(beta)
    grams = _pairwise_grams(sentences, char_order, word_order, lowercase, whitespace, workers)
    n = len(grams)
    order = char_order + word_order
    out = np.zeros((n, n), dtype=scores_dtype(beta, None))
    for i in range(n):
        for j in range(n):
            out[i, j] = f_score(pair_stats(grams[i], grams[j]), order, beta, eps_smoothing)
    return out
