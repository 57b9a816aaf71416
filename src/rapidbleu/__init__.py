"""rapidbleu: sacreBLEU- and NLTK-exact BLEU, and sacreBLEU-exact chrF/chrF++ and TER,
computed by a compiled core.

``rapidbleu.backend`` names the implementation of the statistics in use (``"cython"`` or
``"python"``; choose with the environment variable ``RAPIDBLEU_BACKEND``).
"""

from typing import TYPE_CHECKING

from ._core import backend as _backend
from ._base import log as _log  # noqa: F401  (_log: rapidbleu's logger obeys sacreBLEU's level)
from ._base.errors import BackendFallbackWarning, NotProvidedError
from ._base.not_provided import not_provided
from ._base.version import __version__
from .bleu import BLEU, corpus_bleu, raw_corpus_bleu, sentence_bleu
from .chrf import CHRF, corpus_chrf, sentence_chrf
from .score import BLEUScore, BLEUSignature, CHRFScore, TERScore, TERSignature
from .ter import TER, corpus_ter, sentence_ter

if TYPE_CHECKING:
    #: ``"cython"`` or ``"python"`` (computed on first access by ``__getattr__`` below).
    backend: str


def __getattr__(name: str) -> str:
    """``backend``: ``"cython"`` or ``"python"``, which implementation computes the statistics
    (chosen on first use, see ``rapidbleu._core.backend``).  sacreBLEU's test-set names
    (``DATASETS``, ``download_test_set``, ...) raise ``NotProvidedError`` saying so."""
    if name == "backend":
        return _backend.bleu_stats.NAME
    error = not_provided("sacrebleu", name)
    if error is not None:
        raise error
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# sacreBLEU's package layout, so that ``import rapidbleu as sacrebleu`` code finds
# ``sacrebleu.metrics.BLEU``, ``sacrebleu.compat...`` and the top-level helpers.
from . import compat, metrics, utils  # noqa: E402,F401
from .metrics.helpers import extract_char_ngrams, extract_word_ngrams  # noqa: E402
from .shim import install_as_sacrebleu, uninstall_as_sacrebleu  # noqa: E402
from .utils import SACREBLEU_DIR, smart_open  # noqa: E402

__all__ = [
    "BLEU",
    "CHRF",
    "SACREBLEU_DIR",
    "TER",
    "BLEUScore",
    "BLEUSignature",
    "BackendFallbackWarning",
    "CHRFScore",
    "NotProvidedError",
    "TERScore",
    "TERSignature",
    "__version__",
    "backend",
    "corpus_bleu",
    "corpus_chrf",
    "corpus_ter",
    "extract_char_ngrams",
    "extract_word_ngrams",
    "install_as_sacrebleu",
    "raw_corpus_bleu",
    "sentence_bleu",
    "sentence_chrf",
    "sentence_ter",
    "smart_open",
    "uninstall_as_sacrebleu",
]
