"""rapidbleu's logger, which also obeys sacreBLEU's.

Every message goes to ``logging.getLogger("rapidbleu")``.  Scripts written for sacreBLEU
silence it with ``logging.getLogger("sacrebleu").setLevel(logging.ERROR)`` (or ``.disabled =
True``); a filter on rapidbleu's logger drops a record that sacreBLEU's logger, configured that
way, would drop, so the same line silences both.  An unconfigured ``sacrebleu`` logger (level
``NOTSET``) changes nothing: then rapidbleu's own level and handlers decide.
"""

import logging

#: The logger every rapidbleu module writes to.
logger = logging.getLogger("rapidbleu")

#: sacreBLEU's logger name; its level, when set, applies to rapidbleu's messages too.
SACREBLEU_LOGGER = "sacrebleu"


class SacreBLEULevelFilter(logging.Filter):
    """Drops a record when the ``sacrebleu`` logger is disabled or has an explicit level above
    the record's."""

    def filter(self, record: logging.LogRecord) -> bool:
        sacre = logging.getLogger(SACREBLEU_LOGGER)
        if sacre.disabled:
            return False
        return sacre.level == logging.NOTSET or record.levelno >= sacre.level


def install() -> None:
    """Attach the filter to rapidbleu's logger (once)."""
    if not any(isinstance(f, SacreBLEULevelFilter) for f in logger.filters):
        logger.addFilter(SacreBLEULevelFilter())


install()
