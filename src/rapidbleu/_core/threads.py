"""How many threads a compiled kernel starts, and the thread runner most kernels use.

Every compiled function that takes ``workers`` splits its rows into contiguous chunks (chunk k
of w covers rows ``n * k // w .. n * (k + 1) // w - 1``), one per thread, and each chunk runs
with the GIL released (TER's kernel first orders its segments by a fixed permutation,
``ter_cy._spread``, so that neighbouring segments, often alike in cost, land in different
chunks; the chunks are contiguous in that order); the rows a chunk computes do not depend on
the number of threads, so results are identical for any ``workers``.  What ``workers`` means is decided by
:func:`rapidbleu._core.validate.resolve_workers`; how many threads a call then starts, by
:func:`thread_count` (one rule, for both runners):

* :func:`run_chunks` here, for every kernel but one;
* ``bleu_stats_cy._Crew``, the token-sequence pipeline: its threads count one packed block while
  the calling thread packs the next, which tasks of a ``ThreadPoolExecutor`` cannot do (a task
  needs the GIL to start, and the packing thread holds it), so it is a second runner.

Both stop a call soon after Ctrl-C (``KeyboardInterrupt``) or any error, also mid-call: C code
running without the GIL cannot see a signal, so :func:`run_chunks` hands the kernel each chunk
in slices of about :data:`SLICE_SECONDS` of work (the rows a slice computes are the same rows,
so results do not change), and between slices the interpreter runs the signal handler; threads
are told to stop after their current slice, and the call returns only once every thread has
(their memory is the call's).  The crew checks for signals between blocks.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from .validate import threads_of

if TYPE_CHECKING:
    from concurrent.futures import Future

#: Fewest rows per thread: below this, starting a thread costs more than it saves.
MIN_CHUNK = 64

#: The most threads one call starts, whatever ``workers`` asks: one per core (``os.cpu_count()``,
#: as ``workers=-1``).  The kernels are CPU-bound and never wait, so a thread beyond the cores
#: adds switching and memory (a stack, a scratch space), never speed.
MAX_THREADS = os.cpu_count() or 1

#: Seconds of work per slice of a chunk (:func:`run_chunks`): how long Ctrl-C may wait for a
#: kernel, and long enough that the slices' calls cost nothing measurable.
SLICE_SECONDS = 0.02

#: Seconds between two looks of the waiting thread at its signals (a wait on a lock is not
#: interrupted by Ctrl-C on every platform).
_POLL_SECONDS = 0.05


def thread_count(workers: int, chunks: int) -> int:
    """Threads for a call with ``chunks`` pieces of work: ``workers`` (checked where it entered,
    by :func:`~rapidbleu._core.validate.resolve_workers`) resolved, but never more than the
    chunks (a thread with nothing to do is not started) nor than :data:`MAX_THREADS`; at least
    1 (the calling thread alone)."""
    return max(1, min(threads_of(int(workers)), chunks, MAX_THREADS))


def run_chunks(
    run: Callable[[int, int], None], n: int, workers: int, min_chunk: int = MIN_CHUNK, first: int = 1
) -> None:
    """Call ``run(start, end)`` on contiguous chunks covering ``range(n)``, each chunk in slices.

    Args:
        run: computes rows ``start .. end - 1``, whatever the bounds (a row's result must not
            depend on the rows computed with it); it should release the GIL.
        n: number of rows.
        workers: as everywhere, checked (:func:`~rapidbleu._core.validate.resolve_workers`); at most one
            thread per ``min_chunk`` rows, and at most :data:`MAX_THREADS`, is started
            (:func:`thread_count`).
        first: rows of each chunk's first slice (default 1): a caller that knows its rows
            cost far less than a slice together (a small call: a few thousand ids, a few
            thousand rows to score) gives that many, and a small call runs in one piece,
            without the slices' timing.

    Each chunk is computed in slices of about :data:`SLICE_SECONDS` (the first slice is small,
    unless ``first`` says otherwise, the next sized from the time the last took), so a signal is handled within a slice: in
    the calling thread Ctrl-C raises ``KeyboardInterrupt`` between two slices; with threads,
    the calling thread waits for the chunks with a timeout, and on ``KeyboardInterrupt`` (or an
    error in any thread) every thread stops after its current slice.  The call returns or
    raises only when no thread is still computing.

    Raises:
        Whatever ``run`` raises (the first chunk's error); ``KeyboardInterrupt``.
    """
    w = thread_count(workers, n // max(1, min_chunk))
    if n <= 0:
        return
    if w <= 1:
        if first >= n:  # one slice: nothing to time
            run(0, n)
            return
        _slices(run, 0, n, None, first)
        return
    # (here: concurrent.futures costs a run on one thread, the command line's usual, 4 ms of start-up)
    from concurrent.futures import FIRST_EXCEPTION, ThreadPoolExecutor, wait

    bounds = [n * k // w for k in range(w + 1)]
    stop = threading.Event()
    pool = ThreadPoolExecutor(max_workers=w)
    try:
        futures = [pool.submit(_slices, run, bounds[k], bounds[k + 1], stop, first) for k in range(w)]
        try:
            pending: set[Future[None]] = set(futures)
            while pending:
                done, pending = wait(pending, timeout=_POLL_SECONDS, return_when=FIRST_EXCEPTION)
                if any(f.exception() is not None for f in done):
                    break
        finally:
            stop.set()  # (nothing to stop once every chunk is done)
            _join(futures)
    finally:
        pool.shutdown()  # (every task is done: its threads only exit)
    for f in futures:
        f.result()


def _slices(run: Callable[[int, int], None], lo: int, hi: int, stop: threading.Event | None, first: int = 1) -> None:
    """``run`` over rows ``lo .. hi - 1`` in slices of about :data:`SLICE_SECONDS` (the first
    of ``first`` rows), until ``stop`` is set (checked before each slice)."""
    step = max(1, first)
    start = lo
    while start < hi:
        if stop is not None and stop.is_set():
            return
        end = min(hi, start + step)
        t0 = time.perf_counter()
        run(start, end)
        took = time.perf_counter() - t0
        start = end
        # the next slice: as many rows as fit in SLICE_SECONDS at this slice's speed, at most
        # 8 times this one (a few cheap rows do not promise that a huge slice is short)
        step = max(1, min(8 * step, int(step * SLICE_SECONDS / max(took, 1e-7))))


def _join(futures: Sequence[Future[None]]) -> None:
    """Wait until every future is done, through further ``KeyboardInterrupt`` exceptions: a thread still
    computing reads and writes memory of the call, so the call never leaves before it is done
    (after ``stop`` it ends with its current slice)."""
    from concurrent.futures import wait

    while True:
        try:
            wait(futures)
            return
        except KeyboardInterrupt:
            continue
