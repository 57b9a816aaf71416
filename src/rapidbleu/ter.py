"""TER, translation edit rate (Snover et al., AMTA 2006), with sacreBLEU 2.x's API and results.

Per-segment statistics ``[num_edits, avg_ref_length]`` come from the active TER kernel
(``rapidbleu._core.ter.ter_py`` or its compiled twin ``ter_cy``, chosen by ``rapidbleu._core.backend``);
the score from statistics is ``rapidbleu._core.ter.ter_py.ter_from_stats`` (and ``ter_scores`` for
many rows).  The rules of the algorithm, where sacreBLEU's results depend on them, are stated
in ``rapidbleu._core.ter.ter_py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar, cast

if TYPE_CHECKING:
    import numpy as np
else:
    from ._base.lazy import numpy as np  # imported on first use (see rapidbleu._base.lazy)

from ._base.errors import no_reference_error
from ._base.lazy import is_ndarray
from ._core import backend as _backend
from ._core.inputs import check_references, preprocess, sentence_num_refs, stat_value
from ._core.metric import CommandLineOption, Metric, shared_metric
from ._core.sacre_methods import SacreMetricMethods
from ._core.ter.ter_py import OPTIONS, TEROptions, fewest_edits, option_values, ter_from_stats
from ._core.validate import check_flag, check_hypotheses
from .score import TERScore, TERSignature
from .tokenizers.tokenizer_ter import TercomTokenizer


class TER(SacreMetricMethods, Metric):
    """Translation edit rate (TER), a drop-in for ``sacrebleu.metrics.TER``.

    The number of word edits (insertions, deletions, substitutions, and shifts of word blocks)
    that turn a hypothesis into its closest reference, over the average reference length, in
    percent: lower is better.  Tercom's algorithm as sacreBLEU 2.6.0 runs it (greedy shifts
    within its limits, a beamed edit distance), with the same edits, lengths and floats.

    Args:
        normalized: tercom's normalization (punctuation split off, XML entities unescaped,
            with ``asian_support`` CJK characters split; see
            :class:`~rapidbleu.tokenizers.tokenizer_ter.TercomTokenizer`).
        no_punct: remove punctuation (with ``asian_support`` also CJK and full-width).
        asian_support: the CJK rules of ``normalized`` and ``no_punct``; no effect alone.
        case_sensitive: keep the case (by default everything is lowercased).
        references: reference streams to keep for ``corpus_score(hyps, None)`` calls.
        workers: threads of the compiled kernel (1 = serial, k > 1, -1 = all cores); results
            are identical for any value.

    Raises:
        TypeError: an option that is not True/False (or None, 0, 1), a bad ``workers``,
            malformed ``references``.
        ValueError: ``workers`` 0, malformed ``references``.
    """

    metric_id = "ter"
    display_name = "TER"
    higher_is_better = False
    #: [num_edits, average reference length]: floats.
    stats_dtype = "float64"
    #: ``-m ter`` with sacreBLEU's ``--ter-*`` options: names, types, defaults and dests
    #: (``ter_<argument>``) are sacreBLEU's.
    command_line = True
    cli_title: ClassVar[str] = "TER related arguments (the defaults are tercom's)"
    cli_options: ClassVar[tuple[CommandLineOption, ...]] = (
        (
            ("--ter-case-sensitive",),
            {"action": "store_true", "default": False, "help": "Keep the case. (Default: %(default)s)"},
        ),
        (
            ("--ter-asian-support",),
            {
                "action": "store_true",
                "default": False,
                "help": "Split CJK characters with --ter-normalized, remove CJK and full-width "
                "punctuation with --ter-no-punct. (Default: %(default)s)",
            },
        ),
        (
            ("--ter-no-punct",),
            {"action": "store_true", "default": False, "help": "Remove punctuation. (Default: %(default)s)"},
        ),
        (
            ("--ter-normalized",),
            {
                "action": "store_true",
                "default": False,
                "help": "Tercom's normalization: split off punctuation, unescape XML entities. (Default: %(default)s)",
            },
        ),
    )
    #: sacreBLEU's attribute: the signature class.
    _SIGNATURE_TYPE: ClassVar[type[TERSignature]] = TERSignature

    def __init__(
        self,
        normalized: bool = False,
        no_punct: bool = False,
        asian_support: bool = False,
        case_sensitive: bool = False,
        references: Sequence[Sequence[str | None]] | None = None,
        workers: int = 1,
    ) -> None:
        self.normalized = check_flag(normalized, "normalized")
        self.no_punct = check_flag(no_punct, "no_punct")
        self.asian_support = check_flag(asian_support, "asian_support")
        self.case_sensitive = check_flag(case_sensitive, "case_sensitive")
        self.workers = workers  # checked by Metric.workers
        # sacreBLEU's Metric attributes: no tokenized-input warning for TER, bootstrap settings
        self._force = True
        self.n_bootstrap = None
        self.seed = None
        self.tokenizer = TercomTokenizer(*option_values(self.options))
        self.tokenizer_signature = self.tokenizer.signature()
        self._ref_cache: list[list[str | None]] | None = None
        if references is not None:
            self._ref_cache, self.num_refs = check_references(references, None)

    @property
    def options(self) -> TEROptions:
        """The four options as bools: the one value the TER kernels take
        (``rapidbleu._core.ter.ter_py.TEROptions``; the attributes keep the values given:
        sacreBLEU's signature prints them, ``norm:1`` for ``normalized=1``, nothing for
        ``None``)."""
        # (a dict display: cheaper than the TypedDict call, read on every sentence score)
        return {
            "normalized": bool(self.normalized),
            "no_punct": bool(self.no_punct),
            "asian_support": bool(self.asian_support),
            "case_sensitive": bool(self.case_sensitive),
        }

    # -- the metric protocol (rapidbleu._core.metric) ------------------------------------------------
    @property
    def stats_columns(self) -> tuple[str, ...]:
        """``("num_edits", "ref_length")``: the fewest edits over a segment's references and
        the mean of their lengths."""
        return ("num_edits", "ref_length")

    def config(self) -> dict[str, Any]:
        """The four options and the number of references.

        Raises:
            ValueError: no references seen yet (the number of references is unknown).
        """
        num_refs = getattr(self, "num_refs", None)
        if num_refs is None:
            raise ValueError("the metric has not seen references yet: the number of references is unknown")
        out: dict[str, Any] = {**self.options}
        out["num_refs"] = num_refs
        return out

    @classmethod
    def from_config(cls, config: dict[str, Any]) -> TER:
        """A ``TER`` with the options and number of references of ``config`` (as :meth:`config`
        gives them); it computes statistics and scores as the original."""
        metric = cls(
            normalized=bool(config["normalized"]),
            no_punct=bool(config["no_punct"]),
            asian_support=bool(config["asian_support"]),
            case_sensitive=bool(config["case_sensitive"]),
        )
        metric.num_refs = config["num_refs"]
        return metric

    def _check_rows(self, rows: np.ndarray, what: str) -> None:
        """A number of edits is a whole number (the reference length is a mean: any >= 0)."""
        frac = np.asarray(rows[:, 0] % 1 != 0, dtype=bool)  # (an object array: Python ints past 2**53)
        if frac.any():
            r = int(np.flatnonzero(frac)[0])
            raise ValueError(
                f"{what}: row {r}, column 0 (num_edits) is {stat_value(rows, r, 0)!r}; edits are whole counts"
            )

    def _streams(self, hypotheses: Any, references: Any) -> tuple[list[str], list[list[str | None]]]:
        if references is not None and _backend.ter.plain_streams(hypotheses, references):
            # the plain case, which every check passes (ter_stats makes the call's own copies)
            self.num_refs = len(references)
            return hypotheses, references
        hyps = check_hypotheses(hypotheses)
        if references is not None:
            streams, self.num_refs = check_references(references, len(hyps))
            return hyps, streams
        return hyps, self._cached_streams(len(hyps))

    def corpus_statistics(
        self, hypotheses: Sequence[str], references: Sequence[Sequence[str | None]] | None = None
    ) -> np.ndarray:
        """Per-segment sufficient statistics.

        Args:
            hypotheses: n hypothesis strings.
            references: reference streams (each n strings or None), or None for the ones
                given to the constructor.

        Returns:
            float64 array (n, 2): ``[num_edits, avg_ref_length]`` per segment, sacreBLEU's
            ``_compute_segment_statistics`` values (the fewest edits over the segment's
            references, the mean of their lengths); sums of rows score a corpus.

        Raises:
            TypeError, ValueError: malformed input (named by stream and segment), a segment
                longer than ``rapidbleu._core.ter.ter_py.MAX_WORDS`` words.
            RuntimeError: no references given and none cached.
        """
        hyps, streams = self._streams(hypotheses, references)
        stats: np.ndarray = _backend.ter.ter_stats(hyps, streams, self.options, self.workers)
        return stats

    def score_from_stats(self, stats: Any) -> TERScore:
        """TER from one row of summed statistics ``[num_edits, ref_length]`` (a corpus row of
        ``combine``, or a segment's row): ``100 * num_edits / ref_length`` (100 for edits
        against empty references, 0 for neither).

        The values are divided as given (a Python int beyond 2**53 exactly, as sacreBLEU).

        Raises:
            ValueError: not one row of two finite numbers >= 0 with whole edits.
        """
        row = self.check_statistics(stats)
        if row.ndim != 1:
            raise ValueError(
                "statistics must be one row [num_edits, ref_length] (for a matrix, combine(stats)), "
                f"got shape {row.shape}"
            )
        edits, length = row.tolist()
        return TERScore(ter_from_stats(edits, length), edits, length)

    def sentence_row(self, hypothesis: str, references: list[str | None]) -> list[float]:
        """The protocol's one-segment row (``Metric.sentence_row``): ``[num_edits,
        avg_ref_length]`` as Python floats, from the core's ``ter_sentence_row``."""
        self.num_refs = sentence_num_refs(references)
        return _backend.ter.ter_sentence_row(hypothesis, references, self.options)

    def score_of_row(self, row: Sequence[Any]) -> TERScore:
        """The score of a row :meth:`sentence_row` gave (trusted), by the core's ``ter_of_row``
        (the floats and attributes of :meth:`score_from_stats`)."""
        return TERScore(_backend.ter.ter_of_row(row), row[0], row[1])

    def scores_from_stats(self, sums: np.ndarray, dtype: Any = None) -> np.ndarray:
        """``(m,)``: TER (0-100) of each row of summed statistics, as sacreBLEU computes it when
        the values are held in ``dtype`` (None: Python numbers; ``np.int64``; ``np.float64``;
        ``np.float32``: bootstrap resamples): ``rapidbleu._core.ter.ter_py.ter_scores`` or its compiled
        twin.  float32 for ``np.float32`` rows (the type of sacreBLEU's ``.score`` there: its
        formula stays in float32, so its bootstrap summaries are float32 arithmetic) unless a
        row has no reference words (its score is a Python float, and ``numpy.array`` of
        sacreBLEU's scores a float64 array), float64 otherwise.

        The rows are checked as :meth:`score_from_stats` checks its row (:meth:`checked_sums`:
        finite numbers >= 0, whole edits, values that ``dtype`` holds).

        Raises:
            ValueError: not ``(m, 2)``, a row :meth:`score_from_stats` refuses, a value beyond
                ``dtype``, or another ``dtype``.
        """
        scores: np.ndarray = _backend.ter.ter_scores(self.checked_sums(sums, dtype), dtype)
        return scores

    def pairwise_scores(self, candidates: Sequence[str]) -> np.ndarray:
        """``(n, n)``: sentence TER of candidate i against candidate j as its single reference
        (``sentence_score(c_i, [c_j]).score``; not symmetric: the reference's length divides).
        Every candidate is checked (as a hypothesis and as a reference) before any work, then
        tokenized and its words interned once as a hypothesis and once as a reference; the n^2
        edit-rate computations run on word ids (``ter_pairwise_scores`` of the backend's twin,
        ``workers`` threads in the compiled one).  Memory: the output and the candidates' words.

        Raises:
            TypeError: a bare string, a candidate that is not a string (named).
            ValueError: no candidates, a candidate longer than ``rapidbleu._core.ter.ter_py.MAX_WORDS`` words.
        """
        sents = check_hypotheses(candidates, "candidates")
        out: np.ndarray = _backend.ter.ter_pairwise_scores(sents, self.options, self.workers)
        return out

    def cross_scores(self, hypotheses: Sequence[str], references: Sequence[str]) -> np.ndarray:
        """``(n, m)``: sentence TER of every hypothesis against every reference alone
        (``sentence_score(h_i, [r_j]).score``, the protocol's ``Metric.cross_scores``): each
        sentence checked before any work, then tokenized and interned once (a hypothesis as a
        hypothesis, a reference as a reference), the n m edit rates on word ids.

        Raises:
            TypeError: a bare string, a sentence that is not a string (named).
            ValueError: no hypotheses or references, a sentence longer than
                ``rapidbleu._core.ter.ter_py.MAX_WORDS`` words.
        """
        hyps, refs = check_hypotheses(hypotheses, "hypotheses"), check_hypotheses(references, "references")
        out: np.ndarray = _backend.ter.ter_pairwise_scores(hyps, self.options, self.workers, references=refs)
        return out

    def get_signature(self) -> TERSignature:
        """The reproducibility signature (needs a scored corpus for the number of references).

        Raises:
            ValueError: no corpus or sentence scored yet (the number of references is unknown).
        """
        return TERSignature(self.__dict__)

    # -- sacreBLEU's semi-private methods (the metric-independent ones: SacreMetricMethods) ----------
    def _extract_corpus_statistics(
        self, hypotheses: Sequence[str], references: Sequence[Sequence[str]] | None
    ) -> list[list[Any]]:
        """Per-segment statistics as sacreBLEU returns them: one ``[int num_edits, float
        avg_ref_length]`` list per segment (``references`` None or empty: the cache)."""
        if references is not None and not is_ndarray(references) and len(references) == 0:
            references = None
        return [[int(e), float(r)] for e, r in self.corpus_statistics(hypotheses, references).tolist()]

    def _compute_score_from_stats(self, stats: Any) -> TERScore:
        """``TERScore`` from one summed row, in the arithmetic of its values (Python numbers,
        numpy float32 in bootstrap resamples), as sacreBLEU computes it."""
        total_edits, sum_ref_lengths = stats[0], stats[1]
        return TERScore(ter_from_stats(total_edits, sum_ref_lengths), total_edits, sum_ref_lengths)

    def _preprocess_segment(self, sent: str) -> str:
        """Right-strip and tokenize one segment (tokens joined by single spaces)."""
        return preprocess(sent, self.tokenizer, False)

    def _extract_reference_info(self, refs: Sequence[str]) -> dict[str, Any]:
        """``{"ref_words": [[token, ...], ...]}``: each reference preprocessed and split."""
        return {"ref_words": [self._preprocess_segment(ref).split() for ref in refs]}

    def _compute_segment_statistics(self, hypothesis: str, ref_kwargs: dict[str, Any]) -> list[Any]:
        """``[int num_edits, float avg_ref_length]`` of one preprocessed hypothesis against
        ``_extract_reference_info``'s words: the fewest edits over the references.

        Raises:
            ValueError: no reference words given.
        """
        ref_words = ref_kwargs["ref_words"]
        if not ref_words:
            raise no_reference_error(0)
        best, mean_length = fewest_edits(hypothesis.split(), ref_words, _backend.ter.translation_edit_rate)
        return [best, mean_length]


def corpus_ter(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = False,
) -> TERScore:
    """Corpus TER with sacreBLEU's ``corpus_ter`` arguments and defaults."""
    metric = TER(normalized=normalized, no_punct=no_punct, asian_support=asian_support, case_sensitive=case_sensitive)
    return cast(TERScore, metric.corpus_score(hypotheses, references))


def sentence_ter(
    hypothesis: str,
    references: Sequence[str | None],
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = False,
) -> TERScore:
    """Sentence TER with sacreBLEU's ``sentence_ter`` arguments and defaults; the metric of each
    option set is built once (``rapidbleu._core.metric.shared_metric``)."""
    metric = shared_metric(TER, _SENTENCE_OPTIONS, normalized, no_punct, asian_support, case_sensitive)
    return cast(TERScore, metric.sentence_score(hypothesis, references))


#: ``TER``'s keywords for :func:`sentence_ter`'s arguments, in that order (``shared_metric``).
_SENTENCE_OPTIONS = ("normalized", "no_punct", "asian_support", "case_sensitive")

__all__ = ["OPTIONS", "TER", "TEROptions", "TERScore", "TERSignature", "corpus_ter", "sentence_ter"]
