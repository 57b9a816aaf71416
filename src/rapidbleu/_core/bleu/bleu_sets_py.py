"""Statistics of one set of sentences against itself, in pure Python: the oracle of
``bleu_sets_cy`` and the fallback where the extension is not built.

Both modules expose, with identical signatures and results:

* ``self_stats(flat, lens, max_ngram_order, workers)`` -> int64 (n, 2 + 2N): row i is the
  statistics of sentence i (hypothesis) against all the other sentences (references);
* ``pairwise_stats(flat, lens, max_ngram_order, workers)`` -> int64 (n, n, 2 + 2N): [i, j] is
  sentence i (hypothesis) against sentence j (the single reference);
* ``pairwise_scores(flat, lens, max_ngram_order, smooth_method, smooth_value, effective_order,
  workers, hypotheses=None)`` -> float64 (n, n) sacreBLEU sentence BLEU of each pair; with
  ``hypotheses=k``, float64 (k, n - k): the first k sentences (hypotheses) against the others
  (references), as MBR scores hypotheses against pseudo-references.

The sentences are one flat id stream: ``flat`` int64 ids, ``lens`` int64 (n,) lengths that add
up to ``len(flat)`` (the layout of ``rapidbleu.ids``; already cleaned).  ``workers`` is checked
here and used by the compiled twin.

Self-BLEU without the O(n^2) scan: for every n-gram g keep, over the whole set, the largest
count ``top1[g]``, the sentence holding it ``arg[g]`` and the second largest ``top2[g]``
(counting one value per sentence, so ties give ``top2 == top1``).  The clipping count of g
against "all sentences but i" is ``top2[g]`` if ``arg[g] == i`` else ``top1[g]``.  The closest
reference length comes from the sorted length array with one copy of ``len(i)`` removed.
"""

from collections import Counter
from collections.abc import Iterator, Sequence

import numpy as np
import numpy.typing as npt

from ..validate import check_flat_stream, check_order
from .bleu_row import closest_other_lengths, n_columns
from .bleu_scores_py import sacre_scores

NAME = "python"


def _counts(seq: Sequence[int], max_order: int) -> list[Counter[tuple[int, ...]]]:
    toks = [int(t) for t in seq]
    return [Counter(zip(*[toks[k:] for k in range(n)], strict=False)) for n in range(1, max_order + 1)]


def _sentences(flat: npt.ArrayLike, lens: npt.ArrayLike, workers: int) -> list[list[int]]:
    """The sentences of a flat stream, after the checks the compiled twin makes."""
    toks, L = check_flat_stream(flat, lens)
    ends = np.cumsum(L).tolist()
    values = toks.tolist()
    return [values[e - m : e] for e, m in zip(ends, L.tolist(), strict=False)]


def self_stats(flat: npt.ArrayLike, lens: npt.ArrayLike, max_ngram_order: int = 4, workers: int = 1) -> np.ndarray:
    """Self-BLEU statistics: row i is sentence i against all the other sentences as references.

    Args:
        flat, lens: the n sentences as one flat int64 id stream and its lengths.
        max_ngram_order: N (1..64).
        workers: threads of the compiled twin (1 serial, -1 all cores); same results.

    Returns:
        int64 (n, 2 + 2N), the layout of ``rapidbleu._core.bleu.bleu_row``; clipping uses, per n-gram, the
        largest count among the *other* sentences (top-1 unless sentence i holds it, then top-2),
        and ref_len the closest length among the others (ties to the shorter).

    Raises:
        ValueError: lengths that do not tile ``flat``, a bad order; TypeError/ValueError: a bad
            ``workers``.
    """
    max_order = check_order(max_ngram_order)
    seqs = _sentences(flat, lens, workers)
    n = len(seqs)
    counts = [_counts(s, max_order) for s in seqs]
    top1: list[dict[tuple[int, ...], int]] = [{} for _ in range(max_order)]
    top2: list[dict[tuple[int, ...], int]] = [{} for _ in range(max_order)]
    arg: list[dict[tuple[int, ...], int]] = [{} for _ in range(max_order)]
    for i, cs in enumerate(counts):
        for k in range(max_order):
            t1, t2, a = top1[k], top2[k], arg[k]
            for g, c in cs[k].items():
                best = t1.get(g, 0)
                if c > best:
                    t2[g] = best
                    t1[g] = c
                    a[g] = i
                elif c > t2.get(g, 0):
                    t2[g] = c
    lengths = np.array([len(s) for s in seqs], dtype=np.int64)
    out = np.zeros((n, n_columns(max_order)), dtype=np.int64)
    out[:, 0] = lengths
    out[:, 1] = closest_other_lengths(lengths)
    for i, cs in enumerate(counts):
        for k in range(max_order):
            t1, t2, a = top1[k], top2[k], arg[k]
            m = 0
            for g, c in cs[k].items():
                clip = t2.get(g, 0) if a[g] == i else t1[g]
                m += min(c, clip)
            out[i, 2 + k] = m
            out[i, 2 + max_order + k] = max(0, int(lengths[i]) - k)
    return out


def pairwise_stats(flat: npt.ArrayLike, lens: npt.ArrayLike, max_ngram_order: int = 4, workers: int = 1) -> np.ndarray:
    """Statistics of every ordered pair: ``out[i, j]`` is sentence i (hypothesis) against
    sentence j (single reference); int64 (n, n, 2 + 2N).  Arguments and errors as
    :func:`self_stats`."""
    max_order = check_order(max_ngram_order)
    n = len(lens)  # type: ignore[arg-type]  # (a sized array-like; anything else fails here, as in C)
    out = np.zeros((n, n, n_columns(max_order)), dtype=np.int64)
    for start, block in pairwise_stats_blocks(flat, lens, max_order, workers, block_rows=max(n, 1)):
        out[start : start + len(block)] = block
    return out


def pairwise_stats_blocks(
    flat: npt.ArrayLike, lens: npt.ArrayLike, max_ngram_order: int = 4, workers: int = 1, block_rows: int | None = None
) -> Iterator[tuple[int, np.ndarray]]:
    """:func:`pairwise_stats` a block of rows at a time: yields ``(start, block)`` with
    ``block[r, j]`` the statistics of sentence ``start + r`` against sentence ``j``, int64
    ``(rows, n, 2 + 2N)``, so memory is one block (``block_rows`` rows; default
    :func:`block_rows_for`: about 16 MB) instead of the whole ``n x n`` table.  The n-grams of
    the set are collected once.  Arguments and errors as :func:`self_stats`."""
    max_order = check_order(max_ngram_order)
    seqs = _sentences(flat, lens, workers)
    n = len(seqs)
    counts = [_counts(s, max_order) for s in seqs]
    lengths = [len(s) for s in seqs]
    rows = block_rows_for(n, max_order, block_rows)
    for start in range(0, n, rows):
        stop = min(n, start + rows)
        out = np.zeros((stop - start, n, n_columns(max_order)), dtype=np.int64)
        for i in range(start, stop):
            for j in range(n):
                out[i - start, j] = _pair_row(counts, lengths, i, j, max_order)
        yield start, out


def _pair_row(counts: list[list[Counter[tuple[int, ...]]]], lengths: list[int], i: int, j: int, N: int) -> list[int]:
    """The statistics of sentence i (hypothesis) against sentence j (its single reference)."""
    matches = [sum(min(c, counts[j][k].get(g, 0)) for g, c in counts[i][k].items()) for k in range(N)]
    return [lengths[i], lengths[j], *matches, *(max(0, lengths[i] - k) for k in range(N))]


#: Bytes of one block of :func:`pairwise_stats_blocks` by default.
BLOCK_BYTES = 16 << 20


def block_rows_for(n: int, max_order: int, block_rows: int | None = None) -> int:
    """Rows per block: ``block_rows`` if given (>= 1), else as many as fit ``BLOCK_BYTES``.

    Raises:
        ValueError: ``block_rows`` < 1.
    """
    if block_rows is not None:
        if int(block_rows) < 1:
            raise ValueError(f"block_rows must be >= 1, got {block_rows}")
        return int(block_rows)
    return max(1, BLOCK_BYTES // max(1, n * n_columns(max_order) * 8))


def pairwise_scores(
    flat: npt.ArrayLike,
    lens: npt.ArrayLike,
    max_ngram_order: int,
    smooth_method: str,
    smooth_value: float | None,
    effective_order: bool,
    workers: int = 1,
    hypotheses: int | None = None,
) -> np.ndarray:
    """sacreBLEU sentence BLEU (0-100) of every ordered pair: float64 (n, n), ``[i, j]`` =
    sentence i against sentence j; the scores of :func:`pairwise_stats` by
    ``rapidbleu._core.bleu.bleu_scores_py.sacre_scores``.  With ``hypotheses=k`` (0 <= k <= n): float64
    ``(k, n - k)``, ``[i, j]`` = sentence i against sentence ``k + j``, the first k sentences
    being hypotheses and the others references (only those pairs are counted).

    Raises:
        ValueError: as :func:`self_stats`, ``hypotheses`` outside 0..n (``smooth_method`` and
            ``smooth_value`` are trusted: checked where they entered).
    """
    max_order = check_order(max_ngram_order)
    if hypotheses is None:
        st = pairwise_stats(flat, lens, max_order, workers)
        n = st.shape[0]
        rows = st.reshape(n * n, st.shape[2])  # (an empty set: 0 rows)
        return sacre_scores(rows, max_order, smooth_method, smooth_value, effective_order).reshape(n, n)
    seqs = _sentences(flat, lens, workers)
    k = check_split(hypotheses, len(seqs))
    counts = [_counts(s, max_order) for s in seqs]
    lengths = [len(s) for s in seqs]
    cross = np.array(
        [_pair_row(counts, lengths, i, j, max_order) for i in range(k) for j in range(k, len(seqs))], dtype=np.int64
    ).reshape(k * (len(seqs) - k), n_columns(max_order))
    scores = sacre_scores(cross, max_order, smooth_method, smooth_value, effective_order)
    return scores.reshape(k, len(seqs) - k)


def check_split(hypotheses: object, n: int) -> int:
    """``hypotheses`` of :func:`pairwise_scores`: an int from 0 to ``n`` (the sentences of the
    stream), the number of its leading sentences that are hypotheses.

    Raises:
        ValueError: anything else (both twins: the compiled one indexes by it)."""
    if type(hypotheses) is not int or not 0 <= hypotheses <= n:
        raise ValueError(f"hypotheses must be an int from 0 to the {n} sentences of the stream, got {hypotheses!r}")
    return hypotheses
