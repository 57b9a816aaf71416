"""Type stub of the compiled core ``rapidbleu._stats_cy`` (built from ``_stats_cy.pyx``).

The public functions have the signatures and results of ``rapidbleu._stats_py``, whose
docstrings document both backends.
"""

from typing import Final, Literal, Sequence

import numpy as np

NAME: Final[Literal["cython"]]
INTL_REGEX_VERSION: str

def string_stats(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    max_ngram_order: int = 4,
    tokenizer: str = "13a",
    lowercase: bool = False,
    workers: int = 1,
) -> np.ndarray: ...
def token_stats(
    hypotheses: Sequence[Sequence[int]],
    references: Sequence[Sequence[Sequence[int]]],
    max_ngram_order: int = 4,
    workers: int = 1,
) -> np.ndarray: ...

# Test hooks (used by tests/test_core.py only).
def _string_stats_masked(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    max_ngram_order: int,
    tokenizer: str,
    lowercase: bool,
    workers: int,
    mask: int,
) -> np.ndarray: ...
def _token_stats_masked(
    hypotheses: Sequence[Sequence[int]],
    references: Sequence[Sequence[Sequence[int]]],
    max_ngram_order: int,
    workers: int,
    mask: int,
) -> np.ndarray: ...
def _tokenize(line: str, tokenizer: str = "13a") -> str: ...
def _whitespace() -> list[int]: ...
