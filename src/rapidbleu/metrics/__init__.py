"""sacreBLEU's ``sacrebleu.metrics`` import path: ``from rapidbleu.metrics import BLEU, CHRF, TER``.

``METRICS`` lists the metrics there are: the registry's (``rapidbleu.registry``).
"""

from ..registry import SacreBLEUNames
from .bleu import BLEU, BLEUScore
from .chrf import CHRF, CHRFScore
from .ter import TER, TERScore

#: Metric name -> class, as ``sacrebleu.metrics.METRICS`` (``{"BLEU": BLEU, "CHRF": CHRF,
#: "TER": TER}``): a view of ``rapidbleu.registry``'s command-line metrics, upper-case ids.
METRICS = SacreBLEUNames()

__all__ = ["BLEU", "CHRF", "METRICS", "TER", "BLEUScore", "CHRFScore", "TERScore"]
