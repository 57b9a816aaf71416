"""Any metric of ``rapidbleu.registry`` (sacreBLEU's, or one registered there) and NLTK-style BLEU
on Spark DataFrames: corpus scores from per-partition statistics, and a sentence-score column
(extra ``rapidbleu[spark]``: ``pyspark>=4,<5``).

Corpus scores (:func:`corpus_score`, :func:`corpus_stats`; :func:`corpus_bleu` for BLEU):
every partition turns its rows into one row of statistics with ``mapInArrow`` (the
``rapidbleu.stats`` vector: the metric's column sums -- BLEU's ``[hyp_len, ref_len,
matches_1..N, totals_1..N]``, chrF's ``[hyp, ref, match]`` per n-gram order -- and the segment
count, plus the number of references and, NLTK style, the partition's last segment's numbers);
Spark sums those columns; the driver receives one row of numbers (no text) and scores it through
the metric protocol.  The score equals a single-process ``rapidbleu.BLEU().corpus_score`` /
``rapidbleu.CHRF().corpus_score`` / ``rapidbleu.TER().corpus_score`` /
``rapidbleu.nltk.corpus_bleu`` on the rows in DataFrame order, float for float (NLTK smoothing
methods 5-7 read the last row of the last non-empty partition, which is the last row in that
order).  TER's statistics are floats (a reference length is the mean over a row's references):
with one or two references per row every sum is exact, so the partitions' sum is one pass's;
with three or more the float sum depends on its order and may differ from one pass in the last
bits (within 1e-13 relative).

Sentence scores (:func:`sentence_score`; :func:`sentence_bleu` for BLEU): an Arrow-based pandas
UDF, one float per row, batch by batch through the metric's ``sentence_scores``
(``sacrebleu.sentence_bleu`` with effective order, 0-100; ``sentence_chrf``, ``sentence_ter``,
0-100; NLTK's ``sentence_bleu``, 0-1).

References: one column name or several; each value a string, a null (no reference in that
position) or an array of strings (one column of arrays holds all references of a row).

Options (keyword arguments of every function, see ``rapidbleu._core.engines.ScoreOptions``):
``metric`` (``"bleu"``, ``"chrf"``, ``"ter"``, or any other id of ``rapidbleu.registry``) and its
constructor's options -- BLEU: ``tokenize``, ``lowercase``, ``smooth_method``,
``smooth_value``, ``effective_order``, ``max_ngram_order``; chrF: ``char_order``,
``word_order``, ``beta``, ``lowercase``, ``whitespace``, ``eps_smoothing``; TER:
``normalized``, ``no_punct``, ``asian_support``, ``case_sensitive`` -- or
``style="nltk"`` with NLTK's ``weights``, ``smoothing_function`` (``"method1"`` or a
``SmoothingFunction`` method), ``auto_reweigh``, ``max_ngram_order`` (N: BLEU-N, uniform
weights of N orders), ``tokenize`` (default: ``str.split()``), ``lowercase``.

Spark's Python workers must import rapidbleu: run them with the driver's interpreter
(``PYSPARK_PYTHON=$(which python)``, or ``spark.pyspark.python``) or install rapidbleu on the
cluster's Python.

Example::

    from pyspark.sql import SparkSession
    import rapidbleu.spark as rbs

    spark = SparkSession.builder.master("local[2]").getOrCreate()
    df = spark.createDataFrame([("The cat sat.", "The cat sat down.")], ["hyp", "ref"])
    rbs.corpus_bleu(df, "hyp", "ref")                          # BLEUScore, as rapidbleu.BLEU()
    rbs.corpus_score(df, "hyp", "ref", metric="chrf", word_order=2)  # chrF++, as rapidbleu.CHRF
    df.withColumn("bleu", rbs.sentence_bleu("hyp", "ref"))     # one sacreBLEU sentence score per row
    df.withColumn("chrf", rbs.sentence_score("hyp", "ref", metric="chrf"))
"""

import contextlib
import warnings
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from ._core import engines as _engines
from .stats import CorpusStats

# No `from __future__ import annotations` here: pandas_udf reads the UDF's annotations as types.
if TYPE_CHECKING:  # (the optional extra, not followed by mypy: these are Any to it)
    from pyspark.sql import Column, DataFrame

__all__ = ["corpus_bleu", "corpus_score", "corpus_stats", "sentence_bleu", "sentence_score"]


def _require() -> None:
    _engines.require("spark", ["pyspark"], "PySpark", "spark")


_WHERE = "rapidbleu.spark: "

#: The start of PySpark's ``FutureWarning`` when pandas is newer than it supports ("PySpark does
#: not yet fully support pandas >= 3.0.0. ..."), raised at each use of its pandas code paths: a
#: notice about PySpark and pandas, not about the caller's use of rapidbleu.
_PANDAS_NOTICE = "PySpark does not yet fully support pandas"


@contextlib.contextmanager
def _without_pandas_notice() -> Iterator[None]:
    """rapidbleu's own calls into PySpark's pandas paths, without :data:`_PANDAS_NOTICE` (other
    warnings as usual)."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=_PANDAS_NOTICE, category=FutureWarning)
        yield


def corpus_stats(df: "DataFrame", hypothesis: str, references: str | Sequence[str], **options: Any) -> CorpusStats:
    """Corpus statistics of a DataFrame, summed by Spark (see the module docstring).

    Args:
        df: a ``pyspark.sql.DataFrame``.
        hypothesis: name of the string column of hypotheses.
        references: name(s) of the reference column(s) (strings, nulls or arrays of strings).
        **options: ``metric`` (default ``"bleu"``) and scoring options (module docstring).

    Returns:
        A :class:`rapidbleu.stats.CorpusStats` (mergeable with statistics of other data).

    Raises:
        ImportError: PySpark missing.
        ValueError: unknown column, empty DataFrame, a row without reference (raised by Spark
            from the executor, with the message), bad options.
        TypeError: a null or non-string hypothesis.

    A bad row is named by its Spark partition and its row there (0-based, counted across the
    partition's Arrow batches): ``row 35 of partition 0``.
    """
    _require()
    from pyspark.sql import functions as F

    opts = _engines.ScoreOptions(**options)
    refs = _engines.column_names(references)
    _engines.check_columns(df.columns, hypothesis, refs, "DataFrame")
    width, vtype, sums = opts.vector_width(), opts.vector_type(), opts.sums_width()
    vcols = [f"v{i}" for i in range(width)]
    # the sums and the segment count add up; the values between them are the last segment's
    # (Metric.aggregate): those of the last partition, which Spark finds by its id
    added, last = [*vcols[:sums], vcols[-1]], vcols[sums:-1]
    schema = ", ".join(["pid long", "nrefs long"] + [f"{c} {vtype}" for c in vcols])

    def per_partition(batches: Iterable[Any]) -> Iterator[Any]:
        import pyarrow as pa
        from pyspark import TaskContext

        pid = TaskContext.get().partitionId()
        parts, start = [], 0
        for batch in batches:
            hyps = batch.column(0).to_pylist()
            cols = [batch.column(j).to_pylist() for j in range(1, batch.num_columns)]
            rows = range(start, start + len(hyps))  # (an Arrow batch's rows in its partition)
            start += len(hyps)
            streams = _engines.as_streams(hyps, cols, _WHERE, rows, pid)
            parts.append(_engines.partition_stats(opts, hyps, streams))
        part = _engines.merge_parts(opts, parts)
        if part is None:
            return
        vector, nrefs = part
        data = {"pid": [pid], "nrefs": [nrefs]}
        data.update({c: [v] for c, v in zip(vcols, vector.tolist(), strict=True)})
        yield pa.RecordBatch.from_pydict(data)

    # Positional, under unique names: a reference column may repeat or be the hypothesis column.
    columns = [F.col(hypothesis).alias("_hyp")] + [F.col(r).alias(f"_ref{k}") for k, r in enumerate(refs)]
    with _without_pandas_notice():
        stats = df.select(*columns).mapInArrow(per_partition, schema)
        last_of = [F.max_by(F.struct(*last), "pid").alias("last")] if last else []
        row = stats.agg(
            *[F.sum(c).alias(c) for c in added],
            *last_of,
            F.min("nrefs").alias("nmin"),
            F.max("nrefs").alias("nmax"),
            F.count("*").alias("parts"),
        ).collect()[0]
    if not row["parts"]:
        raise ValueError("no rows: the DataFrame is empty")
    vector = [*(row[c] for c in vcols[:sums]), *(tuple(row["last"]) if last else ()), row[vcols[-1]]]
    part = (vector, row["nmin"] if row["nmin"] == row["nmax"] else -1)
    return CorpusStats(*_engines.combine(opts, [part]))


def corpus_score(
    df: "DataFrame", hypothesis: str, references: str | Sequence[str], metric: str = "bleu", **options: Any
) -> Any:
    """The corpus score of a DataFrame under ``metric`` (``"bleu"``, ``"chrf"``, ``"ter"``), equal
    to the single-process score of the same rows: ``rapidbleu.BLEUScore``/``CHRFScore``/``TERScore``
    (0-100), or
    NLTK's float (0-1; a list for several weight tuples) with ``style="nltk"``.

    Args:
        df, hypothesis, references: as :func:`corpus_stats`.
        metric: the sacreBLEU metric (its constructor's options as keywords, module docstring).

    Raises:
        As :func:`corpus_stats`; ValueError: an unknown metric, or options it does not take.
    """
    opts = _engines.ScoreOptions(metric=metric, **options)
    return _engines.score(opts, corpus_stats(df, hypothesis, references, metric=metric, **options))


def corpus_bleu(df: "DataFrame", hypothesis: str, references: str | Sequence[str], **options: Any) -> Any:
    """Corpus BLEU of a DataFrame: :func:`corpus_score` with ``metric="bleu"`` (a
    ``rapidbleu.BLEUScore``, 0-100; NLTK's float with ``style="nltk"``)."""
    return corpus_score(df, hypothesis, references, "bleu", **options)


def sentence_score(hypothesis: str, references: str | Sequence[str], metric: str = "bleu", **options: Any) -> "Column":
    """A ``Column`` of sentence scores (double) for ``df.withColumn``/``select``, row by row,
    computed in Arrow batches by a pandas UDF: ``metric="bleu"`` gives
    ``sacrebleu.sentence_bleu(hyp, refs).score`` (0-100), ``"chrf"``
    ``sacrebleu.sentence_chrf(hyp, refs, ...).score`` (0-100), ``"ter"`` ``sentence_ter``'s
    (0-100); ``style="nltk"`` NLTK's
    ``sentence_bleu`` (0-1).

    Raises:
        ImportError: PySpark (or its pandas/pyarrow dependencies) missing.
        ValueError, TypeError: bad metric or options now; bad rows when Spark runs the UDF
            (named as in :func:`corpus_stats`).

    The column is the DataFrame's rows' own (Spark pairs each row with its score), whatever
    the partitioning.
    """
    _require()
    import pandas as pd
    from pyspark.sql import functions as F

    opts = _engines.ScoreOptions(metric=metric, **options)
    refs = _engines.column_names(references)

    with _without_pandas_notice():  # (pandas_udf checks pandas' version)

        @F.pandas_udf("double")  # type: ignore[untyped-decorator]  # (pyspark is not followed by mypy)
        def _scores(batches: Iterator[tuple[pd.Series, pd.DataFrame]]) -> Iterator[pd.Series]:
            # a partition's Arrow batches in order, so that an error names a row by its partition
            from pyspark import TaskContext

            pid, start = TaskContext.get().partitionId(), 0
            for hyp, ref in batches:
                hyps = _engines.column_list(hyp)
                cols = [_engines.column_list(ref.iloc[:, j]) for j in range(ref.shape[1])]
                rows = range(start, start + len(hyps))
                start += len(hyps)
                streams = _engines.as_streams(hyps, cols, _WHERE, rows, pid)
                yield pd.Series(_engines.partition_sentence_scores(opts, hyps, streams, _WHERE, rows, pid))

        # the references travel as one struct column (string or array fields)
        return _scores(F.col(hypothesis), F.struct(*[F.col(r) for r in refs]))


def sentence_bleu(hypothesis: str, references: str | Sequence[str], **options: Any) -> "Column":
    """A ``Column`` of sentence BLEU: :func:`sentence_score` with ``metric="bleu"``
    (``sacrebleu.sentence_bleu``, 0-100; NLTK's ``sentence_bleu``, 0-1, with ``style="nltk"``)."""
    return sentence_score(hypothesis, references, "bleu", **options)
