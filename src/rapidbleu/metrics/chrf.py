"""sacreBLEU's ``sacrebleu.metrics.chrf`` import path (the classes live in ``rapidbleu.chrf``)."""

from ..chrf import CHRF, CHRFScore, CHRFSignature

__all__ = ["CHRF", "CHRFScore", "CHRFSignature"]
