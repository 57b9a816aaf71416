"""torchmetrics metrics computed by rapidbleu (extra ``rapidbleu[torchmetrics]``).

:class:`BLEUScore` and :class:`SacreBLEUScore` take torchmetrics 1.9's constructor arguments and
its ``update(preds, target)`` convention (``preds``: n strings; ``target``: per prediction a
list of reference strings, or one string), and are drop-ins for
``torchmetrics.text.BLEUScore`` / ``SacreBLEUScore``.  Each ``update`` turns its batch into
rapidbleu's integer sufficient statistics (``[hyp_len, ref_len, matches_1..N, totals_1..N]``
summed over the batch: the compiled core, no per-n-gram Python work) and adds them to one int64
state registered with ``dist_reduce_fx="sum"``, so torchmetrics' DDP synchronisation adds the
processes' statistics exactly before ``compute``.

Values (a float64 0-dim tensor, 0-1 as torchmetrics) are sacreBLEU's floats divided by 100:
``SacreBLEUScore(n_gram, smooth, tokenize, lowercase)`` is
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

:class:`CorpusScore` is the base: any rapidbleu metric object with ``corpus_statistics`` and
``score_from_stats`` (the metric protocol) as a torchmetrics ``Metric``; chrF and TER classes
are built on it.

Example::

    from rapidbleu.torchmetrics import SacreBLEUScore

    metric = SacreBLEUScore(tokenize="13a")
    metric.update(["the cat sat on the mat"], [["the cat sat on a mat", "a cat sat"]])
    metric.compute()      # tensor(0.5373..., dtype=torch.float64)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import torch
from torch import Tensor
from torchmetrics import Metric as TorchMetric

from ._metric import Metric
from .bleu import BLEU

__all__ = ["BLEUScore", "CorpusScore", "SacreBLEUScore"]

#: Predictions: a string or a sequence of strings.
Preds = str | Sequence[str]
#: Targets: per prediction, a sequence of reference strings (or one string).
Target = Sequence[str | Sequence[str]]


def reference_streams(preds: Preds, target: Target) -> tuple[list[str], list[list[str | None]]]:
    """torchmetrics' ``(preds, target)`` as rapidbleu's ``(hypotheses, reference streams)``:
    ``streams[k][i]`` is the k-th reference of prediction i, ``None`` where it has fewer.

    Raises:
        ValueError: ``preds`` and ``target`` of different lengths (torchmetrics' message).
        TypeError: a reference entry that is neither a string nor a sequence of strings.
    """
    hyps = [preds] if isinstance(preds, str) else list(preds)
    rows: list[list[str]] = []
    for i, t in enumerate(target):
        if isinstance(t, str):
            rows.append([t])
        elif isinstance(t, Sequence):
            rows.append(list(t))
        else:
            raise TypeError(f"target[{i}] is a {type(t).__name__}; expected a string or a list of reference strings")
    if len(hyps) != len(rows):
        raise ValueError(f"Corpus has different size {len(hyps)} != {len(rows)}")
    k = max((len(r) for r in rows), default=0)
    return hyps, [[r[j] if j < len(r) else None for r in rows] for j in range(k)]


class CorpusScore(TorchMetric):  # type: ignore[misc]  # (torchmetrics, an optional extra, is not followed)
    """A rapidbleu corpus metric as a torchmetrics ``Metric``: per-batch sufficient statistics
    summed in one state (``stats``, ``dist_reduce_fx="sum"``), scored once in ``compute``.

    Args:
        scorer: a rapidbleu metric (``rapidbleu.BLEU(...)``; chrF and TER alike): it is used
            only through the metric protocol (``rapidbleu._metric.Metric``): ``corpus_totals``
            per batch, ``score_from_stats`` of the sum, ``aggregate_width`` and
            ``stats_dtype`` for the state (int64 counts; float64 for TER's statistics, whose
            cross-process sum is a float sum in the order torch adds).
        **kwargs: torchmetrics' ``Metric`` options (``sync_on_compute``, ``process_group``,
            ``dist_sync_fn``, ...).

    ``compute()`` returns ``score / 100`` of the summed statistics as a float64 0-dim tensor.
    torchmetrics fixes ``higher_is_better`` per class: a subclass for a metric where lower is
    better (TER) sets it to False.
    """

    is_differentiable = False
    higher_is_better: bool | None = True
    full_state_update = False
    plot_lower_bound = 0.0
    plot_upper_bound = 1.0

    stats: Tensor

    def __init__(self, scorer: Metric, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.scorer = scorer
        dtype = torch.float64 if scorer.stats_dtype == "float64" else torch.int64
        self.add_state("stats", torch.zeros(scorer.aggregate_width(), dtype=dtype), dist_reduce_fx="sum")

    def update(self, preds: Preds, target: Target) -> None:
        """Add the statistics of a batch: ``preds`` n strings, ``target`` per prediction a list
        of references (or one string).

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

    def compute(self) -> Tensor:
        """The corpus score of everything added (on all processes, after DDP sync): a float64
        0-dim tensor, sacreBLEU's ``score / 100``."""
        return torch.tensor(self._value(self._row()), dtype=torch.float64, device=self.stats.device)


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


class BLEUScore(CorpusScore):
    """Corpus BLEU on whitespace tokens as ``torchmetrics.text.BLEUScore`` (same arguments, 0-1):
    sacreBLEU's BLEU with ``tokenize="none"``.

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

    def _value(self, row: list[Any]) -> float:
        if self._weights is None:
            return super()._value(row)
        return weighted_bleu(row, self.n_gram, self._weights, self.smooth)


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
