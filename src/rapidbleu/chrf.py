"""chrF (Popović, WMT 2015) and chrF++ (Popović, WMT 2017) with sacreBLEU 2.x's API and results.

Per-segment sufficient statistics come from the chrF kernel of the active backend (compiled or
pure Python, see ``rapidbleu._core.backend``); the rules (n-grams, words, the best reference, the
F-score) are written once in ``rapidbleu._core.chrf.chrf_py`` and once in its compiled twin.  sacreBLEU's
semi-private methods, which evaluation code calls directly (mbrs: ``_cache_references``,
``_preprocess_segment``, ``_remove_punctuation``, ``_get_match_statistics``,
``_compute_f_score``; bootstrap scripts: ``_extract_corpus_statistics`` and
``_compute_score_from_stats``), take sacreBLEU's arguments and return its types and values
(the metric-independent ones from ``rapidbleu._core.sacre_methods.SacreMetricMethods``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar, cast

if TYPE_CHECKING:
    import numpy as np
else:
    from ._base.lazy import numpy as np  # imported on first use (see rapidbleu._base.lazy)

from ._core import backend as _backend
from ._core.chrf.chrf_py import (
    BETA,
    CHAR_ORDER,
    PUNCTUATION,
    WORD_ORDER,
    CHRFOptions,
    check_beta,
    check_orders,
    check_rows,
    extract_all_char_ngrams,
    extract_word_ngrams,
    f_score,
    match_stats,
    plain_arithmetic,
    score_type,
    segment_ngrams,
    split_words,
    stats_columns,
)
from ._core.inputs import check_references, sentence_num_refs
from ._core.metric import CommandLineOption, Metric, shared_metric
from ._core.sacre_methods import SacreMetricMethods
from ._core.validate import check_flag, check_hypotheses
from .score import CHRFScore, CHRFSignature


class CHRF(SacreMetricMethods, Metric):
    """chrF / chrF++, a drop-in for ``sacrebleu.metrics.CHRF``.

    Args:
        char_order: character n-gram orders 1..char_order (0..64; default 6).
        word_order: word n-gram orders 1..word_order (0..64; 2 is chrF++; default 0).  Not
            both 0.
        beta: recall's weight in F_beta: any real number >= 0 (0: character precision; default
            2), kept as given: its type is sacreBLEU's arithmetic and the score's name
            (``chrF0.5``, ``chrF2.0``); a numpy ``float32`` beta gives float32 scores, as in
            sacreBLEU (see ``rapidbleu._core.chrf.chrf_py.check_beta``).
        lowercase: lowercase hypotheses and references (Python ``str.lower``).
        whitespace: keep whitespace in character n-grams (default: removed).
        eps_smoothing: average the per-order F-scores with chrF++.py's epsilon instead of
            sacreBLEU's default effective-order averaging of precision and recall.
        references: reference streams to cache for ``corpus_score(hyps, None)``.
        workers: threads of the compiled core (1 = serial, -1 = all cores); results are
            identical for any value.

    Raises:
        TypeError: an order or ``workers`` that is not an int, a ``beta`` that is not a
            number (or is a bool), an on/off option that is not a bool (or 0/1), an unknown
            keyword.
        ValueError: an order below 0 or above 64, both orders 0, a negative or non-finite
            ``beta`` (or one too large to square), ``workers`` 0, malformed ``references``.
    """

    metric_id: ClassVar[str] = "chrf"
    display_name: ClassVar[str] = "chrF"
    higher_is_better: ClassVar[bool] = True
    stats_dtype: ClassVar[str] = "int64"
    #: ``-m chrf`` with sacreBLEU's ``--chrf-*`` options: names, short forms, types, defaults
    #: and dests (``chrf_<argument>``) are sacreBLEU's.
    command_line: ClassVar[bool] = True
    cli_title: ClassVar[str] = "chrF related arguments"
    cli_options: ClassVar[tuple[CommandLineOption, ...]] = (
        (
            ("--chrf-char-order", "-cc"),
            {"type": int, "default": CHAR_ORDER, "help": "Character n-gram order. (Default: %(default)s)"},
        ),
        (
            ("--chrf-word-order", "-cw"),
            {"type": int, "default": WORD_ORDER, "help": "Word n-gram order; 2 gives chrF++. (Default: %(default)s)"},
        ),
        (
            ("--chrf-beta",),
            {
                "type": int,
                "default": BETA,
                "help": "Weight of recall relative to precision in the F-score. (Default: %(default)s)",
            },
        ),
        (
            ("--chrf-whitespace",),
            {
                "action": "store_true",
                "default": False,
                "help": "Keep whitespace in character n-grams. (Default: %(default)s)",
            },
        ),
        (
            ("--chrf-lowercase",),
            {"action": "store_true", "default": False, "help": "Lowercase before scoring. (Default: %(default)s)"},
        ),
        (
            ("--chrf-eps-smoothing",),
            {
                "action": "store_true",
                "default": False,
                "help": "Average the per-order F-scores with epsilon smoothing (chrF++.py, NLTK, Moses) "
                "instead of effective-order smoothing. (Default: %(default)s)",
            },
        ),
    )

    # sacreBLEU's class attributes
    CHAR_ORDER = CHAR_ORDER
    WORD_ORDER = WORD_ORDER
    BETA = BETA
    _PUNCTS: ClassVar[set[str]] = set(PUNCTUATION)
    _SIGNATURE_TYPE = CHRFSignature

    def __init__(
        self,
        char_order: int = CHAR_ORDER,
        word_order: int = WORD_ORDER,
        beta: Any = BETA,
        lowercase: bool = False,
        whitespace: bool = False,
        eps_smoothing: bool = False,
        references: Sequence[Sequence[str]] | None = None,
        workers: int = 1,
    ):
        check_orders(char_order, word_order)
        self.beta = check_beta(beta)
        # (kept as given, as sacreBLEU keeps them: a numpy order makes the epsilon-smoothed
        # score's last division numpy's)
        self.char_order = char_order
        self.word_order = word_order
        self.order = char_order + word_order
        self.lowercase = bool(check_flag(lowercase, "lowercase"))
        self.whitespace = bool(check_flag(whitespace, "whitespace"))
        self.eps_smoothing = bool(check_flag(eps_smoothing, "eps_smoothing"))
        self.workers = workers  # checked by Metric.workers
        self._force = True  # (sacreBLEU's attribute: no tokenized-input warning for chrF)
        self.n_bootstrap: int | None = None
        self.seed: str | None = None
        self._ref_cache: list[list[str | None]] | None = None
        if references is not None:
            self._ref_cache = self._prepare_references(references, None)

    @property
    def options(self) -> CHRFOptions:
        """The six options, as checked by the constructor: the one value the chrF kernels take
        (``rapidbleu._core.chrf.chrf_py.CHRFOptions``)."""
        # (a dict display: a quarter of the TypedDict call's cost, read twice per sentence score)
        return {
            "char_order": self.char_order,
            "word_order": self.word_order,
            "beta": self.beta,
            "lowercase": self.lowercase,
            "whitespace": self.whitespace,
            "eps_smoothing": self.eps_smoothing,
        }

    # -- the metric protocol ---------------------------------------------------------------
    @property
    def stats_columns(self) -> tuple[str, ...]:
        """Names of the ``3 * (char_order + word_order)`` statistics columns: per order
        (character orders first) ``hyp``, ``ref``, ``match``, e.g. ``char1_hyp``."""
        return stats_columns(self.char_order, self.word_order)

    def config(self) -> dict[str, Any]:
        """Every option the statistics and the score depend on, and ``num_refs``:
        ``type(self).from_config(config)`` rebuilds an equivalent metric.

        Raises:
            ValueError: no references seen yet (the number of references is unknown).
        """
        return {**self.options, "num_refs": self._seen_num_refs()}

    @classmethod
    def from_config(cls, config: dict[str, Any]) -> CHRF:
        """The metric of a :meth:`config` dictionary (``num_refs`` restored if given).

        Raises:
            TypeError, ValueError: as the constructor, and an unknown key.
        """
        cfg = dict(config)
        num_refs = cfg.pop("num_refs", None)
        metric = cls(**cfg)
        if num_refs is not None:
            metric.num_refs = num_refs
        return metric

    def _prepare_references(self, references: Any, n_hyps: int | None) -> list[list[str | None]]:
        streams, num_refs = check_references(references, n_hyps)
        self.num_refs = num_refs
        return streams

    def _checked_inputs(self, hypotheses: Any, references: Any) -> tuple[list[str], list[list[str | None]]]:
        """The hypotheses and reference streams of a corpus call, checked (the cached
        references when ``references`` is None)."""
        hyps = check_hypotheses(hypotheses)
        if references is not None:
            return hyps, self._prepare_references(references, len(hyps))
        return hyps, self._cached_streams(len(hyps))

    def _kernel_stats(self, hyps: list[str], streams: list[list[str | None]]) -> np.ndarray:
        stats: np.ndarray = _backend.chrf.chrf_stats(hyps, streams, self.options, self.workers)
        return stats

    def corpus_statistics(
        self, hypotheses: Sequence[str], references: Sequence[Sequence[str | None]] | None = None
    ) -> np.ndarray:
        """Per-segment sufficient statistics, each against the segment's best reference.

        Args:
            hypotheses: n hypothesis strings.
            references: reference streams (each n strings or None), or None for the cache
                given to the constructor.

        Returns:
            int64 array (n, 3 * (char_order + word_order)): per order (character orders
            first) ``[hypothesis n-grams, reference n-grams, clipped matches]``; a column sum
            is the corpus statistics.  Sets ``num_refs`` (-1 when it varies).

        Raises:
            TypeError/ValueError: malformed input (see ``rapidbleu._core.validate``).
            RuntimeError: no references given and none cached.
        """
        return self._kernel_stats(*self._checked_inputs(hypotheses, references))

    def sentence_row(self, hypothesis: str, references: list[str | None]) -> list[int]:
        """The protocol's one-segment row (``Metric.sentence_row``): the row against the best
        reference as Python ints, from the core's ``chrf_sentence_row``."""
        self.num_refs = sentence_num_refs(references)
        return _backend.chrf.chrf_sentence_row(hypothesis, references, self.options)

    def score_of_row(self, row: Sequence[Any]) -> CHRFScore:
        """The score of a row :meth:`sentence_row` gave (trusted), by the core's ``chrf_of_row``
        (the floats of :meth:`score_from_stats`)."""
        return self._score(_backend.chrf.chrf_of_row(row, self.options))

    def _check_rows(self, rows: np.ndarray, what: str) -> None:
        """chrF's rules: per order at most as many matches as n-grams on either side, and no
        hypothesis n-grams where the reference has none (``rapidbleu._core.chrf.chrf_py.check_rows``)."""
        check_rows(rows, self.char_order, self.word_order, what)

    def score_from_stats(self, stats: Any) -> CHRFScore:
        """chrF of one row of (summed) statistics, on Python ints (sacreBLEU's corpus and
        sentence arithmetic), of any size.

        Raises:
            ValueError: as :meth:`check_statistics`, or more than one row.
        """
        rows = self.check_statistics(stats).reshape(-1, 3 * self.order)
        if len(rows) != 1:
            raise ValueError(f"score_from_stats takes one row (a column sum: stats.sum(axis=0)), got {len(rows)}")
        return self._score(f_score(rows[0].tolist(), self.order, self.beta, self.eps_smoothing))

    def scores_from_stats(self, sums: Any, dtype: Any = None) -> np.ndarray:
        """chrF (0-100) of every row of summed statistics, as sacreBLEU computes it when the
        row's values are held in ``dtype``: None (Python ints: corpus and sentence scores),
        ``numpy.int64`` (approximate randomization) or ``numpy.float32`` (bootstrap resamples).

        Returns:
            ``(m,)`` in the type ``numpy.array`` gives sacreBLEU's ``.score`` of the rows:
            float32 for ``numpy.float32`` rows (its F-score stays in float32, so its bootstrap
            summaries are float32 arithmetic) unless one of them is a Python float (``0.0``
            without any match), float64 otherwise; a numpy ``beta`` brings numpy's type
            promotion (a ``numpy.float64`` beta keeps float32 rows in float64, see
            ``rapidbleu._core.chrf.chrf_py.scores_dtype``).

        Counts of any size are scored with ``dtype=None`` (Python ints, as sacreBLEU), up to
        2**63 - 1 with ``numpy.int64``.

        Raises:
            ValueError: as :meth:`check_statistics` (the rules of :meth:`score_from_stats`),
                a value that ``dtype`` cannot hold (:meth:`checked_sums`), or another dtype.
        """
        rows = self.checked_sums(sums, dtype)
        scores: np.ndarray = _backend.chrf.chrf_scores(rows, self.options, dtype, self.workers)
        return scores

    def pairwise_scores(self, candidates: Sequence[str]) -> np.ndarray:
        """``(n, n)``: sentence chrF of candidate i against candidate j as its single reference
        (``sentence_score(c_i, [c_j]).score``), from the kernel's pairwise matrix: each row of
        pairs is scored as soon as its statistics are counted (memory: the output and, per
        thread, one row's statistics and the candidates' unit ids; ``chrf.h``).  float64 (or
        wider for a numpy ``beta``, as sacreBLEU's scores).

        Raises:
            TypeError: a candidate that is not a ``str``.
        """
        out: np.ndarray = _backend.chrf.chrf_pairwise_scores(candidates, self.options, self.workers)
        return out

    def score_scalars(self, scores: np.ndarray, dtype: Any = None) -> list[Any]:
        """As ``Metric.score_scalars``; with a numpy (or ``Fraction``) ``beta`` each score is
        the type sacreBLEU's arithmetic ends in for rows held in ``dtype``
        (``rapidbleu._core.chrf.chrf_py.score_type``: a ``numpy.float64`` beta gives ``numpy.float64``
        resampled scores, so its ``Score._mean`` is one)."""
        if plain_arithmetic(self.char_order, self.word_order, self.beta, self.eps_smoothing):
            return super().score_scalars(scores, dtype)
        kind = score_type(self.beta, dtype, self.order, self.eps_smoothing)
        values: list[Any] = scores.tolist()
        return values if kind is float else [kind(v) for v in scores]

    def _score(self, value: float) -> CHRFScore:
        return CHRFScore(value, self.char_order, self.word_order, self.beta)

    def get_signature(self) -> CHRFSignature:
        """The reproducibility signature (needs a scored corpus for the number of references).

        Raises:
            ValueError: no corpus or sentence scored yet (the number of references is unknown).
        """
        return CHRFSignature(self.__dict__)

    # -- sacreBLEU's semi-private methods -----------------------------------------------------
    @staticmethod
    def _get_match_statistics(hyp_ngrams: Counter[Any], ref_ngrams: Counter[Any]) -> list[Any]:
        """``[hypothesis n-grams (0 if the reference has none), reference n-grams, clipped
        matches]`` of one order's ``Counter`` objects (counts may be floats)."""
        return match_stats(hyp_ngrams, ref_ngrams)

    def _remove_punctuation(self, sent: str) -> list[str]:
        """The words of ``sent`` for word n-grams (one ASCII punctuation character split off
        the end, else the start, of each token of two or more characters)."""
        return split_words(sent)

    def _preprocess_segment(self, sent: str) -> str:
        """``sent.lower()`` if ``lowercase``, else ``sent``."""
        return sent.lower() if self.lowercase else sent

    def _compute_f_score(self, statistics: Sequence[Any]) -> Any:
        """sacreBLEU's chrF (0-100) of a flat ``[hyp, ref, match] * order`` list, in the
        arithmetic of the values given (see ``rapidbleu._core.chrf.chrf_py.f_score``)."""
        return f_score(statistics, self.order, self.beta, self.eps_smoothing)

    def _compute_score_from_stats(self, stats: Any) -> CHRFScore:
        """``CHRFScore`` of one aggregated row, computed as sacreBLEU computes it: the values
        keep their type (Python numbers, numpy ``int64``, ``float32`` or ``float64``).

        Raises:
            ValueError: a row of another length than ``3 * (char_order + word_order)``.
        """
        if len(stats) != 3 * self.order:
            raise ValueError(
                f"a chrF row has {3 * self.order} values for char_order={self.char_order}, "
                f"word_order={self.word_order}, got {len(stats)}"
            )
        return self._score(f_score(stats, self.order, self.beta, self.eps_smoothing))

    def _extract_reference_info(self, refs: Sequence[str]) -> dict[str, list[list[Counter[str]]]]:
        """``{"ref_ngrams": [[Counter per order] per reference]}`` of preprocessed references:
        character n-grams (``str`` keys) then word n-grams (words joined by a space)."""
        return {"ref_ngrams": [segment_ngrams(r, self.char_order, self.word_order, self.whitespace) for r in refs]}

    def _compute_segment_statistics(self, hypothesis: str, ref_kwargs: dict[str, Any]) -> list[Any]:
        """The statistics row of one preprocessed hypothesis against the best of the
        references in ``ref_kwargs["ref_ngrams"]`` (the first with the highest
        ``_compute_f_score``)."""
        hyp_grams = extract_all_char_ngrams(hypothesis, self.char_order, self.whitespace)
        if self.word_order > 0:
            words = split_words(hypothesis)
            hyp_grams += [extract_word_ngrams(words, n) for n in range(1, self.word_order + 1)]
        best: list[Any] = []
        best_f = -1.0
        for ref_grams in ref_kwargs["ref_ngrams"]:
            row: list[Any] = []
            for h, r in zip(hyp_grams, ref_grams, strict=False):
                row += match_stats(h, r)
            f = self._compute_f_score(row)
            if f > best_f:
                best, best_f = row, f
        return best


def _compat_metric(
    char_order: int,
    word_order: int,
    beta: int | float,
    remove_whitespace: bool,
    eps_smoothing: bool,
    shared: bool = False,
) -> CHRF:
    """The metric of sacreBLEU's ``corpus_chrf``/``sentence_chrf`` arguments (``remove_whitespace``
    is the opposite of ``CHRF(whitespace=...)``); ``shared``: built once per option set
    (``rapidbleu._core.metric.shared_metric``, for ``sentence_chrf``), else a new one."""
    values: tuple[Any, ...] = (
        char_order,
        word_order,
        beta,
        not check_flag(remove_whitespace, "remove_whitespace"),
        eps_smoothing,
    )
    if shared:
        return shared_metric(CHRF, _COMPAT_OPTIONS, *values)
    options: dict[str, Any] = dict(zip(_COMPAT_OPTIONS, values, strict=True))
    return CHRF(**options)


#: ``CHRF``'s keywords for :func:`_compat_metric`'s values, in that order.
_COMPAT_OPTIONS = ("char_order", "word_order", "beta", "whitespace", "eps_smoothing")


def corpus_chrf(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    char_order: int = CHAR_ORDER,
    word_order: int = WORD_ORDER,
    beta: int | float = BETA,
    remove_whitespace: bool = True,
    eps_smoothing: bool = False,
) -> CHRFScore:
    """Corpus chrF with sacreBLEU's ``corpus_chrf`` arguments (``remove_whitespace`` is the
    opposite of ``CHRF(whitespace=...)``)."""
    metric = _compat_metric(char_order, word_order, beta, remove_whitespace, eps_smoothing)
    return cast(CHRFScore, metric.corpus_score(hypotheses, references))


def sentence_chrf(
    hypothesis: str,
    references: Sequence[str | None],
    char_order: int = CHAR_ORDER,
    word_order: int = WORD_ORDER,
    beta: int | float = BETA,
    remove_whitespace: bool = True,
    eps_smoothing: bool = False,
) -> CHRFScore:
    """Sentence chrF with sacreBLEU's ``sentence_chrf`` arguments (the best of the references
    counts); the metric of each option set is built once (``rapidbleu._core.metric.shared_metric``)."""
    metric = _compat_metric(char_order, word_order, beta, remove_whitespace, eps_smoothing, shared=True)
    return cast(CHRFScore, metric.sentence_score(hypothesis, references))


__all__ = ["CHRF", "CHRFOptions", "CHRFScore", "CHRFSignature", "corpus_chrf", "sentence_chrf"]
