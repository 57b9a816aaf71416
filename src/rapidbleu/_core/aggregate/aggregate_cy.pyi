"""Type stub of ``rapidbleu._core.aggregate.aggregate_cy`` (built from ``aggregate_cy.pyx``): the functions,
signatures and results of ``rapidbleu._core.aggregate.aggregate_py``, whose docstrings document both."""

from typing import Final, Literal

import numpy as np

NAME: Final[Literal["cython"]]

def ngram_stats(
    hyp_units: np.ndarray,
    hyp_offsets: np.ndarray,
    ref_units: np.ndarray,
    ref_offsets: np.ndarray,
    ref_weights: np.ndarray,
    divisor: float,
    max_order: int,
    workers: int = 1,
) -> np.ndarray: ...
def chrf_row_scores(rows: np.ndarray, beta: float, eps_smoothing: bool, workers: int = 1) -> np.ndarray: ...
