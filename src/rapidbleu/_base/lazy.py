"""numpy, imported on first use.

``import rapidbleu`` should cost no more than ``import sacrebleu``, which does not import numpy;
numpy alone takes longer than the rest of the package.  The modules that ``import rapidbleu``
loads therefore write ``np`` through this proxy (and ``from __future__ import annotations``, so
that annotations such as ``np.ndarray`` are not evaluated); the first attribute read imports
numpy, after which the proxy only forwards.  Type checkers see the real module (``TYPE_CHECKING``
imports in each module).
"""

from __future__ import annotations

import importlib
import sys
from typing import TYPE_CHECKING, Any, TypeGuard

if TYPE_CHECKING:
    import numpy as np


class LazyModule:
    """A module imported at the first attribute access.  Each attribute read is kept on the
    proxy, so later reads (``np.ndarray`` in ``bleu_from_stats``, once per sentence) are plain
    attribute lookups that never reach ``__getattr__`` again."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attr: str) -> Any:
        value = getattr(importlib.import_module(self._name), attr)
        setattr(self, attr, value)
        return value

    def __repr__(self) -> str:
        return f"<lazy module {self._name!r}>"


numpy = LazyModule("numpy")


def is_ndarray(x: object) -> TypeGuard[np.ndarray]:
    """``isinstance(x, numpy.ndarray)`` without importing numpy: an array can only exist once
    numpy has been imported, so until then the answer is ``False`` at no cost."""
    module = sys.modules.get("numpy")
    return module is not None and isinstance(x, module.ndarray)
