"""BLEU on Ray Datasets: corpus BLEU from per-block statistics, and a sentence BLEU column
(extra ``rapidbleu[ray]``: ``ray[data]``).

Corpus BLEU (:func:`corpus_bleu`, :func:`corpus_stats`): ``map_batches`` turns every block into
one row of integer statistics (the ``rapidbleu.stats`` vector: column sums of ``[hyp_len,
ref_len, matches_1..N, totals_1..N]`` and the segment count, plus the number of references and,
NLTK style, the block's last segment's numbers); only those rows reach the driver (no text),
which adds them and scores.  The score equals a single-process ``rapidbleu.BLEU().corpus_score``
/ ``rapidbleu.nltk.corpus_bleu`` on the rows, float for float.  NLTK smoothing methods 5-7 read
the corpus's last segment: for them the statistics are collected with Ray's
``preserve_order`` execution option (set on the dataset's context for the duration of the
call), so "last" is the last row in the dataset's order.

chrF and TER: :func:`corpus_score` and :func:`sentence_score` take ``metric="chrf"`` /
``"ter"`` and the metric's options (the statistics rows are TER's floats there).

Sentence BLEU (:func:`sentence_bleu`): a new Dataset with one float64 column more, computed
block by block through ``rapidbleu.batch.sentence_bleu_batch`` (sacreBLEU style, 0-100,
effective order) or ``rapidbleu.nltk.sentence_bleu_batch`` (NLTK style, 0-1).

References: one column name or several; each value a string, a null (no reference in that
position) or a list of strings.  Options: as ``rapidbleu.spark`` (``style``, ``metric`` -- any
registered metric, BLEU by default --, ``tokenize``, ``lowercase``, the metric's own options
such as BLEU's ``smooth_method``, ``smooth_value``, ``effective_order``, ``max_ngram_order``;
NLTK style ``weights``, ``smoothing_function``, ``auto_reweigh``).

Ray's workers must import rapidbleu: on a local runtime they share the driver's environment; on
a cluster install rapidbleu there (or pass it in ``runtime_env``).

Example::

    import ray
    import rapidbleu.ray as rbr

    ray.init(num_cpus=2)
    ds = ray.data.from_items([{"hyp": "The cat sat.", "ref": "The cat sat down."}])
    rbr.corpus_bleu(ds, "hyp", "ref")                 # BLEUScore, as rapidbleu.BLEU()
    rbr.sentence_bleu(ds, "hyp", "ref").take_all()    # rows with a "bleu" column
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

import numpy as np

from ._core import engines as _engines
from .stats import CorpusStats

if TYPE_CHECKING:
    import pyarrow as pa
    from ray.data import Dataset

__all__ = ["corpus_bleu", "corpus_score", "corpus_stats", "sentence_bleu", "sentence_score"]

_WHERE = "rapidbleu.ray: "


def _require() -> None:
    _engines.require("ray", ["ray.data"], "Ray Data", "ray")


def _inputs(batch: pa.Table, hypothesis: str, refs: list[str]) -> tuple[list[Any], list[list[Any]]]:
    hyps = batch.column(hypothesis).to_pylist()
    cols = [batch.column(r).to_pylist() for r in refs]
    return hyps, _engines.as_streams(hyps, cols, _WHERE)


def _row_error(exc: BaseException) -> Exception | None:
    """The ValueError/TypeError about the data that a block's task raised, rebuilt from Ray's
    task error (Ray keeps the worker's traceback as text, not the exception), or None."""
    found = re.findall(rf"^(TypeError|ValueError): ({re.escape(_WHERE)}.*)$", str(exc), flags=re.M)
    if not found:
        return None
    kind, message = found[-1]
    return TypeError(message) if kind == "TypeError" else ValueError(message)


def _block_stats(batch: pa.Table, opts: _engines.ScoreOptions, hypothesis: str, refs: list[str]) -> pa.Table:
    """One row of statistics for a block (no row for an empty one)."""
    import pyarrow as pa

    part = _engines.partition_stats(opts, *_inputs(batch, hypothesis, refs))
    value = pa.float64() if opts.vector_type() == "double" else pa.int64()  # TER: float statistics
    if part is None:
        return pa.table({"vector": pa.array([], pa.list_(value)), "nrefs": pa.array([], pa.int64())})
    vector, nrefs = part
    return pa.table(
        {
            "vector": pa.array([np.asarray(vector).tolist()], pa.list_(value)),
            "nrefs": pa.array([int(nrefs)], pa.int64()),
        }
    )


def _block_sentences(
    batch: pa.Table, opts: _engines.ScoreOptions, hypothesis: str, refs: list[str], column: str
) -> pa.Table:
    import pyarrow as pa

    scores = _engines.partition_sentence_scores(opts, *_inputs(batch, hypothesis, refs))
    return batch.append_column(column, pa.array(scores, pa.float64()))


def corpus_stats(ds: Dataset, hypothesis: str, references: str | Sequence[str], **options: Any) -> CorpusStats:
    """Corpus statistics of a Ray Dataset, one row of statistics per block (module docstring);
    computed now.

    Args:
        ds: a ``ray.data.Dataset``.
        hypothesis: name of the string column of hypotheses.
        references: name(s) of the reference column(s) (strings, nulls or lists of strings).
        **options: scoring options (module docstring).

    Returns:
        A :class:`rapidbleu.stats.CorpusStats` (mergeable with statistics of other data).

    Raises:
        ImportError: Ray Data missing.
        ValueError: unknown column, empty Dataset, a row without reference, bad options.
        TypeError: a null or non-string hypothesis (raised in the worker; re-raised here
            unwrapped from Ray's task error).
    """
    _require()
    opts = _engines.ScoreOptions(**options)
    refs = _engines.column_names(references)
    _engines.check_columns(ds.columns(), hypothesis, refs, "Dataset")
    stats = ds.select_columns(list(dict.fromkeys([hypothesis, *refs]))).map_batches(
        partial(_block_stats, opts=opts, hypothesis=hypothesis, refs=refs),
        batch_size=None,  # a whole block per call: one row of statistics per block
        batch_format="pyarrow",
    )
    smoothing = getattr(opts, "smoothing", None)  # NLTK style: (method, parameters) or None
    ordered = smoothing is not None and smoothing[0] in (5, 6, 7)
    execution = stats.context.execution_options
    before = execution.preserve_order
    try:
        execution.preserve_order = before or ordered
        rows = stats.take_all()
    except Exception as exc:
        cause = _row_error(exc)
        if cause is None:
            raise
        raise cause from exc
    finally:
        execution.preserve_order = before
    parts: list[_engines.Part | None] = [(r["vector"], int(r["nrefs"])) for r in rows]
    return CorpusStats(*_engines.combine(opts, parts))


def corpus_score(
    ds: Dataset, hypothesis: str, references: str | Sequence[str], metric: str = "bleu", **options: Any
) -> Any:
    """The corpus score of a Ray Dataset under ``metric`` (``"bleu"``, ``"chrf"``, ``"ter"``):
    sacreBLEU's score object (``BLEUScore``, ``CHRFScore``, ``TERScore``; 0-100), NLTK's float
    (0-1; a list for several weight tuples) with ``style="nltk"``; equal to the single-process
    score.  Arguments and errors as :func:`corpus_stats`, and ValueError for an unknown metric."""
    opts = _engines.ScoreOptions(metric=metric, **options)
    return _engines.score(opts, corpus_stats(ds, hypothesis, references, metric=metric, **options))


def corpus_bleu(ds: Dataset, hypothesis: str, references: str | Sequence[str], **options: Any) -> Any:
    """Corpus BLEU of a Ray Dataset: a ``rapidbleu.BLEUScore`` (0-100) sacreBLEU style, NLTK's
    float (0-1; a list for several weight tuples) NLTK style; equal to the single-process score.
    Arguments and errors as :func:`corpus_stats` (``metric=`` as :func:`corpus_score`)."""
    opts = _engines.ScoreOptions(**options)
    return _engines.score(opts, corpus_stats(ds, hypothesis, references, **options))


def sentence_score(
    ds: Dataset,
    hypothesis: str,
    references: str | Sequence[str],
    metric: str = "bleu",
    column: str | None = None,
    **options: Any,
) -> Dataset:
    """A lazy Dataset with a float64 column of sentence scores under ``metric`` (named
    ``column``, by default the metric's name): ``sacrebleu.sentence_bleu`` / ``sentence_chrf`` /
    ``sentence_ter`` values (0-100), NLTK's ``sentence_bleu`` (0-1) with ``style="nltk"``.
    Errors as :func:`sentence_bleu`."""
    return sentence_bleu(
        ds, hypothesis, references, column=metric if column is None else column, metric=metric, **options
    )


def sentence_bleu(
    ds: Dataset, hypothesis: str, references: str | Sequence[str], column: str = "bleu", **options: Any
) -> Dataset:
    """A lazy Dataset with a float64 column ``column`` of sentence BLEU: sacreBLEU style
    ``sacrebleu.sentence_bleu(hyp, refs).score`` (0-100), NLTK style NLTK's ``sentence_bleu``
    (0-1), row by row, block by block.

    Raises:
        ValueError, TypeError: bad options, unknown columns, ``column`` already present now; bad
            rows when the Dataset is computed.
    """
    _require()
    opts = _engines.ScoreOptions(**options)
    refs = _engines.column_names(references)
    _engines.check_columns(ds.columns(), hypothesis, refs, "Dataset")
    if column in ds.columns():
        raise ValueError(f"the Dataset already has a column {column!r}; choose another name with column=")
    return ds.map_batches(
        partial(_block_sentences, opts=opts, hypothesis=hypothesis, refs=refs, column=column),
        batch_format="pyarrow",
    )
