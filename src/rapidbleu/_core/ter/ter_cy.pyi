"""Type stub of ``rapidbleu._core.ter.ter_cy`` (built from ``ter_cy.pyx``, ``ter.h`` and ``ter_tok.h``): the functions,
signatures and results of ``rapidbleu._core.ter.ter_py``, whose docstrings document both."""

from collections.abc import Hashable, Sequence
from typing import Any, Final, Literal

import numpy as np

from .ter_py import TEROptions

NAME: Final[Literal["cython"]]

def ter_stats(
    hypotheses: Sequence[str],
    ref_streams: Sequence[Sequence[str | None]],
    options: TEROptions,
    workers: int = 1,
) -> np.ndarray: ...
def ter_sentence_row(hypothesis: str, references: Sequence[str | None], options: TEROptions) -> list[float]: ...
def ter_of_row(row: Sequence[Any]) -> Any: ...
def plain_streams(hypotheses: Any, ref_streams: Any) -> bool: ...
def ter_scores(sums: Any, dtype: Any = None) -> np.ndarray: ...
def ter_pairwise_scores(
    sentences: Sequence[str],
    options: TEROptions,
    workers: int = 1,
    references: Sequence[str] | None = None,
) -> np.ndarray: ...
def translation_edit_rate(words_hyp: Sequence[Hashable], words_ref: Sequence[Hashable]) -> tuple[int, int]: ...
