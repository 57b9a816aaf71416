"""Type stub of the compiled core ``rapidbleu._core.bleu.bleu_stats_cy`` (built from ``bleu_stats_cy.pyx``).

The public functions have the signatures and results of ``rapidbleu._core.bleu.bleu_stats_py``, whose
docstrings document both backends.
"""

from collections.abc import Hashable, Sequence
from typing import Final, Literal

import numpy as np

NAME: Final[Literal["cython"]]

def string_stats(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    max_ngram_order: int = 4,
    tokenizer: str = "13a",
    lowercase: bool = False,
    workers: int = 1,
) -> np.ndarray: ...
def string_totals(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    max_ngram_order: int = 4,
    tokenizer: str = "13a",
    lowercase: bool = False,
    workers: int = 1,
) -> list[int]: ...
def sentence_row(
    hypothesis: str,
    references: Sequence[str | None],
    max_ngram_order: int = 4,
    tokenizer: str = "13a",
    lowercase: bool = False,
) -> list[int]: ...
def token_row(
    hypothesis: Sequence[Hashable],
    references: Sequence[Sequence[Hashable]],
    max_ngram_order: int = 4,
) -> list[int]: ...
def token_stats(
    hypotheses: Sequence[Sequence[Hashable]],
    references: Sequence[Sequence[Sequence[Hashable]]],
    max_ngram_order: int = 4,
    workers: int = 1,
) -> np.ndarray: ...
def flat_stats(
    hyp_flat: np.ndarray,
    hyp_lens: np.ndarray,
    ref_streams: Sequence[tuple[np.ndarray, np.ndarray]],
    max_ngram_order: int = 4,
    workers: int = 1,
) -> np.ndarray: ...

#: Tokens per packed block of ``token_stats`` (tests lower it to exercise many blocks).
_BLOCK_TOKENS: int

# Test hooks (used by tests/test_core.py only).
def _string_stats_masked(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    max_ngram_order: int,
    tokenizer: str,
    lowercase: bool,
    workers: int,
    mask: int,
) -> np.ndarray: ...
def _sentence_row_masked(
    hypothesis: str,
    references: Sequence[str | None],
    max_ngram_order: int,
    tokenizer: str,
    lowercase: bool,
    mask: int,
) -> list[int]: ...
def _token_stats_masked(
    hypotheses: Sequence[Sequence[Hashable]],
    references: Sequence[Sequence[Sequence[Hashable]]],
    max_ngram_order: int,
    workers: int,
    mask: int,
) -> np.ndarray: ...
def _flat_stats_masked(
    hyp_flat: np.ndarray,
    hyp_lens: np.ndarray,
    ref_streams: Sequence[tuple[np.ndarray, np.ndarray]],
    max_ngram_order: int,
    workers: int,
    mask: int,
) -> np.ndarray: ...
def _tokenize(line: str, tokenizer: str = "13a") -> str: ...
def _whitespace() -> list[int]: ...
def _zh_chars() -> list[int]: ...
def _set_intl_table(table: bytes) -> None: ...
def _intl_classes() -> bytes: ...
