"""Stub of the compiled ``bleu_sets_cy``: the functions of its twin ``bleu_sets_py``, typed there."""

from collections.abc import Callable
from typing import Final, Literal

import numpy as np

from .bleu_sets_py import pairwise_scores as pairwise_scores
from .bleu_sets_py import pairwise_stats as pairwise_stats
from .bleu_sets_py import pairwise_stats_blocks as pairwise_stats_blocks
from .bleu_sets_py import self_stats as self_stats

NAME: Final[Literal["cython"]]

# Test hooks (tests/test_ids.py): the function of the same name without ``_masked``, its arguments
# given positionally, then ``mask`` (every n-gram hash ANDed with it, to force collisions).
_self_stats_masked: Callable[..., np.ndarray]
_pairwise_stats_masked: Callable[..., np.ndarray]
