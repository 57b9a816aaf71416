"""Type stub of the compiled twin ``rapidbleu._core.ids.ids_cy`` (built from ``ids_cy.pyx``).

The functions have the signatures and results of ``rapidbleu._core.ids.ids_py``, whose docstrings
document both backends.
"""

from collections.abc import Sequence
from typing import Final, Literal

import numpy as np

NAME: Final[Literal["cython"]]

def pack_int_lists(seqs: object, allow_none: bool = False) -> tuple[np.ndarray, np.ndarray] | None: ...
def clean_flat(
    flat: np.ndarray,
    lens: np.ndarray,
    pad_id: int | None = None,
    eos_id: int | Sequence[int] | np.ndarray | None = None,
    drop_ids: Sequence[int] | np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]: ...
