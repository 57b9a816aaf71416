"""Stub of the compiled ``bleu_scores_cy``: the functions of its twin ``bleu_scores_py``, typed there."""

from typing import Final, Literal

from .bleu_scores_py import bleu_of_row as bleu_of_row
from .bleu_scores_py import nltk_kernel_scores as nltk_kernel_scores
from .bleu_scores_py import nltk_of_row as nltk_of_row
from .bleu_scores_py import nltk_scores as nltk_scores
from .bleu_scores_py import sacre_scores as sacre_scores

NAME: Final[Literal["cython"]]
