"""sacreBLEU's semi-private metric methods, for code that reaches past the public API.

:class:`SacreMetricMethods` holds the ones every sacreBLEU metric has (argument checks,
``_extract_corpus_statistics``, ``_aggregate_and_compute``); :class:`SacreBLEUMethods` adds
BLEU's own.  The rest of this description is BLEU's; chrF's are in ``rapidbleu.chrf``.

Evaluation harnesses all-reduce BLEU statistics across processes with them (e.g. the MLCommons
algorithmic-efficiency WMT workload: ``_check_corpus_score_args``, then
``_extract_corpus_statistics``, a ``torch.distributed.all_reduce`` of the result, then
``_aggregate_and_compute``), bootstrap scripts resample the per-segment rows and rescore them
with ``_compute_score_from_stats``, and ``sacrebleu.significance.PairedTest`` calls the same
methods on whatever metric it is given.  Each method here takes sacreBLEU 2.x's arguments and
returns its types and values:

* ``_extract_corpus_statistics(hyps, refs)``: a ``list`` of ``list``s of Python ``int``s, one
  ``[hyp_len, ref_len, matches_1..N, totals_1..N]`` row per segment (computed by the compiled
  core, like ``corpus_statistics``, which returns the same numbers as an int64 array);
* ``_aggregate_and_compute(rows)`` and ``_compute_score_from_stats(row)``: a ``BLEUScore``
  computed as sacreBLEU computes it from rows of the types it is given (Python ints, numpy
  ``int64`` or ``float32`` arrays, as ``PairedTest`` passes them), so the floats are the same;
* the per-segment pieces (``_preprocess_segment``, ``_extract_reference_info``,
  ``_compute_segment_statistics``, ``_get_closest_ref_len``, ``_cache_references``) return
  what sacreBLEU's return (``_extract_reference_info``: ``{"ref_ngrams": Counter of token
  tuples, "ref_lens": [int, ...]}``); they run in Python, one segment at a time.

Also here, re-exported at sacreBLEU's paths: ``extract_all_word_ngrams``
(``sacrebleu.metrics.helpers``) and ``sum_of_lists`` (``sacrebleu.utils``), which these methods
use.

Input errors are rapidbleu's (``rapidbleu._core.validate``): a ``TypeError`` wherever sacreBLEU's
argument checks raise one, with a message that says what and where.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from itertools import islice
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np
else:
    from .._base.lazy import numpy as np  # imported on first use (see rapidbleu._base.lazy)

from .._base.errors import cached_references_error
from .._base.lazy import is_ndarray
from ..tokenizers.base import BaseTokenizer
from .bleu.bleu_row import closest_ref_len
from .inputs import check_references, preprocess
from .validate import check_hypotheses, check_sentence_args


def extract_all_word_ngrams(line: str, min_order: int, max_order: int) -> tuple[Counter[tuple[str, ...]], int]:
    """Word n-grams of every order ``min_order..max_order`` of a (tokenized) line.

    Args:
        line: tokens separated by whitespace (split with ``str.split()``).
        min_order, max_order: the orders, inclusive.

    Returns:
        ``(Counter, int)``: a ``Counter`` mapping each n-gram (a ``tuple`` of ``str`` tokens)
        to its number of occurrences, and the number of tokens.
    """
    tokens = line.split()
    grams: Counter[tuple[str, ...]] = Counter()
    for n in range(min_order, max_order + 1):
        if n <= 0:  # degenerate orders: slices exactly as sacreBLEU takes them
            grams.update(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))
            continue
        grams.update(zip(*(islice(tokens, k, None) for k in range(n)), strict=False))
    return grams, len(tokens)


def sum_of_lists(lists: Sequence[Sequence[Any]] | np.ndarray) -> Sequence[Any] | np.ndarray:
    """Element-wise sum of equally long numeric rows, as sacreBLEU aggregates statistics.

    A single row is returned as it is (the same object).  Otherwise the result is a new
    ``list`` whose values start from zero in the type of ``lists[0][0]`` (so numpy ``float32``
    rows add up in float32, in order).

    Raises:
        IndexError: rows shorter than the first.
    """
    if len(lists) == 1:
        return lists[0]
    zero = type(lists[0][0])(0.0)
    total = [zero] * len(lists[0])
    for row in lists:
        for i in range(len(total)):
            total[i] += row[i]
    return total


def _word_ngrams(line: str, max_order: int) -> tuple[Counter[tuple[str, ...]], int]:
    return extract_all_word_ngrams(line, 1, max_order)


def _sum_rows(rows: Sequence[Sequence[Any]] | np.ndarray) -> Sequence[Any] | np.ndarray:
    """sacreBLEU's aggregation: one row is returned as it is; more are added element by
    element in the type of the first row's values (:func:`sum_of_lists`)."""
    if is_ndarray(rows) and rows.ndim == 2 and len(rows) > 1 and rows.dtype.kind in "iu":
        total: np.ndarray = rows.sum(axis=0)  # exact for integers; float32 rows are added in order below
        return total
    return sum_of_lists(rows)


class SacreMetricMethods:
    """Mixin of every metric: sacreBLEU's ``Metric`` semi-private methods that do not depend on
    the metric (its ``corpus_statistics`` and ``_compute_score_from_stats`` do the work)."""

    corpus_statistics: Callable[..., np.ndarray]
    _compute_score_from_stats: Callable[..., Any]
    _preprocess_segment: Callable[[str], str]
    _extract_reference_info: Callable[[Sequence[str]], dict[str, Any]]
    num_refs: int
    #: the reference streams given to the constructor (``references=``), checked; or None
    _ref_cache: list[list[str | None]] | None

    # -- argument checks ----------------------------------------------------------------------
    def _check_sentence_score_args(self, hyp: str, refs: Sequence[str | None]) -> None:
        """sacreBLEU's check of ``sentence_score``'s arguments.

        Raises:
            TypeError: ``hyp`` not a string (``None`` is also a ``ValueError``), ``refs`` a
                bare string, a mapping/set or not a sequence, a reference neither str nor None.
            ValueError: no reference.
        """
        _, refs = check_sentence_args(hyp, refs)
        check_references([[r] for r in refs], 1)  # each reference a str or None

    def _check_corpus_score_args(self, hyps: Sequence[str], refs: Sequence[Sequence[str]] | None) -> None:
        """sacreBLEU's check of ``corpus_score``'s arguments (``refs`` None: the cache).

        Raises:
            TypeError: as sacreBLEU (not a sequence, an element that is not a string, ...).
            ValueError: empty input, a ``None`` hypothesis (also a ``TypeError``), streams of
                another length than the hypotheses (sacreBLEU would truncate silently).
        """
        hyps = check_hypotheses(hyps)
        if refs is not None:
            check_references(refs, len(hyps))

    def _cached_streams(self, n_hyps: int) -> list[list[str | None]]:
        """The reference streams given to the constructor, for a corpus call of ``n_hyps``
        hypotheses without references (sacreBLEU's reference cache).

        Raises:
            RuntimeError: no references were given to the constructor.
            ValueError: they have another number of segments (``cached_references_error``).
        """
        streams = self._ref_cache
        if streams is None:
            raise RuntimeError(f"no references given and none cached (pass references= to {type(self).__name__}())")
        if len(streams[0]) != n_hyps:
            raise cached_references_error(n_hyps, len(streams[0]), len(streams))
        return streams

    # -- statistics ---------------------------------------------------------------------------
    def _extract_corpus_statistics(
        self, hypotheses: Sequence[str], references: Sequence[Sequence[str]] | None
    ) -> list[list[int]]:
        """Per-segment statistics as sacreBLEU returns them: a list (one per segment) of lists
        of Python ints (the rows of ``corpus_statistics``; BLEU's
        ``[hyp_len, ref_len, matches_1..N, totals_1..N]``).

        ``references`` None or empty uses the references given to the constructor.

        Raises:
            TypeError, ValueError: malformed input (see ``corpus_statistics``).
            RuntimeError: no references given and none cached.
        """
        if references is not None and not is_ndarray(references) and len(references) == 0:
            references = None
        rows: list[list[int]] = self.corpus_statistics(hypotheses, references).tolist()
        return rows

    def _aggregate_and_compute(self, stats: Sequence[Sequence[Any]] | np.ndarray) -> Any:
        """The score of the sum of per-segment rows (a list of lists or a 2-D array), summed as
        sacreBLEU sums them."""
        return self._compute_score_from_stats(_sum_rows(stats))

    # -- one segment at a time (Python) -------------------------------------------------------
    def _cache_references(self, references: Sequence[Sequence[str | None]]) -> list[dict[str, Any]]:
        """The metric's ``_extract_reference_info`` of every segment's references, each through
        its ``_preprocess_segment`` (``None`` references left out); sets ``num_refs`` (-1 when it
        varies), as sacreBLEU does.

        Raises:
            TypeError, ValueError: malformed references (``rapidbleu._core.inputs.check_references``).
        """
        streams, self.num_refs = check_references(references, None)
        return [
            self._extract_reference_info([self._preprocess_segment(r) for r in seg if r is not None])
            for seg in zip(*streams, strict=True)
        ]


class SacreBLEUMethods(SacreMetricMethods):
    """Mixin of ``rapidbleu.BLEU``: sacreBLEU's ``BLEU`` semi-private methods."""

    # provided by rapidbleu.BLEU
    max_ngram_order: int
    smooth_method: str
    smooth_value: float | None
    effective_order: bool
    lowercase: bool
    tokenizer: BaseTokenizer
    _score_of_counts: Callable[..., Any]  # compute_bleu of checked options

    def _compute_score_from_stats(self, stats: Sequence[Any] | np.ndarray) -> Any:
        """``BLEUScore`` from one aggregated row, computed as sacreBLEU computes it: the values
        keep their type (Python ints, numpy ``int64`` or ``float32``), so float32 bootstrap
        sums give sacreBLEU's float32 precisions.  The options were checked by ``BLEU(...)``."""
        n = self.max_ngram_order
        return self._score_of_counts(
            stats[2 : 2 + n],
            stats[2 + n :],
            int(stats[0]),
            int(stats[1]),
            self.smooth_method,
            self.smooth_value,
            self.effective_order,
            n,
        )

    # -- one segment at a time (Python) -------------------------------------------------------
    def _preprocess_segment(self, sent: str) -> str:
        """Lowercase (if asked), right-strip and tokenize one segment; tokens joined by spaces."""
        return preprocess(sent, self.tokenizer, self.lowercase)

    def _get_closest_ref_len(self, hyp_len: int, ref_lens: list[int]) -> int:
        """Length of the reference closest to ``hyp_len``; ties go to the shorter one."""
        return closest_ref_len(hyp_len, ref_lens)

    def _extract_reference_info(self, refs: Sequence[str]) -> dict[str, Any]:
        """``{"ref_ngrams": Counter, "ref_lens": [int]}`` of preprocessed references: for each
        n-gram (a tuple of tokens, orders 1..N) its largest count in any one reference."""
        merged = None
        lens = []
        for ref in refs:
            counts, length = _word_ngrams(ref, self.max_ngram_order)
            lens.append(length)
            merged = counts if merged is None else (merged | counts)
        return {"ref_ngrams": merged, "ref_lens": lens}

    def _compute_segment_statistics(self, hypothesis: str, ref_kwargs: dict[str, Any]) -> list[int]:
        """``[hyp_len, ref_len, matches_1..N, totals_1..N]`` (Python ints) of one preprocessed
        hypothesis against ``_extract_reference_info``'s result."""
        ref_ngrams, ref_lens = ref_kwargs["ref_ngrams"], ref_kwargs["ref_lens"]
        counts, hyp_len = _word_ngrams(hypothesis, self.max_ngram_order)
        n = self.max_ngram_order
        matches, totals = [0] * n, [0] * n
        for gram, count in counts.items():
            k = len(gram) - 1
            totals[k] += count
            if ref_ngrams and gram in ref_ngrams:
                matches[k] += min(count, ref_ngrams[gram])
        return [hyp_len, self._get_closest_ref_len(hyp_len, ref_lens), *matches, *totals]
