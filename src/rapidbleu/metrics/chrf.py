"""sacreBLEU's ``sacrebleu.metrics.chrf`` import path (the classes live in ``rapidbleu.chrf``
and ``rapidbleu.score``)."""

from ..chrf import CHRF
from ..score import CHRFScore, CHRFSignature

__all__ = ["CHRF", "CHRFScore", "CHRFSignature"]
