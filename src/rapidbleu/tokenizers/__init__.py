"""Tokenizer registry: sacreBLEU's tokenizer names mapped to their implementations.

Modules are imported lazily (some need optional extras).  ``get_tokenizer(name)`` returns a
ready instance and raises ``UnknownTokenizerError`` (a ``ValueError`` and a ``KeyError``) for
an unknown name.
"""

from importlib import import_module
from typing import Any

from .._base.errors import UnknownTokenizerError
from .base import BaseTokenizer

# name -> "module:Class"; one module per tokenizer.
_REGISTRY = {
    "none": "tokenizer_none:NoneTokenizer",
    "zh": "tokenizer_zh:TokenizerZh",
    "13a": "tokenizer_13a:Tokenizer13a",
    "intl": "tokenizer_intl:TokenizerIntl",
    "char": "tokenizer_char:TokenizerChar",
    "ja-mecab": "tokenizer_ja_mecab:TokenizerJaMecab",
    "ko-mecab": "tokenizer_ko_mecab:TokenizerKoMecab",
    "spm": "tokenizer_spm:TokenizerDeprecatedSPM",
    "flores101": "tokenizer_spm:TokenizerFlores101",
    "flores200": "tokenizer_spm:TokenizerFlores200",
    "spBLEU-1K": "tokenizer_spm:TokenizerSpBLEU1K",
}

#: The tokenizer BLEU uses when none is given and the target language implies none.
DEFAULT_TOKENIZER = "13a"

#: sacreBLEU's choice of tokenizer from a target language code when ``tokenize`` is not given.
LANGUAGE_DEFAULTS = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}

#: Language names used in the warning when another tokenizer is forced for these targets.
LANGUAGE_NAMES = {"zh": "Chinese", "ja": "Japanese", "ko": "Korean"}


def language_warning(trg_lang: str, tokenize: str) -> str | None:
    """sacreBLEU's advice when ``tokenize`` is forced for a target language that has a better
    default, word for word ("Consider using the 'zh' or 'spm' tokenizer for Chinese."), or
    None when there is nothing to say."""
    best = LANGUAGE_DEFAULTS.get(trg_lang)
    if best is None or tokenize == best:
        return None
    return f"Consider using the {best!r} or 'spm' tokenizer for {LANGUAGE_NAMES[trg_lang]}."


def available_tokenizers() -> list[str]:
    """Names accepted by ``BLEU(tokenize=...)`` and the CLI's ``-tok``, in registry order."""
    return list(_REGISTRY)


def tokenizer_class(name: str) -> type[BaseTokenizer]:
    """The class of the tokenizer registered as ``name`` (its module imported now), as
    sacreBLEU's ``sacrebleu.metrics.bleu._get_tokenizer(name)`` returns it.

    Raises:
        UnknownTokenizerError: ``name`` is not a known tokenizer (the message lists the known
            ones); a ``ValueError``, and a ``KeyError`` as in sacreBLEU.
        ImportError: the tokenizer needs an optional extra that is not installed.
    """
    try:
        spec = _REGISTRY[name]
    except (KeyError, TypeError):
        raise UnknownTokenizerError(
            f"unknown tokenizer {name!r}; choose one of: {', '.join(available_tokenizers())}"
        ) from None
    module_name, class_name = spec.split(":")
    module = import_module(f".{module_name}", __name__)
    cls: type[BaseTokenizer] = getattr(module, class_name)
    return cls


def tokenizer_paths() -> dict[str, str]:
    """Tokenizer name -> ``"module.Class"`` (relative to ``rapidbleu.tokenizers``), in registry
    order: the shape of sacreBLEU's ``sacrebleu.metrics.bleu._TOKENIZERS``."""
    return {name: spec.replace(":", ".") for name, spec in _REGISTRY.items()}


def get_tokenizer(name: str, **kwargs: Any) -> BaseTokenizer:
    """Instantiate the tokenizer registered as ``name`` (``kwargs`` go to its constructor,
    e.g. ``model_path=`` for the SentencePiece tokenizers).

    Raises:
        UnknownTokenizerError, ImportError: as :func:`tokenizer_class`.
    """
    return tokenizer_class(name)(**kwargs)


__all__ = [
    "DEFAULT_TOKENIZER",
    "LANGUAGE_DEFAULTS",
    "LANGUAGE_NAMES",
    "BaseTokenizer",
    "available_tokenizers",
    "get_tokenizer",
    "language_warning",
    "tokenizer_class",
    "tokenizer_paths",
]
