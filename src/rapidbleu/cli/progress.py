"""The command line's progress display on standard error: a tqdm bar of lines read, or of
resamples and trials of a bootstrap or paired test."""

from __future__ import annotations

import os
import sys
import time
from typing import Any, Literal

#: The fewest steps a bar with a total is shown for (smaller runs end before it would matter).
MIN_TOTAL = 1000


def reading_delay() -> float:
    """Seconds a run reads before its line counter appears: ``RAPIDBLEU_PROGRESS_DELAY``
    (default 1.5; a value that is not a number reads as the default)."""
    try:
        return float(os.environ.get("RAPIDBLEU_PROGRESS_DELAY", "1.5"))
    except ValueError:
        return 1.5


class Progress:
    """A tqdm bar on stderr for ``total`` steps of ``unit``, or a counter (``total`` None, the
    unit scaled: ``k lines``) once the run has lasted ``delay`` seconds.

    Shown only when standard error is a terminal, not ``quiet``, tqdm importable, and a total
    is at least :data:`MIN_TOTAL`; otherwise :meth:`update` only counts.  A context manager
    (closing the bar); :attr:`callback` is what the significance code takes.
    """

    def __init__(self, quiet: bool, desc: str, unit: str, total: int | None = None, delay: float = 0.0) -> None:
        self.bar: Any = None  # a tqdm bar once shown
        self.desc, self.unit, self.total = desc, unit, total
        self.shown = (
            not quiet
            and hasattr(sys.stderr, "isatty")
            and sys.stderr.isatty()
            and (total is None or total >= MIN_TOTAL)
        )
        self.delay = delay
        self.start = time.monotonic()
        self.done = 0
        if self.shown and delay <= 0:
            self._open()

    def _open(self) -> None:
        try:
            from tqdm import tqdm
        except ImportError:
            self.shown = False
            return
        counter = self.total is None
        self.bar = tqdm(
            total=self.total,
            desc=self.desc,
            unit=self.unit,
            unit_scale=counter,
            file=sys.stderr,
            leave=False,
            initial=self.done,
        )

    @property
    def callback(self) -> Any:
        """:meth:`update`, or None when nothing is shown (the callers then skip it)."""
        return self.update if self.shown else None

    def update(self, n: int) -> None:
        """Count ``n`` more steps (and show them)."""
        if self.shown and self.bar is None and time.monotonic() - self.start >= self.delay:
            self._open()
        self.done += n
        if self.bar is not None:
            self.bar.update(n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> Literal[False]:
        self.close()
        return False
