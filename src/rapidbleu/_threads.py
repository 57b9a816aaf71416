"""How many threads a compiled kernel starts, and the thread runner most kernels use.

Every compiled function that takes ``workers`` splits its rows into contiguous chunks (chunk k
of w covers rows ``n * k // w .. n * (k + 1) // w - 1``), one per thread, and each chunk runs
with the GIL released; the rows a chunk computes do not depend on the number of threads, so
results are identical for any ``workers``.  What ``workers`` means is decided by
:func:`rapidbleu._validate.resolve_workers`; how many threads a call then starts, by
:func:`thread_count` (one rule, for both runners):

* :func:`run_chunks` here, for every kernel but one;
* ``_stats_cy._Crew``, the token-sequence pipeline: its threads count one packed block while
  the calling thread packs the next, which tasks of a ``ThreadPoolExecutor`` cannot do (a task
  needs the GIL to start, and the packing thread holds it), so it is a second runner.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from ._validate import resolve_workers

#: Fewest rows per thread: below this, starting a thread costs more than it saves.
MIN_CHUNK = 64

#: The most threads one call starts, whatever ``workers`` asks: one per core (``os.cpu_count()``,
#: as ``workers=-1``).  The kernels are CPU-bound and never wait, so a thread beyond the cores
#: adds switching and memory (a stack, a scratch space), never speed.
MAX_THREADS = os.cpu_count() or 1


def thread_count(workers: object, chunks: int) -> int:
    """Threads for a call with ``chunks`` pieces of work: ``workers`` resolved, but never more
    than the chunks (a thread with nothing to do is not started) nor than :data:`MAX_THREADS`;
    at least 1 (the calling thread alone).

    Raises:
        TypeError, ValueError: a bad ``workers`` (checked even when there is no work).
    """
    return max(1, min(resolve_workers(workers), chunks, MAX_THREADS))


def run_chunks(run: Callable[[int, int], None], n: int, workers: object, min_chunk: int = MIN_CHUNK) -> None:
    """Call ``run(start, end)`` on contiguous chunks covering ``range(n)``.

    Args:
        run: computes rows ``start .. end - 1``; it should release the GIL.
        n: number of rows.
        workers: as everywhere (:func:`~rapidbleu._validate.resolve_workers`); at most one
            thread per ``min_chunk`` rows, and at most :data:`MAX_THREADS`, is started
            (:func:`thread_count`).

    Raises:
        TypeError, ValueError: a bad ``workers`` (checked even when ``n`` is 0); whatever
            ``run`` raises.
    """
    w = thread_count(workers, n // max(1, min_chunk))
    if n <= 0:
        return
    if w <= 1:
        run(0, n)
        return
    bounds = [n * k // w for k in range(w + 1)]
    with ThreadPoolExecutor(max_workers=w) as pool:
        futures = [pool.submit(run, bounds[k], bounds[k + 1]) for k in range(w)]
        for f in futures:
            f.result()
