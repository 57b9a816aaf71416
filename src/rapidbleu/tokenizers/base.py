"""The interface every tokenizer implements, and the cache most of them share."""

from collections.abc import Callable
from functools import lru_cache
from typing import Any

#: Lines each tokenizer's cache keeps (sacreBLEU's ``lru_cache`` bound): test sets repeat
#: segments, hypotheses repeat references.
CACHE_LINES = 2**16


def cached_tokenize(fn: Callable[[str], str]) -> Callable[[str], str]:
    """``fn`` (one line -> its tokens joined by spaces) behind a cache of :data:`CACHE_LINES`
    lines (``functools.lru_cache``: ``__wrapped__`` is ``fn``)."""
    return lru_cache(maxsize=CACHE_LINES)(fn)


class BaseTokenizer:
    """A callable that maps one segment (``str``) to its tokenized form (``str``).

    Tokens are separated by single spaces in the output; BLEU splits the result with
    ``str.split()``. ``signature()`` is the name written into the BLEU signature
    (``tok:13a``).  ``fast_path`` names the tokenizer in the compiled core when the core
    can run it without Python (``None`` when only the Python ``__call__`` exists).
    """

    #: Name of the tokenizer in the compiled core, or None.
    fast_path: str | None = None

    def signature(self) -> str:
        raise NotImplementedError(f"{type(self).__name__} must define signature()")

    def __call__(self, line: str) -> str:
        raise NotImplementedError(f"{type(self).__name__} must define __call__()")


class CachedTokenizer(BaseTokenizer):
    """A tokenizer whose ``__call__`` is :func:`cached_tokenize` of its ``_tokenize``: for a
    class whose ``_tokenize`` is a ``staticmethod`` (a function of one line: 13a, zh, char,
    intl), one cache made with the class and shared by its instances; a tokenizer with state (a
    model: MeCab, SentencePiece) sets ``self._cached = cached_tokenize(self._tokenize)`` when
    built."""

    _cached: Callable[[str], str]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        fn = cls.__dict__.get("_tokenize")
        if isinstance(fn, staticmethod):
            cls._cached = staticmethod(cached_tokenize(fn.__func__))

    def __call__(self, line: str) -> str:
        return self._cached(line)
