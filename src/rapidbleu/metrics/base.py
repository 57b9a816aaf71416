"""sacreBLEU's ``sacrebleu.metrics.base`` import path: ``Score``, ``Signature`` and ``Metric``.

``Metric`` is an abstract base class for ``isinstance`` checks and type hints written against
sacreBLEU; ``rapidbleu.BLEU`` is registered as a virtual subclass (it does not inherit from
it), and so is ``rapidbleu.CHRF``.
"""

from abc import ABC

from ..bleu import BLEU
from ..chrf import CHRF
from ..score import Score, Signature


class Metric(ABC):
    """The abstract metric of sacreBLEU's class hierarchy (``isinstance(BLEU(), Metric)`` is
    True).  ``BLEU`` implements its methods: ``corpus_score``, ``sentence_score``,
    ``get_signature`` and the semi-private ones (see ``rapidbleu._sacre_methods``)."""


Metric.register(BLEU)
Metric.register(CHRF)

__all__ = ["Metric", "Score", "Signature"]
