"""rapidbleu's interpreter start-up hook: ``install_as_sacrebleu()`` in every new process.

``rapidbleu-shim.pth``, installed with rapidbleu at the top of site-packages, holds one line that
Python's ``site`` module runs as each interpreter starts.  When the environment variable
``RAPIDBLEU_AS_SACREBLEU`` is unset, empty or ``0`` the line does nothing else (no import: the
cost is one ``os.environ`` look-up); otherwise it imports this module and calls
:func:`activate`.  ``rapidbleu.install_as_sacrebleu()`` (and so ``python -m rapidbleu.shim``)
sets the variable, so the alias follows the process tree: ``multiprocessing`` workers under
``spawn`` and ``forkserver``, and Python subprocesses started with the same environment (the
design of coverage.py's ``COVERAGE_PROCESS_START``).

:func:`activate` imports nothing: it puts a finder first on ``sys.meta_path`` that waits for the
first ``import sacrebleu`` and only then imports rapidbleu and installs the alias (importing
rapidbleu costs several times a bare interpreter start-up; a child that never imports sacreBLEU
does not pay it).  Importing ``rapidbleu.shim`` (which ``import rapidbleu`` does) installs the alias at once
in a process where the finder waits, so ``rapidbleu.shim.is_installed()`` says so.

A top-level module, not part of the ``rapidbleu`` package: importing anything inside the
package would import the package itself at every start-up (as setuptools'
``distutils-precedence.pth`` and its ``_distutils_hack``).
"""

import sys  # nothing else: this module is imported as the interpreter starts

TYPE_CHECKING = False  # (typing itself costs a start-up)
if TYPE_CHECKING:
    from collections.abc import Sequence
    from importlib.machinery import ModuleSpec
    from types import ModuleType

__all__ = ["activate", "deactivate", "pending"]


class _PendingAlias:
    """First on ``sys.meta_path``: on the first import of ``sacrebleu`` (or ``sacrebleu.*``),
    steps aside, installs the alias and hands the import to it."""

    def find_spec(
        self,
        fullname: str,
        path: "Sequence[str] | None" = None,  # noqa: ARG002 -- the finder protocol
        target: "ModuleType | None" = None,  # noqa: ARG002 -- the finder protocol
    ) -> "ModuleSpec | None":
        if fullname != "sacrebleu" and not fullname.startswith("sacrebleu."):
            return None
        deactivate()
        import importlib.util

        from rapidbleu.shim import install_as_sacrebleu

        install_as_sacrebleu()
        # the import system is iterating sys.meta_path: the alias's finder, now first, would
        # not be asked; ask the finders again
        return importlib.util.find_spec(fullname)


def activate() -> None:
    """Install the waiting finder (once); called by ``rapidbleu-shim.pth``."""
    if not pending():
        sys.meta_path.insert(0, _PendingAlias())


def pending() -> bool:
    """Whether the waiting finder is on ``sys.meta_path``."""
    return any(isinstance(f, _PendingAlias) for f in sys.meta_path)


def deactivate() -> bool:
    """Remove the waiting finder; whether there was one (``rapidbleu.shim`` calls this when it
    installs or uninstalls the alias itself)."""
    if not pending():
        return False
    sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, _PendingAlias)]
    return True
