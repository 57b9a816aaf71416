"""Metrics inside training and decoding loops: batched sentence scores, self-BLEU, pairwise
matrices.

Two functions take any metric of the protocol (``rapidbleu._core.metric.Metric``: ``BLEU()``,
``CHRF()``, ``TER()``, a metric of one's own) on strings: :func:`sentence_batch` (every
segment's sentence score in one call) and :func:`pairwise` (the ``(n, n)`` matrix of one set of
candidates, each against each: the utility or cost matrix of minimum-Bayes-risk decoding).  The
metric's own entry points are front doors to them: chrF (:func:`sentence_chrf_batch`,
:func:`pairwise_chrf`) is sacreBLEU's (0-100, ``rapidbleu.CHRF``: character n-grams, chrF++
with ``word_order=2``) on strings, and so is TER (:func:`sentence_ter_batch`,
:func:`pairwise_ter`; 0-100 and lower is better, ``rapidbleu.TER``); BLEU's
(:func:`sentence_bleu_batch`, :func:`pairwise_bleu`, :func:`self_bleu`) take string-token
lists, token ids and NLTK's scoring too.

The jobs, one module each: :mod:`.forms` (the forms a batch comes in: strings, token lists,
ids as ``rapidbleu.ids`` takes them, numpy arrays of strings, the reference layouts
``"streams"`` and ``"per_hypothesis"``), :mod:`.protocol` (any metric on strings, and chrF's
and TER's doors), :mod:`.bleu` (BLEU's doors, sacreBLEU and NLTK style, on every form).
"""

from __future__ import annotations

from .bleu import Weights as Weights  # (outside __all__, as before)
from .bleu import pairwise_bleu, self_bleu, sentence_bleu_batch
from .forms import REFERENCE_LAYOUTS as REFERENCE_LAYOUTS  # (outside __all__, as before)
from .protocol import pairwise, pairwise_chrf, pairwise_ter, sentence_batch, sentence_chrf_batch, sentence_ter_batch

__all__ = [
    "pairwise",
    "pairwise_bleu",
    "pairwise_chrf",
    "pairwise_ter",
    "self_bleu",
    "sentence_batch",
    "sentence_bleu_batch",
    "sentence_chrf_batch",
    "sentence_ter_batch",
]
