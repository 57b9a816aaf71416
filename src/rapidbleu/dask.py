"""Any metric of ``rapidbleu.registry`` (sacreBLEU's, or one registered there) and NLTK-style BLEU
on Dask DataFrames and bags: corpus scores from per-partition statistics, and sentence scores
per row (extra ``rapidbleu[dask]``: ``dask[dataframe]``, ``distributed``).

Corpus scores (:func:`corpus_score`, :func:`corpus_stats`; :func:`corpus_bleu` for BLEU): one
task per partition turns its rows into the statistics vector of ``rapidbleu.stats`` (the
metric's column sums and the segment count, plus the number of references and, NLTK style, the
partition's last segment's numbers); only those small tuples travel back, and the client sums
them in partition order and scores them through the metric protocol.  The score equals a
single-process ``rapidbleu.BLEU().corpus_score`` / ``rapidbleu.CHRF().corpus_score`` /
``rapidbleu.TER().corpus_score`` / ``rapidbleu.nltk.corpus_bleu`` on the rows in order, float
for float (TER's float statistics: exactly with one or two references per row; with three or
more the sum of partition sums may differ from one pass in the last bits, see
``rapidbleu.spark``).

Sentence scores (:func:`sentence_score`; :func:`sentence_bleu` for BLEU): ``map_partitions``
returning a float64 Series aligned with the DataFrame (BLEU 0-100 with effective order, as
``sacrebleu.sentence_bleu``; chrF and TER 0-100, as ``sentence_chrf``/``sentence_ter``; NLTK
style 0-1).

Bags (:func:`bag_corpus_stats`, :func:`bag_corpus_score`, :func:`bag_sentence_score`, and
:func:`bag_corpus_bleu`, :func:`bag_sentence_bleu` for BLEU): elements are ``(hypothesis,
references)`` pairs, references a string or a list of strings.

References of a DataFrame: one column name or several; each value a string, a null (no
reference in that position) or a list of strings (build list columns with
``dask.config.set({"dataframe.convert-string": False})``: by default Dask turns object columns,
lists included, into strings).  Options: as ``rapidbleu.spark`` (``metric`` and its
constructor's options, or ``style="nltk"`` and NLTK's).

Example::

    import dask.dataframe as dd, pandas as pd
    import rapidbleu.dask as rbd

    ddf = dd.from_pandas(pd.DataFrame({"hyp": hyps, "ref": refs}), npartitions=8)
    rbd.corpus_bleu(ddf, "hyp", "ref")              # BLEUScore, as rapidbleu.BLEU()
    rbd.corpus_score(ddf, "hyp", "ref", metric="chrf", word_order=2)  # chrF++
    ddf["bleu"] = rbd.sentence_bleu(ddf, "hyp", "ref")
    ddf["chrf"] = rbd.sentence_score(ddf, "hyp", "ref", metric="chrf")
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from ._core import engines as _engines
from .stats import CorpusStats

if TYPE_CHECKING:  # (the optional extra, not followed by mypy: these are Any to it)
    import pandas as pd
    from dask.bag import Bag
    from dask.dataframe import DataFrame, Series

__all__ = [
    "bag_corpus_bleu",
    "bag_corpus_score",
    "bag_corpus_stats",
    "bag_sentence_bleu",
    "bag_sentence_score",
    "corpus_bleu",
    "corpus_score",
    "corpus_stats",
    "sentence_bleu",
    "sentence_score",
]


def _require() -> None:
    _engines.require("dask", ["dask", "dask.dataframe"], "Dask", "dask")


#: The column that carries each row's position in the whole DataFrame to the partitions, so
#: that an error names the row there (a partition's own index may restart at 0).
_ROW = "__rapidbleu_row__"
_WHERE = "rapidbleu.dask: "


def _with_rows(ddf: DataFrame, columns: list[str]) -> DataFrame:
    """``ddf``'s ``columns`` (each once) and ``_ROW``: 0, 1, 2, ... over the whole DataFrame
    (a lazy running count: each partition adds the lengths of the ones before it)."""
    cols = list(dict.fromkeys(columns))
    rows = ddf.assign(**{_ROW: 1})[_ROW].cumsum() - 1
    return ddf[cols].assign(**{_ROW: rows})


def _frame_inputs(pdf: pd.DataFrame, hypothesis: str, refs: list[str]) -> tuple[list[Any], list[list[Any]], list[int]]:
    rows: list[int] = pdf[_ROW].tolist()
    hyps = _engines.column_list(pdf[hypothesis])
    cols = [_engines.column_list(pdf[r]) for r in refs]
    return hyps, _engines.as_streams(hyps, cols, _WHERE, rows), rows


def _frame_part(
    pdf: pd.DataFrame, opts: _engines.ScoreOptions, hypothesis: str, refs: list[str]
) -> _engines.Part | None:
    hyps, streams, _ = _frame_inputs(pdf, hypothesis, refs)
    return _engines.partition_stats(opts, hyps, streams)


def _frame_sentences(pdf: pd.DataFrame, opts: _engines.ScoreOptions, hypothesis: str, refs: list[str]) -> pd.Series:
    import pandas as pd

    hyps, streams, rows = _frame_inputs(pdf, hypothesis, refs)
    scores = _engines.partition_sentence_scores(opts, hyps, streams, _WHERE, rows)
    return pd.Series(scores, index=pdf.index, dtype="float64")


def corpus_stats(ddf: DataFrame, hypothesis: str, references: str | Sequence[str], **options: Any) -> CorpusStats:
    """Corpus statistics of a Dask DataFrame (see the module docstring); computed now.

    Raises:
        ImportError: Dask missing.
        ValueError: unknown column, empty DataFrame, a row without reference, bad options.
        TypeError: a null or non-string hypothesis.

    A bad row is named by its position in the whole DataFrame (0-based, in partition order),
    whatever its partition or index.
    """
    _require()
    import dask

    opts = _engines.ScoreOptions(**options)
    refs = _engines.column_names(references)
    _engines.check_columns(ddf.columns, hypothesis, refs, "DataFrame")
    parts = [
        dask.delayed(_frame_part)(d, opts, hypothesis, refs) for d in _with_rows(ddf, [hypothesis, *refs]).to_delayed()
    ]
    return CorpusStats(*_engines.combine(opts, dask.compute(*parts)))


def corpus_score(
    ddf: DataFrame, hypothesis: str, references: str | Sequence[str], metric: str = "bleu", **options: Any
) -> Any:
    """The corpus score of a Dask DataFrame under ``metric`` (``"bleu"``, ``"chrf"``, ``"ter"``; its
    constructor's options as keywords): ``rapidbleu.BLEUScore``/``CHRFScore`` (0-100), NLTK's
    float (0-1) with ``style="nltk"``; equal to the single-process score.  Errors as
    :func:`corpus_stats`, and ValueError for an unknown metric."""
    opts = _engines.ScoreOptions(metric=metric, **options)
    return _engines.score(opts, corpus_stats(ddf, hypothesis, references, metric=metric, **options))


def corpus_bleu(ddf: DataFrame, hypothesis: str, references: str | Sequence[str], **options: Any) -> Any:
    """Corpus BLEU of a Dask DataFrame: :func:`corpus_score` with ``metric="bleu"``."""
    return corpus_score(ddf, hypothesis, references, "bleu", **options)


def sentence_score(
    ddf: DataFrame, hypothesis: str, references: str | Sequence[str], metric: str = "bleu", **options: Any
) -> Series:
    """A lazy float64 Dask Series of sentence scores under ``metric`` (named after it), aligned
    with ``ddf``'s index: ``sacrebleu.sentence_bleu`` / ``sentence_chrf`` values (0-100), NLTK's
    ``sentence_bleu`` (0-1) with ``style="nltk"``.

    Raises:
        ValueError, TypeError: bad metric, options or columns now; bad rows when computed
            (named as in :func:`corpus_stats`), and NLTK's method 6 on a row without a trigram
            match (``rapidbleu.nltk.SmoothingError``, naming the row).
    """
    _require()
    opts = _engines.ScoreOptions(metric=metric, **options)
    refs = _engines.column_names(references)
    _engines.check_columns(ddf.columns, hypothesis, refs, "DataFrame")
    return _with_rows(ddf, [hypothesis, *refs]).map_partitions(
        _frame_sentences, opts, hypothesis, refs, meta=(metric, "f8")
    )


def sentence_bleu(ddf: DataFrame, hypothesis: str, references: str | Sequence[str], **options: Any) -> Series:
    """A lazy float64 Dask Series of sentence BLEU: :func:`sentence_score` with
    ``metric="bleu"``."""
    return sentence_score(ddf, hypothesis, references, "bleu", **options)


def _pairs(seq: Iterable[Any], partition: int, where: str = _WHERE) -> tuple[list[Any], list[list[Any]]]:
    hyps: list[Any] = []
    refs: list[Any] = []
    for k, item in enumerate(seq):
        try:
            h, r = item
        except (TypeError, ValueError):
            raise TypeError(
                f"{where}bag elements must be (hypothesis, references) pairs (element {k} of partition {partition})"
            ) from None
        hyps.append(h)
        refs.append(r)
    return hyps, _engines.as_streams(hyps, [refs], where, range(len(hyps)), partition)


def _bag_part(seq: Iterable[Any], opts: _engines.ScoreOptions, partition: int) -> _engines.Part | None:
    hyps, streams = _pairs(seq, partition)
    return _engines.partition_stats(opts, hyps, streams)


def _bag_sentences(seq: Iterable[Any], opts: _engines.ScoreOptions, partition: int) -> list[float]:
    hyps, streams = _pairs(seq, partition)
    rows = range(len(hyps))
    scores: list[float] = _engines.partition_sentence_scores(opts, hyps, streams, _WHERE, rows, partition).tolist()
    return scores


def bag_corpus_stats(bag: Bag, **options: Any) -> CorpusStats:
    """Corpus statistics of a ``dask.bag`` of ``(hypothesis, references)`` pairs (references:
    a string or a list of strings); computed now.  Errors as :func:`corpus_stats`; a bad pair
    is named by its position in its partition and the partition's number."""
    _require()
    import dask

    opts = _engines.ScoreOptions(**options)
    parts = dask.compute(*[dask.delayed(_bag_part)(d, opts, k) for k, d in enumerate(bag.to_delayed())])
    return CorpusStats(*_engines.combine(opts, parts))


def bag_corpus_score(bag: Bag, metric: str = "bleu", **options: Any) -> Any:
    """The corpus score of a bag of ``(hypothesis, references)`` pairs under ``metric`` (see
    :func:`corpus_score`): a ``BLEUScore``/``CHRFScore`` (0-100), NLTK's float (0-1) with
    ``style="nltk"``.

    Raises:
        ImportError: the ``rapidbleu[dask]`` extra is missing; ValueError/TypeError: as
            :func:`corpus_stats` (an empty bag, a pair without references, a non-string), an
            unknown metric.
    """
    opts = _engines.ScoreOptions(metric=metric, **options)
    return _engines.score(opts, bag_corpus_stats(bag, metric=metric, **options))


def bag_corpus_bleu(bag: Bag, **options: Any) -> Any:
    """Corpus BLEU of a bag of ``(hypothesis, references)`` pairs: :func:`bag_corpus_score`
    with ``metric="bleu"``."""
    return bag_corpus_score(bag, "bleu", **options)


def bag_sentence_score(bag: Bag, metric: str = "bleu", **options: Any) -> Bag:
    """A lazy bag of sentence scores under ``metric`` (0-100; NLTK style 0-1), one per
    ``(hypothesis, references)`` pair, in order.

    Raises:
        ImportError: the ``rapidbleu[dask]`` extra is missing; ValueError/TypeError: a bad
            metric or options now, errors in the pairs when the bag is computed, as in
            :func:`bag_corpus_score`, a bad pair named by its position in its partition and
            the partition's number.
    """
    _require()
    import dask
    import dask.bag as db

    opts = _engines.ScoreOptions(metric=metric, **options)
    # partition by partition, each knowing its number (an error names the pair's partition)
    return db.from_delayed([dask.delayed(_bag_sentences)(d, opts, k) for k, d in enumerate(bag.to_delayed())])


def bag_sentence_bleu(bag: Bag, **options: Any) -> Bag:
    """A lazy bag of sentence BLEU floats: :func:`bag_sentence_score` with ``metric="bleu"``."""
    return bag_sentence_score(bag, "bleu", **options)
