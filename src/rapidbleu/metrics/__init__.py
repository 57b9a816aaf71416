"""sacreBLEU's ``sacrebleu.metrics`` import path: ``from rapidbleu.metrics import BLEU, CHRF``.

BLEU and chrF/chrF++; rapidbleu does not implement TER (``METRICS`` lists what there is).
"""

from .bleu import BLEU, BLEUScore
from .chrf import CHRF, CHRFScore

#: Metric name -> class, as ``sacrebleu.metrics.METRICS`` (BLEU and CHRF).
METRICS = {"BLEU": BLEU, "CHRF": CHRF}

__all__ = ["BLEU", "CHRF", "METRICS", "BLEUScore", "CHRFScore"]
