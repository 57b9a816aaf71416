"""Tokenizer registry: sacreBLEU's tokenizer names mapped to their implementations.

Modules are imported lazily (some need optional extras).  ``get_tokenizer(name)`` returns a
ready instance and raises ``ValueError`` for an unknown name.
"""

from importlib import import_module

from .base import BaseTokenizer

# name -> "module:Class"; one module per tokenizer.
_REGISTRY = {
    "none": "none:NoneTokenizer",
    "13a": "tokenizer_13a:Tokenizer13a",
}

#: The tokenizer BLEU uses when none is given and the target language implies none.
DEFAULT_TOKENIZER = "13a"

#: sacreBLEU's choice of tokenizer from a target language code when ``tokenize`` is not given.
LANGUAGE_DEFAULTS = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}


def available_tokenizers():
    """Names accepted by ``BLEU(tokenize=...)`` and the CLI's ``-tok``, in registry order."""
    return list(_REGISTRY)


def get_tokenizer(name: str) -> BaseTokenizer:
    """Instantiate the tokenizer registered as ``name``.

    Raises:
        ValueError: ``name`` is not a known tokenizer (the message lists the known ones).
        ImportError: the tokenizer needs an optional extra that is not installed.
    """
    try:
        spec = _REGISTRY[name]
    except (KeyError, TypeError):
        raise ValueError(
            f"unknown tokenizer {name!r}; choose one of: {', '.join(available_tokenizers())}"
        ) from None
    module_name, class_name = spec.split(":")
    module = import_module(f".{module_name}", __name__)
    return getattr(module, class_name)()


__all__ = ["BaseTokenizer", "DEFAULT_TOKENIZER", "LANGUAGE_DEFAULTS", "available_tokenizers", "get_tokenizer"]
