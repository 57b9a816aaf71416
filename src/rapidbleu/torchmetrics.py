"""torchmetrics metrics computed by rapidbleu (extra ``rapidbleu[torchmetrics]``).

:class:`BLEUScore` and :class:`SacreBLEUScore` take torchmetrics 1.9's constructor arguments and
its ``update(preds, target)`` convention (``preds``: n strings; ``target``: per prediction a
list of reference strings, or one string), and are drop-ins for
``torchmetrics.text.BLEUScore`` / ``SacreBLEUScore``.  Each ``update`` turns its batch into
rapidbleu's integer sufficient statistics (``[hyp_len, ref_len, matches_1..N, totals_1..N]``
summed over the batch: the compiled core, no per-n-gram Python work) and adds them to one int64
state registered with ``dist_reduce_fx="sum"``, so torchmetrics' DDP synchronisation adds the
processes' statistics exactly before ``compute``.

Values (a float32 0-dim tensor, 0-1, as torchmetrics returns) are the float32 nearest to
sacreBLEU's float divided by 100: ``SacreBLEUScore(n_gram, smooth, tokenize, lowercase)`` is
``sacrebleu.BLEU(tokenize=tokenize, lowercase=lowercase, smooth_method="add-k" if smooth else
"none", max_ngram_order=n_gram).corpus_score(...).score / 100`` on the concatenated updates, and
``BLEUScore`` the same with whitespace tokens (``tokenize="none"``).  torchmetrics computes the
same formula in float32 tensors, so its values agree to float32 precision, except where its
own rules differ from sacreBLEU's:

* the closest reference length: torchmetrics takes the first of equally close references,
  sacreBLEU (and NLTK) the shorter one;
* ``smooth=True`` (add-one for orders >= 2, Lin and Och 2004): torchmetrics returns 0 as soon as
  any order has no match, before smoothing; sacreBLEU's ``add-k`` smooths those orders.

``weights`` other than uniform have no sacreBLEU counterpart: then the value is torchmetrics'
formula, ``BP * exp(sum_n w_n * log p_n)`` (0 when some ``p_n`` is 0), in float64 on the same
statistics.

:class:`CHRFScore` and :class:`TranslationEditRate` are drop-ins for
``torchmetrics.text.CHRFScore`` and ``TranslationEditRate`` (same arguments, states summed across
processes, float32 results, ``return_sentence_level_score``), and give torchmetrics' numbers, not
sacreBLEU's: torchmetrics' chrF and TER are formulas of their own.

* chrF: torchmetrics averages the per-order F-scores over all orders (a precision or recall of an
  order without n-grams counts as 0, the F-score's denominator is at least 1e-16), in float32;
  sacreBLEU's default averages precision and recall over the orders both sides have, then takes
  one F-score.  Each segment is counted against its best reference as in
  ``rapidbleu.CHRF(eps_smoothing=True)`` (sacreBLEU's statistics), with torchmetrics' rules on
  top: the hypothesis's n-grams of an order its reference lacks are counted (sacreBLEU counts 0);
  a prediction without any reference counts its n-grams and nothing else (score 0); and, up to
  torchmetrics 1.9.0, a segment without any match adds no reference n-grams (torchmetrics kept
  the zero statistics it starts from; later releases count its first reference's, see
  :func:`torchmetrics_rules`, where sacreBLEU's epsilon-smoothed choice may be another one).  The
  per-order F-scores are then computed from rapidbleu's exact integer statistics in torchmetrics'
  float32 operations.  Remaining differences: without ``whitespace`` sacreBLEU (and rapidbleu)
  drop every whitespace character from character n-grams, torchmetrics only U+0020 (text with
  tabs, no-break spaces or other Unicode spaces inside a line differs); with several references
  the best one is chosen by sacreBLEU's float64 F-score with epsilon smoothing, torchmetrics'
  by its float32 one (they can differ only for references whose F-scores are within float32
  rounding or 1e-16 of each other); torchmetrics sums n-gram counts in float32, rapidbleu in
  int64 (the same below 2**24 n-grams of an order).
* TER: torchmetrics up to 1.9.0 computes each segment's edits with the reference's words shifted
  toward the hypothesis (its ``_translation_edit_rate(target_words, pred_words)``), sacreBLEU the
  hypothesis's toward the reference: the shifts found differ, and an empty hypothesis has 0
  edits there.  Later releases shift the hypothesis, as sacreBLEU, and give 0 edits against an
  empty reference (:func:`torchmetrics_rules`).  :class:`TranslationEditRate` tokenizes each
  hypothesis and reference once (torchmetrics' ``_preprocess_sentence``; sacreBLEU tokenizes
  references twice, which differs with ``normalize``), runs rapidbleu's TER kernel (sacreBLEU's
  tercom algorithm) on those words the installed torchmetrics' way round, and sums edits and
  average reference lengths in float32 as torchmetrics does; the score is edits / length (0-1).
  A prediction without any reference adds no edits and no length (its segment TER is 0, as
  torchmetrics'; torchmetrics' own length sum turns NaN there, and its corpus TER is 0 from then
  on).  torchmetrics' own re-implementation
  of tercom departs from sacreBLEU's on rare segments (1 of 1,000 WMT23 segments in
  ``bench/bench_torchmetrics.py``: 32 edits where sacreBLEU's code finds 31 the same way round);
  there the values differ by those edits.  For sacreBLEU's TER, use
  ``CorpusScore(rapidbleu.TER(...))``.

:class:`CorpusScore` is the base of the BLEU classes: any rapidbleu metric object with
``corpus_statistics`` and ``score_from_stats`` (the metric protocol) as a torchmetrics ``Metric``
whose value is sacreBLEU's score / 100 (``CorpusScore(rapidbleu.CHRF())`` is sacreBLEU's chrF,
``CorpusScore(rapidbleu.TER())`` sacreBLEU's TER, with ``higher_is_better`` the metric's).

Every class here can be compiled by ``torch.jit.script`` (as torchmetrics' tester does with
every metric: ``update`` and ``compute`` stay Python, as in torchmetrics), pickled, moved to a
device; ``.half()``, ``.float()`` and ``.double()`` leave the states as they are (torchmetrics'
rule).  An update without any prediction (an empty batch; a process without data) adds
nothing, and ``compute()`` without any segment gives torchmetrics' empty value, 0 (with
``return_sentence_level_score`` it raises ``ValueError``, as torchmetrics: no segment scores to
concatenate).  ``forward`` returns the batch's value and adds the batch to the state.

Example::

    from rapidbleu.torchmetrics import SacreBLEUScore

    metric = SacreBLEUScore(tokenize="13a")
    metric.update(["the cat sat on the mat"], [["the cat sat on a mat", "a cat sat"]])
    metric.compute()      # tensor(0.5373...)
"""

# No ``from __future__ import annotations``: torch.jit.script reads the class attributes'
# annotations (``stats: Tensor``) as objects; strings ("Tensor") defeat it.
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

import numpy as np
import torch
import torchmetrics
from packaging.version import Version
from torch import Tensor
from torchmetrics import Metric as TorchMetric
from torchmetrics.utilities import dim_zero_cat

from ._core.inputs import check_references, preprocess, streams_of_rows
from ._core.metric import Metric
from ._core.validate import check_hypotheses
from .bleu import BLEU
from .chrf import CHRF
from .ter import TER

__all__ = [
    "BLEUScore",
    "CHRFScore",
    "CorpusScore",
    "SacreBLEUScore",
    "TorchmetricsRules",
    "TranslationEditRate",
    "torchmetrics_rules",
]

#: Predictions: a string or a sequence of strings.
Preds = str | Sequence[str]
#: Targets: per prediction, a sequence of reference strings (or one string).
Target = Sequence[str | Sequence[str]]


def reference_streams(
    preds: Preds, target: Target, flat_single: bool = False
) -> tuple[list[str], list[list[str | None]]]:
    """torchmetrics' ``(preds, target)`` as rapidbleu's ``(hypotheses, reference streams)``:
    ``streams[k][i]`` is the k-th reference of prediction i, ``None`` where it has fewer.

    No prediction and no reference string (``[]``, ``[[]]``: an empty batch, as torchmetrics'
    tests give it) is an empty update: ``([], [])``.  With ``flat_single`` (torchmetrics' chrF
    and TER input rule), a ``target`` of strings only for one prediction is that prediction's
    list of references (``[]``: none); else each string is one prediction's reference.

    Raises:
        ValueError: ``preds`` and ``target`` of different lengths (torchmetrics' message).
        TypeError: a reference entry that is neither a string nor a sequence of strings.
    """
    hyps = [preds] if isinstance(preds, str) else list(preds)
    if flat_single and len(hyps) == 1 and not isinstance(target, str) and all(isinstance(t, str) for t in target):
        target = [[cast(str, t) for t in target]]
    rows: list[list[str]] = []
    for i, t in enumerate(target):
        if isinstance(t, str):
            rows.append([t])
        elif isinstance(t, Sequence):
            rows.append(list(t))
        else:
            raise TypeError(f"target[{i}] is a {type(t).__name__}; expected a string or a list of reference strings")
    if not hyps and not any(rows):
        return [], []
    if len(hyps) != len(rows):
        raise ValueError(f"Corpus has different size {len(hyps)} != {len(rows)}")
    return hyps, streams_of_rows(rows)


#: The last torchmetrics release whose TER shifts the reference's words and whose chrF drops the
#: reference n-grams of a segment without any match; the releases after it have both fixes.
LAST_UNFIXED_TORCHMETRICS = "1.9.0"


@dataclass(frozen=True)
class TorchmetricsRules:
    """The rules of one torchmetrics version that :class:`CHRFScore` and
    :class:`TranslationEditRate` follow where its releases differ.

    Attributes:
        ter_shifts_reference: TER shifts the reference's words toward the hypothesis, and a
            hypothesis without words has 0 edits (torchmetrics up to 1.9.0); else the
            hypothesis's toward the reference (sacreBLEU's direction), and a reference without
            words gives 0 edits.
        chrf_unmatched_drops_reference: a chrF segment without any matching n-gram adds no
            reference n-grams (up to 1.9.0); else those of its first reference (every
            reference scores 0 there, and torchmetrics keeps the first of equal ones).
    """

    ter_shifts_reference: bool
    chrf_unmatched_drops_reference: bool


def torchmetrics_rules(version: str) -> TorchmetricsRules:
    """The rules of torchmetrics ``version`` (a PEP 440 version string, as
    ``torchmetrics.__version__``): 1.9.0 and earlier (pre-releases of 1.9.0 included) the old
    ones, any later version (1.9.1, 1.10.0, their development builds) the fixed ones.

    Raises:
        packaging.version.InvalidVersion: not a PEP 440 version.
    """
    old = Version(version) <= Version(LAST_UNFIXED_TORCHMETRICS)
    return TorchmetricsRules(ter_shifts_reference=old, chrf_unmatched_drops_reference=old)


class CorpusScore(TorchMetric):  # type: ignore[misc]  # (torchmetrics, an optional extra, is not followed)
    """A rapidbleu corpus metric as a torchmetrics ``Metric``: per-batch sufficient statistics
    summed in one state (``stats``, ``dist_reduce_fx="sum"``), scored once in ``compute``.

    Args:
        scorer: a rapidbleu metric (``rapidbleu.BLEU(...)``; chrF and TER alike): it is used
            only through the metric protocol (``rapidbleu._core.metric.Metric``): ``corpus_totals``
            per batch, ``score_from_stats`` of the sum, ``aggregate_width`` and
            ``stats_dtype`` for the state (int64 counts; float64 for TER's statistics, whose
            cross-process sum is a float sum in the order torch adds).
        **kwargs: torchmetrics' ``Metric`` options (``sync_on_compute``, ``process_group``,
            ``dist_sync_fn``, ...).

    ``compute()`` returns ``score / 100`` of the summed statistics as a float64 0-dim tensor
    (float32 in the BLEU subclasses, as torchmetrics).  ``higher_is_better`` is the scorer's
    (``rapidbleu.TER``: False), read-only as torchmetrics' constants.  ``full_state_update`` is
    False: ``forward`` counts a batch once and adds it to the sums (torchmetrics' own BLEU sets
    True and counts it twice; the values are the same).
    """

    is_differentiable = False
    full_state_update = False
    plot_lower_bound = 0.0
    plot_upper_bound = 1.0

    stats: Tensor

    def __init__(self, scorer: Metric, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.scorer = scorer
        dtype = torch.float64 if scorer.stats_dtype == "float64" else torch.int64
        self.add_state("stats", torch.zeros(scorer.aggregate_width(), dtype=dtype), dist_reduce_fx="sum")

    @property
    def higher_is_better(self) -> bool:
        """Whether a higher value is better: the scorer's (``False`` for TER)."""
        return bool(self.scorer.higher_is_better)

    def update(self, preds: Preds, target: Target) -> None:
        """Add the statistics of a batch: ``preds`` n strings, ``target`` per prediction a list
        of references (or one string); an empty batch adds nothing.

        Raises:
            ValueError, TypeError: lengths that differ, a prediction without references, a
                non-string (rapidbleu's input checks, before anything is added).
        """
        hyps, streams = reference_streams(preds, target)
        if not hyps:
            return
        row = self.scorer.corpus_totals(hyps, streams)  # the metric's own column sums
        self.stats += torch.tensor(row, dtype=self.stats.dtype, device=self.stats.device)

    def _row(self) -> list[Any]:
        row: list[Any] = self.stats.tolist()  # Python ints (floats for float64 statistics)
        return row

    def _value(self, row: list[Any]) -> float:
        return float(self.scorer.score_from_stats(row).score) / 100.0

    def _result(self, value: float) -> Tensor:
        return torch.tensor(value, dtype=torch.float64, device=self.stats.device)

    def compute(self) -> Tensor:
        """The corpus score of everything added (on all processes, after DDP sync): a float64
        0-dim tensor, sacreBLEU's ``score / 100`` (0 before any update)."""
        return self._result(self._value(self._row()))


def _bleu_scorer(n_gram: int, smooth: bool, tokenize: str, lowercase: bool) -> BLEU:
    return BLEU(
        tokenize=tokenize,
        lowercase=lowercase,
        force=True,
        smooth_method="add-k" if smooth else "none",
        smooth_value=1 if smooth else None,
        effective_order=False,
        max_ngram_order=n_gram,
    )


def _check_weights(weights: Sequence[float] | None, n_gram: int) -> list[float] | None:
    """None for uniform weights (sacreBLEU's formula), else the weights as floats."""
    if weights is None:
        return None
    w = [float(x) for x in weights]
    if len(w) != n_gram:
        raise ValueError(f"List of weights has different weights than `n_gram`: {len(w)} != {n_gram}")
    return None if all(x == 1.0 / n_gram for x in w) else w


def weighted_bleu(row: Sequence[int], n_gram: int, weights: Sequence[float], smooth: bool) -> float:
    """torchmetrics' BLEU formula with per-order weights, in float64: ``BP * exp(sum_n w_n *
    log(p_n))`` with ``p_n = matches_n / totals_n`` (``(matches_n + 1) / (totals_n + 1)`` for
    n >= 2 when ``smooth``) and sacreBLEU's brevity penalty ``exp(1 - ref_len / hyp_len)`` when
    ``hyp_len < ref_len``; 0.0 when some ``p_n`` is 0 or there is no hypothesis token.

    Args:
        row: ``[hyp_len, ref_len, matches_1..N, totals_1..N]`` (N = ``n_gram``).
    """
    hyp_len, ref_len = row[0], row[1]
    matches, totals = list(row[2 : 2 + n_gram]), list(row[2 + n_gram : 2 + 2 * n_gram])
    if smooth:
        matches[1:] = [m + 1 for m in matches[1:]]
        totals[1:] = [t + 1 for t in totals[1:]]
    if hyp_len == 0 or min(matches) == 0:
        return 0.0
    log_mean = math.fsum(w * math.log(m / t) for w, m, t in zip(weights, matches, totals, strict=True))
    bp = 1.0 if hyp_len >= ref_len else math.exp(1 - ref_len / hyp_len)
    return bp * math.exp(log_mean)


def _blank_as_text(line: Any) -> Any:
    """An empty list or tuple where a prediction or reference string belongs is the empty text
    (torchmetrics' BLEU tokenizes every falsy entry to no words); anything else as given."""
    return "" if isinstance(line, (list, tuple)) and not line else line


class BLEUScore(CorpusScore):
    """Corpus BLEU on whitespace tokens as ``torchmetrics.text.BLEUScore`` (same arguments, 0-1):
    sacreBLEU's BLEU with ``tokenize="none"``.

    ``compute()``: a float32 0-dim tensor (torchmetrics' dtype), the float32 nearest to
    sacreBLEU's ``score / 100``.  State: ``stats``, int64 ``[hyp_len, ref_len, matches_1..N,
    totals_1..N]`` summed over updates and processes (torchmetrics keeps four float32 states,
    whose counts round above 2**24).

    Args:
        n_gram: the maximum n-gram order N (1..64).
        smooth: add-one smoothing of orders >= 2 (sacreBLEU's ``add-k``, k = 1); else none.
        weights: per-order weights (length ``n_gram``); uniform by default.
        **kwargs: torchmetrics ``Metric`` options.

    Raises:
        ValueError: weights of another length than ``n_gram``; ``n_gram`` outside 1..64.
    """

    def __init__(
        self, n_gram: int = 4, smooth: bool = False, weights: Sequence[float] | None = None, **kwargs: Any
    ) -> None:
        self._init_bleu(n_gram, smooth, "none", False, weights, kwargs)

    def _init_bleu(
        self,
        n_gram: int,
        smooth: bool,
        tokenize: str,
        lowercase: bool,
        weights: Sequence[float] | None,
        kwargs: dict[str, Any],
    ) -> None:
        self._weights = _check_weights(weights, n_gram)
        CorpusScore.__init__(self, _bleu_scorer(n_gram, smooth, tokenize, lowercase), **kwargs)
        self.n_gram = n_gram
        self.smooth = smooth
        self.weights = list(weights) if weights is not None else [1.0 / n_gram] * n_gram

    def update(self, preds: Preds, target: Target) -> None:
        """Add the statistics of a batch, as :meth:`CorpusScore.update`; an empty list where a
        prediction or reference string belongs is an empty text (``preds=[[]]``, ``target=[[[]]]``
        as torchmetrics' BLEU takes them).
        """
        if not isinstance(preds, str):
            preds = [_blank_as_text(p) for p in preds]
        target = [[_blank_as_text(r) for r in t] if isinstance(t, (list, tuple)) else t for t in target]
        super().update(preds, target)

    def _value(self, row: list[Any]) -> float:
        if self._weights is None:
            return super()._value(row)
        return weighted_bleu(row, self.n_gram, self._weights, self.smooth)

    def _result(self, value: float) -> Tensor:
        return torch.tensor(value, dtype=torch.float32, device=self.stats.device)


class SacreBLEUScore(BLEUScore):
    """sacreBLEU's corpus BLEU as ``torchmetrics.text.SacreBLEUScore`` (same arguments, 0-1; a
    :class:`BLEUScore` with sacreBLEU's tokenizers, as in torchmetrics).

    Args:
        n_gram, smooth, weights, **kwargs: as :class:`BLEUScore`.
        tokenize: a sacreBLEU tokenizer (``"13a"``, ``"intl"``, ``"zh"``, ``"char"``, ``"none"``,
            ``"ja-mecab"``, ``"ko-mecab"``, ``"flores101"``, ``"flores200"``, ...).
        lowercase: lowercase before tokenizing.

    Raises:
        ValueError: as :class:`BLEUScore`; an unknown tokenizer (also a ``KeyError``).
    """

    def __init__(
        self,
        n_gram: int = 4,
        smooth: bool = False,
        tokenize: str = "13a",
        lowercase: bool = False,
        weights: Sequence[float] | None = None,
        **kwargs: Any,
    ) -> None:
        self._init_bleu(n_gram, smooth, tokenize, lowercase, weights, kwargs)


# --------------------------------------------------------------------------------------------
# chrF and TER as torchmetrics computes them
# --------------------------------------------------------------------------------------------
#: torchmetrics' floor of a chrF F-score's denominator.
_CHRF_DENOMINATOR_FLOOR = 1e-16


def torchmetrics_chrf(stats: Tensor, char_order: int, word_order: int, beta: float) -> Tensor:
    """torchmetrics' chrF of rows of chrF statistics, in its float32 operations.

    Per order: precision ``match / hyp`` (0 without hypothesis n-grams), recall ``match / ref``
    (0 without reference n-grams), ``F = (1 + beta**2) * P * R / max(beta**2 * P + R, 1e-16)``;
    the score is (the sum of the character orders' F + the sum of the word orders' F) / the
    number of orders (torchmetrics 1.9, ``functional.text.chrf._calculate_fscore``).

    Args:
        stats: ``(m, 3 * (char_order + word_order))`` float32, per order ``[hyp, ref, match]``
            (character orders first), as ``rapidbleu.CHRF`` counts them.

    Returns:
        ``(m,)`` float32, 0-1.
    """
    hyp, ref, match = stats[:, 0::3], stats[:, 1::3], stats[:, 2::3]
    zero = torch.zeros((), dtype=stats.dtype, device=stats.device)
    precision = torch.where(hyp > 0, match / hyp, zero)
    recall = torch.where(ref > 0, match / ref, zero)
    floor = torch.tensor(_CHRF_DENOMINATOR_FLOOR, dtype=stats.dtype, device=stats.device)
    denominator = torch.maximum(beta**2 * precision + recall, floor)
    f_score = (1 + beta**2) * precision * recall / denominator
    char = torch.zeros(stats.shape[0], dtype=stats.dtype, device=stats.device)
    for j in range(char_order):
        char = char + f_score[:, j]
    word = torch.zeros_like(char)
    for j in range(char_order, char_order + word_order):
        word = word + f_score[:, j]
    return (char + word) / torch.tensor(float(char_order + word_order), dtype=stats.dtype, device=stats.device)


def _with_references(streams: list[list[str | None]], n: int) -> list[int]:
    """The indexes of the predictions that have at least one reference (not ``None``), after
    checking every reference as rapidbleu's metrics do (a prediction without any is allowed;
    errors name the prediction's own index).

    Raises:
        TypeError: a reference that is not a string.
    """
    scored = [i for i in range(n) if any(stream[i] is not None for stream in streams)]
    if streams:
        placeholders = set(range(n)).difference(scored)  # checked as if they had one empty reference
        first = ["" if i in placeholders else r for i, r in enumerate(streams[0])]
        check_references([first, *streams[1:]], n)
    return scored


def _checked_batch(preds: Preds, target: Target) -> tuple[list[str], list[list[str | None]], list[int]] | None:
    """One update of torchmetrics' chrF or TER (its input rules, ``flat_single``): ``(hypotheses,
    reference streams, the indexes of the predictions with a reference)``, every string checked
    as rapidbleu's metrics check them before anything is added; None for an empty batch.

    Raises:
        ValueError, TypeError: lengths that differ, a non-string.
    """
    hyps, streams = reference_streams(preds, target, flat_single=True)
    if not hyps:
        return None
    hyps = check_hypotheses(hyps)
    return hyps, streams, _with_references(streams, len(hyps))


def _with_sentences(corpus: Tensor, sentences: list[Tensor] | None) -> Tensor | tuple[Tensor, Tensor]:
    """``compute()``'s value: the corpus score, and with ``return_sentence_level_score`` (a
    list state of per-update segment scores) the segment scores concatenated too."""
    return corpus if sentences is None else (corpus, dim_zero_cat(sentences))


def _int_at_least(value: object, low: int) -> bool:
    """Whether an argument is an int of at least ``low`` (torchmetrics' check of orders)."""
    return isinstance(value, int) and value >= low


class CHRFScore(TorchMetric):  # type: ignore[misc]  # (torchmetrics, an optional extra, is not followed)
    """chrF / chrF++ as ``torchmetrics.text.CHRFScore`` (same arguments and outputs; torchmetrics'
    formula on rapidbleu's statistics, module docstring).

    Args:
        n_char_order: character n-gram orders 1..n (1..64; default 6).
        n_word_order: word n-gram orders 1..n (0..64; default 2, chrF++; 0 is chrF).
        beta: recall's weight (>= 0, as torchmetrics).
        lowercase: lowercase before counting.
        whitespace: keep whitespace in character n-grams.
        return_sentence_level_score: ``compute()`` also returns each segment's score.
        **kwargs: torchmetrics ``Metric`` options.

    ``compute()``: a float32 0-dim tensor (0-1); with ``return_sentence_level_score`` the tuple
    ``(corpus score, float32 (n,) segment scores)``.  State: the int64 column sums of the
    statistics (``stats``, summed across processes; torchmetrics keeps one float32 state per
    order and side) and, for sentence scores, a list of float32 tensors (concatenated across
    processes).  The rule for a segment without any match is the installed torchmetrics'
    (:func:`torchmetrics_rules`, read when the metric is made).

    Raises:
        ValueError: ``n_char_order`` not an int >= 1, ``n_word_order`` not an int >= 0
            (torchmetrics' messages), an order above 64, ``beta`` below 0 (torchmetrics' message).
    """

    is_differentiable = False
    higher_is_better = True
    full_state_update = False
    plot_lower_bound = 0.0
    plot_upper_bound = 1.0

    stats: Tensor
    sentence_chrf_score: list[Tensor] | None = None

    def __init__(
        self,
        n_char_order: int = 6,
        n_word_order: int = 2,
        beta: float = 2.0,
        lowercase: bool = False,
        whitespace: bool = False,
        return_sentence_level_score: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        if not _int_at_least(n_char_order, 1):
            raise ValueError("Expected argument `n_char_order` to be an integer greater than or equal to 1.")
        if not _int_at_least(n_word_order, 0):
            raise ValueError("Expected argument `n_word_order` to be an integer greater than or equal to 0.")
        if beta < 0:
            raise ValueError("Expected argument `beta` to be greater than 0.")
        self.n_char_order = n_char_order
        self.n_word_order = n_word_order
        self.beta = beta
        self.lowercase = lowercase
        self.whitespace = whitespace
        self.return_sentence_level_score = return_sentence_level_score
        self.n_order = float(n_char_order + n_word_order)
        # CHRF's parameters in their order; torchmetrics' chrF smooths as sacreBLEU's eps_smoothing
        self.scorer = CHRF(n_char_order, n_word_order, beta, lowercase, whitespace, eps_smoothing=True)
        self.add_state("stats", torch.zeros(self.scorer.aggregate_width(), dtype=torch.int64), dist_reduce_fx="sum")
        if return_sentence_level_score:
            self.add_state("sentence_chrf_score", [], dist_reduce_fx="cat")
        self._drop_unmatched = torchmetrics_rules(torchmetrics.__version__).chrf_unmatched_drops_reference

    def update(self, preds: Preds, target: Target) -> None:
        """Add a batch: ``preds`` n strings, ``target`` per prediction a list of references (or
        one string); an empty batch adds nothing, a prediction with an empty list of references
        only its own n-grams (torchmetrics' rule: score 0).

        Raises:
            ValueError, TypeError: lengths that differ, a non-string (before anything is added).
        """
        batch = _checked_batch(preds, target)
        if batch is None:
            return
        hyps, streams, scored = batch
        rows = np.zeros((len(hyps), self.scorer.aggregate_width()), dtype=np.int64)
        if scored:
            rows[scored] = self.scorer.corpus_statistics(
                [hyps[i] for i in scored], [[stream[i] for i in scored] for stream in streams]
            )
        unmatched = np.logical_not(rows[:, 2::3].any(axis=1))
        if self._drop_unmatched:  # torchmetrics <= 1.9: no reference n-grams for a segment without a match
            rows[unmatched, 1::3] = 0
        else:  # later: its first reference's (sacreBLEU's smoothed choice may be another one)
            first = [(i, next(s[i] for s in streams if s[i] is not None)) for i in scored if unmatched[i]]
            if first:
                refs = [cast(str, r) for _, r in first]
                rows[[i for i, _ in first], 1::3] = self.scorer.corpus_statistics(refs, [refs])[:, 0::3]
        # sacreBLEU counts no hypothesis n-grams of an order its (chosen) reference lacks,
        # torchmetrics counts them all
        own = np.flatnonzero(unmatched | (rows[:, 1::3] == 0).any(axis=1))
        if own.size:
            texts = [hyps[i] for i in own]
            rows[own, 0::3] = self.scorer.corpus_statistics(texts, [texts])[:, 0::3]
        stats = torch.from_numpy(rows).to(self.stats.device)
        self.stats += stats.sum(dim=0)
        if self.sentence_chrf_score is not None:
            self.sentence_chrf_score.append(self._scores(stats.to(torch.float32)))

    def _scores(self, rows: Tensor) -> Tensor:
        return torchmetrics_chrf(rows, self.n_char_order, self.n_word_order, self.beta)

    def compute(self) -> Tensor | tuple[Tensor, Tensor]:
        """The corpus chrF (float32 0-dim, 0-1), and with ``return_sentence_level_score`` the
        segment scores (float32 ``(n,)``) too."""
        return _with_sentences(self._scores(self.stats.to(torch.float32).unsqueeze(0))[0], self.sentence_chrf_score)


def _ter_value(edits: np.float32, length: np.float32) -> np.float32:
    """torchmetrics' TER of float32 statistics: edits / length; 1 with edits and no length; 0
    without edits."""
    if length > 0 and edits > 0:
        return cast(np.float32, edits / length)  # float32 / float32
    return cast(np.float32, np.float32(1.0 if length == 0 and edits > 0 else 0.0))


class TranslationEditRate(TorchMetric):  # type: ignore[misc]  # (torchmetrics, an optional extra, is not followed)
    """TER as ``torchmetrics.text.TranslationEditRate`` (same arguments and outputs; the installed
    torchmetrics' direction of shifts, :func:`torchmetrics_rules`, read when the metric is made;
    computed by rapidbleu's TER kernel, module docstring).

    Args:
        normalize: tercom's normalization (sacreBLEU's ``normalized``).
        no_punctuation: remove punctuation (``no_punct``).
        lowercase: case-insensitive (default; sacreBLEU's ``case_sensitive=False``).
        asian_support: the CJK rules of ``normalize`` and ``no_punctuation``.
        return_sentence_level_score: ``compute()`` also returns each segment's TER.
        **kwargs: torchmetrics ``Metric`` options.

    ``compute()``: a float32 0-dim tensor, edits / average reference length summed over the
    corpus (0-1 and above; lower is better); with ``return_sentence_level_score`` the tuple
    ``(corpus TER, float32 (n,) segment TERs)``.  States: ``total_num_edits`` and
    ``total_tgt_len`` (float32, summed across processes, added in torchmetrics' order) and, for
    sentence scores, a list of float32 tensors.

    Raises:
        ValueError: an option that is not a bool (torchmetrics' messages).
    """

    is_differentiable = False
    higher_is_better = False
    full_state_update = False
    plot_lower_bound = 0.0
    plot_upper_bound = 1.0

    total_num_edits: Tensor
    total_tgt_len: Tensor
    sentence_ter: list[Tensor] | None = None

    def __init__(
        self,
        normalize: bool = False,
        no_punctuation: bool = False,
        lowercase: bool = True,
        asian_support: bool = False,
        return_sentence_level_score: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        for name, value in (
            ("normalize", normalize),
            ("no_punctuation", no_punctuation),
            ("lowercase", lowercase),
            ("asian_support", asian_support),
        ):
            if not isinstance(value, bool):
                raise ValueError(f"Expected argument `{name}` to be of type boolean but got {value}.")
        self.scorer = TER(  # its tokenizer: torchmetrics' (the same tercom rules)
            normalized=normalize, no_punct=no_punctuation, asian_support=asian_support, case_sensitive=not lowercase
        )
        # the edits of words tokenized once: this TER's own tokenization only splits them again
        self._edits = TER(case_sensitive=True)
        self._shift_reference = torchmetrics_rules(torchmetrics.__version__).ter_shifts_reference
        self.return_sentence_level_score = return_sentence_level_score
        self.add_state("total_num_edits", torch.tensor(0.0), dist_reduce_fx="sum")
        self.add_state("total_tgt_len", torch.tensor(0.0), dist_reduce_fx="sum")
        if return_sentence_level_score:
            self.add_state("sentence_ter", [], dist_reduce_fx="cat")

    def _words(self, text: str) -> str:
        """torchmetrics' ``_preprocess_sentence``: right-stripped, tokenized once (the words
        joined by single spaces)."""
        return preprocess(text, self.scorer.tokenizer, False)

    def _segments(self, hyps: list[str], streams: list[list[str | None]]) -> tuple[np.ndarray, np.ndarray]:
        """Per segment the fewest edits over its references and the float32 average reference
        length, as torchmetrics: ``(edits, lengths)``, 0 and 0 for a prediction without any
        reference.  Up to torchmetrics 1.9.0 each reference's words are shifted toward the
        hypothesis, and a hypothesis without words has 0 edits; later the hypothesis's toward
        the reference, and a reference without words gives 0 edits (the kernel counts the
        deletions or insertions there, sacreBLEU's rule)."""
        n = len(hyps)
        edits = np.full(n, np.inf)
        lengths = np.zeros(n, dtype=np.float32)
        counts = np.zeros(n, dtype=np.int64)
        hyp_words = [self._words(h) for h in hyps]
        for stream in streams:
            idx = [i for i, r in enumerate(stream) if r is not None]
            ref_words = [self._words(cast(str, stream[i])) for i in idx]
            pairs = [
                (r, hyp_words[i]) if self._shift_reference else (hyp_words[i], r)
                for i, r in zip(idx, ref_words, strict=True)
            ]
            shifted = [a for a, _ in pairs]
            toward = [b for _, b in pairs]
            found = self._edits.corpus_statistics(shifted, [toward])[:, 0] if pairs else np.zeros(0)
            found[np.array([not b for b in toward], dtype=bool)] = 0  # torchmetrics: no edits toward no words
            edits[idx] = np.minimum(edits[idx], found)
            lengths[idx] = lengths[idx] + np.asarray([len(r.split()) for r in ref_words], dtype=np.float32)
            counts[idx] += 1
        refless = counts == 0
        edits[refless] = 0  # no edits, no length: the corpus sums are the other segments'
        return edits, lengths / np.maximum(counts, 1).astype(np.float32)

    def update(self, preds: Preds, target: Target) -> None:
        """Add a batch: ``preds`` n strings, ``target`` per prediction a list of references (or
        one string); an empty batch adds nothing, a prediction with an empty list of references
        adds no edits and no length (its segment TER is 0, torchmetrics' value).

        Raises:
            ValueError, TypeError: lengths that differ, a non-string, a segment of more than
                ``rapidbleu._core.ter.ter_py.MAX_WORDS`` words (before anything is added).
        """
        batch = _checked_batch(preds, target)  # checked as TER checks them, before any work
        if batch is None:
            return
        edits, lengths = self._segments(*batch[:2])
        total_edits = np.float32(self.total_num_edits.item())
        total_len = np.float32(self.total_tgt_len.item())
        for e, length in zip(edits, lengths, strict=True):  # float32 sums in torchmetrics' order
            total_edits = np.float32(total_edits + np.float32(e))
            total_len = np.float32(total_len + length)
        device = self.total_num_edits.device
        self.total_num_edits = torch.tensor(total_edits, dtype=torch.float32, device=device)
        self.total_tgt_len = torch.tensor(total_len, dtype=torch.float32, device=device)
        if self.sentence_ter is not None:
            scores = [_ter_value(np.float32(e), length) for e, length in zip(edits, lengths, strict=True)]
            self.sentence_ter.append(torch.tensor(np.asarray(scores, dtype=np.float32), device=device))

    def compute(self) -> Tensor | tuple[Tensor, Tensor]:
        """The corpus TER (float32 0-dim), and with ``return_sentence_level_score`` the segment
        TERs (float32 ``(n,)``) too."""
        value = _ter_value(np.float32(self.total_num_edits.item()), np.float32(self.total_tgt_len.item()))
        corpus = torch.tensor(value, dtype=torch.float32, device=self.total_num_edits.device)
        return _with_sentences(corpus, self.sentence_ter)
