"""Mergeable corpus statistics: score a corpus split any way, in any number of processes.

BLEU is a function of a handful of integer sums over the segments of a corpus, so the
statistics of the parts of a corpus add up to the statistics of the whole, and the sum scores
exactly (float for float) as one call on the whole corpus does.  This module makes that a
public contract:

* :func:`corpus_stats` (sacreBLEU's BLEU) and :func:`nltk_corpus_stats` (NLTK's
  ``corpus_bleu``) return a :class:`CorpusStats`;
* ``a + b``, ``sum([a, b, c])`` and :func:`merge` add them (segments of ``b`` after those of
  ``a``), refusing statistics computed with another configuration;
* :meth:`CorpusStats.score` gives the same result as ``rapidbleu.BLEU(...).corpus_score`` /
  ``rapidbleu.nltk.corpus_bleu`` on the concatenated corpus; :meth:`CorpusStats.signature`
  the sacreBLEU signature;
* objects pickle (a few hundred bytes), and :attr:`CorpusStats.vector` /
  :meth:`CorpusStats.from_vector` turn them into one int64 vector and back, for
  ``torch.distributed.all_reduce``, MPI ``Allreduce``, a Spark or Dask column sum.

Vector layout (int64):

* sacreBLEU style, ``2 + 2N + 1`` values: ``[hyp_len, ref_len, matches_1..N, totals_1..N,
  segments]`` where ``ref_len`` is the closest reference length (ties to the shorter one);
* NLTK style, ``2 + 3N + 1`` values: the same, then ``denominators_1..N`` = the sum over
  segments of ``max(1, totals_n)`` (NLTK's per-segment floor of the precision denominator),
  then ``segments``.

NLTK's smoothing methods 5, 6 and 7 also read the *last* segment of the corpus (its 5-gram
precision, its length); a :class:`CorpusStats` carries those few numbers of its last segment
and a merge keeps the right operand's, so ``a + b`` stays exact.  A vector does not carry them:
after an all-reduce, methods 0-4 are exact, and methods 5-7 need a gather of the objects
instead (``torch.distributed.all_gather_object`` then :func:`merge`).  A callable smoothing
function that is not one of NLTK's methods needs the tokens themselves and is refused.

Sources: the sums are Papineni et al. (2002)'s corpus-level micro-averages; the scores are
computed by ``rapidbleu.BLEU.compute_bleu`` (sacreBLEU's formula) and by the same code as
``rapidbleu.nltk.corpus_bleu``.
"""

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from ._validate import check_counts, resolve_workers

__all__ = ["ConfigMismatchError", "CorpusStats", "corpus_stats", "from_segment_stats", "merge", "nltk_corpus_stats"]

#: The parts of a sacreBLEU-style configuration (``BLEU`` settings that the statistics or the
#: score depend on, plus the number of references the signature reports).
_SACRE_KEYS = (
    "tokenizer_signature",
    "lowercase",
    "max_ngram_order",
    "num_refs",
    "smooth_method",
    "smooth_value",
    "effective_order",
)


class ConfigMismatchError(ValueError):
    """Statistics computed with different settings were merged (a ``ValueError``)."""


def _freeze(config: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted(config.items()))


class CorpusStats:
    """Summed BLEU statistics of a (part of a) corpus, with the settings they were computed with.

    Build one with :func:`corpus_stats`, :func:`nltk_corpus_stats`,
    :func:`from_segment_stats` or :meth:`from_vector`; the constructor is not public API.

    Attributes:
        style: ``"sacrebleu"`` or ``"nltk"``.
        config: ``dict`` of the settings (sacreBLEU: tokenizer signature, lowercase, N,
            number of references, smoothing method and value, effective order; NLTK: N).
        vector: int64 ``ndarray`` (layout in the module docstring), read-only.
        n_segments: number of segments summed.
    """

    __slots__ = ("_config", "_last", "style", "vector")
    _last: tuple[int, ...] | None

    def __init__(self, style: str, config: dict[str, Any], vector, last: tuple[int, ...] | None = None):
        if style not in ("sacrebleu", "nltk"):
            raise ValueError(f"style must be 'sacrebleu' or 'nltk', got {style!r}")
        n = int(config["max_ngram_order"])
        width = (2 + 2 * n if style == "sacrebleu" else 2 + 3 * n) + 1
        check_counts(vector, "statistics vector")
        vec = np.array(vector, dtype=np.int64).reshape(-1)
        if vec.shape != (width,):
            raise ValueError(f"{style} statistics of order {n} have {width} values, got shape {np.shape(vector)}")
        if (vec < 0).any():
            raise ValueError("statistics must be non-negative counts")
        vec.setflags(write=False)
        self.style = style
        self._config = _freeze(config)
        self.vector = vec
        # NLTK: (last segment's hyp_len, 5-gram matches, max(1, 5-gram total)) for methods 5-7
        self._last = None if last is None else tuple(int(v) for v in last)

    # -- introspection ----------------------------------------------------------------------
    @property
    def config(self) -> dict[str, Any]:
        return dict(self._config)

    @property
    def max_ngram_order(self) -> int:
        return int(self.config["max_ngram_order"])

    @property
    def n_segments(self) -> int:
        return int(self.vector[-1])

    @property
    def hyp_len(self) -> int:
        return int(self.vector[0])

    @property
    def ref_len(self) -> int:
        return int(self.vector[1])

    @property
    def matches(self) -> list:
        n = self.max_ngram_order
        return [int(v) for v in self.vector[2 : 2 + n]]

    @property
    def totals(self) -> list:
        n = self.max_ngram_order
        return [int(v) for v in self.vector[2 + n : 2 + 2 * n]]

    def __repr__(self) -> str:
        return (
            f"CorpusStats(style={self.style!r}, segments={self.n_segments}, hyp_len={self.hyp_len}, "
            f"ref_len={self.ref_len}, matches={self.matches}, totals={self.totals}, config={self.config})"
        )

    def __eq__(self, other) -> bool:
        return (
            isinstance(other, CorpusStats)
            and self.style == other.style
            and self._config == other._config
            and np.array_equal(self.vector, other.vector)
            and self._last == other._last
        )

    __hash__ = None  # type: ignore[assignment]  # mutable-looking value object, compared by value

    # -- pickling (``__slots__`` and a read-only array) ---------------------------------------
    def __reduce__(self):
        return (_rebuild, (self.style, self.config, self.vector.tolist(), self._last))

    # -- merging ----------------------------------------------------------------------------
    def _check_compatible(self, other: "CorpusStats") -> None:
        if not isinstance(other, CorpusStats):
            raise TypeError(f"cannot add CorpusStats and {type(other).__name__}")
        if other.style != self.style:
            raise ConfigMismatchError(f"cannot merge {self.style}-style and {other.style}-style statistics")
        if other._config != self._config:
            mine, theirs = self.config, other.config
            diff = ", ".join(
                f"{k}: {mine.get(k)!r} vs {theirs.get(k)!r}"
                for k in sorted(set(mine) | set(theirs))
                if mine.get(k) != theirs.get(k)
            )
            raise ConfigMismatchError(f"cannot merge statistics computed with different settings ({diff})")

    def __add__(self, other: "CorpusStats") -> "CorpusStats":
        if isinstance(other, int) and other == 0:  # sum() starts from 0
            return self
        self._check_compatible(other)
        last = other._last if other.n_segments else self._last
        return CorpusStats(self.style, self.config, self.vector + other.vector, last)

    def __radd__(self, other) -> "CorpusStats":
        if isinstance(other, int) and other == 0:
            return self
        if isinstance(other, CorpusStats):
            return other.__add__(self)
        return NotImplemented

    # -- vectors (all-reduce) --------------------------------------------------------------
    def from_vector(self, vector) -> "CorpusStats":
        """Statistics with this object's settings and the given vector (e.g. the result of an
        all-reduce sum of ``.vector`` over processes).  NLTK's last-segment numbers (methods
        5-7) are not in the vector and are dropped."""
        return CorpusStats(self.style, self.config, vector, None)

    # -- scores ----------------------------------------------------------------------------
    def score(self, weights=None, smoothing_function=None, auto_reweigh: bool = False):
        """The corpus score of the summed statistics.

        sacreBLEU style: a ``rapidbleu.BLEUScore`` (``.score`` on 0-100), equal to
        ``BLEU(**settings).corpus_score(...)`` on the whole corpus; takes no arguments.

        NLTK style: the value of ``rapidbleu.nltk.corpus_bleu(refs, hyps, weights,
        smoothing_function, auto_reweigh)`` on the whole corpus (0-1; a list for several
        weight tuples).  ``weights`` defaults to ``(0.25,) * 4`` and may not need more orders
        than the statistics hold.

        Raises:
            ValueError: no segments; NLTK weights longer than N; methods 5-7 without the
                last segment's numbers (after :meth:`from_vector`).
            TypeError: arguments given for sacreBLEU style, or a smoothing callable that is
                not one of NLTK's methods.
        """
        if self.n_segments == 0:
            raise ValueError("no segments: the statistics are empty")
        if self.style == "sacrebleu":
            if weights is not None or smoothing_function is not None or auto_reweigh:
                raise TypeError(
                    "sacreBLEU-style statistics are scored with the settings they were computed with; "
                    "weights/smoothing_function/auto_reweigh are for NLTK-style statistics"
                )
            from .bleu import BLEU

            c = self.config
            return BLEU.compute_bleu(
                self.matches,
                self.totals,
                self.hyp_len,
                self.ref_len,
                c["smooth_method"],
                c["smooth_value"],
                c["effective_order"],
                c["max_ngram_order"],
            )
        return self._nltk_score(weights, smoothing_function, auto_reweigh)

    def _nltk_score(self, weights, smoothing_function, auto_reweigh):
        from . import nltk as rb_nltk
        from ._scoring_py import nltk_from_counts

        if weights is None:
            weights = (0.25, 0.25, 0.25, 0.25)
        weight_list, several = rb_nltk._weight_list(weights)
        order = max(len(w) for w in weight_list)
        n = self.max_ngram_order
        if order == 0:
            return [0] * len(weight_list) if several else 0
        if order > n:
            raise ValueError(f"weights need {order} n-gram orders but the statistics hold {n}")
        method, smoother = rb_nltk._resolve_smoothing(smoothing_function)
        if method is None:
            raise TypeError(
                "a custom smoothing callable receives the tokens of the last segment, which "
                "statistics do not hold; use one of SmoothingFunction's methods"
            )
        last = self._last
        if method in (5, 6, 7) and last is None:
            raise ValueError(
                f"smoothing method{method} reads the last segment of the corpus, which statistics "
                "rebuilt from a vector do not hold; merge CorpusStats objects instead"
            )
        v = self.vector
        dens = v[2 + 2 * n : 2 + 3 * n]

        def p5_last():
            return rb_nltk.Fraction(last[1], last[2], _normalize=False)

        scores = nltk_from_counts(
            [int(x) for x in v[2 : 2 + order]],
            [int(x) for x in dens[:order]],
            int(v[0]),
            int(v[1]),
            weight_list,
            method,
            smoother,
            auto_reweigh,
            p5_last,
            last[0] if last else 0,
        )
        return scores if several else scores[0]

    def signature(self):
        """sacreBLEU's signature (``BLEUSignature``) of these statistics' settings.

        Raises:
            TypeError: NLTK-style statistics (NLTK has no signature).
        """
        if self.style != "sacrebleu":
            raise TypeError("NLTK-style statistics have no sacreBLEU signature")
        from .score import BLEUSignature

        return BLEUSignature(self.config)


def _rebuild(style, config, vector, last):
    return CorpusStats(style, config, vector, last)


def merge(parts: Iterable[CorpusStats]) -> CorpusStats:
    """The sum of ``parts`` in order (the corpus they make when concatenated).

    Raises:
        ValueError: no parts.
        ConfigMismatchError: parts computed with different settings or styles.
        TypeError: a part that is not a ``CorpusStats``.
    """
    it = iter(parts)
    try:
        total = next(it)
    except StopIteration:
        raise ValueError("merge: no statistics to merge") from None
    if not isinstance(total, CorpusStats):
        raise TypeError(f"merge: expected CorpusStats, got {type(total).__name__}")
    for part in it:
        total = total + part
    return total


# --------------------------------------------------------------------------------------------
# Building statistics
# --------------------------------------------------------------------------------------------
def sacre_config(metric) -> dict[str, Any]:
    """The settings of a ``rapidbleu.BLEU`` that go into a :class:`CorpusStats` (its number of
    references is known once it has scored, or been given, references): a dict of the
    signature's fields (tokenizer, lowercase, smoothing, order, effective order, nrefs).

    Raises:
        ValueError: the metric has not seen references yet (its number of references is
            unknown).
    """
    num_refs = getattr(metric, "num_refs", None)
    if num_refs is None:
        raise ValueError("the metric has not seen references yet: the number of references is unknown")
    return {
        "tokenizer_signature": metric.tokenizer_signature,
        "lowercase": bool(metric.lowercase),
        "max_ngram_order": int(metric.max_ngram_order),
        "num_refs": num_refs,
        "smooth_method": metric.smooth_method,
        "smooth_value": metric.smooth_value,
        "effective_order": bool(metric.effective_order),
    }


def from_segment_stats(
    segment_stats,
    metric=None,
    *,
    style: str = "sacrebleu",
    max_ngram_order: int | None = None,
    last5: tuple[int, int] | None = None,
) -> CorpusStats:
    """A :class:`CorpusStats` from a per-segment statistics matrix.

    Args:
        segment_stats: integer array ``(n, 2 + 2N)`` (``BLEU.corpus_statistics`` rows, or
            NLTK-style rows of ``rapidbleu.nltk``'s core: closest reference length).
        metric: for sacreBLEU style, the ``rapidbleu.BLEU`` that computed them.
        style: ``"sacrebleu"`` or ``"nltk"``.
        max_ngram_order: NLTK style: N (default: from the width).
        last5: NLTK style: ``(matches_5, totals_5)`` of the last segment when N < 5
            (smoothing methods 5 and 7; ignored when N >= 5).

    Raises:
        ValueError: malformed matrix (not 2-D, wrong width, negative values).
    """
    st = np.asarray(segment_stats)
    if st.ndim != 2 or (st.shape[1] - 2) % 2 or st.shape[1] < 4:
        raise ValueError(f"segment statistics must be an (n, 2 + 2N) matrix, got shape {st.shape}")
    if not np.issubdtype(st.dtype, np.integer):
        raise TypeError(f"segment statistics must be integers, got dtype {st.dtype}")
    n = (st.shape[1] - 2) // 2
    sums = st.sum(axis=0, dtype=np.int64)
    if style == "sacrebleu":
        if metric is None:
            raise TypeError("sacreBLEU-style statistics need the BLEU metric that computed them")
        config = sacre_config(metric)
        if config["max_ngram_order"] != n:
            raise ValueError(
                f"the metric has max_ngram_order={config['max_ngram_order']} but the statistics hold {n} orders"
            )
        return CorpusStats("sacrebleu", config, np.concatenate([sums, [st.shape[0]]]))
    if style != "nltk":
        raise ValueError(f"style must be 'sacrebleu' or 'nltk', got {style!r}")
    if max_ngram_order is not None and int(max_ngram_order) != n:
        raise ValueError(f"max_ngram_order={max_ngram_order} but the statistics hold {n} orders")
    dens = np.maximum(st[:, 2 + n :], 1).sum(axis=0, dtype=np.int64)
    last = None
    if st.shape[0]:
        row = st[-1]
        if n >= 5:
            last = (int(row[0]), int(row[6]), max(1, int(row[6 + n])))
        elif last5 is not None:
            last = (int(row[0]), int(last5[0]), max(1, int(last5[1])))
    return CorpusStats("nltk", {"max_ngram_order": n}, np.concatenate([sums, dens, [st.shape[0]]]), last)


def corpus_stats(
    hypotheses: Sequence[str], references: Sequence[Sequence[str]], metric=None, **bleu_kwargs
) -> CorpusStats:
    """sacreBLEU-style statistics of a corpus (or of any part of one).

    Args:
        hypotheses: n hypothesis strings.
        references: reference streams, each n strings (as ``BLEU.corpus_score``).
        metric: a ``rapidbleu.BLEU`` to use; otherwise one is made from ``bleu_kwargs``
            (``tokenize``, ``lowercase``, ``smooth_method``, ``smooth_value``,
            ``effective_order``, ``max_ngram_order``, ``force``, ``trg_lang``, ``workers``).

    Returns:
        A :class:`CorpusStats`; ``.score()`` equals ``metric.corpus_score(hypotheses,
        references)``, and so does the score of the sum of the statistics of its parts.

    Raises:
        TypeError, ValueError: malformed input, as ``BLEU.corpus_statistics``; an empty corpus
        gives empty statistics (scoring those raises ``ValueError``).
    """
    from .bleu import BLEU

    if metric is None:
        metric = BLEU(**bleu_kwargs)
    elif bleu_kwargs:
        raise TypeError("give either a metric or BLEU settings, not both")
    st = metric.corpus_statistics(hypotheses, references)
    return from_segment_stats(st, metric)


def nltk_corpus_stats(list_of_references, hypotheses, max_ngram_order: int = 4, *, workers: int = 1) -> CorpusStats:
    """NLTK-style statistics of a corpus of token sequences (arguments as
    ``rapidbleu.nltk.corpus_bleu``: per hypothesis a list of tokenized references).

    ``max_ngram_order`` bounds the weights the statistics can be scored with.  The score of
    the result (or of a sum of parts) equals ``rapidbleu.nltk.corpus_bleu`` (and NLTK's) on the
    whole corpus.

    Raises:
        LengthMismatchError (a ``ValueError``): different numbers of hypotheses and reference
            lists; ValueError: a hypothesis without references (``NoReferencesError``),
            ``max_ngram_order < 1``; TypeError: a ``None`` hypothesis, a dict or set.
    """
    resolve_workers(workers)
    from . import nltk as rb_nltk

    if isinstance(max_ngram_order, bool) or not isinstance(max_ngram_order, (int, np.integer)) or max_ngram_order < 1:
        raise ValueError(f"max_ngram_order must be an integer >= 1, got {max_ngram_order!r}")
    n = int(max_ngram_order)
    rb_nltk._check_corpus_args(list_of_references, hypotheses)
    rb_nltk._check_lengths(list_of_references, hypotheses)
    with rb_nltk._segments_checked_on_error(list_of_references, hypotheses):
        st = rb_nltk._stats(list_of_references, hypotheses, n, workers=workers)
    last5 = None
    if n < 5 and len(hypotheses):
        f = rb_nltk.modified_precision(list_of_references[-1], hypotheses[-1], 5)
        last5 = (f.numerator, f.denominator)
    return from_segment_stats(st, style="nltk", last5=last5)
