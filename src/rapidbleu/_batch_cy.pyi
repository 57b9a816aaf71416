"""Type stub of the compiled batch kernels ``rapidbleu._batch_cy`` (built from ``_batch_cy.pyx``).

Same functions and results as ``rapidbleu._batch_py`` (which documents them), plus
``nltk_scores``, called (and checked) by ``rapidbleu.nltk._from_stats``.
"""

from typing import Any, Final, Literal, Optional, Sequence

import numpy as np

NAME: Final[Literal["cython"]]

def sacre_scores(
    stats: Any,
    max_order: int,
    method: str,
    smooth_value: Optional[float],
    effective_order: bool,
    workers: int = 1,
) -> np.ndarray: ...
def self_stats(seqs: Sequence[Any], max_order: int, workers: int = 1) -> np.ndarray: ...
def pairwise_stats(seqs: Sequence[Any], max_order: int, workers: int = 1) -> np.ndarray: ...
def pairwise_scores(
    seqs: Sequence[Any],
    max_order: int,
    method: str,
    smooth_value: Optional[float],
    effective_order: bool,
    workers: int = 1,
) -> np.ndarray: ...
def nltk_scores(
    stats: Any,
    max_order: int,
    weights: Any,
    method: int,
    eps: float,
    workers: int = 1,
) -> np.ndarray: ...

# Test hook (tests/test_ids.py).
def _set_mask(mask: int) -> None: ...
