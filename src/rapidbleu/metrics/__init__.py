"""sacreBLEU's ``sacrebleu.metrics`` import path: ``from rapidbleu.metrics import BLEU, BLEUScore``.

Only BLEU: rapidbleu implements neither chrF nor TER (``METRICS`` lists what there is).
"""

from .bleu import BLEU, BLEUScore

#: Metric name -> class, as ``sacrebleu.metrics.METRICS`` (BLEU only).
METRICS = {"BLEU": BLEU}

__all__ = ["BLEU", "METRICS", "BLEUScore"]
