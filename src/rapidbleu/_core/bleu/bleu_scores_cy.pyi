"""Type stub of ``rapidbleu._core.bleu.bleu_scores_cy`` (built from ``bleu_scores_cy.pyx``): the functions,
signatures and floats of ``rapidbleu._core.bleu.bleu_scores_py``, whose docstrings document both."""

from collections.abc import Sequence
from typing import Any, Final, Literal

import numpy as np
import numpy.typing as npt

NAME: Final[Literal["cython"]]

def bleu_of_row(
    row: Sequence[Any],
    max_ngram_order: int = 4,
    smooth_method: str = "none",
    smooth_value: float | None = None,
    effective_order: bool = False,
) -> tuple[float, list[float], list[float], list[float], float]: ...
def nltk_of_row(
    row: Sequence[Any],
    max_ngram_order: int,
    weights: Sequence[float],
    method: int,
    epsilon: float,
    k: float,
    reweigh: bool,
) -> float: ...
def sacre_scores(
    stats: npt.ArrayLike,
    max_ngram_order: int,
    smooth_method: str,
    smooth_value: float | None,
    effective_order: bool,
    dtype: npt.DTypeLike | None = None,
    workers: int = 1,
) -> np.ndarray: ...
def nltk_scores(
    stats: npt.ArrayLike,
    max_ngram_order: int,
    weights: Sequence[float],
    method: int,
    epsilon: float,
    k: float,
    reweigh: bool,
    workers: int = 1,
) -> np.ndarray: ...
def nltk_kernel_scores(
    stats: np.ndarray,
    max_ngram_order: int,
    weights: Sequence[float],
    method: int,
    epsilon: float,
    k: float,
    reweigh: bool,
    workers: int = 1,
) -> np.ndarray: ...
