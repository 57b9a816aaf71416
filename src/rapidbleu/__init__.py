"""rapidbleu: sacreBLEU- and NLTK-exact BLEU, computed by a compiled n-gram core.

``rapidbleu.backend`` names the implementation of the statistics in use (``"cython"`` or
``"python"``; choose with the environment variable ``RAPIDBLEU_BACKEND``).
"""

from . import _backend
from ._version import __version__
from .bleu import BLEU, corpus_bleu, raw_corpus_bleu, sentence_bleu
from .score import BLEUScore, BLEUSignature

def __getattr__(name: str):
    """``backend``: ``"cython"`` or ``"python"``, which implementation computes the statistics
    (chosen on first use, see ``rapidbleu._backend``)."""
    if name == "backend":
        return _backend.stats.NAME
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["BLEU", "BLEUScore", "BLEUSignature", "backend", "corpus_bleu", "raw_corpus_bleu",
           "sentence_bleu", "__version__"]
