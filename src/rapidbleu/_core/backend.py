"""Chooses every kernel: compiled (Cython) or its pure-Python twin, by one rule.

Seven pairs of twins in ``rapidbleu._core``'s sub-packages, one per metric, each named by its
metric (same names, signatures and results; the Python twin owns the documentation and is the
oracle the tests compare against); :data:`TWINS` names each module by its path below
``rapidbleu._core``:

* ``bleu_stats`` (``bleu.bleu_stats_cy`` / ``bleu.bleu_stats_py``): BLEU's per-segment
  sufficient statistics;
* ``ids`` (``ids.ids_cy`` / ``ids.ids_py``): token-id streams packed from lists and cleaned;
* ``bleu_sets`` (``bleu.bleu_sets_cy`` / ``bleu.bleu_sets_py``): self-BLEU and pairwise
  statistics of one set;
* ``bleu_scores`` (``bleu.bleu_scores_cy`` / ``bleu.bleu_scores_py``): BLEU scores from
  statistics, sacreBLEU's and NLTK's formulas;
* ``chrf`` (``chrf.chrf_cy`` / ``chrf.chrf_py``): chrF and chrF++ statistics, scores and pairwise
  matrices.
* ``ter`` (``ter.ter_cy`` / ``ter.ter_py``): TER's statistics (shifts and beamed edit distance)
  and scores.
* ``aggregate`` (``aggregate.aggregate_cy`` / ``aggregate.aggregate_py``): reference-aggregated
  n-gram statistics (MBR decoding: chrF, chrF++ and BLEU against the mean of pseudo-references'
  counts).

Each is chosen on first use (``rapidbleu._core.backend.bleu_stats`` etc.) by
``RAPIDBLEU_BACKEND``:

* ``auto`` (default): the compiled core if it imports, else the pure-Python one with one
  warning (``BackendFallbackWarning``, a ``RuntimeWarning``) that says why, pointing at the
  caller's line (the command line prints it as one line);
* ``cython``: the compiled core; ``ImportError`` (with the reason) if it is not available;
* ``python``: the pure-Python oracle, always available.

Nothing else in the package decides between compiled and Python code (the C ``intl``
tokenizer's class table, built by ``tokenizers.tokenizer_intl`` in Python, is only asked for by
the compiled core).

The rules every compiled kernel follows (checked under AddressSanitizer/UBSan by ``.ci/run``):

* code that runs without the GIL reads and writes only memory the call owns or holds: whatever
  bounds a read or a write (lengths, offsets, sizes) is copied after validation, never read
  again from the caller's arrays, and a value used as an index (a token id in the direct-mapped
  vocabulary) is checked where it is used; the caller's buffers it reads in place are held by a
  reference for the call, and strs are immutable.  Another thread changing the inputs during a
  call can change the result for the data it changed, never cause a memory error
  (``tests/test_concurrency.py``);
* a call starts at most ``threads.thread_count(workers, chunks)`` threads: never more than its
  chunks of work, never more than ``threads.MAX_THREADS``;
* both twins give the same result for every argument their signatures accept: the same floats,
  or the same exception (``tools/fuzz.py`` compares them on random adversarial input).
"""

import contextlib
import os
from collections.abc import Iterable
from types import ModuleType
from typing import TYPE_CHECKING

from .._base.errors import BackendChoiceError, BackendFallbackWarning, BackendUnavailableError, warn_outside

if TYPE_CHECKING:
    # What the chosen modules look like: the pure-Python twins own the names and signatures
    # (the compiled twins' stubs import them from here; tests/test_scoring.py compares the two).  A new
    # TWINS entry adds its Python twin here and to __all__.
    from .aggregate import aggregate_py as aggregate
    from .bleu import bleu_scores_py as bleu_scores
    from .bleu import bleu_sets_py as bleu_sets
    from .bleu import bleu_stats_py as bleu_stats
    from .chrf import chrf_py as chrf
    from .ids import ids_py as ids
    from .ter import ter_py as ter

_CHOICES = ("auto", "cython", "python")


def _choice(choice: str | None = None) -> str:
    """``choice`` or ``$RAPIDBLEU_BACKEND`` (default auto), validated.

    Raises:
        BackendChoiceError: (a ``ValueError``) not one of auto, cython, python.
    """
    if choice is None:
        choice = os.environ.get("RAPIDBLEU_BACKEND", "auto").strip().lower() or "auto"
    if choice not in _CHOICES:
        raise BackendChoiceError(f"RAPIDBLEU_BACKEND={choice!r}: choose one of {', '.join(_CHOICES)}")
    return choice


def _import_compiled(name: str, twin: ModuleType, docs: Iterable[str] = ()) -> ModuleType:
    import importlib
    import importlib.util

    if importlib.util.find_spec(f"{__package__}.{name}") is None:
        raise ImportError(
            f"rapidbleu._core.{name} was not compiled at install; a C compiler and Python headers give "
            "it, `pip install -v` shows why the build failed"
        )
    module = importlib.import_module(f"{__package__}.{name}")
    # One place for the documentation: the pure-Python twin's docstrings.
    for attr in docs:
        with contextlib.suppress(AttributeError, TypeError):  # builtin functions may refuse __doc__
            getattr(module, attr).__doc__ = getattr(twin, attr).__doc__
    return module


def select_twin(
    compiled: str, twin: ModuleType, choice: str | None = None, warn: bool = True, docs: Iterable[str] = ()
) -> ModuleType:
    """The compiled module ``rapidbleu._core.<compiled>`` (``<metric>.<module>``) or its pure-Python
    ``twin``, by ``choice``.

    Every pair of compiled/pure-Python modules is chosen by this one rule (``python``: the
    twin; ``cython``: the compiled module or ``ImportError``; ``auto``: the compiled module if
    it imports, else the twin, with a ``BackendFallbackWarning`` when ``warn``).

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
                f"RAPIDBLEU_BACKEND=cython but the compiled extension rapidbleu._core.{compiled} cannot be "
                f"imported ({exc}); reinstall rapidbleu from a wheel or with a C compiler, or use "
                "RAPIDBLEU_BACKEND=python"
            ) from exc
        if warn:
            warn_outside(
                f"rapidbleu: compiled core not available ({exc}); using the pure-Python backend "
                "(same results, slower). Set RAPIDBLEU_BACKEND=python to silence this warning.",
                BackendFallbackWarning,
            )
        return twin


#: The pairs of modules chosen by one rule: the compiled module, its pure-Python twin (each by its
#: path below ``rapidbleu._core``: ``<metric>.<module>``), and the functions both have, whose
#: documentation and signatures the twin owns (the compiled module's stub imports them from it).
TWINS = {
    "bleu_stats": (
        "bleu.bleu_stats_cy",
        "bleu.bleu_stats_py",
        ("string_stats", "string_totals", "sentence_row", "token_row", "token_stats", "flat_stats"),
    ),
    "ids": ("ids.ids_cy", "ids.ids_py", ("pack_int_lists", "clean_flat")),
    "bleu_sets": (
        "bleu.bleu_sets_cy",
        "bleu.bleu_sets_py",
        ("self_stats", "pairwise_stats", "pairwise_stats_blocks", "pairwise_scores"),
    ),
    "bleu_scores": (
        "bleu.bleu_scores_cy",
        "bleu.bleu_scores_py",
        ("bleu_of_row", "sacre_scores", "nltk_of_row", "nltk_scores", "nltk_kernel_scores"),
    ),
    "chrf": (
        "chrf.chrf_cy",
        "chrf.chrf_py",
        (
            "chrf_stats",
            "chrf_sentence_row",
            "chrf_of_row",
            "chrf_scores",
            "chrf_pairwise_stats",
            "chrf_pairwise_scores",
        ),
    ),
    "ter": (
        "ter.ter_cy",
        "ter.ter_py",
        (
            "ter_stats",
            "ter_sentence_row",
            "ter_of_row",
            "ter_scores",
            "ter_pairwise_scores",
            "translation_edit_rate",
            "plain_streams",
        ),
    ),
    "aggregate": ("aggregate.aggregate_cy", "aggregate.aggregate_py", ("ngram_stats", "chrf_row_scores")),
}

_warned = False


def _twin_module(name: str) -> ModuleType:
    import importlib

    return importlib.import_module(f"{__package__}.{name}")


def select(choice: str | None = None, kind: str = "bleu_stats") -> ModuleType:
    """The module of ``kind`` (``bleu_stats``, ``ids``, ``bleu_sets``, ``bleu_scores``, ``chrf``,
    ``ter`` or ``aggregate``; see :data:`TWINS`) for ``choice`` (default: ``$RAPIDBLEU_BACKEND`` or auto).

    The first fallback from a missing extension warns once (``RuntimeWarning``).

    Raises:
        BackendChoiceError: (a ``ValueError``) unknown choice.
        BackendUnavailableError: (an ``ImportError``) ``cython`` forced but the extension
            cannot be imported.
    """
    global _warned  # noqa: PLW0603 -- the process-wide "fallback reported once" flag
    compiled, twin, docs = TWINS[kind]
    module = select_twin(compiled, _twin_module(twin), choice, warn=not _warned, docs=docs)
    if module.NAME == "python" and _choice(choice) == "auto":
        _warned = True
    return module


def __getattr__(name: str) -> ModuleType:
    """``bleu_stats``, ``ids``, ``bleu_sets``, ``bleu_scores``, ``chrf`` and ``ter`` are chosen on
    first use, so importing rapidbleu chooses nothing and a bad ``RAPIDBLEU_BACKEND`` is reported
    where the module is first needed (the command line turns it into one line)."""
    if name not in TWINS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module = select(kind=name)
    globals()[name] = module
    return module


__all__ = [
    "TWINS",
    "aggregate",
    "bleu_scores",
    "bleu_sets",
    "bleu_stats",
    "chrf",
    "ids",
    "select",
    "select_twin",
    "ter",
]
