"""Pure-Python twin of ``_batch_cy``: the oracle the compiled kernels are tested against and the
fallback where the extension is not built.

Both modules expose, with identical signatures and results:

* ``self_stats(seqs, max_order, workers)`` -> int64 (n, 2 + 2N): row i is the statistics of
  sentence i (hypothesis) against all the other sentences (references);
* ``pairwise_stats(seqs, max_order, workers)`` -> int64 (n, n, 2 + 2N): [i, j] is sentence i
  (hypothesis) against sentence j (the single reference);
* ``pairwise_scores(seqs, max_order, method, smooth_value, effective_order, workers)`` ->
  float64 (n, n) sacreBLEU sentence BLEU of each pair;
* ``sacre_scores(stats, max_order, method, smooth_value, effective_order)`` -> float64 (n,):
  ``bleu_from_stats`` of each row.

``seqs`` is a list of int64 1-D arrays (already cleaned); ``method`` one of sacreBLEU's
smoothing names.  ``workers`` is accepted and ignored here.

Self-BLEU without the O(n^2) scan: for every n-gram g keep, over the whole set, the largest
count ``top1[g]``, the sentence holding it ``arg[g]`` and the second largest ``top2[g]``
(counting one value per sentence, so ties give ``top2 == top1``).  The clipping count of g
against "all sentences but i" is ``top2[g]`` if ``arg[g] == i`` else ``top1[g]``.  The closest
reference length comes from the sorted length array with one copy of ``len(i)`` removed.
"""

from collections import Counter
from typing import List, Sequence

import numpy as np

from ._stats import bleu_from_stats, n_columns

NAME = "python"


def _counts(seq: Sequence[int], max_order: int) -> List[Counter]:
    toks = [int(t) for t in seq]
    return [Counter(zip(*[toks[k:] for k in range(n)])) for n in range(1, max_order + 1)]


def closest_other_lengths(lengths: np.ndarray) -> np.ndarray:
    """For each i, the length closest to ``lengths[i]`` among the others (ties: shorter).

    ``lengths``: int64 (n,), n >= 2.  Returns int64 (n,).
    """
    L = np.asarray(lengths, dtype=np.int64)
    s = np.sort(L)
    lo = np.searchsorted(s, L, side="left")
    hi = np.searchsorted(s, L, side="right")
    out = np.empty_like(L)
    for i in range(len(L)):
        li = int(L[i])
        if hi[i] - lo[i] >= 2:  # another sentence has the same length
            out[i] = li
            continue
        below = int(s[lo[i] - 1]) if lo[i] > 0 else None
        above = int(s[hi[i]]) if hi[i] < len(s) else None
        if below is None:
            out[i] = above  # type: ignore[assignment]  # a neighbour exists when the length is unique
        elif above is None or li - below <= above - li:
            out[i] = below
        else:
            out[i] = above
    return out


def self_stats(seqs, max_order: int, workers: int = 1) -> np.ndarray:
    """Self-BLEU statistics: row i is sentence i against all the other sentences as references.

    Args:
        seqs: n int64 id sequences; max_order: N >= 1; workers: threads (compiled twin only).

    Returns:
        int64 (n, 2 + 2N), the layout of ``rapidbleu._stats``; clipping uses, per n-gram, the
        largest count among the *other* sentences (top-1 unless sentence i holds it, then top-2),
        and ref_len the closest length among the others (ties to the shorter).  Same output in
        ``_batch_cy.self_stats``.
    """
    n = len(seqs)
    counts = [_counts(s, max_order) for s in seqs]
    top1: List[dict] = [dict() for _ in range(max_order)]
    top2: List[dict] = [dict() for _ in range(max_order)]
    arg: List[dict] = [dict() for _ in range(max_order)]
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


def pairwise_stats(seqs, max_order: int, workers: int = 1) -> np.ndarray:
    """Statistics of every ordered pair: ``out[i, j]`` is sentence i (hypothesis) against
    sentence j (single reference); int64 (n, n, 2 + 2N).  Same output in ``_batch_cy``."""
    n = len(seqs)
    counts = [_counts(s, max_order) for s in seqs]
    lengths = [len(s) for s in seqs]
    out = np.zeros((n, n, n_columns(max_order)), dtype=np.int64)
    for i in range(n):
        for j in range(n):
            row = out[i, j]
            row[0] = lengths[i]
            row[1] = lengths[j]
            for k in range(max_order):
                ref = counts[j][k]
                row[2 + k] = sum(min(c, ref.get(g, 0)) for g, c in counts[i][k].items())
                row[2 + max_order + k] = max(0, lengths[i] - k)
    return out


def sacre_scores(stats, max_order: int, method: str, smooth_value, effective_order: bool) -> np.ndarray:
    """sacreBLEU sentence BLEU (0-100) of each stats row: float64 (n,), each value exactly
    ``rapidbleu._stats.bleu_from_stats(...)[0]``; ``ValueError`` for a bad shape or method.
    ``_batch_cy.sacre_scores`` gives the same floats (checked at import by ``rapidbleu.batch``)."""
    stats = np.asarray(stats, dtype=np.int64)
    out = np.empty(len(stats), dtype=np.float64)
    N = max_order
    for i, row in enumerate(stats.tolist()):
        out[i] = bleu_from_stats(row[2 : 2 + N], row[2 + N : 2 + 2 * N], row[0], row[1], method,
                                 smooth_value, effective_order, N)[0]
    return out


def pairwise_scores(seqs, max_order: int, method: str, smooth_value, effective_order: bool,
                    workers: int = 1) -> np.ndarray:
    """sacreBLEU sentence BLEU (0-100) of every ordered pair: float64 (n, n), ``[i, j]`` =
    sentence i against sentence j; the scores of ``pairwise_stats`` by ``sacre_scores``."""
    n = len(seqs)
    st = pairwise_stats(seqs, max_order, workers)
    return sacre_scores(st.reshape(n * n, -1), max_order, method, smooth_value, effective_order).reshape(n, n)
