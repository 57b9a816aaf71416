"""Run code written for sacreBLEU on rapidbleu without changing it: ``install_as_sacrebleu()``.

After :func:`install_as_sacrebleu` (as PyMySQL's ``install_as_MySQLdb()``), ``import sacrebleu``
and every ``import sacrebleu.X.Y`` / ``from sacrebleu.X import Z`` in this process resolve to
rapidbleu: a meta-path finder maps the module ``sacrebleu.X.Y`` to ``rapidbleu.X.Y`` (the same
module object, so ``sacrebleu.metrics.BLEU is rapidbleu.BLEU``), for every module rapidbleu has
now or gains later -- nothing is listed here.  ``sacrebleu`` itself is a thin module that
forwards every attribute to ``rapidbleu`` and reports ``__version__ == "2.6.0"``, the sacreBLEU
release whose API and numbers rapidbleu reproduces (harness code gates on
``version.parse(sacrebleu.__version__).major >= 2``; signatures still say
``version:rapidbleu-...``, so results stay attributable).

sacreBLEU's test sets (``sacrebleu.DATASETS``, ``download_test_set``, ``get_reference_files``,
the ``sacrebleu.dataset`` package, ...) are rapidbleu's (``rapidbleu.dataset``), in the same
cache.  sacreBLEU's command line (``sacrebleu.sacrebleu``, ``sacrebleu.__main__``: the ``sacrebleu`` command run by
a harness's subprocess, which inherits the alias) is rapidbleu's.  A module that rapidbleu simply
lacks is a ``ModuleNotFoundError`` naming both modules.

Modules that imported sacreBLEU *before* the call keep the objects they hold; the call removes
sacreBLEU's modules from ``sys.modules`` (with a ``RuntimeWarning``) so that later imports see
rapidbleu.

The alias follows the process tree: the call sets the environment variable
``RAPIDBLEU_AS_SACREBLEU=1`` (:data:`CHILDREN_ENV`), and every new interpreter of the same
installation that inherits it installs the alias as it starts, through the start-up hook
``rapidbleu-shim.pth`` that pip puts into site-packages with the package (see
``_rapidbleu_startup``): ``multiprocessing`` workers under ``spawn``, ``forkserver`` and
``fork``, and Python subprocesses.  ``install_as_sacrebleu(children=False)`` keeps it to this
process; :func:`uninstall_as_sacrebleu` removes the variable too.  A forkserver process keeps
the environment it was started with (it starts with the first pool that uses it).

Without editing the harness: ``python -m rapidbleu.shim -m lm_eval ...`` or
``python -m rapidbleu.shim script.py ...`` installs the alias, then runs the module or script
as ``python -m``/``python`` would (``rapidbleu/shim/__main__.py``).
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import os
import sys
import types
import warnings
from collections.abc import Sequence
from typing import Any

from .._base.errors import NotProvidedError

__all__ = [
    "CHILDREN_ENV",
    "SACREBLEU_API_VERSION",
    "NotProvidedError",
    "install_as_sacrebleu",
    "is_installed",
    "uninstall_as_sacrebleu",
]

#: The sacreBLEU release whose API and scores rapidbleu reproduces: ``sacrebleu.__version__``
#: under the alias.
SACREBLEU_API_VERSION = "2.6.0"

#: The environment variable that makes every new interpreter install the alias as it starts
#: (read by ``rapidbleu-shim.pth``; on unless unset, empty or ``0``).
CHILDREN_ENV = "RAPIDBLEU_AS_SACREBLEU"

#: The start-up hook's module (top-level, outside this package: see its docstring) and the .pth
#: file that pip installs at the top of site-packages to run it.
_STARTUP_HOOK = "_rapidbleu_startup"
_STARTUP_PTH = "rapidbleu-shim.pth"

_ALIAS = "sacrebleu"
_TARGET = "rapidbleu"


def _target_name(fullname: str) -> str:
    return _TARGET + fullname[len(_ALIAS) :]


def _top_module() -> types.ModuleType:
    """The ``sacrebleu`` module of the alias: rapidbleu's namespace, sacreBLEU's version."""
    rapidbleu = importlib.import_module(_TARGET)
    top = types.ModuleType(_ALIAS, rapidbleu.__doc__)

    def __getattr__(name: str) -> Any:
        return getattr(rapidbleu, name)

    def __dir__() -> list[str]:
        return sorted(set(dir(rapidbleu)) | set(vars(top)))

    vars(top).update(
        __version__=SACREBLEU_API_VERSION,
        __path__=[],  # a package whose submodules come from the finder only
        __file__=rapidbleu.__file__,
        __all__=list(rapidbleu.__all__),
        __getattr__=__getattr__,
        __dir__=__dir__,
        __rapidbleu_alias__=True,
    )
    return top


class _AliasLoader:
    """Hands out an existing module; the import system's bookkeeping does not touch it.  (The
    loader and finder protocols, without their ``importlib.abc`` bases: that module imports
    ``importlib.resources`` and ``pathlib``, which ``import rapidbleu`` need not pay for.)"""

    def __init__(self, module: types.ModuleType) -> None:
        self._module = module
        self._spec = getattr(module, "__spec__", None)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:  # noqa: ARG002 -- the loader protocol
        return self._module

    def exec_module(self, module: types.ModuleType) -> None:
        # The import system has just set module.__spec__ to the alias's spec (it always does):
        # the real module keeps its own, so reloads and -m runs of rapidbleu's modules work.
        if self._spec is not None:
            module.__spec__ = self._spec


class _AliasFinder:
    """``sacrebleu`` and ``sacrebleu.*`` -> rapidbleu's modules (first on ``sys.meta_path``)."""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None = None,  # noqa: ARG002 -- the finder protocol
        target: types.ModuleType | None = None,  # noqa: ARG002 -- the finder protocol
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != _ALIAS and not fullname.startswith(_ALIAS + "."):
            return None
        if fullname == _ALIAS:
            module = _top_module()
        else:
            real = _target_name(fullname)
            if fullname.rpartition(".")[2] == "__main__":
                # run by ``python -m`` (runpy asks the loader for code, not for a module): the real
                # file under the alias's name, so its relative imports go through the alias
                found = importlib.util.find_spec(real)
                if found is None or found.origin is None:
                    return None
                return importlib.util.spec_from_file_location(fullname, found.origin)
            try:
                module = importlib.import_module(real)
            except ModuleNotFoundError as exc:
                if exc.name is None or not real.startswith(exc.name):
                    raise  # a dependency of the module is missing: say that, not our message
                raise ModuleNotFoundError(
                    f"No module named {fullname!r}: rapidbleu.install_as_sacrebleu() maps sacrebleu.* to "
                    f"rapidbleu.*, and there is no module {real!r}",
                    name=fullname,
                ) from None
        loader: Any = _AliasLoader(module)  # the loader protocol of create_module/exec_module
        return importlib.util.spec_from_loader(fullname, loader, is_package=hasattr(module, "__path__"))


_FINDER = _AliasFinder()
#: sacreBLEU's own modules that install_as_sacrebleu() took out of sys.modules (put back by
#: uninstall_as_sacrebleu()).
_SAVED: dict[str, types.ModuleType] = {}


def _alias_names() -> list[str]:
    return [m for m in sys.modules if m == _ALIAS or m.startswith(_ALIAS + ".")]


def is_installed() -> bool:
    """Whether :func:`install_as_sacrebleu` is in effect in this process (also where the start-up
    hook installed it: a process started with ``RAPIDBLEU_AS_SACREBLEU`` set)."""
    return _FINDER in sys.meta_path


def _drop_startup_finder() -> bool:
    """Remove the finder that the start-up hook left waiting for the first ``import sacrebleu``;
    whether there was one.  (The hook's module is only looked at, never imported, here.)"""
    hook = sys.modules.get(_STARTUP_HOOK)
    return hook is not None and bool(hook.deactivate())


def _startup_hook_installed() -> bool:
    """Whether new interpreters run the start-up hook: site is on (no ``-S``) and a site-packages
    folder of this interpreter (``site.getsitepackages()``, the user's if enabled) holds it."""
    import site

    if sys.flags.no_site:
        return False
    folders = [*site.getsitepackages(), *([site.getusersitepackages()] if site.ENABLE_USER_SITE else [])]
    return any(os.path.isfile(os.path.join(folder, _STARTUP_PTH)) for folder in folders)  # noqa: PTH113,PTH118 -- import rapidbleu does not import pathlib


def install_as_sacrebleu(*, children: bool = True) -> None:
    """Make ``import sacrebleu`` (and ``sacrebleu.*``) give rapidbleu in this process and, with
    ``children=True``, in every Python process started from it.

    Idempotent.  sacreBLEU modules already imported are removed from ``sys.modules`` (a
    ``RuntimeWarning`` says so: objects already bound to them stay sacreBLEU's), so that every
    import from now on resolves to rapidbleu.  See the module docstring for what is not
    provided and how it fails.

    Args:
        children: set (``True``) or remove (``False``) the environment variable
            ``RAPIDBLEU_AS_SACREBLEU`` of this process, which the start-up hook installed with
            the package (``rapidbleu-shim.pth``) reads in every new interpreter that inherits
            the environment: ``multiprocessing`` workers under any start method (a forkserver
            started earlier keeps its own environment), ``subprocess`` children running this
            installation's Python.

    Warns:
        RuntimeWarning: sacreBLEU had already been imported in this process; or ``children`` is
            true and the start-up hook is not installed (an editable install, the source tree on
            ``PYTHONPATH``, ``python -S``): the alias then reaches ``fork`` children only.
    """
    if children:
        os.environ[CHILDREN_ENV] = "1"
    else:
        os.environ.pop(CHILDREN_ENV, None)
    _drop_startup_finder()
    if is_installed():
        return
    if children and not _startup_hook_installed():
        warnings.warn(
            f"rapidbleu.install_as_sacrebleu(): the start-up hook {_STARTUP_PTH} is not in this "
            "interpreter's site-packages (rapidbleu is an editable install or on PYTHONPATH, or Python "
            "runs with -S), so only this process and its fork children get the alias; processes started "
            "with spawn or forkserver and Python subprocesses import the real sacreBLEU. Install rapidbleu "
            "with `pip install` (not -e), or call install_as_sacrebleu() in each process.",
            RuntimeWarning,
            stacklevel=2,
        )
    real = [m for m in _alias_names() if not _is_alias(sys.modules[m])]
    if real:
        warnings.warn(
            "sacrebleu was imported before rapidbleu.install_as_sacrebleu(): code that already holds "
            "sacreBLEU's objects keeps them; every import from now on gets rapidbleu. Call it before "
            "importing the code that uses sacrebleu.",
            RuntimeWarning,
            stacklevel=2,
        )
    for m in _alias_names():
        module = sys.modules.pop(m)
        if not _is_alias(module):
            _SAVED[m] = module
    sys.meta_path.insert(0, _FINDER)
    importlib.invalidate_caches()


def uninstall_as_sacrebleu() -> None:
    """Undo :func:`install_as_sacrebleu`: sacreBLEU's modules imported before it are put back,
    ``import sacrebleu`` finds the installed sacreBLEU again (objects already bound to rapidbleu
    stay rapidbleu's), and ``RAPIDBLEU_AS_SACREBLEU`` is removed from the environment, so that
    processes started from now on import sacreBLEU too.  Does nothing else when not installed."""
    os.environ.pop(CHILDREN_ENV, None)
    _drop_startup_finder()
    if not is_installed():
        return
    sys.meta_path.remove(_FINDER)
    for m in _alias_names():
        if _is_alias(sys.modules[m]):
            del sys.modules[m]
    sys.modules.update(_SAVED)
    _SAVED.clear()
    importlib.invalidate_caches()


def _is_alias(module: object) -> bool:
    name = getattr(module, "__name__", "")
    return bool(getattr(module, "__rapidbleu_alias__", False)) or name == _TARGET or name.startswith(_TARGET + ".")


# In a process that the start-up hook prepared (RAPIDBLEU_AS_SACREBLEU was set when it started),
# the alias takes the place of the hook's waiting finder as soon as rapidbleu is imported.
if _drop_startup_finder():
    install_as_sacrebleu()
