"""The metrics rapidbleu knows, by ``metric_id``: the one list every part that names a metric reads.

The command line (``-m`` and each metric's option group), :class:`~rapidbleu.stats.CorpusStats`
(which rebuilds a metric from its id and settings), the engines' ``metric=`` (Spark, Dask, Ray),
the comparison report's metric names and sacreBLEU's ``rapidbleu.metrics.METRICS`` all look
metrics up here.  The list is written out below, as sacreBLEU writes out its
``sacrebleu.metrics.METRICS``: this module imports the metric modules, so what is registered
does not depend on what else happens to have been imported.

A metric of your own is a subclass of :class:`Metric` (the metric protocol: its statistics, its
score from statistics, its settings; ``ARCHITECTURE.md`` lists the members) with a
``metric_id``.  Registered, it is scored everywhere a metric is named::

    from rapidbleu import registry

    registry.register(UnigramF1)  # also usable as a class decorator
    # rapidbleu REF -i HYP -m unigram_f1, corpus_stats(..., metric="unigram_f1"), ...
    registry.unregister("unigram_f1")

On the command line it offers its :attr:`Metric.cli_options` under :attr:`Metric.cli_title`
(when :attr:`Metric.command_line` is true), turned into constructor arguments by
:meth:`Metric.command_line_arguments`, with an optional check over each whole corpus
(:meth:`Metric.command_line_watch`, a :class:`CorpusWatch`).  Registration is per process: a metric used by
name in worker processes (``CorpusStats`` unpickled elsewhere) is registered there too, by the
module that defines it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import TypeVar

from ._base.errors import unknown_metric_error
from ._core.metric import METRICS as _metric_table
from ._core.metric import CommandLineContext, CommandLineOption, CorpusWatch, Metric
from .bleu import BLEU
from .chrf import CHRF
from .nltk_bleu import NLTKBLEU
from .ter import TER

__all__ = [
    "METRICS",
    "CommandLineContext",
    "CommandLineOption",
    "CorpusWatch",
    "Metric",
    "SacreBLEUNames",
    "get",
    "metric_ids",
    "register",
    "unregister",
]

M = TypeVar("M", bound=type[Metric])

#: ``metric_id`` -> metric class, in registration order (the command line's groups follow it):
#: the core's table (``rapidbleu._core.metric.METRICS``), which the engines read by id.
_METRICS: dict[str, type[Metric]] = _metric_table

#: ``metric_id`` -> metric class, read-only (:func:`register` and :func:`unregister` change it).
METRICS: Mapping[str, type[Metric]] = MappingProxyType(_METRICS)


def get(metric_id: str) -> type[Metric]:
    """The metric class registered as ``metric_id``.

    Raises:
        ValueError: no metric of that id; the message names the registered ids.
    """
    try:
        return _METRICS[metric_id]
    except (KeyError, TypeError):  # (TypeError: an unhashable id)
        raise unknown_metric_error(metric_id, _METRICS) from None


def metric_ids(command_line: bool | None = None) -> list[str]:
    """The registered ids in registration order; ``command_line=True``: those the command
    line's ``-m`` offers (:attr:`Metric.command_line`), ``False``: the others."""
    return [m for m, cls in _METRICS.items() if command_line is None or cls.command_line == command_line]


def register(cls: M) -> M:
    """Register the metric class ``cls`` under its ``metric_id`` and return it (so it also
    decorates a class).  Registering the class already registered under that id does nothing.

    Raises:
        TypeError: ``cls`` is not a subclass of :class:`Metric`, or its ``metric_id`` is not a
            string.
        ValueError: an empty ``metric_id`` or one with characters other than letters, digits,
            ``_`` and ``-``; another class registered under that id (:func:`unregister` it
            first); a command-line option whose ``dest`` is not ``<metric_id>_...``.
    """
    given: object = cls  # (checked at run time whatever the annotation says)
    if not (isinstance(given, type) and issubclass(given, Metric)):
        raise TypeError(f"register() takes a subclass of rapidbleu.registry.Metric, got {cls!r}")
    metric_id = getattr(cls, "metric_id", None)
    if not isinstance(metric_id, str):
        raise TypeError(f"{cls.__qualname__}.metric_id must be a string, got {metric_id!r}")
    if not metric_id or not metric_id.replace("_", "a").replace("-", "a").isalnum():
        raise ValueError(
            f"{cls.__qualname__}.metric_id {metric_id!r}: use letters, digits, '_' and '-' (it is the name of -m)"
        )
    known = _METRICS.get(metric_id)
    if known is cls:
        return cls
    if known is not None:
        raise ValueError(
            f"metric {metric_id!r} is already registered ({known.__module__}.{known.__qualname__}); unregister it first"
        )
    for flags, kwargs in cls.cli_options:
        dest = option_dest(flags, kwargs)
        if not dest.startswith(f"{metric_id}_"):
            raise ValueError(
                f"{cls.__qualname__}.cli_options: {'/'.join(flags)} stores {dest!r}; "
                f"give it dest='{metric_id}_<constructor argument>'"
            )
    _METRICS[metric_id] = cls
    return cls


def unregister(metric_id: str) -> type[Metric]:
    """Remove the metric registered as ``metric_id`` and return its class.

    Raises:
        ValueError: no metric of that id.
    """
    cls = get(metric_id)
    del _METRICS[metric_id]
    return cls


def option_dest(flags: tuple[str, ...], kwargs: Mapping[str, object]) -> str:
    """The attribute argparse stores a command-line option in: its ``dest``, else the first
    long flag (the first flag when none is long) without its dashes, ``-`` read as ``_``."""
    dest = kwargs.get("dest")
    if isinstance(dest, str):
        return dest
    flag = next((f for f in flags if f.startswith("--")), flags[0])
    return flag.lstrip("-").replace("-", "_")


class SacreBLEUNames(Mapping[str, type[Metric]]):
    """sacreBLEU's ``sacrebleu.metrics.METRICS`` (``{"BLEU": BLEU, "CHRF": CHRF, "TER":
    TER}``) as a view of the registry: the command-line metrics under their upper-case
    ``metric_id``, in registration order, registered ones included."""

    def _items(self) -> dict[str, type[Metric]]:
        return {m.upper(): _METRICS[m] for m in metric_ids(command_line=True)}

    def __getitem__(self, name: str) -> type[Metric]:
        return self._items()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._items())

    def __len__(self) -> int:
        return len(self._items())

    def __repr__(self) -> str:
        return repr(self._items())


# The metrics rapidbleu brings, one line each, in sacreBLEU's order (``-m``'s default is the
# first).  A new metric is its own modules plus one line here.
register(BLEU)
register(CHRF)
register(TER)
register(NLTKBLEU)
