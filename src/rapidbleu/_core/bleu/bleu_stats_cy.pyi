"""Stub of the compiled ``bleu_stats_cy``: the functions of its twin ``bleu_stats_py``, typed there."""

from collections.abc import Callable
from typing import Final, Literal

import numpy as np

from .bleu_stats_py import flat_stats as flat_stats
from .bleu_stats_py import sentence_row as sentence_row
from .bleu_stats_py import string_stats as string_stats
from .bleu_stats_py import string_totals as string_totals
from .bleu_stats_py import token_row as token_row
from .bleu_stats_py import token_stats as token_stats

NAME: Final[Literal["cython"]]

#: Tokens per packed block of ``token_stats`` (tests lower it to exercise many blocks).
_BLOCK_TOKENS: int

# Test hooks (tests/test_core.py): the function of the same name without ``_masked``, its
# arguments given positionally, then ``mask`` (every n-gram hash ANDed with it, to force
# collisions).
_string_stats_masked: Callable[..., np.ndarray]
_sentence_row_masked: Callable[..., list[int]]
_token_stats_masked: Callable[..., np.ndarray]
_flat_stats_masked: Callable[..., np.ndarray]

# The C tokenizers and their tables, for the tests that compare them with the Python ones.
def _tokenize(line: str, tokenizer: str = "13a") -> str: ...
def _whitespace() -> list[int]: ...
def _zh_chars() -> list[int]: ...
def _set_intl_table(table: bytes) -> None: ...
def _intl_classes() -> bytes: ...
