"""Chooses the implementation of the sufficient statistics.

``RAPIDBLEU_BACKEND`` (read once, at import):

* ``auto`` (default): the compiled core if it imports, else the pure-Python one with one
  ``RuntimeWarning`` that says why;
* ``cython``: the compiled core; ``ImportError`` (with the reason) if it is not available;
* ``python``: the pure-Python oracle, always available.

The chosen module exposes ``NAME``, ``string_stats``, ``token_stats``, ``flat_stats``,
``pack_int_lists`` and ``clean_flat`` with identical signatures and results.
"""

import os
import sys
import warnings

from . import _stats_py
from ._validate import BackendChoiceError, BackendUnavailableError

_CHOICES = ("auto", "cython", "python")


def _choice(choice=None) -> str:
    """``choice`` or ``$RAPIDBLEU_BACKEND`` (default auto), validated.

    Raises:
        BackendChoiceError: (a ``ValueError``) not one of auto, cython, python.
    """
    if choice is None:
        choice = os.environ.get("RAPIDBLEU_BACKEND", "auto").strip().lower() or "auto"
    if choice not in _CHOICES:
        raise BackendChoiceError(f"RAPIDBLEU_BACKEND={choice!r}: choose one of {', '.join(_CHOICES)}")
    return choice


def _import_compiled(name: str, twin, docs=()):
    import importlib
    import importlib.util

    if importlib.util.find_spec(f"{__package__}.{name}") is None:
        raise ImportError(f"the extension rapidbleu.{name} is not built (pure-Python install)")
    module = importlib.import_module(f"{__package__}.{name}")
    # One place for the documentation: the pure-Python twin's docstrings.
    for attr in docs:
        try:
            getattr(module, attr).__doc__ = getattr(twin, attr).__doc__
        except (AttributeError, TypeError):  # builtin functions may refuse __doc__
            pass
    return module


def select_twin(compiled: str, twin, choice=None, warn: bool = True, docs=()):
    """The compiled module ``rapidbleu.<compiled>`` or its pure-Python ``twin``, by ``choice``.

    Every pair of compiled/pure-Python modules is chosen by this one rule (``python``: the
    twin; ``cython``: the compiled module or ``ImportError``; ``auto``: the compiled module if
    it imports, else the twin, with a ``RuntimeWarning`` when ``warn``).

    Raises:
        BackendChoiceError: (a ``ValueError``) unknown choice.
        BackendUnavailableError: (an ``ImportError``) ``cython`` forced but the extension
            cannot be imported.
    """
    choice = _choice(choice)
    if choice == "python":
        return twin
    try:
        return _import_compiled(compiled, twin, docs)
    except ImportError as exc:
        if choice == "cython":
            raise BackendUnavailableError(
                f"RAPIDBLEU_BACKEND=cython but the compiled extension rapidbleu.{compiled} cannot be "
                f"imported ({exc}); reinstall rapidbleu from a wheel or with a C compiler, or use "
                "RAPIDBLEU_BACKEND=python"
            ) from exc
        if warn:
            warnings.warn(
                f"rapidbleu: compiled core not available ({exc}); using the pure-Python backend "
                "(same results, slower). Set RAPIDBLEU_BACKEND=python to silence this warning.",
                RuntimeWarning,
                stacklevel=4,
            )
        return twin


def select(choice=None):
    """Return the statistics module for ``choice`` (default: ``$RAPIDBLEU_BACKEND`` or auto).

    Raises:
        ValueError: unknown choice.
        ImportError: ``cython`` forced but the extension cannot be imported.
    """
    return select_twin("_stats_cy", _stats_py, choice, docs=("string_stats", "token_stats", "flat_stats", "pack_int_lists", "clean_flat"))


def _running_as_command() -> bool:
    """True while the ``rapidbleu`` command starts: the console script (``argv[0]`` named
    ``rapidbleu``) or ``python -m rapidbleu[.module]`` (runpy imports the package while
    ``argv[0]`` is still ``"-m"``; ``sys.orig_argv``, Python 3.10+, names the module)."""
    argv = getattr(sys, "argv", None)  # absent in some embedded interpreters
    argv0 = argv[0] if argv else ""
    if argv0 == "-m":
        orig = list(getattr(sys, "orig_argv", ()))
        for i, arg in enumerate(orig):
            if arg.startswith("-m"):
                module = arg[2:] or (orig[i + 1] if i + 1 < len(orig) else "")
                return module.split(".")[0] == __package__
        return True  # Python < 3.10: no orig_argv; a package run with -m imports rapidbleu
    name = os.path.basename(argv0).lower()
    for suffix in (".exe", "-script.py", ".py"):
        if name.endswith(suffix):
            name = name[: -len(suffix)]
    return name == __package__


def _select_at_import():
    """``select()`` for ``impl``.  A bad ``RAPIDBLEU_BACKEND`` is an exception for a library
    user, but for the command line it is a one-line ``rapidbleu: error: ...`` and exit status 1
    (the package is imported, and fails, before the command-line code can catch anything)."""
    try:
        return select()
    except (BackendChoiceError, BackendUnavailableError) as exc:
        if _running_as_command():
            print(f"{__package__}: error: {exc}", file=sys.stderr)
            raise SystemExit(1) from None
        raise


#: The active statistics module.
impl = _select_at_import()
