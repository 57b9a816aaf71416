"""sacreBLEU's ``sacrebleu.metrics.bleu`` import path (the classes live in ``rapidbleu.bleu``
and ``rapidbleu.score``)."""

from .._stats import MAX_NGRAM_ORDER
from ..bleu import BLEU
from ..score import BLEUScore, BLEUSignature

__all__ = ["BLEU", "MAX_NGRAM_ORDER", "BLEUScore", "BLEUSignature"]
