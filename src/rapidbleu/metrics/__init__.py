"""sacreBLEU's ``sacrebleu.metrics`` import path: ``from rapidbleu.metrics import BLEU, TER, ...``.

``METRICS`` lists the metrics there are.
"""

from .bleu import BLEU, BLEUScore
from .ter import TER, TERScore

#: Metric name -> class, as ``sacrebleu.metrics.METRICS``.
METRICS = {"BLEU": BLEU, "TER": TER}

__all__ = ["BLEU", "METRICS", "TER", "BLEUScore", "TERScore"]
