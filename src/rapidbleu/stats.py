"""Mergeable corpus statistics: score a corpus split any way, in any number of processes.

A corpus score is a function of a handful of sums over the segments of a corpus (BLEU's
clipped matches and lengths, chrF's character n-gram counts, TER's edits), so the statistics
of the parts of a corpus add up to the statistics of the whole, and the sum scores exactly
(float for float) as one call on the whole corpus does.  This module makes that a public
contract, for every metric of the protocol (``rapidbleu._core.metric``):

* :func:`corpus_stats` (any metric: ``BLEU`` by default, or the ``metric`` given, by object or
  name) and
  :func:`nltk_corpus_stats` (NLTK's ``corpus_bleu``) return a :class:`CorpusStats`;
* ``a + b``, ``sum([a, b, c])`` and :func:`merge` add them (segments of ``b`` after those of
  ``a``), refusing statistics computed with another configuration;
* :meth:`CorpusStats.score` gives the same result as ``rapidbleu.BLEU(...).corpus_score`` /
  ``rapidbleu.nltk.corpus_bleu`` on the concatenated corpus; :meth:`CorpusStats.signature`
  the sacreBLEU signature;
* objects pickle (a few hundred bytes), and :attr:`CorpusStats.vector` /
  :meth:`CorpusStats.from_vector` turn them into one int64 vector and back, for
  ``torch.distributed.all_reduce``, MPI ``Allreduce``, a Spark or Dask column sum.

Vector layout: the metric's aggregated row, then the number of segments (int64; float64 for
metrics with float statistics, TER, whose merged sums are then float additions):

* sacreBLEU's BLEU, ``2 + 2N + 1`` values: ``[hyp_len, ref_len, matches_1..N, totals_1..N,
  segments]`` where ``ref_len`` is the closest reference length (ties to the shorter one);
* other sacreBLEU metrics: their statistics columns (``Metric.stats_columns``), then
  ``segments``;
* NLTK style, ``2 + 3N + 4 + 1`` values: the same sums, then ``denominators_1..N`` = the sum
  over segments of ``max(1, totals_n)`` (NLTK's per-segment floor of the precision
  denominator), then four numbers of the *last* segment (``last_count``, its ``hyp_len``, its
  5-gram matches and ``max(1, totals_5)``), then ``segments``.

The values after a metric's sums (``Metric.last_columns``: NLTK's smoothing methods 5, 6 and 7
read the last segment of the corpus, its 5-gram precision and its length) are not sums: a
merge keeps the right operand's (of its last non-empty part), so ``a + b`` stays exact.  A
plain sum of vectors adds them too: after an all-reduce of several non-empty parts
``last_count`` is their number, and methods 5-7 refuse the result (methods 0-4 are exact);
gather the objects instead (``torch.distributed.all_gather_object`` then :func:`merge`).  A
callable smoothing function that is not one of NLTK's methods needs the tokens themselves and
is refused.

Sources: the sums are Papineni et al. (2002)'s corpus-level micro-averages; the scores are
computed by ``rapidbleu.BLEU.compute_bleu`` (sacreBLEU's formula) and by the same code as
``rapidbleu.nltk.corpus_bleu``.
"""

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

from . import registry
from ._base.errors import ConfigMismatchError
from ._base.lazy import is_ndarray
from ._core.inputs import check_held, check_statistics_matrix
from ._core.metric import Metric
from ._core.nltk.nltk_inputs import checked_corpus, token_statistics
from ._core.nltk.nltk_smoothing import modified_precision
from ._core.validate import check_order, check_style
from .nltk_bleu import NLTKBLEU

__all__ = [
    "ConfigMismatchError",
    "CorpusStats",
    "corpus_stats",
    "from_segment_stats",
    "merge",
    "nltk_corpus_stats",
]


def _freeze(config: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted(config.items()))


class CorpusStats:
    """Summed statistics of a (part of a) corpus, with the metric settings they were computed
    with.

    Build one with :func:`corpus_stats`, :func:`nltk_corpus_stats`,
    :func:`from_segment_stats` or :meth:`from_vector`; the constructor is not public API.

    Attributes:
        metric_id: the metric (``"bleu"``, ``"chrf"``, ``"ter"``; ``"nltk"`` for NLTK style).
        style: ``"nltk"`` for NLTK-style statistics, else ``"sacrebleu"``.
        config: ``dict`` of the settings (``Metric.config()``: for BLEU the tokenizer
            signature, lowercase, N, number of references, smoothing method and value,
            effective order; NLTK style: N).
        vector: ``ndarray`` (layout in the module docstring: ``Metric.aggregate``'s row and the
            segment count), read-only.
        n_segments: number of segments summed.
    """

    __slots__ = ("_config", "metric_id", "vector")

    def __init__(self, metric_id: str, config: dict[str, Any], vector: Any, metric: Metric | None = None) -> None:
        cls = self.metric_class(metric_id)
        if metric is None:  # (settings from elsewhere: a pickle, a merge; checked here)
            metric = cls.from_config(config)
        columns = (*metric.aggregate_columns(), *metric.last_columns(), "segments")
        width = len(columns)
        raw = np.asarray(vector)
        if raw.size != width:
            raise ValueError(f"{metric_id} statistics with these settings have {width} values, got shape {raw.shape}")
        # the one statistics rule, on the vector as given (no cast before it: nothing wraps)
        vec = check_statistics_matrix(
            raw.reshape(-1) if is_ndarray(vector) else np.array(vector, dtype=object).reshape(-1),
            columns,
            cls.stats_dtype,
            "statistics vector",
        )
        if cls.stats_dtype == "int64":
            check_held(vec.reshape(1, -1), np.int64, columns, "statistics vector", "the vector's type")
            vec = vec.astype(np.int64)
        else:
            # float statistics (TER): the metric's own rules on the row, a whole segment count
            vec = np.array(vec, dtype=np.float64)
            if vec[-1] != np.floor(vec[-1]):
                raise ValueError(f"the segment count must be a whole number, got {vec[-1].item()!r}")
            if width - 1 == len(metric.stats_columns):
                metric.check_statistics(vec[:-1], "statistics vector")
        vec.setflags(write=False)
        self.metric_id = metric_id
        self._config = _freeze(config)
        self.vector = vec

    @staticmethod
    def metric_class(metric_id: str) -> type[Metric]:
        """The class whose metrics score statistics of ``metric_id``: the one registered
        (``rapidbleu.registry.get``).

        Raises:
            ValueError: no metric registered under ``metric_id``.
        """
        return registry.get(metric_id)

    # -- introspection ----------------------------------------------------------------------
    @property
    def style(self) -> str:
        """``"sacrebleu"`` or ``"nltk"``: the metric's (``Metric.style``)."""
        return self.metric_class(self.metric_id).style

    @property
    def config(self) -> dict[str, Any]:
        return dict(self._config)

    @property
    def metric(self) -> Metric:
        """A metric with these settings (``Metric.from_config``), which scores the vector."""
        return self.metric_class(self.metric_id).from_config(self.config)

    @property
    def max_ngram_order(self) -> int:
        """N (BLEU and NLTK style)."""
        return int(self.config["max_ngram_order"])

    @property
    def n_segments(self) -> int:
        return int(self.vector[-1])

    @property
    def row(self) -> list[Any]:
        """The aggregated row (``Metric.aggregate``: the vector without its segment count), as
        Python numbers."""
        row: list[Any] = self.vector[:-1].tolist()
        return row

    @property
    def hyp_len(self) -> int:
        """BLEU: summed hypothesis lengths."""
        return int(self.vector[0])

    @property
    def ref_len(self) -> int:
        """BLEU: summed closest reference lengths."""
        return int(self.vector[1])

    @property
    def matches(self) -> list[int]:
        """BLEU: clipped n-gram matches per order."""
        n = self.max_ngram_order
        return [int(v) for v in self.vector[2 : 2 + n]]

    @property
    def totals(self) -> list[int]:
        """BLEU: hypothesis n-grams per order."""
        n = self.max_ngram_order
        return [int(v) for v in self.vector[2 + n : 2 + 2 * n]]

    def __repr__(self) -> str:
        if self.metric.stats_columns[:2] == ("hyp_len", "ref_len"):  # BLEU's layout (both styles)
            return (
                f"CorpusStats(style={self.style!r}, segments={self.n_segments}, hyp_len={self.hyp_len}, "
                f"ref_len={self.ref_len}, matches={self.matches}, totals={self.totals}, config={self.config})"
            )
        return (
            f"CorpusStats(metric={self.metric_id!r}, segments={self.n_segments}, row={self.row}, config={self.config})"
        )

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, CorpusStats)
            and self.metric_id == other.metric_id
            and self._config == other._config
            and np.array_equal(self.vector, other.vector)
        )

    __hash__ = None  # type: ignore[assignment]  # mutable-looking value object, compared by value

    # -- pickling (``__slots__`` and a read-only array) ---------------------------------------
    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self.metric_id, self.config, self.vector.tolist()))

    # -- merging ----------------------------------------------------------------------------
    def _check_compatible(self, other: object) -> None:
        if not isinstance(other, CorpusStats):
            raise TypeError(f"cannot add CorpusStats and {type(other).__name__}")
        if other.metric_id != self.metric_id:
            if other.style != self.style:
                raise ConfigMismatchError(f"cannot merge {self.style}-style and {other.style}-style statistics")
            raise ConfigMismatchError(f"cannot merge {self.metric_id} and {other.metric_id} statistics")
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
        # exact integer sums (past int64 the vector refuses them), one float addition per value
        total = self.metric.add_vectors(self.vector.tolist(), other.vector.tolist())
        return CorpusStats(self.metric_id, self.config, total)

    def __radd__(self, other: object) -> "CorpusStats":
        if isinstance(other, int) and other == 0:
            return self
        if isinstance(other, CorpusStats):
            return other.__add__(self)
        return NotImplemented

    # -- vectors (all-reduce) --------------------------------------------------------------
    def from_vector(self, vector: Any) -> "CorpusStats":
        """Statistics with this object's settings and the given vector (e.g. the result of an
        all-reduce sum of ``.vector`` over processes).  The values after the sums (NLTK's last
        segment, for methods 5-7) are as the vector holds them: a sum of several non-empty parts
        holds no last segment (see the module docstring).

        Raises:
            ValueError: another length, negative or (for counts) fractional values; for float
                statistics (TER) non-finite values, a fractional segment count or a row the
                metric refuses (``Metric.check_statistics``: fractional edits).
        """
        return CorpusStats(self.metric_id, self.config, vector)

    # -- scores ----------------------------------------------------------------------------
    def score(self, weights: Any = None, smoothing_function: Any = None, auto_reweigh: bool = False) -> Any:
        """The corpus score of the summed statistics.

        sacreBLEU metrics: the score object (``BLEUScore``, ...; ``.score`` on 0-100), equal to
        the metric's ``corpus_score(...)`` on the whole corpus; takes no arguments.

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
        given = {"weights": weights, "smoothing_function": smoothing_function, "auto_reweigh": auto_reweigh or None}
        return self.metric.score_aggregate(self.row, **{k: v for k, v in given.items() if v is not None})

    def signature(self) -> Any:
        """sacreBLEU's signature (``BLEUSignature``, ...) of these statistics' settings.

        Raises:
            TypeError: NLTK-style statistics (NLTK has no signature).
        """
        return self.metric.get_signature()


def _rebuild(metric_id: str, config: dict[str, Any], vector: Any) -> CorpusStats:
    return CorpusStats(metric_id, config, vector)


def merge(parts: Iterable[CorpusStats]) -> CorpusStats:
    """The sum of ``parts`` in order (the corpus they make when concatenated).

    Raises:
        ValueError: no parts.
        ConfigMismatchError: parts computed with different settings or metrics.
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
def of_metric(
    metric: Metric, segment_stats: Any, aggregate: Callable[[np.ndarray], list[Any]] | None = None
) -> CorpusStats:
    """A :class:`CorpusStats` of per-segment statistics computed by ``metric``: its aggregated
    row (``Metric.aggregate``, or ``aggregate`` of the checked rows when given) and the number
    of rows, with ``metric.config()``.

    Raises:
        ValueError: statistics that are not the metric's (``Metric.check_statistics``), or a
            metric that has not seen references yet.
    """
    st = metric.check_statistics(segment_stats, "segment statistics")
    st = st.reshape(-1, len(metric.stats_columns))
    if len(st):
        row = (aggregate or metric.aggregate)(st)
    else:
        row = [0] * (metric.aggregate_width() + len(metric.last_columns()))
    return CorpusStats(metric.metric_id, metric.config(), [*row, st.shape[0]], metric)


def from_segment_stats(
    segment_stats: Any,
    metric: Metric | None = None,
    *,
    style: str = "sacrebleu",
    max_ngram_order: int | None = None,
    last5: tuple[int, int] | None = None,
) -> CorpusStats:
    """A :class:`CorpusStats` from a per-segment statistics matrix.

    Args:
        segment_stats: array ``(n, k)`` (``metric.corpus_statistics`` rows, or NLTK-style
            BLEU rows ``(n, 2 + 2N)`` of ``rapidbleu.nltk``'s core: closest reference length).
        metric: for sacreBLEU style, the metric that computed them (``rapidbleu.BLEU``, ...).
        style: ``"sacrebleu"`` or ``"nltk"``.
        max_ngram_order: NLTK style: N (default: from the width).
        last5: NLTK style: ``(matches_5, totals_5)`` of the last segment when N < 5
            (smoothing methods 5 and 7; ignored when N >= 5).

    Raises:
        ValueError: malformed matrix (not 2-D, wrong width, negative values).
        TypeError: NLTK style: not integers; sacreBLEU style: no metric.
    """
    st = np.asarray(segment_stats)
    if style == "sacrebleu":
        if metric is None:
            raise TypeError("sacreBLEU-style statistics need the metric that computed them (e.g. a BLEU)")
        if st.ndim != 2:
            raise ValueError(f"segment statistics must be an (n, k) matrix, got shape {st.shape}")
        return of_metric(metric, st)
    check_style(style)
    if st.ndim != 2 or (st.shape[1] - 2) % 2 or st.shape[1] < 4:
        raise ValueError(f"segment statistics must be an (n, 2 + 2N) matrix, got shape {st.shape}")
    if not np.issubdtype(st.dtype, np.integer):
        raise TypeError(f"segment statistics must be integers, got dtype {st.dtype}")
    n = (st.shape[1] - 2) // 2
    if max_ngram_order is not None and int(max_ngram_order) != n:
        raise ValueError(f"max_ngram_order={max_ngram_order} but the statistics hold {n} orders")
    nltk = NLTKBLEU.counting(n)
    return of_metric(nltk, st, lambda rows: nltk.aggregate(rows, last5))


def corpus_stats(
    hypotheses: Sequence[Any], references: Sequence[Sequence[Any]], metric: Metric | str | None = None, **options: Any
) -> CorpusStats:
    """Statistics of a corpus (or of any part of one), for any metric of the protocol.

    Args:
        hypotheses: n hypothesis strings.
        references: reference streams, each n strings (as ``corpus_score``).
        metric: the metric to use: a metric object (``rapidbleu.BLEU(...)``, ``rapidbleu.CHRF(...)``,
            ``rapidbleu.TER(...)``, ...), or the name of a registered metric (``"bleu"``,
            ``"chrf"``, ``"ter"``, ``"nltk"``, ...: ``rapidbleu.registry``), made with
            ``options``; None: ``"bleu"``.
        **options: with a name or None, the metric's constructor arguments (BLEU:
            ``tokenize``, ``lowercase``, ``smooth_method``, ...; chrF: ``char_order``,
            ``word_order``, ``beta``, ...; TER: ``normalized``, ``no_punct``, ...).

    Returns:
        A :class:`CorpusStats`; ``.score()`` equals ``metric.corpus_score(hypotheses,
        references)``, and so does the score of the sum of the statistics of its parts.

    Raises:
        TypeError, ValueError: malformed input, as ``corpus_statistics``; an empty corpus
        gives empty statistics (scoring those raises ``ValueError``); an unknown metric name;
        options given with a metric object, or options the metric does not take.
    """
    if metric is None or isinstance(metric, str):
        metric = registry.get("bleu" if metric is None else metric)(**options)
    elif options:
        raise TypeError("give either a metric object or a metric name with its options, not both")
    return of_metric(metric, metric.corpus_statistics(hypotheses, references))


def nltk_corpus_stats(
    list_of_references: Any, hypotheses: Any, max_ngram_order: int = 4, *, workers: int = 1
) -> CorpusStats:
    """NLTK-style statistics of a corpus of token sequences (arguments as
    ``rapidbleu.nltk.corpus_bleu``: per hypothesis a list of tokenized references).

    ``max_ngram_order`` bounds the weights the statistics can be scored with.  The score of
    the result (or of a sum of parts) equals ``rapidbleu.nltk.corpus_bleu`` (and NLTK's) on the
    whole corpus.

    Raises:
        LengthMismatchError (a ``ValueError``): different numbers of hypotheses and reference
            lists; ValueError: a hypothesis without references (``NoReferencesError``),
            ``max_ngram_order`` not in 1..64; TypeError: a ``None`` hypothesis, a dict or set,
            ``max_ngram_order`` not an int.
    """
    # (checked at run time whatever the annotation says: callers are not type-checked)
    n = check_order(max_ngram_order)
    nltk = NLTKBLEU.counting(n, workers=workers)  # checks workers
    with checked_corpus(list_of_references, hypotheses):
        st = token_statistics(list_of_references, hypotheses, n, workers=workers)
    last5 = None
    if len(hypotheses) and n < 5:  # the last segment's 5-gram precision (methods 5-7), from its tokens
        p5 = modified_precision(list_of_references[-1], hypotheses[-1], 5)
        last5 = (p5.numerator, p5.denominator)
    return of_metric(nltk, st, lambda rows: nltk.aggregate(rows, last5))
