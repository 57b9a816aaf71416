"""Type stub of ``rapidbleu._core.bleu.bleu_sets_cy`` (built from ``bleu_sets_cy.pyx``): the functions, signatures
and results of ``rapidbleu._core.bleu.bleu_sets_py``, whose docstrings document both."""

from collections.abc import Iterator
from typing import Final, Literal

import numpy as np
import numpy.typing as npt

NAME: Final[Literal["cython"]]

def self_stats(flat: npt.ArrayLike, lens: npt.ArrayLike, max_ngram_order: int = 4, workers: int = 1) -> np.ndarray: ...
def pairwise_stats(
    flat: npt.ArrayLike, lens: npt.ArrayLike, max_ngram_order: int = 4, workers: int = 1
) -> np.ndarray: ...
def pairwise_stats_blocks(
    flat: npt.ArrayLike, lens: npt.ArrayLike, max_ngram_order: int = 4, workers: int = 1, block_rows: int | None = None
) -> Iterator[tuple[int, np.ndarray]]: ...
def pairwise_scores(
    flat: npt.ArrayLike,
    lens: npt.ArrayLike,
    max_ngram_order: int,
    smooth_method: str,
    smooth_value: float | None,
    effective_order: bool,
    workers: int = 1,
    hypotheses: int | None = None,
) -> np.ndarray: ...

# Test hooks (tests/test_ids.py): every hash ANDed with ``mask``.
def _self_stats_masked(
    flat: npt.ArrayLike, lens: npt.ArrayLike, max_ngram_order: int, workers: int, mask: int
) -> np.ndarray: ...
def _pairwise_stats_masked(
    flat: npt.ArrayLike, lens: npt.ArrayLike, max_ngram_order: int, workers: int, mask: int
) -> np.ndarray: ...
