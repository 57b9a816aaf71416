"""Stub of the compiled ``chrf_cy``: the functions of its twin ``chrf_py``, typed there."""

from collections.abc import Callable
from typing import Final, Literal

import numpy as np

from .chrf_py import chrf_of_row as chrf_of_row
from .chrf_py import chrf_pairwise_scores as chrf_pairwise_scores
from .chrf_py import chrf_pairwise_stats as chrf_pairwise_stats
from .chrf_py import chrf_scores as chrf_scores
from .chrf_py import chrf_sentence_row as chrf_sentence_row
from .chrf_py import chrf_stats as chrf_stats

NAME: Final[Literal["cython"]]

# Test hooks (tests/test_chrf.py): the function of the same name without ``_masked``, its
# arguments given positionally, then ``mask`` (every n-gram hash ANDed with it, to force
# collisions).
_chrf_stats_masked: Callable[..., np.ndarray]
_chrf_sentence_row_masked: Callable[..., list[int]]
