"""Chooses the implementation of the sufficient statistics.

``RAPIDBLEU_BACKEND`` (read once, at import):

* ``auto`` (default): the compiled core if it imports, else the pure-Python one with one
  ``RuntimeWarning`` that says why;
* ``cython``: the compiled core; ``ImportError`` (with the reason) if it is not available;
* ``python``: the pure-Python oracle, always available.

The chosen module exposes ``NAME``, ``string_stats`` and ``token_stats`` with identical
signatures and results.
"""

import os
import warnings

from . import _stats_py

_CHOICES = ("auto", "cython", "python")


def _load_cython():
    import importlib.util

    if importlib.util.find_spec(f"{__package__}._stats_cy") is None:
        raise ImportError("the extension rapidbleu._stats_cy is not built (pure-Python install)")
    from . import _stats_cy  # compiled extension

    # One place for the documentation: the pure-Python twin's docstrings.
    for name in ("string_stats", "token_stats"):
        try:
            getattr(_stats_cy, name).__doc__ = getattr(_stats_py, name).__doc__
        except (AttributeError, TypeError):  # builtin functions may refuse __doc__
            pass
    return _stats_cy


def select(choice=None):
    """Return the statistics module for ``choice`` (default: ``$RAPIDBLEU_BACKEND`` or auto).

    Raises:
        ValueError: unknown choice.
        ImportError: ``cython`` forced but the extension cannot be imported.
    """
    if choice is None:
        choice = os.environ.get("RAPIDBLEU_BACKEND", "auto").strip().lower() or "auto"
    if choice not in _CHOICES:
        raise ValueError(f"RAPIDBLEU_BACKEND={choice!r}: choose one of {', '.join(_CHOICES)}")
    if choice == "python":
        return _stats_py
    try:
        return _load_cython()
    except ImportError as exc:
        if choice == "cython":
            raise ImportError(
                "RAPIDBLEU_BACKEND=cython but the compiled extension rapidbleu._stats_cy cannot be "
                f"imported ({exc}); reinstall rapidbleu from a wheel or with a C compiler, or use "
                "RAPIDBLEU_BACKEND=python"
            ) from exc
        warnings.warn(
            f"rapidbleu: compiled core not available ({exc}); using the pure-Python backend "
            "(same results, slower). Set RAPIDBLEU_BACKEND=python to silence this warning.",
            RuntimeWarning,
            stacklevel=3,
        )
        return _stats_py


#: The active statistics module.
impl = select()
