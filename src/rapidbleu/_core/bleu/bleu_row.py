"""The sufficient-statistics layout, and the lengths it is built from.

Layout of one row (sacreBLEU's, so that rows add up to a corpus)::

    [hyp_len, ref_len, matches_1 .. matches_N, totals_1 .. totals_N]      (2 + 2N int64)

* ``hyp_len``: number of hypothesis tokens;
* ``ref_len``: length of the reference closest in length to the hypothesis, ties going to the
  shorter reference (Papineni et al. 2002, as in mteval-v13a and sacreBLEU);
* ``matches_n``: clipped n-gram matches, each hypothesis n-gram counted at most as often as it
  occurs in any single reference (the maximum over references, not the sum);
* ``totals_n``: hypothesis n-grams of order n, ``max(0, hyp_len - n + 1)``.

Glossary.  The same quantities go by several names, because rapidbleu keeps the names of the
APIs it replaces: matches = ``correct`` (sacreBLEU) = ``counts`` (``BLEUScore``) = numerators
(NLTK); totals = ``total`` = ``totals`` = denominators (NLTK's are ``max(1, totals_n)``);
hypothesis length = ``sys_len`` = *c*; effective reference length = *r*; maximum n-gram order =
``max_ngram_order`` = *N*.  Reference *streams* (``ref_streams``, sacreBLEU's layout) hold the
k-th reference of every segment; NLTK's ``list_of_references`` holds every reference of one
hypothesis.

Scores computed from these rows live in ``rapidbleu._core.bleu.bleu_scores_py`` (and its compiled twin);
the rows themselves come from ``rapidbleu._core.bleu.bleu_stats_py`` (and its compiled twin).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
else:
    from ..._base.lazy import numpy as np  # imported on first use (see rapidbleu._base.lazy)

from ..validate import MAX_ORDER_LIMIT, check_order  # noqa: F401  (re-exported)

#: Default maximum n-gram order.
MAX_NGRAM_ORDER = 4


def stats_columns(max_ngram_order: int) -> tuple[str, ...]:
    """Names of the columns of a statistics row: ``hyp_len, ref_len, matches_1..N,
    totals_1..N``."""
    n = range(1, max_ngram_order + 1)
    return ("hyp_len", "ref_len", *(f"matches_{i}" for i in n), *(f"totals_{i}" for i in n))


def n_columns(max_ngram_order: int) -> int:
    """Number of columns of the statistics matrix for a given maximum n-gram order."""
    return 2 + 2 * max_ngram_order


def closest_ref_len(hyp_len: int, ref_lens: Sequence[int]) -> int:
    """Length of the reference closest to ``hyp_len``; ties go to the shorter reference."""
    best_len, best_diff = -1, -1
    for ref_len in ref_lens:
        diff = abs(hyp_len - ref_len)
        if best_diff == -1 or diff < best_diff or (diff == best_diff and ref_len < best_len):
            best_len, best_diff = ref_len, diff
    return best_len


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
