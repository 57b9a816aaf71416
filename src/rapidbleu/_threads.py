"""The one thread runner of the compiled kernels.

Every compiled function that takes ``workers`` splits its rows into contiguous chunks, one per
thread, and each chunk runs with the GIL released; the rows a chunk computes do not depend on
the number of threads, so results are identical for any ``workers``.  What ``workers`` means is
decided by :func:`rapidbleu._validate.resolve_workers`.
"""

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from ._validate import resolve_workers

#: Fewest rows per thread: below this, starting a thread costs more than it saves.
MIN_CHUNK = 64


def run_chunks(run: Callable[[int, int], None], n: int, workers: int, min_chunk: int = MIN_CHUNK) -> None:
    """Call ``run(start, end)`` on contiguous chunks covering ``range(n)``.

    Args:
        run: computes rows ``start .. end - 1``; it should release the GIL.
        n: number of rows.
        workers: as everywhere (:func:`~rapidbleu._validate.resolve_workers`); at most one
            thread per ``min_chunk`` rows is started.

    Raises:
        TypeError, ValueError: a bad ``workers`` (checked even when ``n`` is 0); whatever
            ``run`` raises.
    """
    w = min(resolve_workers(workers), max(1, n // max(1, min_chunk)))
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
