"""BLEU on Dask DataFrames and bags: corpus BLEU from per-partition statistics, and sentence
BLEU per row (extra ``rapidbleu[dask]``: ``dask[dataframe]``, ``distributed``).

Corpus BLEU (:func:`corpus_bleu`, :func:`corpus_stats`): one task per partition turns its rows
into the integer statistics of ``rapidbleu.stats`` (a vector of ``2N + 3`` int64 for
sacreBLEU style, plus the number of references and, NLTK style, the partition's last
segment's numbers); only those small tuples travel back, and the client sums them in
partition order and scores.  The score equals a single-process ``rapidbleu.BLEU().corpus_score``
/ ``rapidbleu.nltk.corpus_bleu`` on the rows in order, float for float.

Sentence BLEU (:func:`sentence_bleu`): ``map_partitions`` returning a float64 Series aligned
with the DataFrame (sacreBLEU style 0-100 with effective order, NLTK style 0-1).

Bags (:func:`bag_corpus_stats`, :func:`bag_corpus_bleu`, :func:`bag_sentence_bleu`): elements
are ``(hypothesis, references)`` pairs, references a string or a list of strings.

References of a DataFrame: one column name or several; each value a string, a null (no
reference in that position) or a list of strings (build list columns with
``dask.config.set({"dataframe.convert-string": False})``: by default Dask turns object columns,
lists included, into strings).  Options: as ``rapidbleu.spark`` (``style``,
``tokenize``, ``lowercase``, ``smooth_method``, ``smooth_value``, ``effective_order``,
``max_ngram_order``; NLTK style ``weights``, ``smoothing_function``, ``auto_reweigh``).

Example::

    import dask.dataframe as dd, pandas as pd
    import rapidbleu.dask as rbd

    ddf = dd.from_pandas(pd.DataFrame({"hyp": hyps, "ref": refs}), npartitions=8)
    rbd.corpus_bleu(ddf, "hyp", "ref")              # BLEUScore, as rapidbleu.BLEU()
    ddf["bleu"] = rbd.sentence_bleu(ddf, "hyp", "ref")
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from . import _frames
from .stats import CorpusStats

if TYPE_CHECKING:  # (the optional extra, not followed by mypy: these are Any to it)
    import pandas as pd
    from dask.bag import Bag
    from dask.dataframe import DataFrame, Series

__all__ = ["bag_corpus_bleu", "bag_corpus_stats", "bag_sentence_bleu", "corpus_bleu", "corpus_stats", "sentence_bleu"]


def _require() -> None:
    try:
        import dask
        import dask.dataframe  # noqa: F401
    except ImportError:
        raise ImportError("rapidbleu.dask needs Dask: pip install 'rapidbleu[dask]'") from None


def _names(references: str | Sequence[str]) -> list[str]:
    names = [references] if isinstance(references, str) else list(references)
    if not names or not all(isinstance(n, str) for n in names):
        raise TypeError(f"references must be a column name or a list of column names, got {references!r}")
    return names


def _check_columns(ddf: DataFrame, hypothesis: str, refs: list[str]) -> None:
    missing = [c for c in [hypothesis, *refs] if c not in ddf.columns]
    if missing:
        raise ValueError(f"no column {', '.join(map(repr, missing))} in the DataFrame (columns: {list(ddf.columns)})")


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
    hyps = _frames.column_list(pdf[hypothesis])
    cols = [_frames.column_list(pdf[r]) for r in refs]
    return hyps, _frames.as_streams(hyps, cols, _WHERE, rows), rows


def _frame_part(pdf: pd.DataFrame, opts: _frames.ScoreOptions, hypothesis: str, refs: list[str]) -> _frames.Part | None:
    hyps, streams, _ = _frame_inputs(pdf, hypothesis, refs)
    return _frames.partition_stats(opts, hyps, streams)


def _frame_sentences(pdf: pd.DataFrame, opts: _frames.ScoreOptions, hypothesis: str, refs: list[str]) -> pd.Series:
    import pandas as pd

    hyps, streams, rows = _frame_inputs(pdf, hypothesis, refs)
    scores = _frames.partition_sentence_scores(opts, hyps, streams, _WHERE, rows)
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

    opts = _frames.ScoreOptions(**options)
    refs = _names(references)
    _check_columns(ddf, hypothesis, refs)
    parts = [
        dask.delayed(_frame_part)(d, opts, hypothesis, refs) for d in _with_rows(ddf, [hypothesis, *refs]).to_delayed()
    ]
    return _frames.combine(opts, dask.compute(*parts))


def corpus_bleu(ddf: DataFrame, hypothesis: str, references: str | Sequence[str], **options: Any) -> Any:
    """Corpus BLEU of a Dask DataFrame: ``rapidbleu.BLEUScore`` (0-100) sacreBLEU style, NLTK's
    float (0-1) NLTK style; equal to the single-process score.  Errors as :func:`corpus_stats`."""
    opts = _frames.ScoreOptions(**options)
    return _frames.score(opts, corpus_stats(ddf, hypothesis, references, **options))


def sentence_bleu(ddf: DataFrame, hypothesis: str, references: str | Sequence[str], **options: Any) -> Series:
    """A lazy float64 Dask Series of sentence BLEU, aligned with ``ddf``'s index.

    Raises:
        ValueError, TypeError: bad options or columns now; bad rows when computed (named as
            in :func:`corpus_stats`), and NLTK's method 6 on a row without a trigram match
            (``rapidbleu.nltk.SmoothingError``, naming the row).
    """
    _require()
    opts = _frames.ScoreOptions(**options)
    refs = _names(references)
    _check_columns(ddf, hypothesis, refs)
    return _with_rows(ddf, [hypothesis, *refs]).map_partitions(
        _frame_sentences, opts, hypothesis, refs, meta=("bleu", "f8")
    )


def _pairs(seq: Iterable[Any], where: str = _WHERE) -> tuple[list[Any], list[list[Any]]]:
    hyps: list[Any] = []
    refs: list[Any] = []
    for item in seq:
        try:
            h, r = item
        except (TypeError, ValueError):
            raise TypeError(f"{where}bag elements must be (hypothesis, references) pairs") from None
        hyps.append(h)
        refs.append(r)
    return hyps, _frames.as_streams(hyps, [refs], where)


def _bag_part(seq: Iterable[Any], opts: _frames.ScoreOptions) -> list[_frames.Part | None]:
    hyps, streams = _pairs(seq)
    return [_frames.partition_stats(opts, hyps, streams)]


def _bag_sentences(seq: Iterable[Any], opts: _frames.ScoreOptions) -> list[float]:
    hyps, streams = _pairs(seq)
    scores: list[float] = _frames.partition_sentence_scores(opts, hyps, streams).tolist()
    return scores


def bag_corpus_stats(bag: Bag, **options: Any) -> CorpusStats:
    """Corpus statistics of a ``dask.bag`` of ``(hypothesis, references)`` pairs (references:
    a string or a list of strings); computed now.  Errors as :func:`corpus_stats`."""
    _require()
    opts = _frames.ScoreOptions(**options)
    parts = bag.map_partitions(_bag_part, opts).compute()
    return _frames.combine(opts, parts)


def bag_corpus_bleu(bag: Bag, **options: Any) -> Any:
    """Corpus BLEU of a bag of ``(hypothesis, references)`` pairs (see :func:`corpus_bleu`):
    a ``BLEUScore`` (0-100) sacreBLEU style, NLTK's float (0-1) NLTK style.

    Raises:
        ImportError: the ``rapidbleu[dask]`` extra is missing; ValueError/TypeError: as
            :func:`corpus_stats` (an empty bag, a pair without references, a non-string).
    """
    opts = _frames.ScoreOptions(**options)
    return _frames.score(opts, bag_corpus_stats(bag, **options))


def bag_sentence_bleu(bag: Bag, **options: Any) -> Bag:
    """A lazy bag of sentence BLEU floats (0-100 sacreBLEU style, 0-1 NLTK style), one per
    ``(hypothesis, references)`` pair, in order.

    Raises:
        ImportError: the ``rapidbleu[dask]`` extra is missing; errors in the pairs surface when
            the bag is computed, as in :func:`bag_corpus_bleu`.
    """
    _require()
    opts = _frames.ScoreOptions(**options)
    return bag.map_partitions(_bag_sentences, opts)
