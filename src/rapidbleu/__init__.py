"""rapidbleu: sacreBLEU- and NLTK-exact BLEU, and sacreBLEU-exact chrF/chrF++ and TER,
computed by a compiled core.

``rapidbleu.backend`` names the implementation of the statistics in use (``"cython"`` or
``"python"``; choose with the environment variable ``RAPIDBLEU_BACKEND``).
"""

from typing import TYPE_CHECKING, Any

from ._base import log as _log  # noqa: F401  (_log: rapidbleu's logger, which obeys sacreBLEU's level, made at its first use)
from ._base.errors import (
    BackendFallbackWarning,
    DownloadError,
    NotProvidedError,
    SegmentMajorReferencesWarning,
    TestSetError,
)
from ._base.version import __version__
from ._core import backend as _backend
from .bleu import BLEU, BLEUSignature, corpus_bleu, raw_corpus_bleu, sentence_bleu
from .chrf import CHRF, corpus_chrf, sentence_chrf
from .score import BLEUScore, CHRFScore, TERScore, TERSignature
from .ter import TER, corpus_ter, sentence_ter

if TYPE_CHECKING:
    from . import compat, metrics, utils  # noqa: F401 -- sacreBLEU's layout, loaded by __getattr__
    from .metrics.helpers import extract_char_ngrams, extract_word_ngrams
    from .utils import SACREBLEU_DIR, smart_open

    #: ``"cython"`` or ``"python"`` (computed on first access by ``__getattr__`` below).
    backend: str


#: sacreBLEU's top-level test-set names, found in ``rapidbleu.dataset`` on first use.
_FROM_DATASET = frozenset(
    [
        "DATASETS",
        "download_test_set",
        "get_available_testsets",
        "get_langpairs_for_testset",
        "get_reference_files",
        "get_source_file",
    ]
)


#: sacreBLEU's package layout, so that ``import rapidbleu as sacrebleu`` code finds
#: ``sacrebleu.metrics.BLEU``, ``sacrebleu.compat...`` and the top-level helpers: name -> the
#: module that holds it (the module itself when the name is the module's), imported at the first
#: look-up (the command line needs none of them: they were a twentieth of its start-up).
_LAZY = {
    "compat": "compat",
    "metrics": "metrics",
    "utils": "utils",
    "extract_char_ngrams": "metrics.helpers",
    "extract_word_ngrams": "metrics.helpers",
    "SACREBLEU_DIR": "utils",
    "smart_open": "utils",
}


def __getattr__(name: str) -> Any:
    """``backend``: ``"cython"`` or ``"python"``, which implementation computes the statistics
    (chosen on first use, see ``rapidbleu._core.backend``).  sacreBLEU's test-set names
    (``DATASETS``, ``download_test_set``, ``get_source_file``, ...) and the ``dataset`` package,
    imported at the first such look-up (``import rapidbleu`` loads neither); and the rest of
    sacreBLEU's layout (:data:`_LAZY`)."""
    if name == "backend":
        return _backend.bleu_stats.NAME
    if name in _FROM_DATASET or name == "dataset" or name in _LAZY:
        import importlib  # (not `from . import dataset`: that asks this function again)

        where = _LAZY.get(name, "dataset")
        module = importlib.import_module(f"{__name__}.{where}")
        value = module if name == where else getattr(module, name)
        if name in _LAZY:
            globals()[name] = value  # (asked once)
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__) | set(_LAZY) | {"dataset"})


from .shim import install_as_sacrebleu, uninstall_as_sacrebleu  # noqa: E402

__all__ = [
    "BLEU",
    "CHRF",
    "DATASETS",
    "SACREBLEU_DIR",
    "TER",
    "BLEUScore",
    "BLEUSignature",
    "BackendFallbackWarning",
    "CHRFScore",
    "DownloadError",
    "NotProvidedError",
    "SegmentMajorReferencesWarning",
    "TERScore",
    "TERSignature",
    "TestSetError",
    "__version__",
    "backend",
    "corpus_bleu",
    "corpus_chrf",
    "corpus_ter",
    "download_test_set",
    "extract_char_ngrams",
    "extract_word_ngrams",
    "get_available_testsets",
    "get_langpairs_for_testset",
    "get_reference_files",
    "get_source_file",
    "install_as_sacrebleu",
    "raw_corpus_bleu",
    "sentence_bleu",
    "sentence_chrf",
    "sentence_ter",
    "smart_open",
    "uninstall_as_sacrebleu",
]
