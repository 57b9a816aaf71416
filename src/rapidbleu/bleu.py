"""BLEU (Papineni et al., ACL 2002) with sacreBLEU 2.x's API and results.

Per-segment sufficient statistics come from the active backend (compiled or pure Python, see
``rapidbleu.backend``); everything after that (aggregation, smoothing, effective order,
signatures) is computed in one place, the scoring layer ``rapidbleu._core.bleu.bleu_scores_py`` (and its
compiled twin, chosen by ``rapidbleu._core.backend``).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from itertools import repeat
from operator import gt
from typing import TYPE_CHECKING, Any, ClassVar, cast, overload

if TYPE_CHECKING:
    import numpy as np
else:
    from ._base.lazy import numpy as np  # imported on first use (see rapidbleu._base.lazy)

from ._base.errors import MAX_EXACT_COUNT
from ._base.log import logger
from ._core import backend as _backend
from ._core.bleu.bleu_row import MAX_NGRAM_ORDER, stats_columns
from ._core.bleu.bleu_scores_py import SMOOTH_DEFAULTS, bleu_from_stats, check_smoothing, split_row
from ._core.inputs import check_references, join_flat, preprocess, sentence_num_refs, stat_value, token_ids
from ._core.metric import CommandLineContext, CommandLineOption, CorpusWatch, Metric, shared_metric
from ._core.sacre_methods import SacreBLEUMethods
from ._core.validate import (
    check_flag,
    check_hypotheses,
    check_hypotheses_counting,
    check_order,
    check_sentence_args,
    check_smooth_value,
)
from .score import BLEUScore, Signature
from .tokenizers import DEFAULT_TOKENIZER, LANGUAGE_DEFAULTS, available_tokenizers, get_tokenizer, language_warning

#: The ending of a hypothesis that looks tokenized (sacreBLEU's test: a space before a period).
TOKENIZED_END = " ."


def warn_tokenized(n_tokenized: int) -> None:
    """sacreBLEU's warning about tokenized input (its text, on the ``rapidbleu`` logger), when
    ``n_tokenized`` (hypotheses ending in `` .``) is at least 100."""
    if n_tokenized >= 100:
        logger.warning("That's 100 lines that end in a tokenized period ('.')")
        logger.warning("It looks like you forgot to detokenize your test data, which may hurt your score.")
        logger.warning(
            "If you insist your data is detokenized, or don't care, you can suppress this message with the "
            "`force` parameter."
        )


class _RebuiltTokenizer:
    """The tokenizer of a ``BLEU`` rebuilt from a configuration (``BLEU.from_config``): it has
    the signature of the original one, which is all that scoring statistics needs."""

    fast_path = None

    def __init__(self, signature: str) -> None:
        self._signature = signature

    def signature(self) -> str:
        return self._signature

    def __call__(self, line: str) -> str:  # noqa: ARG002 -- the tokenizer interface; it refuses every line
        raise ValueError(
            f"this BLEU was rebuilt from statistics settings (tokenizer {self._signature!r}): it scores "
            "statistics but cannot compute them; create BLEU(tokenize=...) to score text"
        )


class _TokenizedWatch(CorpusWatch):
    """The command line's count of hypotheses ending in :data:`TOKENIZED_END` over a corpus
    read chunk by chunk, warned about once at the end (:func:`warn_tokenized`), as BLEU warns
    about a corpus scored in one call."""

    def __init__(self) -> None:
        self.count = 0

    def see(self, hypotheses: Sequence[str]) -> None:
        self.count += sum(map(str.endswith, hypotheses, repeat(TOKENIZED_END)))

    def done(self) -> None:
        warn_tokenized(self.count)


class BLEUSignature(Signature):
    """The BLEU signature: adds case, effective order, tokenizer and smoothing (the smoothing
    value shown with the method's default, ``BLEU.SMOOTH_DEFAULTS``, where it has one)."""

    def __init__(self, args: dict[str, Any]) -> None:
        super().__init__(args)
        self._abbr.update({"case": "c", "eff": "e", "tok": "tok", "smooth": "s"})
        smooth = args["smooth_method"]
        default: float | None = SMOOTH_DEFAULTS[smooth]
        if default is not None:
            value = args["smooth_value"]
            smooth += f"[{(default if value is None else value):.2f}]"
        self.info.update(
            {
                "case": "lc" if args["lowercase"] else "mixed",
                "eff": "yes" if args["effective_order"] else "no",
                "tok": args["tokenizer_signature"],
                "smooth": smooth,
            }
        )


class BLEU(SacreBLEUMethods, Metric):
    """BLEU metric, a drop-in for ``sacrebleu.metrics.BLEU``.

    Args:
        lowercase: lowercase hypotheses and references (Python ``str.lower``).  This and the other
            on/off options take True/False, None (off) or 0/1 and keep the value given.
        force: do not warn about hypotheses that look tokenized (>= 100 ending in `` .``).
        tokenize: tokenizer name (see ``rapidbleu.tokenizers.available_tokenizers()``); None
            chooses from ``trg_lang`` (``zh``, ``ja-mecab``, ``ko-mecab``) or ``13a``.
        smooth_method: ``exp`` (default), ``floor``, ``add-k`` or ``none``.
        smooth_value: for ``floor`` (default 0.1) and ``add-k`` (default 1).
        max_ngram_order: N, the highest n-gram order (default 4).
        effective_order: ignore orders with no hypothesis n-grams (for sentence BLEU).
        trg_lang: target language code, used to choose the tokenizer when ``tokenize`` is None.
        references: reference streams to cache for repeated ``corpus_score(hyps, None)`` calls.
        workers: threads used by the compiled core (1 = serial, -1 = all cores); results are
            identical for any value.

    Raises:
        TypeError: ``max_ngram_order`` or ``workers`` not an int; ``lowercase``, ``force`` or
            ``effective_order`` not an on/off value (True/False, None, 0 or 1: a string such as
            ``"False"`` would switch the option on in sacreBLEU).
        ValueError: unknown smoothing method or tokenizer, ``max_ngram_order`` outside 1..64,
            ``workers`` 0, or a ``smooth_value`` that is not a finite number >= 0.  The
            first two are also the exception types sacreBLEU raises there: an unknown
            smoothing method is an ``AssertionError`` too, an unknown tokenizer a ``KeyError``
            (see ``rapidbleu._core.validate``).
    """

    metric_id = "bleu"
    display_name = "BLEU"

    SMOOTH_DEFAULTS = SMOOTH_DEFAULTS
    TOKENIZER_DEFAULT = DEFAULT_TOKENIZER
    #: The tokenizer names, on the class as in sacreBLEU: the same type (the keys view of a
    #: dict, so ``==`` compares as sets), names and order as ``sacrebleu.BLEU.TOKENIZERS``.
    TOKENIZERS = dict.fromkeys(available_tokenizers()).keys()
    #: Target language -> the tokenizer sacreBLEU picks for it (``sacrebleu.BLEU._TOKENIZER_MAP``).
    _TOKENIZER_MAP = LANGUAGE_DEFAULTS
    #: The signature class (``sacrebleu.BLEU._SIGNATURE_TYPE``).
    _SIGNATURE_TYPE = BLEUSignature

    #: ``-m bleu`` (the default) with sacreBLEU's BLEU options: names, short forms, types,
    #: defaults and dests ``bleu_<argument>`` (sacreBLEU's, as its flags have no prefix).
    cli_title: ClassVar[str] = "BLEU related arguments"
    cli_options: ClassVar[tuple[CommandLineOption, ...]] = (
        (
            ("--smooth-method", "-s"),
            {
                "choices": list(SMOOTH_DEFAULTS),
                "default": "exp",
                "dest": "bleu_smooth_method",
                "help": "Smoothing method: exponential decay, floor (increment zero counts), add-k (increment "
                "num/denom by k for n>1), or none. (Default: %(default)s)",
            },
        ),
        (
            ("--smooth-value", "-sv"),
            {
                "type": float,
                "default": None,
                "dest": "bleu_smooth_value",
                "help": "The smoothing value. Only valid for floor and add-k. "
                f"(Defaults: floor: {SMOOTH_DEFAULTS['floor']}, add-k: {SMOOTH_DEFAULTS['add-k']})",
            },
        ),
        (
            ("--tokenize", "-tok"),
            {
                "choices": available_tokenizers(),
                "default": None,
                "dest": "bleu_tokenize",
                "help": "Tokenization method to use for BLEU. If not provided, defaults to `zh` for Chinese, "
                "`ja-mecab` for Japanese, `ko-mecab` for Korean and `13a` (mteval) otherwise.",
            },
        ),
        (
            ("--lowercase", "-lc"),
            {
                "dest": "bleu_lowercase",
                "action": "store_true",
                "default": False,
                "help": "If True, enables case-insensitivity. (Default: %(default)s)",
            },
        ),
        (
            ("--force",),
            {
                "default": False,
                "action": "store_true",
                "dest": "bleu_force",
                "help": "Insist that your tokenized input is actually detokenized.",
            },
        ),
    )

    @classmethod
    def command_line_arguments(cls, values: dict[str, Any], context: CommandLineContext) -> dict[str, Any]:
        """sacreBLEU's command-line rules for BLEU: the target language of ``-l`` chooses the
        tokenizer, ``-sl`` turns effective order on, and ``--force`` is left to the command
        line when it reads the corpus chunk by chunk (it counts the tokenized-looking lines of
        the whole corpus, :func:`warn_tokenized`); read whole, BLEU warns itself."""
        return {
            **values,
            "force": values["force"] if context.whole_corpus else True,
            "effective_order": context.sentence_level,
            "trg_lang": context.trg_lang,
            "workers": context.workers,
        }

    @classmethod
    def command_line_watch(cls, values: dict[str, Any], context: CommandLineContext) -> CorpusWatch | None:
        """Without ``--force``, the count of hypotheses that look tokenized over the whole
        corpus (the chunks are scored with ``force=True``: :meth:`command_line_arguments`)."""
        return None if values["force"] or context.whole_corpus else _TokenizedWatch()

    def __init__(
        self,
        lowercase: bool = False,
        force: bool = False,
        tokenize: str | None = None,
        smooth_method: str = "exp",
        smooth_value: float | None = None,
        max_ngram_order: int = MAX_NGRAM_ORDER,
        effective_order: bool = False,
        trg_lang: str = "",
        references: Sequence[Sequence[str]] | None = None,
        workers: int = 1,
    ) -> None:
        self._set_options(lowercase, force, smooth_method, smooth_value, max_ngram_order, effective_order, workers)
        self.trg_lang = trg_lang
        if tokenize is None:
            tokenize = LANGUAGE_DEFAULTS.get(trg_lang, DEFAULT_TOKENIZER)
        else:
            advice = language_warning(trg_lang, tokenize)
            if advice is not None:
                logger.warning(advice)
        self.tokenizer = get_tokenizer(tokenize)
        self.tokenizer_signature = self.tokenizer.signature()

        self._ref_cache: list[list[str | None]] | None = None
        if references is not None:
            self._ref_cache = self._prepare_references(references, None)

    def _set_options(
        self,
        lowercase: bool,
        force: bool,
        smooth_method: str,
        smooth_value: float | None,
        max_ngram_order: int,
        effective_order: bool,
        workers: int,
    ) -> None:
        """Check and set the options that do not concern the tokenizer (once, here)."""
        check_smoothing(smooth_method)
        check_smooth_value(smooth_value)
        max_ngram_order = check_order(max_ngram_order)
        self.workers = workers  # checked by Metric.workers
        # (kept as given, as sacreBLEU keeps them; everything reads their truth value)
        self._force = check_flag(force, "force")
        self.lowercase = check_flag(lowercase, "lowercase")
        self.smooth_value = smooth_value
        self.smooth_method = smooth_method
        self.max_ngram_order = int(max_ngram_order)
        self.effective_order = check_flag(effective_order, "effective_order")
        self.n_bootstrap: int | None = None
        self.seed: str | None = None

    # -- the metric protocol (rapidbleu._core.metric) --------------------------------------------
    @classmethod
    def engine_options(cls, options: dict[str, Any]) -> dict[str, Any]:
        """The options as given, with ``force=True``: the engines and rewards score text as it
        comes, without sacreBLEU's tokenized-input warning for each partition or batch."""
        return {"force": True, **options}

    @property
    def stats_columns(self) -> tuple[str, ...]:
        """``("hyp_len", "ref_len", "matches_1", ..., "totals_N")``."""
        return stats_columns(self.max_ngram_order)

    def config(self) -> dict[str, Any]:
        """The settings of the statistics and the score, and the number of references (known
        once this metric has scored, or been given, references): tokenizer signature,
        lowercase, N, ``num_refs``, smoothing method and value, effective order.

        Raises:
            ValueError: no references seen yet (the number of references is unknown).
        """
        num_refs = self._seen_num_refs()
        return {
            "tokenizer_signature": self.tokenizer_signature,
            "lowercase": bool(self.lowercase),
            "max_ngram_order": int(self.max_ngram_order),
            "num_refs": num_refs,
            "smooth_method": self.smooth_method,
            "smooth_value": self.smooth_value,
            "effective_order": bool(self.effective_order),
        }

    @classmethod
    def from_config(cls, config: dict[str, Any]) -> BLEU:
        """A ``BLEU`` with the settings of ``config`` (as :meth:`config` gives them) that scores
        statistics and gives their signature; its tokenizer is known only by its signature, so
        computing statistics of text with it raises ``ValueError``."""
        metric = cls.__new__(cls)
        metric._set_options(
            bool(config["lowercase"]),
            True,
            config["smooth_method"],
            config["smooth_value"],
            config["max_ngram_order"],
            bool(config["effective_order"]),
            1,
        )
        metric.trg_lang = ""
        # (a stand-in with the tokenizer interface, not a registered BaseTokenizer)
        metric.tokenizer = _RebuiltTokenizer(config["tokenizer_signature"])  # type: ignore[assignment]
        metric.tokenizer_signature = config["tokenizer_signature"]
        metric._ref_cache = None
        metric.num_refs = config["num_refs"]
        return metric

    def sentence_metric(self) -> BLEU:
        """This BLEU with effective order on (``sacrebleu.sentence_bleu``'s and ``-sl``'s), the
        same object when it already is."""
        if self.effective_order:
            return self
        clone = copy.copy(self)
        clone.effective_order = True
        return clone

    def _width_text(self) -> str:
        n = self.max_ngram_order
        return f"max_ngram_order={n} needs {2 + 2 * n}: [hyp_len, ref_len, matches_1..{n}, totals_1..{n}]"

    def _check_rows(self, rows: np.ndarray, what: str) -> None:
        """More matches than n-grams in some order is not a statistics row."""
        n = self.max_ngram_order
        over = rows[:, 2 : 2 + n] > rows[:, 2 + n :]
        if over.any():
            r, k = (int(v) for v in np.argwhere(over)[0])
            raise ValueError(
                f"{what}: row {r} has more {k + 1}-gram matches ({stat_value(rows, r, 2 + k)!r}) than "
                f"{k + 1}-grams ({stat_value(rows, r, 2 + n + k)!r})"
            )

    def scores_from_stats(self, sums: np.ndarray, dtype: Any = None) -> np.ndarray:
        """float64 ``(m,)``: BLEU (0-100) of every row of summed statistics, as sacreBLEU's
        ``compute_bleu`` computes it for a row held in ``dtype`` (None: Python ints;
        ``np.int64``; ``np.float32``: the bootstrap's float32 arithmetic), with this metric's
        smoothing and effective order (``rapidbleu._core.bleu.bleu_scores_py.sacre_scores`` or its compiled
        twin).  The rows are checked as :meth:`score_from_stats` checks its row
        (:meth:`checked_sums`); with ``dtype=None`` counts of any size are scored (exactly as
        sacreBLEU's Python ints), with int64 and float32 counts up to 2**53 - 1.

        Raises:
            ValueError: a width other than ``2 + 2N``, a negative, fractional or non-finite
                count, more matches than n-grams, a count beyond 2**53 - 1 with a ``dtype``, a
                ``dtype`` other than None/int64/float32.
        """
        return _backend.bleu_scores.sacre_scores(
            self.checked_sums(sums, dtype),
            self.max_ngram_order,
            self.smooth_method,
            self.smooth_value,
            bool(self.effective_order),
            dtype,
            self.workers,
        )

    def pairwise_id_scores(self, flat: np.ndarray, lens: np.ndarray, hypotheses: int | None = None) -> np.ndarray:
        """``(n, n)`` float64: sentence BLEU (0-100) of sequence i against sequence j as its
        single reference, of n token-id sequences stored end to end (``flat``: int64 ids one
        after the other, ``lens``: each sequence's length, as
        ``rapidbleu._core.inputs.join_flat`` gives them), with this metric's smoothing,
        effective order and N.  With ``hypotheses=k``: ``(k, n - k)``, the first k sequences
        against the others (``[i, j]``: sequence i against sequence ``k + j``), only those
        pairs counted.  Each pair is scored in the set kernel as soon as its statistics are
        counted (``rapidbleu._core.bleu.bleu_sets_py.pairwise_scores``): memory is the output.

        Raises:
            ValueError: a malformed stream (lengths that do not add up to ``flat``),
                ``hypotheses`` outside 0..n.
        """
        out: np.ndarray = _backend.bleu_sets.pairwise_scores(
            flat,
            lens,
            self.max_ngram_order,
            self.smooth_method,
            self.smooth_value,
            bool(self.effective_order),
            self.workers,
            hypotheses,
        )
        return out

    def pairwise_scores(self, candidates: Sequence[str]) -> np.ndarray:
        """``(n, n)`` float64: ``sentence_score(c_i, [c_j]).score`` of every ordered pair (the
        protocol's ``Metric.pairwise_scores``): the candidates preprocessed as
        :meth:`corpus_statistics` preprocesses them (lowercase, this tokenizer), their tokens as
        ids of one vocabulary, then :meth:`pairwise_id_scores`.

        Raises:
            TypeError: a candidate that is not a string.
        """
        sents = check_hypotheses(candidates, "candidates")
        tok, low = self.tokenizer, bool(self.lowercase)
        return self.pairwise_id_scores(*join_flat(token_ids((preprocess(s, tok, low).split() for s in sents), {})))

    def cross_scores(self, hypotheses: Sequence[str], references: Sequence[str]) -> np.ndarray:
        """``(n, m)`` float64: ``sentence_score(h_i, [r_j]).score`` of every hypothesis
        against every reference (the protocol's ``Metric.cross_scores``): the sentences
        preprocessed once each, as :meth:`pairwise_scores` does, their tokens as ids of one
        vocabulary, then :meth:`pairwise_id_scores` of the hypotheses against the references.

        Raises:
            TypeError: a hypothesis or reference that is not a string.
        """
        hyps = check_hypotheses(hypotheses, "hypotheses")
        refs = check_hypotheses(references, "references")
        tok, low = self.tokenizer, bool(self.lowercase)
        tokens = (preprocess(s, tok, low).split() for s in [*hyps, *refs])
        return self.pairwise_id_scores(*join_flat(token_ids(tokens, {})), hypotheses=len(hyps))

    # -- statistics -------------------------------------------------------------------------
    def _prepare_references(self, references: Any, n_hyps: int | None) -> list[list[str | None]]:
        streams, num_refs = check_references(references, n_hyps)
        self.num_refs = num_refs
        return streams

    @overload
    def _preprocess_for_core(self, lines: Sequence[str]) -> tuple[Sequence[str], str, bool]: ...
    @overload
    def _preprocess_for_core(self, lines: Sequence[str | None]) -> tuple[Sequence[str | None], str, bool]: ...
    def _preprocess_for_core(self, lines: Sequence[str | None]) -> tuple[Sequence[str | None], str, bool]:
        """Strings and tokenizer name to hand to the core: tokenizers without a compiled fast
        path run here in Python (after lowercasing and right-stripping, as sacreBLEU does);
        ``None`` (no reference) stays ``None``."""
        fast = self.tokenizer.fast_path
        if fast is not None:
            return lines, fast, bool(self.lowercase)
        tok = self.tokenizer
        low = bool(self.lowercase)
        return [None if s is None else preprocess(s, tok, low) for s in lines], "none", False

    def _core_args(
        self, hyps: list[str], ref_streams: Sequence[Sequence[str | None]]
    ) -> tuple[Sequence[str], Sequence[Sequence[str | None]], int, str, bool, int]:
        """The arguments of the core's ``string_stats`` / ``string_totals`` for these inputs."""
        hyps_in, tok, low = self._preprocess_for_core(hyps)
        if tok != self.tokenizer.fast_path:
            ref_streams = [self._preprocess_for_core(stream)[0] for stream in ref_streams]
        return hyps_in, ref_streams, self.max_ngram_order, tok, low, self.workers

    def _segment_stats(self, hyps: list[str], ref_streams: list[list[str | None]]) -> np.ndarray:
        return _backend.bleu_stats.string_stats(*self._core_args(hyps, ref_streams))

    def _segment_totals(self, hyps: list[str], ref_streams: list[list[str | None]]) -> list[int]:
        return _backend.bleu_stats.string_totals(*self._core_args(hyps, ref_streams))

    def _checked_inputs(self, hypotheses: Any, references: Any) -> tuple[list[str], list[list[str | None]]]:
        """The hypotheses and reference streams of a corpus call, checked (and the cached
        references when ``references`` is None), with sacreBLEU's tokenized-input warning."""
        if self._force:
            hyps = check_hypotheses(hypotheses)
        else:
            hyps, tokenized = check_hypotheses_counting(hypotheses, TOKENIZED_END)
        if references is not None:
            streams = self._prepare_references(references, len(hyps))
        else:
            streams = self._cached_streams(len(hyps))
        if not self._force:
            warn_tokenized(tokenized)
        return hyps, streams

    def corpus_statistics(
        self, hypotheses: Sequence[str], references: Sequence[Sequence[str]] | None = None
    ) -> np.ndarray:
        """Per-segment sufficient statistics.

        Args:
            hypotheses: n hypothesis strings.
            references: reference streams (each n strings or None), or None to use the cache
                given to the constructor.

        Returns:
            int64 array (n, 2 + 2N): ``[hyp_len, ref_len, matches_1..N, totals_1..N]`` per
            segment; a column sum is the corpus statistics.

        Raises:
            TypeError/ValueError: malformed input (see ``rapidbleu._core.validate``).
            RuntimeError: no references given and none cached.
        """
        return self._segment_stats(*self._checked_inputs(hypotheses, references))

    def corpus_totals(
        self,
        hypotheses: Sequence[str],
        references: Sequence[Sequence[str]] | None = None,
        start: Sequence[int] | None = None,
    ) -> list[int]:
        """``corpus_statistics(...).sum(axis=0)`` (plus ``start``, the row of earlier segments)
        as a list of Python ints, computed without the per-segment array (and, on the compiled
        backend, without importing numpy).  Same arguments and errors as
        ``corpus_statistics``."""
        totals = self._segment_totals(*self._checked_inputs(hypotheses, references))
        return totals if start is None else [int(x) + y for x, y in zip(start, totals, strict=True)]

    # -- scores -----------------------------------------------------------------------------
    @staticmethod
    def compute_bleu(
        correct: list[int],
        total: list[int],
        sys_len: int,
        ref_len: int,
        smooth_method: str = "none",
        smooth_value: float | None = None,
        effective_order: bool = False,
        max_ngram_order: int = MAX_NGRAM_ORDER,
    ) -> BLEUScore:
        """BLEU from sufficient statistics: sacreBLEU's public ``BLEU.compute_bleu`` (which
        fairseq calls), same arguments, defaults (no smoothing) and result.

        Args:
            correct: clipped n-gram matches per order 1..``max_ngram_order``.
            total: hypothesis n-grams per order.
            sys_len: hypothesis length (tokens); ref_len: effective reference length.
            smooth_method: ``none`` (default here, unlike ``BLEU()``), ``floor``, ``add-k``
                or ``exp`` (see ``rapidbleu._core.bleu.bleu_scores_py.bleu_from_stats``).
            smooth_value: for ``floor`` (default 0.1) and ``add-k`` (default 1).
            effective_order: average only over the orders with hypothesis n-grams.
            max_ngram_order: N.

        Returns:
            A :class:`BLEUScore`, float for float and string for string as sacreBLEU's.
            ``counts``/``totals`` are new lists (with ``add-k`` added, as sacreBLEU reports
            them); unlike sacreBLEU, the caller's ``correct`` and ``total`` are not modified.

        Raises:
            UnknownSmoothingError: unknown ``smooth_method`` (a ``ValueError``; an
                ``AssertionError`` as in sacreBLEU).
            ValueError: ``smooth_value`` not a finite number >= 0.
        """
        check_smooth_value(smooth_value)
        check_smoothing(smooth_method)
        return BLEU._score_of_counts(
            correct, total, sys_len, ref_len, smooth_method, smooth_value, effective_order, max_ngram_order
        )

    @staticmethod
    def _score_of_counts(correct: Any, total: Any, sys_len: int, ref_len: int, *options: Any) -> BLEUScore:
        """:meth:`compute_bleu` of options checked where they entered (``BLEU(...)`` or
        :meth:`compute_bleu`): ``options`` are ``bleu_from_stats``'s ``smooth_method,
        smooth_value, effective_order, max_ngram_order``."""
        return BLEUScore(*bleu_from_stats(correct, total, sys_len, ref_len, *options), sys_len, ref_len)

    def score_from_stats(self, stats: Any) -> BLEUScore:
        """BLEU from one row of aggregated statistics (a column sum for a corpus).

        Raises:
            ValueError: not ``2 + 2N`` numbers, a negative or fractional count, or more
                matches than n-grams in some order.
        """
        n = self.max_ngram_order
        try:  # a fast path for valid rows: -sl scores one row per sentence
            values = stats.tolist() if hasattr(stats, "tolist") else list(stats)
            ok = (
                len(values) == 2 + 2 * n
                and all(type(v) is int for v in values)
                and min(values) >= 0
                and max(values) <= MAX_EXACT_COUNT  # (larger ones: the checks of check_statistics)
                and not any(map(gt, values[2 : 2 + n], values[2 + n :]))
            )
        except TypeError:
            ok = False
        if not ok:
            shape = np.shape(stats)
            if len(shape) != 1:
                raise ValueError(
                    "statistics must be one row of 2 + 2N numbers (for a matrix, its column sums: "
                    f"stats.sum(axis=0)), got shape {shape}"
                )
            self.check_statistics(stats)
        sys_len, ref_len, correct, total = split_row(stats, n)
        return self._score_of_counts(
            correct, total, sys_len, ref_len, self.smooth_method, self.smooth_value, self.effective_order, n
        )

    def sentence_score(self, hypothesis: str, references: Sequence[str]) -> BLEUScore:
        """BLEU (0-100) of one hypothesis against its references (a list of strings).

        Raises:
            TypeError/ValueError: hypothesis not a string, references a bare string, or no
                non-None reference.
        """
        hyp, refs = check_sentence_args(hypothesis, references)
        if not self.effective_order:
            logger.warning("It is recommended to enable `effective_order` for sentence-level BLEU.")
        return self.score_of_row(self.sentence_row(hyp, refs))

    def sentence_row(self, hypothesis: str, references: list[str | None]) -> list[int]:
        """The protocol's one-segment row (``Metric.sentence_row``): ``[hyp_len, ref_len,
        matches_1..N, totals_1..N]`` as Python ints, from the core's ``sentence_row``."""
        self.num_refs = sentence_num_refs(references)
        fast = self.tokenizer.fast_path
        if fast is not None:
            return _backend.bleu_stats.sentence_row(
                hypothesis, references, self.max_ngram_order, fast, bool(self.lowercase)
            )
        texts, tok, _ = self._preprocess_for_core([hypothesis, *references])
        return _backend.bleu_stats.sentence_row(cast(str, texts[0]), texts[1:], self.max_ngram_order, tok, False)

    def score_of_row(self, row: Sequence[Any]) -> BLEUScore:
        """The score of a row :meth:`sentence_row` gave (trusted), by the core's ``bleu_of_row``."""
        score, counts, totals, precisions, bp = _backend.bleu_scores.bleu_of_row(
            row, self.max_ngram_order, self.smooth_method, self.smooth_value, self.effective_order
        )
        return BLEUScore(score, counts, totals, precisions, bp, row[0], row[1])

    def get_signature(self) -> BLEUSignature:
        """The reproducibility signature (needs a scored corpus for the number of references)."""
        return BLEUSignature(self.__dict__)


def corpus_bleu(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    smooth_method: str = "exp",
    smooth_value: float | None = None,
    force: bool = False,
    lowercase: bool = False,
    tokenize: str = DEFAULT_TOKENIZER,
    use_effective_order: bool = False,
) -> BLEUScore:
    """Corpus BLEU with sacreBLEU's ``corpus_bleu`` defaults (exp smoothing, 13a, no effective order)."""
    values: tuple[Any, ...] = (force, lowercase, tokenize, smooth_method, smooth_value, use_effective_order)
    metric = BLEU(**dict(zip(_CORPUS_OPTIONS, values, strict=True)))
    # (Metric.corpus_score is typed as returning a Score; BLEU's is a BLEUScore)
    return cast(BLEUScore, metric.corpus_score(hypotheses, references))


def raw_corpus_bleu(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    smooth_value: float | None = SMOOTH_DEFAULTS["floor"],
) -> BLEUScore:
    """sacreBLEU's ``raw_corpus_bleu``: no tokenization, floor smoothing (0.1), effective order."""
    return corpus_bleu(
        hypotheses,
        references,
        smooth_method="floor",
        smooth_value=smooth_value,
        force=True,
        tokenize="none",
        use_effective_order=True,
    )


def sentence_bleu(
    hypothesis: str,
    references: Sequence[str],
    smooth_method: str = "exp",
    smooth_value: float | None = None,
    lowercase: bool = False,
    tokenize: str = DEFAULT_TOKENIZER,
    use_effective_order: bool = True,
) -> BLEUScore:
    """Sentence BLEU with sacreBLEU's ``sentence_bleu`` defaults (exp smoothing, effective order
    on); the metric of each option set is built once (``rapidbleu._core.metric.shared_metric``)."""
    return shared_metric(
        BLEU, _SENTENCE_OPTIONS, lowercase, tokenize, smooth_method, smooth_value, use_effective_order
    ).sentence_score(hypothesis, references)


#: ``BLEU``'s keywords for :func:`sentence_bleu`'s arguments, in that order (``shared_metric``):
#: sacreBLEU's ``use_effective_order`` is ``BLEU(effective_order=...)``.
_SENTENCE_OPTIONS = ("lowercase", "tokenize", "smooth_method", "smooth_value", "effective_order")
#: ``BLEU``'s keywords for :func:`corpus_bleu`'s arguments: ``force``, then :func:`sentence_bleu`'s.
_CORPUS_OPTIONS = ("force", *_SENTENCE_OPTIONS)
