"""Type stub of ``rapidbleu._core.chrf.chrf_cy`` (built from ``chrf_cy.pyx``): the functions, signatures
and results of ``rapidbleu._core.chrf.chrf_py``, whose docstrings document both."""

from collections.abc import Sequence
from typing import Any, Final, Literal

import numpy as np

from .chrf_py import CHRFOptions

NAME: Final[Literal["cython"]]

def chrf_stats(
    hypotheses: Sequence[str], ref_streams: Sequence[Sequence[str | None]], options: CHRFOptions, workers: int = 1
) -> np.ndarray: ...
def chrf_sentence_row(hypothesis: str, references: Sequence[str | None], options: CHRFOptions) -> list[int]: ...
def chrf_of_row(row: Sequence[Any], options: CHRFOptions) -> Any: ...
def chrf_scores(sums: Any, options: CHRFOptions, dtype: Any = None, workers: int = 1) -> np.ndarray: ...
def chrf_pairwise_stats(sentences: Sequence[str], options: CHRFOptions, workers: int = 1) -> np.ndarray: ...
def chrf_pairwise_scores(sentences: Sequence[str], options: CHRFOptions, workers: int = 1) -> np.ndarray: ...
def _chrf_stats_masked(
    hypotheses: Sequence[str],
    ref_streams: Sequence[Sequence[str | None]],
    options: CHRFOptions,
    workers: int,
    mask: int,
) -> np.ndarray: ...
def _chrf_sentence_row_masked(
    hypothesis: str, references: Sequence[str | None], options: CHRFOptions, mask: int
) -> list[int]: ...
