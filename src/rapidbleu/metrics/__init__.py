"""sacreBLEU's ``sacrebleu.metrics`` import path: ``from rapidbleu.metrics import BLEU, CHRF, TER``.

``METRICS`` lists the metrics there are.
"""

from .bleu import BLEU, BLEUScore
from .chrf import CHRF, CHRFScore
from .ter import TER, TERScore

#: Metric name -> class, as ``sacrebleu.metrics.METRICS``.
METRICS = {"BLEU": BLEU, "CHRF": CHRF, "TER": TER}

__all__ = ["BLEU", "CHRF", "METRICS", "TER", "BLEUScore", "CHRFScore", "TERScore"]
