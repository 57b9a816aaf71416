"""sacreBLEU's ``sacrebleu.metrics.ter`` import path (the classes live in ``rapidbleu.ter`` and
``rapidbleu.score``)."""

from ..score import TERScore, TERSignature
from ..ter import TER

__all__ = ["TER", "TERScore", "TERSignature"]
