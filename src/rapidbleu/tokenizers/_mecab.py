"""Shared MeCab plumbing for ``ja-mecab`` and ``ko-mecab``.

Both tokenizers run a MeCab tagger in wakati mode (``-Owakati``: surface forms separated by
spaces) with a dictionary shipped as a Python package, exactly the packages sacreBLEU uses,
and refuse to run with another dictionary or with a user dictionary loaded (the scores would
not be comparable).  Per segment: ``str.strip()``, ``tagger.parse``, ``str.strip()``.  A tokenizer pickles without
its tagger (a MeCab handle, which cannot be pickled): unpickling loads and checks it again.
"""

import importlib
from typing import Any

from .base import CachedTokenizer, cached_tokenize


class MecabTokenizer(CachedTokenizer):
    """Base class: subclasses set the names below."""

    fast_path = None
    #: signature prefix and suffix around ``tagger.version()``
    _SIG_PREFIX = ""
    _SIG_SUFFIX = ""
    #: number of entries of the one dictionary this tokenizer accepts
    _DICT_SIZE = 0
    _DICT_NAME = ""
    #: the module of the tagger (its ``Tagger``) and of the dictionary (its ``MECAB_ARGS``)
    _TAGGER_MODULE = ""
    _DICT_MODULE = ""
    #: the ``ImportError``'s message when either is missing (which packages, which extra)
    _INSTALL = ""

    def __init__(self) -> None:
        self.tagger = self._load()
        info = self.tagger.dictionary_info()
        if info.size != self._DICT_SIZE:
            raise RuntimeError(
                f"{self._SIG_PREFIX.rstrip('-')}: expected the {self._DICT_NAME} dictionary "
                f"({self._DICT_SIZE} entries), MeCab loaded one with {info.size}"
            )
        if info.next is not None:
            raise RuntimeError(
                f"{self._SIG_PREFIX.rstrip('-')}: a user dictionary is loaded; scores would not be "
                "comparable (check your mecabrc)"
            )
        self._cached = cached_tokenize(self._tokenize)

    def _load(self) -> Any:
        """The tagger in wakati mode with the dictionary package's arguments (an optional
        extra's object, untyped).

        Raises:
            ImportError: the tagger's or the dictionary's package is missing (``_INSTALL``).
        """
        try:
            tagger = importlib.import_module(self._TAGGER_MODULE)
            dictionary = importlib.import_module(self._DICT_MODULE)
        except ImportError as exc:
            raise ImportError(self._INSTALL) from exc
        return tagger.Tagger(dictionary.MECAB_ARGS + " -Owakati")

    def _tokenize(self, line: str) -> str:
        tokens: str = self.tagger.parse(line.strip()).strip()
        return tokens

    def signature(self) -> str:
        return f"{self._SIG_PREFIX}{self.tagger.version()}{self._SIG_SUFFIX}"

    def __getstate__(self) -> dict[str, Any]:
        return {}  # the tagger and the cache around it are made again by __setstate__

    def __setstate__(self, state: dict[str, Any]) -> None:
        MecabTokenizer.__init__(self)
