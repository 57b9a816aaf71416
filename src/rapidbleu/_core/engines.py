"""What the Spark and Dask integrations run on each partition: plain Python lists in, integer
statistics or float scores out (no Spark or Dask import here, so workers import little).

Everything goes through the metric protocol (``rapidbleu._core.metric``), and no metric is named
here: a partition's corpus statistics are ``(vector, num_refs)``: the metric's aggregated row
(``Metric.aggregate``: its sums, then what it keeps of the last segment) and the segment count
(the vector of ``rapidbleu.stats``), and the number of references of its segments (``-1`` when
it varies).  The driver merges them in partition order (``Metric.add_vectors``, :func:`combine`)
into the arguments of one ``rapidbleu.stats.CorpusStats``.

The engines' front doors (``rapidbleu.spark``, ``.dask``, ``.ray``) also share their checks of
the arguments here: :func:`column_names`, :func:`check_columns` and :func:`require`.
"""

import copy
import importlib
import inspect
from collections.abc import Sequence
from functools import lru_cache
from math import copysign
from typing import Any

import numpy as np

from .._base.errors import missing_columns_error, missing_extra_error, unknown_metric_error
from .inputs import streams_of_rows
from .metric import METRICS, Metric
from .nltk.nltk_scores import rows_named
from .validate import check_style

#: What a partition gives back: its vector (``Metric.aggregate`` and the segment count) and its
#: number of references per segment (``-1`` when it varies).
Part = tuple[Any, int]


# --------------------------------------------------------------------------------------------
# The front doors' arguments
# --------------------------------------------------------------------------------------------
def require(door: str, modules: Sequence[str], needs: str, extra: str) -> None:
    """Import ``modules`` (the optional dependencies of ``rapidbleu.<door>``).

    Raises:
        ImportError: one is missing, saying which extra installs them.
    """
    try:
        for module in modules:
            importlib.import_module(module)
    except ImportError:
        raise missing_extra_error(door, needs, extra) from None


def column_names(references: str | Sequence[str]) -> list[str]:
    """The reference column names: one name, or a non-empty list of names.

    Raises:
        TypeError: anything else.
    """
    names = [references] if isinstance(references, str) else list(references)
    if not names or not all(isinstance(n, str) for n in names):
        raise TypeError(f"references must be a column name or a list of column names, got {references!r}")
    return names


def check_columns(columns: Sequence[str], hypothesis: str, refs: Sequence[str], container: str) -> None:
    """The hypothesis and reference columns are among ``columns`` (of a ``container``:
    ``"DataFrame"``, ``"Dataset"``).

    Raises:
        ValueError: some are not, naming them and the columns there are.
    """
    missing = [c for c in [hypothesis, *refs] if c not in columns]
    if missing:
        raise missing_columns_error(missing, container, list(columns))


class ScoreOptions:
    """Settings of a distributed computation (picklable, checked on the driver): a metric of
    the registry and its constructor's keywords (``Metric.engine_options``).

    Args:
        style: ``"sacrebleu"`` (0-100: the metric named by ``metric``) or another metric's
            style (``"nltk"``: NLTK's BLEU, 0-1): the registered metric of that style that
            restyles ``metric`` (``Metric.restyles``).
        metric: the metric's id (``"bleu"``, ``"chrf"``, ``"ter"``, ...: ``rapidbleu.registry``;
            default BLEU).
        **options: the metric's constructor's keywords (BLEU: ``tokenize``, ``lowercase``,
            ``smooth_method``, ``smooth_value``, ``effective_order`` for the corpus score --
            sentence scores use effective order, as ``sacrebleu.sentence_bleu`` -- and
            ``max_ngram_order``; chrF: ``char_order``, ``word_order``, ``beta``, ``lowercase``,
            ``whitespace``, ``eps_smoothing``; TER: ``normalized``, ``no_punct``,
            ``asian_support``, ``case_sensitive``; NLTK style: ``weights``,
            ``smoothing_function`` (``None``, ``"method0"``..``"method7"`` or a
            ``SmoothingFunction`` method, rapidbleu's or NLTK's), ``auto_reweigh``,
            ``max_ngram_order`` (N: BLEU-N, NLTK's ``weights=(1/N,) * N``; with ``weights``,
            one tuple of N), ``tokenize`` (``None``: ``str.split()``) and ``lowercase``).  ``tokenize=None`` and
            ``lowercase=False`` are left out (each metric's default).

    Raises:
        ValueError: unknown style or metric, a metric the style does not have; an option
            value the metric refuses; NLTK style's ``max_ngram_order`` with weights of another
            length or a list of weight tuples.
        TypeError: an option the metric does not take (naming the style that takes it), a
            custom smoothing callable (it needs the tokens; not supported here).
    """

    def __init__(self, style: str = "sacrebleu", metric: str = "bleu", **options: Any) -> None:
        check_style(style)
        self.style = style
        self.metric_id = _metric_of_style(style, metric)
        self.metric_class = METRICS[self.metric_id]
        given = {k: v for k, v in options.items() if not (k == "tokenize" and v is None)}
        if given.get("lowercase") is False:
            del given["lowercase"]
        _check_keywords(self.metric_class, given)
        # the class itself, not its name: it pickles by reference, so a worker process unpickling
        # these settings imports the metric's module, which registers it
        self.options = self.metric_class.engine_options(given)
        self.metric()  # checks every option now, on the driver

    def key(self) -> tuple[Any, ...]:
        """The per-process cache's key: the class, the options frozen, and their kinds (equal
        values of other types, ``1``/``1.0``/``True``, and ``0.0``/``-0.0``, are other
        settings)."""
        return (self.metric_class, _freeze(self.options), _kinds(self.options))

    def metric(self, sentence: bool = False) -> Metric:
        """The metric of these settings (cached per process); ``sentence``: the one sentence
        scores use (``Metric.sentence_metric``: BLEU with effective order on)."""
        return _metric(self.key(), sentence)

    def vector_width(self) -> int:
        """Values of a partition's vector: the aggregated row (its sums and what it keeps of
        the last segment) and the segment count."""
        metric = self.metric()
        return metric.aggregate_width() + len(metric.last_columns()) + 1

    def sums_width(self) -> int:
        """How many values of a partition's vector are sums (``Metric.aggregate_width``); the
        others but the last (the segment count, a sum too) are the last segment's."""
        return self.metric().aggregate_width()

    def vector_type(self) -> str:
        """``"long"`` (counts) or ``"double"`` (float statistics): the vector's SQL type."""
        return "double" if self.metric().stats_dtype == "float64" else "long"


def _metric_of_style(style: str, metric: str) -> str:
    """The id of the registered metric ``metric`` in ``style``.

    Raises:
        ValueError: an unknown metric, or one the style does not have."""
    if metric not in METRICS:
        raise unknown_metric_error(metric, [m for m, c in METRICS.items() if c.restyles is None])
    cls = METRICS[metric]
    if cls.style != "sacrebleu":  # a metric restyled: named by its style, not its id
        raise ValueError(f"metric={metric!r} is {cls.display_name}: give style={cls.style!r} instead")
    if style == "sacrebleu":
        return metric
    for other_id, other in METRICS.items():
        if other.style == style and other.restyles == metric:
            return other_id
    raise ValueError(f"style={style!r} has no {cls.display_name}: metric={metric!r} is sacreBLEU style only")


def _accepts(cls: type[Metric]) -> tuple[set[str], bool]:
    """The keyword names of ``cls``'s constructor, and whether it takes any (``**``)."""
    params = inspect.signature(cls).parameters.values()
    names = {p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
    return names, any(p.kind == p.VAR_KEYWORD for p in params)


def _check_keywords(cls: type[Metric], options: dict[str, Any]) -> None:
    """Every option is a keyword of ``cls``'s constructor.

    Raises:
        TypeError: some are not, naming the style whose metric takes them, if one does."""
    names, any_name = _accepts(cls)
    names.discard("references")  # (the rows' columns, not a setting: a cache of references has no place here)
    unknown = sorted(set(options) - names)
    if not unknown or any_name:
        return
    family = cls.restyles or cls.metric_id
    for other in METRICS.values():
        if other is not cls and (other.restyles or other.metric_id) == family and set(unknown) <= _accepts(other)[0]:
            raise TypeError(
                f"{', '.join(unknown)}: {other.display_name} options (style={other.style!r}); "
                f"{cls.display_name} takes none of them"
            )
    raise TypeError(f"{cls.display_name} takes no option {', '.join(unknown)}")


def _freeze(value: Any) -> Any:
    """A hashable equivalent of an option value (lists and tuples as tuples, dicts as sorted
    items), for the per-process cache of metrics."""
    if isinstance(value, dict):
        return tuple(sorted((k, _freeze(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(v) for v in value)
    return value


def _kinds(value: Any) -> Any:
    """The types of an option value's parts (the sign of a float too: ``-0.0 == 0.0``), which
    :func:`_freeze`'s equality does not see."""
    if isinstance(value, dict):
        return tuple(sorted((k, _kinds(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return tuple(_kinds(v) for v in value)
    if isinstance(value, float):
        return (type(value), copysign(1.0, value))
    return type(value)


@lru_cache(maxsize=8)
def _metric(key: tuple[Any, ...], sentence: bool) -> Metric:
    metric_class: type[Metric]
    metric_class, options, _ = key
    metric = metric_class(**dict(options))  # (lists as tuples: the constructors take either)
    return metric.sentence_metric() if sentence else metric


# --------------------------------------------------------------------------------------------
# Input shapes
# --------------------------------------------------------------------------------------------
def row_name(i: int, positions: Sequence[int] | None = None, partition: int | None = None) -> str:
    """How an error names row ``i`` of a piece of a partition: ``positions[i]``, its row in the
    whole input, or with ``partition`` its row in that partition (a piece such as an Arrow
    batch starts further in); else its position in the piece, which is the partition."""
    if positions is None:
        return f"row {i} of the partition"
    return f"row {positions[i]}" if partition is None else f"row {positions[i]} of partition {partition}"


def as_streams(
    hyps: Sequence[Any],
    ref_columns: Sequence[Sequence[Any]],
    where: str = "",
    positions: Sequence[int] | None = None,
    partition: int | None = None,
) -> list[list[Any]]:
    """Reference streams (``streams[k][i]``; ``None`` = no k-th reference) from reference
    columns whose values are strings, nulls, or arrays (lists) of strings: row ``i``'s
    references are its values in column order, an array contributing all its elements.
    ``positions``, ``partition``: each row's position in the whole input, or in ``partition``,
    for the errors (:func:`row_name`).

    Raises:
        TypeError: a hypothesis that is not a string, a reference value of another type.
        ValueError: a row without any reference.
    """
    for i, h in enumerate(hyps):
        if not isinstance(h, str):
            what = "null" if h is None else type(h).__name__
            raise TypeError(f"{where}hypothesis at {row_name(i, positions, partition)} is {what}, expected a string")
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
                        f"{where}references at {row_name(i, positions, partition)}: a {type(v).__name__}, "
                        "expected a string, null or array of strings"
                    )
            rows.append(row)
        streams = streams_of_rows(rows, at_least=1)
    for i in range(len(hyps)):
        if all(s[i] is None for s in streams):
            raise ValueError(f"{where}{row_name(i, positions, partition)} has no reference")
    return streams


def column_list(series: Any) -> list[Any]:
    """A pandas Series as a list, missing values (``None``, ``pd.NA``, NaN) as ``None``."""
    values: list[Any] = series.tolist()
    if series.isna().any():
        mask = series.isna().tolist()
        values = [None if m else v for v, m in zip(values, mask, strict=False)]
    return values


def merge_parts(opts: ScoreOptions, parts: Sequence[Part | None]) -> Part | None:
    """The ``Part`` of consecutive pieces of one partition (None if all are empty)."""
    present = [p for p in parts if p is not None]
    if not present:
        return None
    nrefs = {p[1] for p in present}
    return np.asarray(_merged(opts.metric(), present)), (nrefs.pop() if len(nrefs) == 1 else -1)


def _merged(metric: Metric, parts: Sequence[Part]) -> list[Any]:
    """The vector of consecutive parts (``Metric.add_vectors``, left to right)."""
    vectors: list[list[Any]] = [np.asarray(p[0]).tolist() for p in parts]
    total = vectors[0]
    for vector in vectors[1:]:
        total = metric.add_vectors(total, vector)
    return total


# --------------------------------------------------------------------------------------------
# Per partition
# --------------------------------------------------------------------------------------------
def partition_stats(opts: ScoreOptions, hyps: Sequence[str], streams: list[list[Any]]) -> Part | None:
    """``(vector, num_refs)`` of one partition, or None when it has no rows."""
    if not len(hyps):
        return None
    metric = opts.metric()
    st = metric.corpus_statistics(list(hyps), streams)
    return np.asarray([*metric.aggregate(st), st.shape[0]]), int(metric.num_refs)


def combine(opts: ScoreOptions, parts: Sequence[Part | None]) -> tuple[str, dict[str, Any], list[Any]]:
    """``(metric_id, config, vector)`` of the partitions' results merged in partition order:
    the arguments of one ``rapidbleu.stats.CorpusStats``.

    The number of references is the partitions' common one, else ``-1`` (``nrefs:var``), as
    the metric finds it on the whole corpus.

    Raises:
        ValueError: no rows at all.
    """
    present = [p for p in parts if p is not None]
    if not present:
        raise ValueError("no rows: the DataFrame is empty")
    metric = opts.metric()
    nrefs = {int(p[1]) for p in present}
    whole = copy.copy(metric)  # the cached metric is shared: the corpus's count goes on a copy
    whole.num_refs = nrefs.pop() if len(nrefs) == 1 else -1
    return metric.metric_id, whole.config(), _merged(metric, present)


def score(opts: ScoreOptions, stats: Any) -> Any:
    """The corpus score with the metric's own scoring (``Metric.scoring_settings``): a score
    object (sacreBLEU style) or NLTK's float(s)."""
    return stats.score(**opts.metric().scoring_settings())


def partition_sentence_scores(
    opts: ScoreOptions,
    hyps: Sequence[str],
    streams: list[list[Any]],
    where: str = "",
    positions: Sequence[int] | None = None,
    partition: int | None = None,
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
    with rows_named(lambda i: f"{where}{row_name(i, positions, partition)}"):
        out = np.asarray(opts.metric(sentence=True).sentence_scores(list(hyps), streams), dtype=np.float64)
    if out.ndim != 1:
        raise ValueError("sentence scores take one weight tuple, not a list of them")
    return out
