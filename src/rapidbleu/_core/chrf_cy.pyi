"""Type stub of ``rapidbleu._core.chrf_cy`` (built from ``chrf_cy.pyx``): the functions, signatures
and results of ``rapidbleu._core.chrf_py``, whose docstrings document both."""

from collections.abc import Sequence
from typing import Any, Final, Literal

import numpy as np

NAME: Final[Literal["cython"]]

def chrf_stats(
    hypotheses: Sequence[str],
    ref_streams: Sequence[Sequence[str | None]],
    char_order: int = 6,
    word_order: int = 0,
    beta: int | float = 2,
    lowercase: bool = False,
    whitespace: bool = False,
    eps_smoothing: bool = False,
    workers: int = 1,
) -> np.ndarray: ...
def chrf_scores(
    sums: Any,
    char_order: int = 6,
    word_order: int = 0,
    beta: int | float = 2,
    eps_smoothing: bool = False,
    dtype: Any = None,
    workers: int = 1,
) -> np.ndarray: ...
def chrf_pairwise_stats(
    sentences: Sequence[str],
    char_order: int = 6,
    word_order: int = 0,
    lowercase: bool = False,
    whitespace: bool = False,
    workers: int = 1,
) -> np.ndarray: ...
def chrf_pairwise_scores(
    sentences: Sequence[str],
    char_order: int = 6,
    word_order: int = 0,
    beta: int | float = 2,
    lowercase: bool = False,
    whitespace: bool = False,
    eps_smoothing: bool = False,
    workers: int = 1,
) -> np.ndarray: ...
def _chrf_stats_masked(
    hypotheses: Sequence[str],
    ref_streams: Sequence[Sequence[str | None]],
    char_order: int,
    word_order: int,
    beta: int | float,
    lowercase: bool,
    whitespace: bool,
    eps_smoothing: bool,
    workers: int,
    mask: int,
) -> np.ndarray: ...
