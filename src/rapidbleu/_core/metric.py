"""The metric protocol: what every metric is to the code that works on statistics.

A metric is its per-segment **sufficient statistics** plus a **score from statistics**.  A sum
of rows is a corpus; a bootstrap resample is an index plus a sum; shards merge by addition.  So
everything that works on statistics -- the command line, confidence intervals and paired tests
(``rapidbleu.significance``), mergeable :class:`~rapidbleu.stats.CorpusStats`, Spark and Dask,
batches and the comparison report -- is written once, against :class:`Metric`, and serves
every metric.

One subclass per metric (``rapidbleu.BLEU``, ``rapidbleu.nltk.NLTKBLEU``, ...), each object one
configuration:

* options are validated once, in the constructor, before any work;
* ``corpus_statistics`` runs the metric's statistics kernel (a compiled twin or its Python
  oracle, chosen by ``rapidbleu._core.backend``) and returns an ``(n, k)`` matrix;
* ``score_from_stats`` (one aggregated row -> a score object) and ``scores_from_stats`` (many
  rows -> float64 scores, in the arithmetic sacreBLEU uses for values of a given dtype) run the
  metric's scoring twin;
* ``config``/``from_config`` turn the configuration into a plain dict and back (for
  :class:`~rapidbleu.stats.CorpusStats`, pickles and engines), and ``get_signature`` gives the
  sacreBLEU signature;
* ``sentence_scores`` (a batch of sentence scores) and ``pairwise_scores`` (the ``(n, n)``
  matrix of one set of candidates, each against each) serve ``rapidbleu.batch``, and
  ``reward_transforms`` turns sentence scores into rewards for ``rapidbleu.rewards``: the base
  class provides all three, a metric with faster kernels overrides them.

The command line comes with the class too: :attr:`Metric.cli_title` and
:attr:`Metric.cli_options` are the metric's argument group (sacreBLEU's flags and argparse's
keywords), and :meth:`Metric.command_line_arguments` turns its parsed values into constructor
arguments (and :meth:`Metric.command_line_watch` into a check over the whole corpus).

The classes are listed by ``rapidbleu.registry``, which imports the metric modules (this module
knows none of them) and keeps its table in :data:`METRICS` here, so that the layers below the
registry that take a metric by id (the engines) read it without importing upwards.  How to add
a metric: ``ARCHITECTURE.md``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from math import copysign
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple, TypeVar, cast

from .._base.errors import not_a_metric_error, scoring_options_error
from .._base.lazy import is_ndarray
from .bootstrap import bootstrap_summary
from .inputs import check_held, check_statistics_matrix, column_sums
from .validate import check_hypotheses, check_resamples, check_sentence_args, resolve_workers

if TYPE_CHECKING:
    import numpy as np

    from ..score import Score, Signature
else:
    from .._base.lazy import numpy as np  # imported on first use (see rapidbleu._base.lazy)

#: One option of a metric's command-line group: its flags (``("--chrf-char-order", "-cc")``)
#: and the keyword arguments of ``argparse``'s ``add_argument`` (``type``, ``default``, ``dest``,
#: ``help``, ...).
CommandLineOption = tuple[tuple[str, ...], dict[str, Any]]


class CommandLineContext(NamedTuple):
    """What the command line tells every metric besides the metric's own options.

    Attributes:
        workers: ``--workers`` (threads of the compiled core).
        sentence_level: ``-sl`` (a score per segment).
        trg_lang: the target language of ``-l SRC-TRG`` (``""`` without ``-l``).
        whole_corpus: the inputs are read whole (``--report``), not chunk by chunk.

    (A named tuple, not a dataclass: ``dataclasses`` imports ``inspect``, a tenth of the command
    line's start-up.)
    """

    workers: int = 1
    sentence_level: bool = False
    trg_lang: str = ""
    whole_corpus: bool = False


class CorpusWatch(ABC):
    """What a metric checks over a whole corpus that the command line reads chunk by chunk
    (:meth:`Metric.command_line_watch`), one per system: :meth:`see` gets the hypotheses of
    each chunk, in order, and :meth:`done` is called once after the last chunk (BLEU: sacreBLEU's
    warning about 100 hypotheses that look tokenized, counted over the whole corpus)."""

    @abstractmethod
    def see(self, hypotheses: Sequence[str]) -> None:
        """Take note of one chunk of hypotheses (strings, already checked)."""

    @abstractmethod
    def done(self) -> None:
        """The corpus has been read: report (log, warn) what was noticed."""


#: ``metric_id`` -> metric class, in registration order: the registry's table.  Written only by
#: ``rapidbleu.registry.register``/``unregister``; read here, below the registry, by id.
METRICS: dict[str, type[Metric]] = {}

#: A reward transform: float64 sentence scores ``(n,)`` -> rewards ``(n,)``, higher is better.
RewardTransform = Callable[["np.ndarray"], "np.ndarray"]

#: Rewards of scores in percent where higher is better (BLEU, chrF): ``score / 100`` (0-1).
PERCENT_REWARDS: Mapping[str, RewardTransform] = {"scaled": lambda scores: scores / 100.0}

#: Rewards of an error rate in percent (TER: 0 at best, unbounded above), higher is better;
#: ``"negative"`` (the default) keeps the ordering of every score, ``"clipped"`` is 0-1.
ERROR_RATE_REWARDS: Mapping[str, RewardTransform] = {
    "negative": lambda rate: 0.0 - rate / 100.0,  # 0.0 for a rate of 0 (-(0.0) would be -0.0)
    "complement": lambda rate: 1.0 - rate / 100.0,
    "clipped": lambda rate: np.maximum(0.0, 1.0 - rate / 100.0),
}


class Metric(ABC):
    """One metric configuration, as every layer above the kernels sees it.

    Subclasses set the class attributes and implement the abstract members; the base class
    provides the corpus and sentence scores, the aggregation of rows and the statistics
    validator on top of them.

    Attributes:
        metric_id: the metric's name on the command line (``-m``) and in ``CorpusStats``.
        display_name: how messages name the metric (``"chrF"``: "chrF scores strings").
        style: ``"sacrebleu"`` (0-100 scores, sacreBLEU's settings) or ``"nltk"`` (NLTK's BLEU).
        restyles: the ``metric_id`` this metric gives in another style (NLTK's BLEU:
            ``"bleu"``, so ``style="nltk"`` with the engines' default ``metric="bleu"`` names
            it); ``None`` for a metric of its own.
        higher_is_better: ``False`` for error rates (TER).
        stats_dtype: ``"int64"`` (counts) or ``"float64"`` (TER's average reference lengths).
        command_line: offered by the command line's ``-m`` (sacreBLEU's metrics; not NLTK's).
        cli_title: the heading of the metric's argument group in ``--help``.
        cli_options: the options of that group (:data:`CommandLineOption`), in ``--help``
            order; each ``dest`` (given, or argparse's from the long flag) is
            ``<metric_id>_<constructor argument>``, sacreBLEU's grouping.
        num_refs: references per segment of the last corpus scored (``-1`` when it varies);
            read by the signature.
        pairwise_block: pairs per block of the default :meth:`pairwise_scores`.
    """

    @property
    def workers(self) -> int:
        """Threads of the compiled core (``-1``: every core); checked when set, by the one rule
        (``validate.resolve_workers``: a whole number, not 0, ...), so a metric never holds a
        value the kernels would refuse."""
        return self._workers

    @workers.setter
    def workers(self, value: int) -> None:
        resolve_workers(value)
        self._workers = value

    _workers: int = 1

    metric_id: ClassVar[str]
    display_name: ClassVar[str] = "the metric"
    style: ClassVar[str] = "sacrebleu"
    restyles: ClassVar[str | None] = None
    higher_is_better: ClassVar[bool] = True
    stats_dtype: ClassVar[str] = "int64"
    command_line: ClassVar[bool] = True
    cli_title: ClassVar[str] = ""
    cli_options: ClassVar[tuple[CommandLineOption, ...]] = ()

    num_refs: int
    n_bootstrap: int | None = None
    seed: str | None = None
    pairwise_block: ClassVar[int] = 4096

    # -- what a metric implements -----------------------------------------------------------
    @property
    @abstractmethod
    def stats_columns(self) -> tuple[str, ...]:
        """Names of the ``k`` columns of a statistics row, in order."""

    @abstractmethod
    def corpus_statistics(
        self, hypotheses: Sequence[Any], references: Sequence[Sequence[Any]] | None = None
    ) -> np.ndarray:
        """Per-segment sufficient statistics, ``(n, k)`` of :attr:`stats_dtype`.

        ``references`` are reference streams (the k-th reference of every segment, ``None``
        where a segment has fewer), or None for the references given to the constructor.
        Sets :attr:`num_refs`.
        """

    @abstractmethod
    def score_from_stats(self, stats: Any) -> Score:
        """The score object of one aggregated row (a column sum of statistics)."""

    @abstractmethod
    def scores_from_stats(self, sums: np.ndarray, dtype: Any = None) -> np.ndarray:
        """``(m,)``: the score of each row of ``sums`` (``(m, k)``), computed as sacreBLEU
        computes it from a row whose values are held in ``dtype``: ``None`` for Python numbers
        (a corpus score), ``np.int64`` (approximate-randomisation trials), ``np.float32``
        (bootstrap resamples, float32 arithmetic) or ``np.float64``.

        The array has the type ``numpy.array`` gives sacreBLEU's ``.score`` of such rows:
        float64 where one is a Python float (BLEU: ``math.exp``; chrF's ``0.0`` without a
        match, TER's score without reference words), float32 where the formula stays in the
        rows' float32 (chrF, TER).  The bootstrap and paired-test summaries (``rapidbleu._core.bootstrap``,
        ``rapidbleu.significance``) keep that type, so they are float32 arithmetic exactly where
        sacreBLEU's are.  The rows are checked by :meth:`checked_sums`: what
        :meth:`score_from_stats` refuses, this refuses too."""

    def scores_of_kernel_rows(self, stats: np.ndarray) -> np.ndarray:
        """:meth:`scores_from_stats` of rows this metric's statistics kernel has just computed
        (the batch, set and pairwise doors score their own kernel's rows through it).  A metric
        may skip the checks of numbers it did not take from the caller (NLTK's BLEU does); by
        default the rows are scored as any others."""
        return self.scores_from_stats(stats)

    def score_scalars(self, scores: np.ndarray, dtype: Any = None) -> list[Any]:  # noqa: ARG002 -- CHRF's reads it
        """The scores of :meth:`scores_from_stats` (rows held in ``dtype``) as the numbers
        sacreBLEU's score objects hold for such rows, one per score: Python floats for a
        float64 array (BLEU's ``math.exp``; corpus and sentence scores), numpy scalars of the
        array's type otherwise (float32 for chrF's and TER's float32 resamples).  Bootstrap
        summaries are computed on these, so ``Score._mean`` and ``Score._ci`` have sacreBLEU's
        types (metrics whose numbers follow other rules override this: chrF with a numpy
        ``beta``)."""
        if scores.dtype.name == "float64":
            values: list[Any] = scores.tolist()
            return values
        return list(scores)

    @abstractmethod
    def config(self) -> dict[str, Any]:
        """Every setting the statistics and the score depend on, plus ``num_refs``: a dict
        of plain values from which :meth:`from_config` rebuilds an equivalent metric.

        Raises:
            ValueError: the number of references is not known yet (no corpus scored).
        """

    @classmethod
    @abstractmethod
    def from_config(cls, config: dict[str, Any]) -> Metric:
        """A metric with the settings of ``config`` (as :meth:`config` returns them)."""

    @abstractmethod
    def get_signature(self) -> Signature:
        """sacreBLEU's reproducibility signature of this configuration.

        Raises:
            ValueError: the number of references is not known yet (no corpus scored).
        """

    # -- what the base class provides -------------------------------------------------------
    @classmethod
    def command_line_arguments(cls, values: dict[str, Any], context: CommandLineContext) -> dict[str, Any]:
        """The constructor arguments of a command line: ``values`` are the parsed options of
        :attr:`cli_options` (keyed by constructor argument: the ``dest`` without its
        ``<metric_id>_`` prefix), ``context`` the options every metric sees.  By default the
        values and ``workers``; a metric whose constructor takes no ``workers``, or that reads
        ``-sl``/``-l``, overrides this (BLEU)."""
        return {**values, "workers": context.workers}

    @classmethod
    def command_line_watch(
        cls,
        values: dict[str, Any],  # noqa: ARG003 -- the hook's signature (BLEU reads them)
        context: CommandLineContext,  # noqa: ARG003
    ) -> CorpusWatch | None:
        """What the metric checks over each system's whole corpus when the command line reads it
        chunk by chunk (``context.whole_corpus`` false), given the same ``values`` and
        ``context`` as :meth:`command_line_arguments`: a new :class:`CorpusWatch`, or None
        (the default) when there is nothing to check."""
        return None

    def _seen_num_refs(self) -> int:
        """:attr:`num_refs` for :meth:`config` and signatures.

        Raises:
            ValueError: no references seen yet (the number of references is unknown).
        """
        num_refs = getattr(self, "num_refs", None)
        if num_refs is None:
            raise ValueError("the metric has not seen references yet: the number of references is unknown")
        return int(num_refs)

    def aggregate_width(self) -> int:
        """Length of an aggregated row (:meth:`combine`; a ``CorpusStats`` vector without its
        segment count): the number of statistics columns unless the metric aggregates more."""
        return len(self.stats_columns)

    def combine(self, stats: Any, start: Sequence[Any] | None = None) -> list[Any]:
        """The corpus row of per-segment rows ``(n, k)``: column sums, as sacreBLEU aggregates
        them (exact Python ints for integer statistics, however large; for float statistics the
        left-to-right float sums of ``sacrebleu.utils.sum_of_lists``), continuing from
        ``start`` (the row of the segments before these, when a corpus is read chunk by chunk).
        Rows other than an integer array (float statistics: a numeric array) are checked first
        (:meth:`check_statistics`).

        Raises:
            ValueError: such rows that are not valid statistics."""
        if not (is_ndarray(stats) and stats.dtype.kind in ("iu" if self.stats_dtype == "int64" else "iuf")):
            stats = self.check_statistics(stats)  # (the kernels' integer matrices need no check)
        return column_sums(stats, self.stats_dtype, start)

    def sentence_metric(self) -> Metric:
        """The configuration sacreBLEU's sentence-level scores use: the metric itself, unless
        the metric changes for single sentences (BLEU: effective order on, as
        ``sacrebleu.sentence_bleu`` and the command line's ``-sl``).  For sentence-score
        columns (engines) and per-segment comparisons (the comparison report)."""
        return self

    def last_columns(self) -> tuple[str, ...]:
        """Names of the values of a corpus's *last* segment that :meth:`aggregate` keeps after
        the sums: none, unless the score reads the last segment (NLTK's smoothing methods 5-7)."""
        return ()

    def aggregate(self, stats: np.ndarray) -> list[Any]:
        """The aggregated row that :class:`~rapidbleu.stats.CorpusStats` and the engines keep
        for per-segment rows: the :meth:`aggregate_width` sums of :meth:`combine`, then the
        :meth:`last_columns` values (none by default).  Parts merge by :meth:`add_vectors`."""
        return self.combine(stats)

    def add_vectors(self, left: Sequence[Any], right: Sequence[Any]) -> list[Any]:
        """The vector (an :meth:`aggregate` row, then the number of segments) of the corpus
        whose segments are ``left``'s, then ``right``'s: the sums and the counts added (as
        Python numbers: exact integers, one float addition per value), the
        :meth:`last_columns` values ``right``'s unless it has no segments."""
        k = self.aggregate_width()
        sums = [a + b for a, b in zip(left[:k], right[:k], strict=True)]
        last = list(right[k:-1] if right[-1] else left[k:-1])
        return [*sums, *last, left[-1] + right[-1]]

    @classmethod
    def engine_options(cls, options: dict[str, Any]) -> dict[str, Any]:
        """The constructor keywords of this metric when the engines (Spark, Dask, Ray) and the
        reward functions name it with ``options`` (the caller's keywords; ``tokenize`` and
        ``lowercase`` among them when given): by default the options as given.  The values
        travel to the workers, so they must pickle; the constructor checks them.

        Raises:
            TypeError: an option the metric cannot take there."""
        return dict(options)

    def scoring_settings(self) -> dict[str, Any]:
        """The settings :meth:`score_aggregate` takes to score with this metric's own
        configuration: none, unless its statistics do not hold its scoring (NLTK style:
        ``weights``, ``smoothing_function``, ``auto_reweigh``)."""
        return {}

    def score_aggregate(self, row: Sequence[Any], **scoring: Any) -> Any:
        """The corpus score of an :meth:`aggregate` row (``CorpusStats.score``):
        :meth:`score_from_stats` of its sums.  ``scoring``: settings given when scoring, for a
        metric scored with settings it was not computed with (NLTK style: ``weights``,
        ``smoothing_function``, ``auto_reweigh``); the others take none.

        Raises:
            TypeError: scoring settings given to a metric that takes none."""
        if scoring:
            raise scoring_options_error()
        return self.score_from_stats(list(row[: self.aggregate_width()]))

    def corpus_totals(
        self,
        hypotheses: Sequence[Any],
        references: Sequence[Sequence[Any]] | None = None,
        start: Sequence[Any] | None = None,
    ) -> list[Any]:
        """``combine(corpus_statistics(...), start)``: the corpus row (metrics may compute it
        without the per-segment matrix).  Same arguments and errors as
        :meth:`corpus_statistics`."""
        return self.combine(self.corpus_statistics(hypotheses, references), start)

    def check_statistics(self, stats: Any, what: str = "statistics", nonempty: bool = False) -> np.ndarray:
        """The one validator of a statistics matrix (or one row) of this metric.

        Returns the matrix as an array (integer dtypes kept, integral floats as int64 for
        integer statistics; float64 for float statistics).

        Raises:
            ValueError: not 1-D/2-D, another number of columns, not numbers, a negative,
                fractional (integer statistics) or non-finite value, no rows when
                ``nonempty``, or a metric-specific rule broken (:meth:`_check_rows`); the first
                offending row and column are named.
        """
        columns = self.stats_columns
        arr = check_statistics_matrix(stats, columns, self.stats_dtype, what, nonempty, self._width_text())
        self._check_rows(arr.reshape(-1, len(columns)), what)
        return arr

    def checked_sums(self, sums: Any, dtype: Any = None, what: str = "statistics") -> np.ndarray:
        """The rows ``(m, k)`` that :meth:`scores_from_stats` scores in ``dtype``'s arithmetic:
        :meth:`check_statistics` (the same rules as :meth:`score_from_stats`), and every value
        one that numpy ``dtype`` holds (``rapidbleu._core.inputs.check_held``: int64 up to
        2**63 - 1, float32 finite).

        Raises:
            ValueError: as :meth:`check_statistics`, or a value beyond ``dtype``.
        """
        rows = self.check_statistics(sums, what).reshape(-1, len(self.stats_columns))
        check_held(rows, dtype, self.stats_columns, what)
        return rows

    def aggregate_columns(self) -> tuple[str, ...]:
        """Names of the :meth:`aggregate_width` values of an aggregated row (the statistics
        columns unless the metric aggregates more)."""
        return self.stats_columns

    def _width_text(self) -> str | None:
        """What a wrong number of columns is told it needs (None: the column names)."""
        return None

    def _check_rows(self, rows: np.ndarray, what: str) -> None:  # noqa: B027 -- a hook: by default no extra rule
        """Metric-specific consistency of valid-looking rows (BLEU: matches <= n-grams)."""

    def corpus_score(
        self, hypotheses: Sequence[Any], references: Sequence[Sequence[Any]] | None, n_bootstrap: int = 1
    ) -> Score:
        """The corpus score: statistics summed over all segments, then one score.

        Args:
            hypotheses: n hypotheses.
            references: reference streams, each n entries (``None`` where a segment has fewer
                references), or None for the cached references.
            n_bootstrap: if > 1, also a 95% confidence interval from that many bootstrap
                resamples (sacreBLEU's procedure and seed rules, ``SACREBLEU_SEED``).

        Raises:
            TypeError, ValueError: malformed input, with the stream and line named;
                ``n_bootstrap`` not an int (a ``TypeError``).
        """
        n_bootstrap = check_resamples(n_bootstrap, "n_bootstrap")
        if n_bootstrap <= 1:
            return self.score_from_stats(self.corpus_totals(hypotheses, references))
        stats = self.corpus_statistics(hypotheses, references)
        result = self.score_from_stats(self.combine(stats))
        self.n_bootstrap = n_bootstrap
        self.seed, mean, ci = bootstrap_summary(stats, self, n_bootstrap)
        return result.with_ci(mean, ci)

    def sentence_score(self, hypothesis: Any, references: Sequence[Any]) -> Score:
        """The score of one hypothesis against its references (a list, ``None`` entries
        skipped).

        Raises:
            TypeError, ValueError: hypothesis not a string, references a bare string, or no
                reference.
        """
        hyp, refs = check_sentence_args(hypothesis, references)
        return self.score_of_row(self.sentence_row(hyp, refs))

    def sentence_row(self, hypothesis: Any, references: list[Any]) -> Sequence[Any]:
        """The statistics row of one segment (``stats_columns`` values), from the arguments
        :func:`~rapidbleu._core.validate.check_sentence_args` returned: the counting half of
        :meth:`sentence_score`, and of every door that scores one segment a call (rewards,
        torchmetrics updates).  Checks the references as :meth:`corpus_statistics` does and
        records their number (``num_refs``).

        This default is ``corpus_statistics([hypothesis], [[r] for r in references])[0]``; a
        metric with a one-segment kernel overrides it (BLEU, chrF, TER: a list of Python numbers,
        no array, no thread pool).

        Raises:
            TypeError, ValueError: as :meth:`corpus_statistics`.
        """
        return cast("Sequence[Any]", self.corpus_statistics([hypothesis], [[r] for r in references])[0])

    def score_of_row(self, row: Sequence[Any]) -> Score:
        """The score of a row :meth:`sentence_row` gave (trusted: no checks), the scoring half of
        :meth:`sentence_score`.  This default is :meth:`score_from_stats`, which checks the row."""
        return self.score_from_stats(row)

    def value_of_row(self, row: Sequence[Any]) -> float:
        """The number of :meth:`score_of_row` (its ``score``), equal to :meth:`sentence_scores`'
        float for the segment: what the rewards take from a one-segment call."""
        return float(self.score_of_row(row).score)

    def sentence_scores(self, hypotheses: Sequence[Any], references: Sequence[Sequence[Any]]) -> np.ndarray:
        """The sentence score of every segment in one call: float64 ``(n,)``; each equals
        ``sentence_score(hypotheses[i], [stream[i] for stream in references]).score``."""
        return self.scores_from_stats(self.corpus_statistics(hypotheses, references), None)

    def pairwise_scores(self, candidates: Sequence[Any]) -> np.ndarray:
        """The sentence score of every ordered pair of one set of candidates: float64 ``(n,
        n)``, ``out[i, j] == sentence_score(candidates[i], [candidates[j]]).score`` (candidate i
        the hypothesis, candidate j its single reference; the diagonal included): the utility
        (or cost) matrix of minimum-Bayes-risk decoding.  Candidates are segments as
        :meth:`corpus_statistics` takes hypotheses (strings).

        This default is :meth:`cross_scores` of the set against itself; a metric with a
        pairwise kernel overrides it (BLEU, chrF, TER).

        Raises:
            TypeError: a bare string, a candidate that is not a string (named:
                ``candidates[i]``); a metric whose segments are not strings overrides this.
            ValueError: no candidates, and what :meth:`sentence_scores` refuses.
        """
        sents = check_hypotheses(candidates, "candidates")
        return self._blocks_of_rows(sents, sents)

    def cross_scores(self, hypotheses: Sequence[Any], references: Sequence[Any]) -> np.ndarray:
        """The sentence score of every hypothesis against every reference, each reference
        alone: float64 ``(n, m)``, ``out[i, j] == sentence_score(hypotheses[i],
        [references[j]]).score`` (MBR's utility matrix of hypotheses against
        pseudo-references).

        This default scores blocks of rows of about :attr:`pairwise_block` pairs through
        :meth:`sentence_scores` (n m sentence scores; memory: the output and one block's
        statistics, never the ``(n, m, k)`` table); a metric with a kernel for it overrides it
        (BLEU, TER).

        Raises:
            TypeError: a bare string, a hypothesis or reference that is not a string (named:
                ``references[j]``); a metric whose segments are not strings overrides this.
            ValueError: no hypotheses or no references, and what :meth:`sentence_scores`
                refuses.
        """
        return self._blocks_of_rows(
            check_hypotheses(hypotheses, "hypotheses"), check_hypotheses(references, "references")
        )

    def _blocks_of_rows(self, hyps: list[Any], refs: list[Any]) -> np.ndarray:
        """``(n, m)`` sentence scores of checked hypotheses against checked references, blocks
        of whole rows of about :attr:`pairwise_block` pairs through :meth:`sentence_scores`."""
        n, m = len(hyps), len(refs)
        out = np.empty((n, m), dtype=np.float64)
        rows = max(1, self.pairwise_block // max(m, 1))
        for start in range(0, n, rows):
            stop = min(n, start + rows)
            pairs = [h for h in hyps[start:stop] for _ in range(m)]
            out[start:stop] = self.sentence_scores(pairs, [refs * (stop - start)]).reshape(stop - start, m)
        return out

    @classmethod
    def reward_transforms(cls) -> Mapping[str, RewardTransform]:
        """How sentence scores become rewards (``rapidbleu.rewards``; higher is better): name ->
        transform of the float64 scores, the first one the default.  Scores in percent:
        :data:`PERCENT_REWARDS` (``score / 100``), or for an error rate (``higher_is_better``
        False) :data:`ERROR_RATE_REWARDS` (``-score / 100`` first); a metric on another scale
        overrides this (NLTK style, 0-1: the score itself)."""
        return PERCENT_REWARDS if cls.higher_is_better else ERROR_RATE_REWARDS


_M = TypeVar("_M", bound=Metric)


@lru_cache(maxsize=64, typed=True)
def _shared(cls: type[Metric], names: tuple[str, ...], *values: Any) -> Metric:
    return cls(**dict(zip(names, values, strict=True)))


def shared_metric(cls: type[_M], names: tuple[str, ...], *values: Any) -> _M:
    """``cls(**dict(zip(names, values)))`` built once per option set and reused, for the
    module-level sentence functions (``sentence_bleu``, ``sentence_chrf``, ``sentence_ter``) that
    a loop calls once per segment: options are checked when first seen (an error is raised
    again on every call; it is not cached), and each later call skips the metric's
    construction.  ``names``: the constructor's keywords (a constant tuple of the caller's);
    ``values`` in that order (positional: the cache's key is built without a dict).  Options
    are told apart by value and type (``1`` and ``1.0`` are two sets); values that
    :func:`cacheable_options` refuses (``-0.0``, numpy scalars, anything unhashable) build a new
    metric every call.  At most 64 option sets are kept per process (least recently used
    first out).  Only :meth:`Metric.sentence_score` may be called on the result: it is shared
    by every caller with these options (its ``num_refs`` is the last call's).
    """
    if not cacheable_options(values):
        return cls(**dict(zip(names, values, strict=True)))
    return cast("_M", _shared(cls, names, *values))


def cacheable_options(values: Sequence[Any]) -> bool:
    """Whether option values may key a cache of objects built from them: only ``str``, ``int``,
    ``bool``, ``None`` and ``float`` other than ``-0.0`` (which equals ``0.0`` and hashes alike,
    but prints ``-0.0`` in a score's text, as sacreBLEU's own); anything else (numpy scalars,
    fractions, containers) builds a new object every call."""
    for v in values:
        t = type(v)
        if t is float:
            if v == 0.0 and copysign(1.0, v) < 0:
                return False
        elif t is not str and t is not bool and t is not int and v is not None:
            return False
    return True


def check_metric(metric: object, none_ok: bool = False) -> Metric:
    """``metric`` if it is a metric of the protocol, for the side doors that take one (batches,
    MBR, rewards); ``none_ok``: the door also takes None (the message says so; the caller
    handles None before asking).

    Raises:
        TypeError: anything else (:func:`~rapidbleu._base.errors.not_a_metric_error`).
    """
    if isinstance(metric, Metric):
        return metric
    raise not_a_metric_error(metric, none_ok)
