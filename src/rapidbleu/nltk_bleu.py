"""NLTK-style BLEU on the metric protocol: ``nltk.translate.bleu_score``'s scores (0-1) from the
statistics every other metric's layers work with.

The metric behind ``style="nltk"`` of ``rapidbleu.stats`` (``nltk_corpus_stats``,
``corpus_stats(metric="nltk")``), ``rapidbleu.batch``, the rewards and the Spark/Dask/Ray
engines, and the corpus score of ``rapidbleu.nltk.corpus_bleu``.  Its aggregated row is the
sums of BLEU's statistics and of NLTK's precision denominators, then the numbers of the last
segment that smoothing methods 5-7 read (``Metric.aggregate``, :meth:`NLTKBLEU.last_columns`),
so ``CorpusStats`` and the engines merge it as any other metric.

Formulas: Papineni et al. (2002) and Chen and Cherry (2014), as NLTK 3.9/3.10's
``nltk.translate.bleu_score`` implements them (``rapidbleu._core.bleu.bleu_scores_py`` holds them).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from types import MethodType
from typing import TYPE_CHECKING, Any, ClassVar, cast

if TYPE_CHECKING:
    import numpy as np
else:
    from ._base.lazy import numpy as np  # imported on first use: the registry lists NLTKBLEU for the command line

from ._base.errors import last_segment_error, stream_length_error
from ._core import backend as _backend
from ._core.bleu.bleu_row import stats_columns
from ._core.bleu.bleu_scores_py import DEFAULT_WEIGHTS, FLOAT_METHODS, Fraction, nltk_from_counts, warn_zero_order
from ._core.inputs import (
    check_statistics_matrix,
    exact_column_sums,
    join_flat,
    num_refs_of,
    preprocess,
    segment_major_streams,
    token_ids,
)
from ._core.metric import Metric, RewardTransform
from ._core.nltk.nltk_inputs import token_statistics
from ._core.nltk.nltk_scores import (
    check_nltk_stats,
    plain_parameters,
    plain_weights,
    rows_named,
    sentence_scores_from_stats,
)
from ._core.nltk.nltk_smoothing import SmoothingFunction, modified_precision
from ._core.nltk.nltk_style import (
    check_weights_cover,
    max_order,
    method_number,
    parse_weights,
    resolve_smoothing,
    stats_order,
    stats_smoothing,
    uniform_weights,
    weights_of_order,
)
from ._core.validate import check_order
from .tokenizers import get_tokenizer

__all__ = ["NLTKBLEU"]


def _tokens(text: Any, tokenizer: Callable[[str], str] | None, lowercase: bool) -> list[Any] | None:
    """One segment as NLTK tokens: a string is lowercased (if asked) and split on whitespace,
    after sacreBLEU's tokenizer when one is given; a token sequence is taken as it is."""
    if text is None:
        return None
    if not isinstance(text, str):
        return list(text)
    if tokenizer is None:
        return (text.lower() if lowercase else text).split()
    return preprocess(text, tokenizer, lowercase).split()


def _pair_name(start: int, n: int, k: int) -> str:
    """Row ``k`` of a block of pairwise statistics that starts at candidate ``start``."""
    return f"candidate {start + k // n} against candidate {k % n}"


#: :meth:`NLTKBLEU.reward_transforms`: scores 0-1, higher is better, are rewards as they are.
_SCORE_REWARDS: Mapping[str, RewardTransform] = {"score": lambda scores: scores}


class NLTKBLEU(Metric):
    """NLTK-style BLEU (``nltk.translate.bleu_score``'s scores, 0-1) on the metric protocol:
    what ``rapidbleu.stats``, ``rapidbleu.batch`` and the Spark/Dask/Ray engines use for
    ``style="nltk"``.

    Args:
        weights: one tuple of per-order weights or a list of them (NLTK's convention); the
            longest sets the n-gram orders counted.
        smoothing_function: ``None`` (method 0), a ``SmoothingFunction().methodK`` (ours or
            NLTK's), or ``"method0"``..``"method7"``.
        auto_reweigh: NLTK's ``auto_reweigh``.
        max_ngram_order: count at least this many orders (statistics for other weights later;
            the engines' options read it as BLEU-N instead, see :meth:`engine_options`).
        tokenize: for text input: ``None`` splits on whitespace (``str.split()``); a sacreBLEU
            tokenizer name tokenizes first (sacreBLEU's preprocessing), then splits on spaces.
        lowercase: lowercase text input first.
        workers: threads of the compiled core.

    Raises:
        ValueError: an unknown smoothing method name, weights beyond the order limit.

    A smoothing callable that is not one of the ``SmoothingFunction`` methods reads tokens,
    which statistics do not hold: scoring statistics with it raises ``TypeError``
    (``rapidbleu.nltk.corpus_bleu`` passes the tokens).

    ``config()`` holds only the number of orders counted: NLTK-style statistics are scored
    with weights and smoothing given when scoring (as ``corpus_bleu`` takes them), see
    :meth:`with_scoring`.  NLTK has no signature (``get_signature`` raises ``TypeError``).
    """

    metric_id = "nltk"
    style: ClassVar[str] = "nltk"
    restyles: ClassVar[str | None] = "bleu"
    display_name = "NLTK-style BLEU"
    command_line = False

    #: What :meth:`aggregate` keeps of a corpus's last segment, after the sums: ``last_count``
    #: (1: the next three are the last segment's; 0: unknown, the statistics count fewer than 5
    #: orders; more: a plain sum of several parts' vectors, which holds no last segment), its
    #: ``hyp_len``, 5-gram matches and ``max(1, totals_5)``: what smoothing methods 5-7 read.
    LAST_COLUMNS: ClassVar[tuple[str, ...]] = ("last_count", "last_hyp_len", "last_matches_5", "last_denominator_5")

    def __init__(
        self,
        weights: Any = DEFAULT_WEIGHTS,
        smoothing_function: Any = None,
        auto_reweigh: bool = False,
        *,
        max_ngram_order: int | None = None,
        tokenize: str | None = None,
        lowercase: bool = False,
        workers: int = 1,
    ) -> None:
        self.workers = workers  # checked by Metric.workers
        if isinstance(smoothing_function, str):
            smoothing_function = getattr(SmoothingFunction(), f"method{method_number(smoothing_function)}")
        self.weights = weights
        self.weight_list, self.several = parse_weights(weights)
        self.order = max_order(self.weight_list)
        self.method, self.smoother = resolve_smoothing(smoothing_function)
        self.smoothing_function = smoothing_function
        self.auto_reweigh = bool(auto_reweigh)
        self.max_ngram_order = max(stats_order(self.order, self.method), int(max_ngram_order or 0), 1)
        self.tokenize = tokenize
        self.tokenizer = None if tokenize is None else get_tokenizer(tokenize)
        self.lowercase = bool(lowercase)
        self.num_refs = 0

    @classmethod
    def engine_options(cls, options: dict[str, Any]) -> dict[str, Any]:
        """The options as given, the smoothing function as one that pickles with rapidbleu
        alone (an NLTK ``SmoothingFunction`` method becomes rapidbleu's, with the same
        ``epsilon``, ``alpha`` and ``k``; a method name stays a name), and
        ``max_ngram_order=N`` as BLEU-N: ``weights`` of N orders (uniform when not given;
        ``nltk_style.weights_of_order``), as the batch and reward entry points read it.

        Raises:
            TypeError: a custom smoothing callable (it reads each pair's tokens, which the
                statistics do not hold).
            ValueError: ``max_ngram_order`` with weights of another number of orders or a
                list of weight tuples."""
        out = dict(options)
        if "max_ngram_order" in out:
            out["weights"] = weights_of_order(out.get("weights"), out.pop("max_ngram_order"))
        fn = out.get("smoothing_function")
        if fn is not None and not isinstance(fn, str):
            method, owner = resolve_smoothing(fn)
            if method is None:
                raise TypeError(
                    "a custom smoothing callable needs each pair's tokens and is not supported here; "
                    "use one of SmoothingFunction's methods"
                )
            out["smoothing_function"] = (
                None
                if owner is None
                else getattr(SmoothingFunction(epsilon=owner.epsilon, alpha=owner.alpha, k=owner.k), f"method{method}")
            )
        return out

    def scoring_settings(self) -> dict[str, Any]:
        """This metric's ``weights``, ``smoothing_function`` and ``auto_reweigh``."""
        return {
            "weights": self.weights,
            "smoothing_function": self.smoothing_function,
            "auto_reweigh": self.auto_reweigh,
        }

    def with_scoring(self, weights: Any = None, smoothing_function: Any = None, auto_reweigh: bool = False) -> NLTKBLEU:
        """A metric with these statistics settings (orders, tokenizer) and this scoring.

        Raises:
            ValueError: the weights need more orders than these statistics count.
        """
        weights = DEFAULT_WEIGHTS if weights is None else weights
        other = NLTKBLEU(
            weights,
            smoothing_function,
            auto_reweigh,
            max_ngram_order=self.max_ngram_order,
            tokenize=self.tokenize,
            lowercase=self.lowercase,
            workers=self.workers,
        )
        check_weights_cover(other.order, self.max_ngram_order)
        other.max_ngram_order = self.max_ngram_order  # the layout of these statistics (methods 5, 7: a tail)
        return other

    # -- statistics -------------------------------------------------------------------------
    @property
    def stats_columns(self) -> tuple[str, ...]:
        """``("hyp_len", "ref_len", "matches_1", ..., "totals_N")`` (``ref_len``: the closest
        reference length, NLTK's ``closest_ref_length``)."""
        return stats_columns(self.max_ngram_order)

    def corpus_statistics(
        self, hypotheses: Sequence[Any], references: Sequence[Sequence[Any]] | None = None
    ) -> np.ndarray:
        """Per-segment statistics ``(n, 2 + 2N)`` int64 of hypotheses against reference streams
        (sacreBLEU's layout: the k-th reference of every segment, ``None`` where a segment has
        fewer); each segment is a string (tokenized as the constructor says) or a token
        sequence.  References given one list per segment in a layout that cannot be streams are
        transposed (``rapidbleu._core.inputs.segment_major_streams``).

        Warns:
            SegmentMajorReferencesWarning: references given one list per segment (once per
                process).

        Raises:
            ValueError: a segment without any reference, streams of another length.
            TypeError: a ``None`` hypothesis.
        """
        if references is None:
            raise TypeError("NLTK-style statistics need references (there is no cache)")
        hyps = [_tokens(h, self.tokenizer, self.lowercase) for h in hypotheses]
        for i, h in enumerate(hyps):
            if h is None:
                raise TypeError(f"hypothesis {i} is None")
        given = list(references)
        streams = [list(s) for s in segment_major_streams(given, len(hyps)) or given]
        for k, s in enumerate(streams):
            if len(s) != len(hyps):
                raise stream_length_error(f"reference stream {k}", len(s), len(hyps), n_streams=len(streams))
        token_streams = [[_tokens(r, self.tokenizer, self.lowercase) for r in s] for s in streams]
        refs = [[r for r in (s[i] for s in token_streams) if r is not None] for i in range(len(hyps))]
        self.num_refs = num_refs_of(len(r) for r in refs)
        checked = cast("list[list[Any]]", hyps)  # no None left (refused above)
        return token_statistics(refs, checked, self.max_ngram_order, workers=self.workers)

    def aggregate_row(self, stats: np.ndarray) -> list[int]:
        """The additive corpus row ``[hyp_len, ref_len, matches_1..N, totals_1..N,
        denominators_1..N]`` of checked integer rows: exact column sums, and the sums of NLTK's
        per-segment precision denominators ``max(1, totals_n)``."""
        st = np.asarray(stats).reshape(-1, 2 + 2 * self.max_ngram_order)
        dens = np.maximum(st[:, 2 + self.max_ngram_order :], 1)
        return exact_column_sums(st) + exact_column_sums(dens)

    def aggregate_columns(self) -> tuple[str, ...]:
        """:meth:`aggregate_row`'s names: the statistics columns, then ``denominators_1..N``."""
        return (*self.stats_columns, *(f"denominators_{n}" for n in range(1, self.max_ngram_order + 1)))

    def combine(self, stats: Any, start: Sequence[Any] | None = None) -> list[Any]:
        """:meth:`aggregate_row` (plus ``start``); rows other than an integer array are checked
        first (:meth:`check_statistics`).

        Raises:
            ValueError: such rows that are not valid statistics.
        """
        if not (isinstance(stats, np.ndarray) and stats.dtype.kind in "iu"):
            stats = self.check_statistics(stats)
        row = self.aggregate_row(stats)
        return row if start is None else [int(x) + y for x, y in zip(start, row, strict=True)]

    def aggregate_width(self) -> int:
        """``2 + 3N``: :meth:`aggregate_row`."""
        return 2 + 3 * self.max_ngram_order

    def last_columns(self) -> tuple[str, ...]:
        """:data:`LAST_COLUMNS`: the last segment's numbers that smoothing methods 5-7 read."""
        return self.LAST_COLUMNS

    def aggregate(self, stats: np.ndarray, last5: Sequence[int] | None = None) -> list[Any]:
        """The aggregated row of per-segment rows: :meth:`combine` (``2 + 3N`` sums), then the
        :data:`LAST_COLUMNS` of the last row: its 5-gram precision from the statistics when
        they count 5 orders, else from ``last5`` (``(matches_5, totals_5)`` of the last
        segment, from its tokens), else unknown (``last_count`` 0)."""
        st = np.asarray(stats).reshape(-1, 2 + 2 * self.max_ngram_order)
        last = [0, 0, 0, 0]
        n = self.max_ngram_order
        if len(st):
            row = st[-1]
            if n >= 5:
                last = [1, int(row[0]), int(row[6]), max(1, int(row[6 + n]))]
            elif last5 is not None:
                last = [1, int(row[0]), int(last5[0]), max(1, int(last5[1]))]
        return [*self.combine(st), *last]

    def last_segment(self, row: Sequence[Any]) -> tuple[int, int, int] | None:
        """``(hyp_len, matches_5, max(1, totals_5))`` of the last segment, from an aggregated row
        (:meth:`aggregate`), or None where the row does not hold it."""
        k = self.aggregate_width()
        if len(row) < k + 4 or int(row[k]) != 1:
            return None
        return int(row[k + 1]), int(row[k + 2]), int(row[k + 3])

    def score_aggregate(self, row: Sequence[Any], **scoring: Any) -> Any:
        """NLTK's ``corpus_bleu`` of an aggregated row (:meth:`aggregate`) with the scoring
        settings given (``weights``, ``smoothing_function``, ``auto_reweigh``, as
        :meth:`with_scoring` takes them: default weights ``(0.25,) * 4``, method 0).

        Raises:
            ValueError: weights needing more orders than the statistics hold; methods 5-7
                without the last segment's numbers.
            TypeError: a smoothing callable that is not one of NLTK's methods, another setting.
        """
        scorer = self.with_scoring(**scoring)
        return scorer.corpus_from_row(list(row[: self.aggregate_width()]), self.last_segment(row))

    # -- scores -----------------------------------------------------------------------------
    def corpus_from_row(
        self, row: Sequence[int], tail: Sequence[int] | None = None, tokens: Any = None
    ) -> float | list[float]:
        """NLTK's ``corpus_bleu`` from an aggregated row (:meth:`combine`): a float in [0, 1]
        (the int 0 when no unigram matches), or a list for a list of weight tuples.

        ``tail``: :meth:`last_segment` of the corpus (smoothing methods 5-7); ``tokens``:
        ``(last references, last hypothesis)`` for a custom smoothing callable
        (``rapidbleu.nltk``).

        Raises:
            ValueError: methods 5-7 without the last segment's numbers.
            SmoothingError: method 6 on fewer than 3 orders or a zero trigram precision.
        """
        order, n = self.order, self.max_ngram_order
        if order == 0:  # NLTK: no precision at all counts as "no unigram match"
            return [0] * len(self.weight_list) if self.several else 0
        method, smoother = self.method, self.smoother
        if method is None and tokens is None:
            raise TypeError(
                "a custom smoothing callable receives the tokens of the last segment, which "
                "statistics do not hold; use one of SmoothingFunction's methods"
            )
        if method in (5, 6, 7) and tail is None and tokens is None:
            raise last_segment_error(method)

        def p5_last() -> Fraction:
            if tail is not None:
                return Fraction(tail[1], tail[2], _normalize=False)
            return modified_precision(tokens[0], tokens[1], 5)

        last_len = tail[0] if tail is not None else (len(tokens[1]) if tokens is not None else 0)
        scores = nltk_from_counts(
            [int(x) for x in row[2 : 2 + order]],
            [int(x) for x in row[2 + 2 * n : 2 + 2 * n + order]],
            int(row[0]),
            int(row[1]),
            self.weight_list,
            method,
            smoother,
            self.auto_reweigh,
            p5_last,
            last_len,
            tokens=tokens,
        )
        return scores if self.several else scores[0]

    def score_from_stats(self, stats: Any) -> Any:
        """NLTK's corpus score of an aggregated row (:meth:`combine`, ``2 + 3N`` whole counts of
        any size; without the last segment's numbers: for methods 5-7 use
        :meth:`score_aggregate`).

        Raises:
            ValueError: not one row of ``2 + 3N`` whole counts >= 0 (the first bad value named).
        """
        row = check_statistics_matrix(stats, self.aggregate_columns(), "int64", "statistics")
        if row.ndim != 1:
            raise ValueError(f"statistics must be one aggregated row (combine(stats)), got shape {row.shape}")
        return self.corpus_from_row(row.tolist(), None)

    def scores_from_stats(self, sums: np.ndarray, dtype: Any = None) -> np.ndarray:  # noqa: ARG002 -- the protocol
        """NLTK's ``sentence_bleu`` of every per-segment row ``(n, 2 + 2N)``: float64 ``(n,)``
        (``(n, W)`` for a list of W weight tuples).

        Raises:
            TypeError, ValueError: rows that ``rapidbleu.nltk.sentence_bleu_from_stats`` refuses
                (not an integer array, not statistics of one hypothesis each, a count beyond
                int64).
        """
        return self._scores_of_rows(check_nltk_stats(sums, self.max_ngram_order)[0], False)

    def scores_of_kernel_rows(self, stats: np.ndarray) -> np.ndarray:
        """:meth:`scores_from_stats` of rows the statistics kernels just computed for this
        metric (int64 ``(n, 2 + 2N)``, each row one hypothesis's, the caller's own array), which
        need no check: the batch, set and pairwise doors score their own kernel's rows through
        it, so a small batch pays no validation of numbers it did not take from the caller (the
        scoring kernel's ``nltk_kernel_scores`` reads them as they are).

        Raises:
            SmoothingError: method 6 on a row without a trigram match; TypeError: a custom
                smoothing callable (it needs the tokens).
        """
        return self._scores_of_rows(stats, True)

    def _scores_of_rows(self, stats: np.ndarray, kernel_rows: bool) -> np.ndarray:
        """The scores of checked rows; ``kernel_rows``: a counting kernel's fresh rows, not
        copied or checked again by the scoring kernel."""
        stats_smoothing(self.smoothing_function)  # a custom callable needs the tokens
        out = sentence_scores_from_stats(
            stats,
            self.max_ngram_order,
            self.weight_list,
            self.method,
            self.smoother,
            self.auto_reweigh,
            workers=self.workers,
            kernel_rows=kernel_rows,
        )
        return out if self.several else out[:, 0]

    def float_scoring(self) -> bool:
        """Whether :meth:`kernel_row_score` and :meth:`kernel_rows_scores` score with these
        settings now: one weight tuple, a float method 1-4 and plain parameters (``epsilon``,
        ``k`` read now: a ``SmoothingFunction``'s may change between calls), where the float
        kernels alone give the floats :meth:`scores_of_kernel_rows` gives, and nothing warns."""
        return self._float_settings and plain_parameters(self.method, self.smoother)

    @functools.cached_property
    def _float_settings(self) -> bool:
        """What :meth:`float_scoring` asks of the settings that do not change."""
        weight_list = self.weight_list
        return (
            not self.several and self.method in (1, 2, 3, 4) and bool(weight_list[0]) and plain_weights(weight_list[0])
        )

    def _float_parameters(self) -> tuple[Sequence[float], int, float, float, bool]:
        """The float kernels' ``weights, method, epsilon, k, reweigh`` (where
        :meth:`float_scoring` says they apply), the smoother's read now."""
        weight = self.weight_list[0]
        return (weight, *self._smoothing_now(), self.auto_reweigh and weight == DEFAULT_WEIGHTS)

    def _smoothing_now(self) -> tuple[int, float, float]:
        """The float method and its ``epsilon`` (method 1) and ``k`` (method 4), read from the
        smoother now (a ``SmoothingFunction``'s may change between calls); 0.0 where unused."""
        method, smoother = cast(int, self.method), self.smoother
        return method, smoother.epsilon if method == 1 else 0.0, smoother.k if method == 4 else 0.0

    @functools.cached_property
    def one_row_scoring(self) -> bool:
        """Whether :meth:`sentence_row_score` scores a segment's row on its own: a float method
        0-4 of a ``SmoothingFunction`` and non-empty weight tuples."""
        return self.method in FLOAT_METHODS and self.order > 0 and all(self.weight_list)

    def sentence_row_score(self, row: list[int]) -> float | list[float]:
        """NLTK's ``sentence_bleu`` of one segment's row (``token_row``'s list of Python ints),
        as ``rapidbleu.nltk.corpus_bleu`` of the pair gives it, where :attr:`one_row_scoring`:
        the int 0 without a unigram match, method 0's warning for each order without a match,
        the smoother's parameters as they are now; a list for several weight tuples."""
        if row[2] == 0:
            return [0] * len(self.weight_list) if self.several else 0
        method, epsilon, k = self._smoothing_now()
        if method == 0:
            for n in range(self.order):
                if row[2 + n] == 0:
                    warn_zero_order(n + 1)
        N, reweigh, score = self.max_ngram_order, self.auto_reweigh, _backend.bleu_scores.nltk_of_row
        if not self.several:
            weight = self.weight_list[0]
            return score(row, N, weight, method, epsilon, k, reweigh and weight == DEFAULT_WEIGHTS)
        return [score(row, N, w, method, epsilon, k, reweigh and w == DEFAULT_WEIGHTS) for w in self.weight_list]

    def kernel_row_score(self, row: list[int]) -> float:
        """:meth:`scores_of_kernel_rows` of one row a counting kernel just computed (a list of
        ``2 + 2N`` Python ints, ``token_row``'s), as a float, by the one-row scorer
        (:meth:`sentence_row_score`), where :meth:`float_scoring` says it applies."""
        return float(cast(float, self.sentence_row_score(row)))

    def kernel_rows_scores(self, stats: np.ndarray) -> np.ndarray:
        """:meth:`scores_of_kernel_rows` (the caller's own fresh kernel rows), straight from the
        float kernel (``nltk_kernel_scores``), where :meth:`float_scoring` says it applies: a
        small batch pays none of the general scoring's choices."""
        return _backend.bleu_scores.nltk_kernel_scores(
            stats, self.max_ngram_order, *self._float_parameters(), self.workers
        )

    def score_of_row(self, row: Sequence[Any]) -> Any:
        """NLTK's ``sentence_bleu`` of one segment's row (:meth:`sentence_row`): a float, or a
        list of floats for several weight tuples (as ``rapidbleu.nltk.sentence_bleu``)."""
        out = self._scores_of_rows(np.asarray([row], dtype=np.int64), False)[0]
        return [float(x) for x in out] if self.several else float(out)

    def value_of_row(self, row: Sequence[Any]) -> float:
        """:meth:`score_of_row` as one float (several weight tuples: a ``TypeError``)."""
        value = self.score_of_row(row)
        if isinstance(value, list):
            raise TypeError("several weight tuples give several scores a segment, not one value")
        return float(value)

    def sentence_scores(self, hypotheses: Sequence[Any], references: Sequence[Sequence[Any]]) -> np.ndarray:
        """NLTK's ``sentence_bleu`` of every segment (reference streams as
        :meth:`corpus_statistics` takes them)."""
        return self.scores_of_kernel_rows(self.corpus_statistics(hypotheses, references))

    def pairwise_id_scores(self, flat: np.ndarray, lens: np.ndarray) -> np.ndarray:
        """``(n, n)`` float64: NLTK's ``sentence_bleu([s_j], s_i)`` of every ordered pair of n
        token-id sequences stored end to end (``flat``, ``lens``: as
        ``rapidbleu._core.inputs.join_flat`` gives them), one weight tuple.  The statistics
        come from the set kernel a block of rows at a time (about 16 MB,
        ``rapidbleu._core.bleu.bleu_sets_py.pairwise_stats_blocks``): memory is the output and one
        block, never the ``(n, n, 2 + 2N)`` table.

        Raises:
            SmoothingError: method 6 on a pair without a trigram match (NLTK's assertion),
                naming the pair (``candidate i against candidate j``).
            TypeError: a custom smoothing callable (it needs the tokens).
        """
        n = len(lens)
        out = np.empty((n, n), dtype=np.float64)
        for start, block in _backend.bleu_sets.pairwise_stats_blocks(flat, lens, self.max_ngram_order, self.workers):
            rows = len(block)
            with rows_named(functools.partial(_pair_name, start, n)):
                out[start : start + rows] = self.scores_of_kernel_rows(block.reshape(rows * n, -1)).reshape(rows, n)
        return out

    def pairwise_scores(self, candidates: Sequence[Any]) -> np.ndarray:
        """``(n, n)`` float64: :meth:`pairwise_id_scores` of the candidates' tokens (strings
        tokenized as :meth:`corpus_statistics` tokenizes them, token sequences as they are) as
        ids of one vocabulary."""
        toks = [_tokens(c, self.tokenizer, self.lowercase) for c in candidates]
        for i, t in enumerate(toks):
            if t is None:
                raise TypeError(f"candidate {i} is None")
        return self.pairwise_id_scores(*join_flat(token_ids(cast("list[list[Any]]", toks), {})))

    @classmethod
    def reward_transforms(cls) -> Mapping[str, RewardTransform]:
        """NLTK's scores are 0-1 already: the reward is the score (``"score"``)."""
        return _SCORE_REWARDS

    def config(self) -> dict[str, Any]:
        """``{"max_ngram_order": N}``: the orders the statistics count (the scoring settings
        are given when scoring)."""
        return {"max_ngram_order": int(self.max_ngram_order)}

    @classmethod
    def from_config(cls, config: dict[str, Any]) -> NLTKBLEU:
        return cls.counting(int(config["max_ngram_order"]))

    @classmethod
    def counting(cls, max_ngram_order: int, workers: int = 1) -> NLTKBLEU:
        """The metric whose statistics count exactly ``max_ngram_order`` orders: NLTK's default
        weights (BLEU-4) from 4 orders on, BLEU-N's below (default weights would count 4).

        Raises:
            ValueError: ``max_ngram_order`` outside 1..64; ``workers`` refused."""
        n = check_order(max_ngram_order)
        weights = DEFAULT_WEIGHTS if n >= len(DEFAULT_WEIGHTS) else uniform_weights(n)
        return cls(weights, max_ngram_order=n, workers=workers)

    def get_signature(self) -> Any:
        """Raises ``TypeError``: NLTK has no signature."""
        raise TypeError("NLTK-style statistics have no sacreBLEU signature")


#: NLTK-style metrics built for option sets a loop gives again and again (``rapidbleu.nltk``'s
#: ``sentence_bleu``, ``batch.sentence_bleu_batch``), by :func:`nltk_options_key`: the options
#: are read and checked once (the smoother's ``epsilon`` and ``k`` are still read at each
#: scoring).  At most ``_MAX_SHARED`` entries (cleared when full); each holds its smoothing
#: function.
_SHARED: dict[tuple[Any, ...], NLTKBLEU] = {}
_MAX_SHARED = 64


def nltk_options_key(weights: Any, smoothing_function: Any, auto_reweigh: Any, *more: Any) -> tuple[Any, ...] | None:
    """The key under which a metric built for these NLTK-style options is reused, or None: only
    exact types whose equality is identity or value (no smoothing, or a bound method of an
    object hashed by identity; ``None`` or a tuple of ``float`` or ``int`` weights, which score
    alike (an int weight meets a float log); a ``bool``; ``int`` values in ``more``), so that
    equal keys mean the same options (not a ``Fraction``, ``Decimal`` or ``bool`` equal to a
    float, which score differently or fail)."""
    if weights is DEFAULT_WEIGHTS and smoothing_function is None and type(auto_reweigh) is bool and not more:
        return (weights, None, auto_reweigh)  # (NLTK's defaults, the usual call, without the checks below)
    if smoothing_function is not None and (
        type(smoothing_function) is not MethodType or type(smoothing_function.__self__).__hash__ is not object.__hash__
    ):
        return None
    if type(auto_reweigh) is not bool or not all(type(x) is int for x in more):
        return None
    if weights is not None and (type(weights) is not tuple or not all(type(x) in (float, int) for x in weights)):
        return None
    return (weights, smoothing_function, auto_reweigh, *more)


def kept_nltk_metric(key: tuple[Any, ...]) -> NLTKBLEU | None:
    """The metric kept under ``key`` (:func:`nltk_options_key`, prefixed by the caller's name),
    or None."""
    return _SHARED.get(key)


def keep_nltk_metric(key: tuple[Any, ...], metric: NLTKBLEU) -> None:
    """Keep ``metric`` under ``key`` (the oldest entries dropped when ``_MAX_SHARED`` are kept)."""
    if len(_SHARED) >= _MAX_SHARED:
        _SHARED.clear()
    _SHARED[key] = metric


def shared_nltk_metric(key: tuple[Any, ...], build: Callable[[], NLTKBLEU]) -> NLTKBLEU:
    """The metric kept under ``key``, built by ``build()`` and kept the first time (its errors
    raised, nothing kept)."""
    metric = kept_nltk_metric(key)
    if metric is None:
        metric = build()
        keep_nltk_metric(key, metric)
    return metric
