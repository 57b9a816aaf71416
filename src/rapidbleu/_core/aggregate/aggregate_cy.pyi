"""Stub of the compiled ``aggregate_cy``: the functions of its twin ``aggregate_py``, typed there."""

from typing import Final, Literal

from .aggregate_py import chrf_row_scores as chrf_row_scores
from .aggregate_py import ngram_stats as ngram_stats

NAME: Final[Literal["cython"]]
