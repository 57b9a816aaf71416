"""What the Spark and Dask integrations run on each partition: plain Python lists in, integer
statistics or float scores out (no Spark or Dask import here, so workers import little).

Everything goes through the metric protocol (``rapidbleu._core.metric``): a partition's corpus
statistics are ``(vector, num_refs, last)``: the metric's aggregated row and the segment count
(the vector of ``rapidbleu.stats``), the number of references of its segments (``-1`` when it
varies) and, NLTK style, the last segment's numbers for smoothing methods 5-7.  The driver
combines them into one ``CorpusStats`` (:func:`combine`).
"""

import copy
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from ..stats import CorpusStats
from .metric import METRICS, Metric
from .nltk_style import METHODS, NLTKBLEU, SmoothingFunction, resolve_smoothing, rows_named
from .validate import check_style

Part = tuple[Any, int, tuple[int, ...] | None]


class ScoreOptions:
    """Settings of a distributed computation (picklable, checked on the driver).

    Args:
        style: ``"sacrebleu"`` (0-100, ``rapidbleu.BLEU`` or the metric named by ``metric``)
            or ``"nltk"`` (0-1, ``rapidbleu.nltk``).
        metric: sacreBLEU style: the metric's name (``"bleu"``, ``"chrf"``, ``"ter"``: every
            registered metric but NLTK's BLEU, ``style="nltk"``; default BLEU).
        tokenize: sacreBLEU style: a sacreBLEU tokenizer name (default ``13a``).  NLTK style:
            ``None`` (default) splits on whitespace (``str.split()``); a tokenizer name
            tokenizes with it, then splits on spaces.
        lowercase: lowercase the text first (BLEU, chrF; TER has ``case_sensitive``).
        weights, smoothing_function, auto_reweigh: NLTK style, as ``rapidbleu.nltk``; the
            smoothing function is ``None``, ``"method0"``..``"method7"`` or a
            ``SmoothingFunction`` method (rapidbleu's or NLTK's).
        **options: the metric's other options, as its constructor takes them (BLEU:
            ``smooth_method``, ``smooth_value``, ``effective_order`` for the corpus score --
            sentence scores use effective order, as ``sacrebleu.sentence_bleu`` -- and
            ``max_ngram_order``; chrF: ``char_order``, ``word_order``, ``beta``,
            ``whitespace``, ``eps_smoothing``; TER: ``normalized``, ``no_punct``,
            ``asian_support``, ``case_sensitive``, and no ``tokenize`` or ``lowercase``).

    Raises:
        ValueError: unknown style, metric, smoothing method or tokenizer; a metric other than
            BLEU with ``style="nltk"``; an option value the metric refuses.
        TypeError: options of the other style, a custom smoothing callable (it needs the
            tokens; not supported here).
    """

    def __init__(
        self,
        style: str = "sacrebleu",
        metric: str = "bleu",
        tokenize: str | None = None,
        lowercase: bool = False,
        weights: Any = None,
        smoothing_function: Any = None,
        auto_reweigh: bool = False,
        **options: Any,
    ) -> None:
        check_style(style)
        self.style = style
        self.tokenize = tokenize
        self.lowercase = bool(lowercase)
        if style == "sacrebleu":
            if weights is not None or smoothing_function is not None or auto_reweigh:
                raise TypeError("weights/smoothing_function/auto_reweigh are NLTK-style options (style='nltk')")
            if metric not in METRICS or metric == "nltk":
                known = ", ".join(m for m in METRICS if m != "nltk")
                raise ValueError(f"metric must be one of {known}, got {metric!r}")
            self.metric_id = metric
            #: the metric's class travels with the settings (pickled by reference): a worker
            #: imports the module that defines it, and with it the metric, however registered
            self.metric_class: type[Metric] = METRICS[metric]
            if metric == "bleu":
                options["force"] = True
            if tokenize is not None:
                options["tokenize"] = tokenize
            if self.lowercase:  # (the metrics' default is off; TER has case_sensitive instead)
                options["lowercase"] = True
            self.options = options
        else:
            if metric != "bleu":
                raise ValueError(f"style='nltk' is NLTK's BLEU; metric={metric!r} is sacreBLEU style only")
            if options:
                raise TypeError(f"unexpected NLTK-style options: {', '.join(sorted(options))}")
            self.metric_id = "nltk"
            self.metric_class = NLTKBLEU
            self.smoothing = _smoothing_spec(smoothing_function)
            self.options = {
                "weights": weights,
                "auto_reweigh": bool(auto_reweigh),
                "tokenize": tokenize,
                "lowercase": self.lowercase,
            }
        self.metric()  # checks every option now, on the driver

    def key(self) -> tuple[Any, ...]:
        smoothing = getattr(self, "smoothing", None)
        spec = None if smoothing is None else _freeze_spec(smoothing)
        return (self.metric_class, _freeze(self.options), spec)

    def metric(self, sentence: bool = False) -> Metric:
        """The metric of these settings (cached per process); ``sentence``: the one sentence
        scores use (``Metric.sentence_metric``: BLEU with effective order on)."""
        return _metric(self.key(), sentence)

    def smoothing_function(self) -> Any:
        return _smoothing_function(getattr(self, "smoothing", None))

    def vector_width(self) -> int:
        """Values of a partition's vector: the aggregated row and the segment count."""
        return self.metric().aggregate_width() + 1

    def vector_type(self) -> str:
        """``"long"`` (counts) or ``"double"`` (float statistics): the vector's SQL type."""
        return "double" if self.metric().stats_dtype == "float64" else "long"


def _freeze(options: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
    return tuple(
        sorted(
            (k, tuple(map(tuple, v)) if k == "weights" and _nested(v) else (tuple(v) if isinstance(v, list) else v))
            for k, v in options.items()
        )
    )


def _nested(v: Any) -> bool:
    try:
        v[0][0]
    except (TypeError, IndexError, KeyError):
        return False
    return True


def _freeze_spec(spec: tuple[int, dict[str, Any]]) -> tuple[Any, ...]:
    return spec[0], tuple(sorted(spec[1].items()))


def _smoothing_spec(fn: Any) -> tuple[int, dict[str, Any]] | None:
    """A picklable description ``(method, parameters)`` of an NLTK smoothing function."""
    if fn is None:
        return None
    if isinstance(fn, str):
        if fn not in METHODS:
            raise ValueError(f"smoothing_function must be one of {', '.join(METHODS)}, got {fn!r}")
        return int(fn[-1]), {}
    method, owner = resolve_smoothing(fn)
    if method is None:
        raise TypeError(
            "a custom smoothing callable needs each pair's tokens and is not supported here; "
            "use one of SmoothingFunction's methods"
        )
    if owner is None:
        return None
    return method, {"epsilon": owner.epsilon, "alpha": owner.alpha, "k": owner.k}


def _smoothing_function(spec: tuple[int, dict[str, Any]] | None) -> Any:
    if spec is None:
        return None
    method, params = spec
    return getattr(SmoothingFunction(**params), f"method{method}")


@lru_cache(maxsize=8)
def _metric(key: tuple[Any, ...], sentence: bool) -> Metric:
    cls: type[Metric] = key[0]
    options, spec = key[1:]
    kwargs = dict(options)
    if cls is NLTKBLEU:
        weights = kwargs.pop("weights")
        return NLTKBLEU(
            weights if weights is not None else (0.25,) * 4,
            _smoothing_function(None if spec is None else (spec[0], dict(spec[1]))),
            **kwargs,
        )
    metric = cls(**kwargs)
    return metric.sentence_metric() if sentence else metric


# --------------------------------------------------------------------------------------------
# Input shapes
# --------------------------------------------------------------------------------------------
def row_name(i: int, positions: Sequence[int] | None = None) -> str:
    """How an error names row ``i`` of a partition: ``positions[i]`` (its row in the whole
    input) when they are known, else its position in the partition."""
    return f"row {i} of the partition" if positions is None else f"row {positions[i]}"


def as_streams(
    hyps: Sequence[Any], ref_columns: Sequence[Sequence[Any]], where: str = "", positions: Sequence[int] | None = None
) -> list[list[Any]]:
    """Reference streams (``streams[k][i]``; ``None`` = no k-th reference) from reference
    columns whose values are strings, nulls, or arrays (lists) of strings: row ``i``'s
    references are its values in column order, an array contributing all its elements.
    ``positions``: each row's position in the whole input, for the errors (:func:`row_name`).

    Raises:
        TypeError: a hypothesis that is not a string, a reference value of another type.
        ValueError: a row without any reference.
    """
    for i, h in enumerate(hyps):
        if not isinstance(h, str):
            what = "null" if h is None else type(h).__name__
            raise TypeError(f"{where}hypothesis at {row_name(i, positions)} is {what}, expected a string")
    cols = [list(c) for c in ref_columns]
    if all(set(map(type, c)) <= {str, type(None)} for c in cols):
        streams = cols  # the common case: one string column per reference
    else:
        rows = []
        for i in range(len(hyps)):
            row: list[str | None] = []
            for c in cols:
                v = c[i]
                if v is None or isinstance(v, str):
                    row.append(v)
                elif isinstance(v, (list, tuple, np.ndarray)):
                    row.extend(v)
                else:
                    raise TypeError(
                        f"{where}references at {row_name(i, positions)}: a {type(v).__name__}, "
                        "expected a string, null or array of strings"
                    )
            rows.append(row)
        k = max((len(r) for r in rows), default=1)
        streams = [[r[j] if j < len(r) else None for r in rows] for j in range(max(k, 1))]
    for i in range(len(hyps)):
        if all(s[i] is None for s in streams):
            raise ValueError(f"{where}{row_name(i, positions)} has no reference")
    return streams


def column_list(series: Any) -> list[Any]:
    """A pandas Series as a list, missing values (``None``, ``pd.NA``, NaN) as ``None``."""
    values: list[Any] = series.tolist()
    if series.isna().any():
        mask = series.isna().tolist()
        values = [None if m else v for v, m in zip(values, mask, strict=False)]
    return values


def merge_parts(parts: Sequence[Part | None]) -> Part | None:
    """The ``Part`` of consecutive pieces of one partition (None if all are empty)."""
    present = [p for p in parts if p is not None]
    if not present:
        return None
    vector = np.sum([p[0] for p in present], axis=0)
    nrefs = {p[1] for p in present}
    return vector, (nrefs.pop() if len(nrefs) == 1 else -1), present[-1][2]


# --------------------------------------------------------------------------------------------
# Per partition
# --------------------------------------------------------------------------------------------
def partition_stats(opts: ScoreOptions, hyps: Sequence[str], streams: list[list[Any]]) -> Part | None:
    """``(vector, num_refs, last)`` of one partition, or None when it has no rows."""
    if not len(hyps):
        return None
    metric = opts.metric()
    st = metric.corpus_statistics(list(hyps), streams)
    vector = [*metric.combine(st), st.shape[0]]
    last = metric.tail(st) if isinstance(metric, NLTKBLEU) else None
    return np.asarray(vector), int(metric.num_refs), last


def combine(opts: ScoreOptions, parts: Sequence[Part | None]) -> CorpusStats:
    """One ``CorpusStats`` from the partitions' results, in partition order.

    The number of references is the partitions' common one, else ``-1`` (``nrefs:var``), as
    the metric finds it on the whole corpus.

    Raises:
        ValueError: no rows at all.
    """
    present = [p for p in parts if p is not None]
    if not present:
        raise ValueError("no rows: the DataFrame is empty")
    metric = opts.metric()
    dtype = np.float64 if metric.stats_dtype == "float64" else np.int64
    vector = np.sum([np.asarray(p[0], dtype=dtype) for p in present], axis=0)
    nrefs = {int(p[1]) for p in present}
    whole = copy.copy(metric)  # the cached metric is shared: the corpus's count goes on a copy
    whole.num_refs = nrefs.pop() if len(nrefs) == 1 else -1
    return CorpusStats(metric.metric_id, whole.config(), vector, present[-1][2])


def score(opts: ScoreOptions, stats: CorpusStats) -> Any:
    """The corpus score: a score object (sacreBLEU style) or NLTK's float(s)."""
    if opts.style == "sacrebleu":
        return stats.score()
    return stats.score(opts.options["weights"], opts.smoothing_function(), opts.options["auto_reweigh"])


def partition_sentence_scores(
    opts: ScoreOptions,
    hyps: Sequence[str],
    streams: list[list[Any]],
    where: str = "",
    positions: Sequence[int] | None = None,
) -> np.ndarray:
    """float64 sentence score of every row: the metric's ``sentence_scores`` (BLEU with effective
    order, as ``sacrebleu.sentence_bleu``, 0-100; NLTK's ``sentence_bleu``, 0-1).

    Raises:
        ValueError: NLTK style with a list of weight tuples (one score per row is wanted).
        rapidbleu.nltk.SmoothingError: NLTK's method 6 on a row without a trigram match, named
            as :func:`row_name` names it.
    """
    if not len(hyps):
        return np.zeros(0, dtype=np.float64)
    with rows_named(lambda i: f"{where}{row_name(i, positions)}"):
        out = np.asarray(opts.metric(sentence=True).sentence_scores(list(hyps), streams), dtype=np.float64)
    if out.ndim != 1:
        raise ValueError("sentence scores take one weight tuple, not a list of them")
    return out
