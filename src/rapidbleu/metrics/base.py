"""sacreBLEU's ``sacrebleu.metrics.base`` import path: ``Score``, ``Signature`` and ``Metric``.

``Metric`` is rapidbleu's metric protocol (``rapidbleu._core.metric.Metric``), the base class of
every metric (``isinstance(BLEU(), Metric)`` is True): sacreBLEU's ``corpus_score``,
``sentence_score``, ``get_signature`` and semi-private methods, plus the statistics members
that significance, merging and the engines use.
"""

from .._core.metric import Metric
from ..score import Score, Signature

__all__ = ["Metric", "Score", "Signature"]
