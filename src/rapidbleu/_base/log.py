"""rapidbleu's logger, which also obeys sacreBLEU's.

Every message goes to ``logging.getLogger("rapidbleu")``.  Scripts written for sacreBLEU
silence it with ``logging.getLogger("sacrebleu").setLevel(logging.ERROR)`` (or ``.disabled =
True``); a filter on rapidbleu's logger drops a record that sacreBLEU's logger, configured that
way, would drop, so the same line silences both.  An unconfigured ``sacrebleu`` logger (level
``NOTSET``) changes nothing: then rapidbleu's own level and handlers decide.

:data:`logger` stands for that logger and imports :mod:`logging` at its first use: logging and
what it imports (traceback, linecache, tokenize, textwrap, ...) were a tenth of the command
line's start-up, and a plain corpus score logs nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import logging

#: rapidbleu's logger name.
NAME = "rapidbleu"

#: sacreBLEU's logger name; its level, when set, applies to rapidbleu's messages too.
SACREBLEU_LOGGER = "sacrebleu"


class SacreBLEULevelFilter:
    """Drops a record when the ``sacrebleu`` logger is disabled or has an explicit level above
    the record's.  (A filter object, which :mod:`logging` takes without its ``Filter`` base.)"""

    def filter(self, record: logging.LogRecord) -> bool:
        import logging

        sacre = logging.getLogger(SACREBLEU_LOGGER)
        if sacre.disabled:
            return False
        return sacre.level == logging.NOTSET or record.levelno >= sacre.level


#: Set up when the logger is first used (:func:`when_used`).
_pending: list[Callable[[logging.Logger], None]] = []
_real: list[logging.Logger] = []  # (the logger, once made)


def real_logger() -> logging.Logger:
    """``logging.getLogger("rapidbleu")`` with the filter attached (once), and what
    :func:`when_used` deferred done."""
    if not _real:
        import logging

        made = logging.getLogger(NAME)
        install(made)
        _real.append(made)
        while _pending:
            _pending.pop(0)(made)
    return _real[0]


def install(target: logging.Logger | None = None) -> None:
    """Attach the filter to rapidbleu's logger (once)."""
    target = target if target is not None else real_logger()
    if not any(isinstance(f, SacreBLEULevelFilter) for f in target.filters):
        target.addFilter(SacreBLEULevelFilter())


def when_used(configure: Callable[[logging.Logger], None]) -> None:
    """``configure(logger)`` now if rapidbleu's logger is in use, else at its first use (the
    command line's handler: a run that logs nothing imports no :mod:`logging`)."""
    if _real:
        configure(_real[0])
    else:
        _pending.append(configure)


class _Logger:
    """:func:`real_logger`'s attributes, the logger made at the first look-up."""

    def __getattr__(self, attr: str) -> Any:
        return getattr(real_logger(), attr)

    def __repr__(self) -> str:
        return repr(real_logger()) if _real else f"<rapidbleu's logger {NAME!r}, not yet used>"


if TYPE_CHECKING:
    #: The logger every rapidbleu module writes to.
    logger: logging.Logger
else:
    logger = _Logger()
