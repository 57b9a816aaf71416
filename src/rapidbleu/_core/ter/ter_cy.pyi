"""Stub of the compiled ``ter_cy``: the functions of its twin ``ter_py``, typed there."""

from typing import Final, Literal

from .ter_py import plain_streams as plain_streams
from .ter_py import ter_of_row as ter_of_row
from .ter_py import ter_pairwise_scores as ter_pairwise_scores
from .ter_py import ter_scores as ter_scores
from .ter_py import ter_sentence_row as ter_sentence_row
from .ter_py import ter_stats as ter_stats
from .ter_py import translation_edit_rate as translation_edit_rate

NAME: Final[Literal["cython"]]
