"""rapidbleu: sacreBLEU- and NLTK-exact BLEU, computed by a compiled n-gram core.

``rapidbleu.backend`` names the implementation of the statistics in use (``"cython"`` or
``"python"``; choose with the environment variable ``RAPIDBLEU_BACKEND``).
"""

from . import _backend, _log  # noqa: F401  (_log: rapidbleu's logger obeys sacreBLEU's level)
from ._version import __version__
from .bleu import BLEU, corpus_bleu, raw_corpus_bleu, sentence_bleu
from .score import BLEUScore, BLEUSignature

#: "cython" or "python": which implementation computes the statistics.
backend = _backend.impl.NAME

__all__ = ["BLEU", "BLEUScore", "BLEUSignature", "backend", "corpus_bleu", "raw_corpus_bleu",
           "sentence_bleu", "__version__"]
