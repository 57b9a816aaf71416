"""SentencePiece tokenizers: ``flores101``, ``flores200``, ``spBLEU-1K`` and ``spm``.

"spBLEU": the segment is cut into SentencePiece pieces with a fixed, published model and the
pieces are joined by spaces (``" ".join(sp.EncodeAsPieces(line))``), as in sacreBLEU.  The
models are sacreBLEU's (FLORES-101, FLORES-200 and spBLEU-1K); ``spm`` is the old name of
``flores101`` (same model, signature ``flores101``) and logs sacreBLEU's deprecation warning.

Where the model file comes from, first match wins:

1. ``model_path=`` given to the tokenizer's constructor
   (``get_tokenizer("flores200", model_path=...)``);
2. an environment variable naming the file: ``RAPIDBLEU_FLORES101_MODEL`` (also used by
   ``spm``), ``RAPIDBLEU_FLORES200_MODEL``, ``RAPIDBLEU_SPBLEU_1K_MODEL``;
3. sacreBLEU's cache, so both packages share one download: ``$SACREBLEU/models/<file>`` or,
   without ``$SACREBLEU``, ``~/.sacrebleu/models/<file>``, with sacreBLEU's file names
   (``sacrebleu_tokenizer_spm.model``, ``flores200sacrebleuspm``,
   ``spbleu-1k_tokenizer_spm.model``).  A missing file is downloaded there from sacreBLEU's
   URL by ``rapidbleu._base.fetch`` (once, under a lock; written to a temporary file and
   renamed, so an interrupted download leaves no partial model; ``RAPIDBLEU_DOWNLOAD_MIRROR``
   names a mirror).  If the download fails the error says what to fetch and where to put it.

Needs ``sentencepiece``: ``pip install rapidbleu[spm]``.
"""

import os

from .._base import fetch
from .._base.errors import DownloadError, ModelDownloadError
from .._base.log import logger
from .base import CachedTokenizer, cached_tokenize

_INSTALL = (
    "SentencePiece tokenization (flores101, flores200, spBLEU-1K, spm) needs the sentencepiece "
    "library; install it with: pip install rapidbleu[spm]"
)

#: name -> (download URL, signature, environment variable overriding the model path)
SPM_MODELS = {
    "flores101": (
        "https://dl.fbaipublicfiles.com/fairseq/models/flores/sacrebleu_tokenizer_spm.model",
        "flores101",
        "RAPIDBLEU_FLORES101_MODEL",
    ),
    "flores200": ("https://tinyurl.com/flores200sacrebleuspm", "flores200", "RAPIDBLEU_FLORES200_MODEL"),
    "spBLEU-1K": (
        "https://www.dlnlp.ai/spBLEU-1K/spbleu-1k_tokenizer_spm.model",
        "spBLEU-1K",
        "RAPIDBLEU_SPBLEU_1K_MODEL",
    ),
}
SPM_MODELS["spm"] = SPM_MODELS["flores101"]

_DEPRECATED_SPM = "Tokenizer 'spm' has been changed to 'flores101', and may be removed in the future."


def default_model_path(name: str) -> str:
    """Where sacreBLEU keeps (and we look for) the model of tokenizer ``name``."""
    url = SPM_MODELS[name][0]
    return os.path.join(fetch.cache_dir(), "models", os.path.basename(url))


def resolve_model_path(name: str, model_path: str | None = None, download: bool = True) -> str:
    """The model file tokenizer ``name`` will load (see the module docstring for the order).

    Raises:
        FileNotFoundError: ``model_path`` or the environment variable names a missing file.
        ModelDownloadError: the cached model is missing and could not be downloaded.
    """
    url, _, env = SPM_MODELS[name]
    explicit, source = model_path, "model_path"
    if explicit is None and os.environ.get(env):
        explicit, source = os.environ[env], env
    if explicit is not None:
        explicit = os.fspath(explicit)
        if not os.path.isfile(explicit):
            raise FileNotFoundError(f"{name}: SentencePiece model {explicit!r} (from {source}) does not exist")
        return explicit
    path = default_model_path(name)
    if not (os.path.isfile(path) and os.path.getsize(path) > 0):
        if not download:
            raise FileNotFoundError(f"{name}: SentencePiece model not found at {path}")
        try:
            fetch.download(url, path, what=f"the SentencePiece model of {name}")
        except DownloadError as exc:
            if isinstance(exc, ModelDownloadError):
                raise
            raise ModelDownloadError(
                f"{exc} (or point rapidbleu at a copy: rapidbleu.tokenizers.tokenizer_spm)"
            ) from exc
    return path


class TokenizerSPM(CachedTokenizer):
    """SentencePiece tokenization with one of sacreBLEU's models (identical output and
    signature).  ``name`` is ``flores101`` (default), ``flores200``, ``spBLEU-1K`` or the
    deprecated ``spm``.

    Raises:
        ImportError: ``sentencepiece`` is not installed.
        FileNotFoundError, ModelDownloadError: no model file (see the module docstring).
    """

    fast_path = None
    _KEY = "flores101"

    def __init__(self, name: str | None = None, model_path: str | None = None):
        name = name or self._KEY
        if name not in SPM_MODELS:
            raise ValueError(f"unknown SentencePiece tokenizer {name!r}; choose one of {sorted(SPM_MODELS)}")
        self.name = SPM_MODELS[name][1]
        if name == "spm":
            logger.warning(_DEPRECATED_SPM)
        try:
            import sentencepiece
        except ImportError as exc:
            raise ImportError(_INSTALL) from exc
        self.model_path = resolve_model_path(name, model_path)
        self.sp = sentencepiece.SentencePieceProcessor()
        self.sp.Load(self.model_path)
        self._cached = cached_tokenize(self._tokenize)

    def _tokenize(self, line: str) -> str:
        return " ".join(self.sp.EncodeAsPieces(line))

    def signature(self) -> str:
        return self.name


class TokenizerDeprecatedSPM(TokenizerSPM):
    """``spm``: the FLORES-101 model under its old name (logs a deprecation warning)."""

    _KEY = "spm"


class TokenizerFlores101(TokenizerSPM):
    """``flores101``: FLORES-101 SentencePiece model (spBLEU)."""

    _KEY = "flores101"


class TokenizerFlores200(TokenizerSPM):
    """``flores200``: FLORES-200 SentencePiece model (spBLEU-200)."""

    _KEY = "flores200"


class TokenizerSpBLEU1K(TokenizerSPM):
    """``spBLEU-1K``: the spBLEU-1K SentencePiece model (1,000+ languages)."""

    _KEY = "spBLEU-1K"


# sacreBLEU's class names for the same tokenizers (``sacrebleu.tokenizers.tokenizer_spm``).
Flores101Tokenizer = TokenizerFlores101
Flores200Tokenizer = TokenizerFlores200
spBLEU1KTokenizer = TokenizerSpBLEU1K
