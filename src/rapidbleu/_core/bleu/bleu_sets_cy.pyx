"""Compiled twin of ``rapidbleu._core.bleu.bleu_sets_py``: self-BLEU and pairwise statistics of one set of
sentences given as a flat id stream, and the pairwise sacreBLEU matrix.

Same functions, signatures and results as the twin (whose docstrings are copied here by
``rapidbleu._core.backend``).  N-gram identity is exact and comes from the tables of ``table.h``
(cimported through ``table.pxd``): every token id gets a dense id from a table keyed by the id
itself, every n-gram of order n >= 2 a dense id from a table keyed by the exact pair (id of its
first n - 1 tokens, id of its last token).  Threads come from ``rapidbleu._core.threads`` and scores
from ``bleu_scores_cy`` (cimported), so nothing here is a second copy of the first core.
"""

import numpy as np

from libc.stdint cimport int64_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc, qsort

from .bleu_scores_cy cimport MAX_N, method_code, sacre_row, smooth_value_of
from ..c.table cimport (rb_pair_clear, rb_pair_entry, rb_pair_find, rb_table_size, rb_tok_clear, rb_tok_entry,
                        rb_tok_find_int)

from . import bleu_sets_py as _twin
from .bleu_sets_py import block_rows_for, check_split
from .bleu_scores_py import is_plain_smooth_value
from .bleu_row import closest_other_lengths
from ..threads import run_chunks
from ..validate import check_flat_stream, check_order

NAME = "cython"

cdef uint64_t _FULL_MASK = 0xFFFFFFFFFFFFFFFFULL


cdef int _cmp_i64(const void *a, const void *b) noexcept nogil:
    cdef int64_t x = (<const int64_t *> a)[0]
    cdef int64_t y = (<const int64_t *> b)[0]
    return (x > y) - (x < y)


cdef inline void _sort(int64_t *a, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t i, j
    cdef int64_t v
    if n > 24:
        qsort(a, n, sizeof(int64_t), _cmp_i64)
        return
    for i in range(1, n):
        v = a[i]
        j = i - 1
        while j >= 0 and a[j] > v:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = v


cdef class _Grams:
    """All sentences interned: per order k (0-based), per sentence, the sorted distinct n-gram
    ids and their counts.

    ``U[k]``/``C[k]``: int64 arrays of length P_k = sum(max(0, L_i - k)); sentence i's distinct
    ids are ``U[k][off[k, i] : off[k, i] + nu[k, i]]`` (sorted), counts alongside in ``C[k]``.
    """
    cdef public object U, C, off, nu, lengths
    cdef public int64_t n_grams
    cdef public int order
    cdef public Py_ssize_t n


cdef class _Tables:
    """The two scratch tables of one ``_prepare`` call (freed with the object)."""
    cdef rb_tok_entry *tok
    cdef rb_pair_entry *pair
    cdef size_t tok_cap, pair_cap
    cdef unsigned tok_shift, pair_shift

    def __cinit__(self, size_t n_tokens, size_t n_pairs):
        self.tok_cap = rb_table_size(n_tokens, &self.tok_shift)
        self.pair_cap = rb_table_size(n_pairs, &self.pair_shift)
        self.tok = <rb_tok_entry *> malloc(self.tok_cap * sizeof(rb_tok_entry))
        self.pair = <rb_pair_entry *> malloc(self.pair_cap * sizeof(rb_pair_entry))
        if self.tok == NULL or self.pair == NULL:
            raise MemoryError()
        rb_tok_clear(self.tok, self.tok_cap)
        rb_pair_clear(self.pair, self.pair_cap)

    def __dealloc__(self):
        free(self.tok)
        free(self.pair)


def _prepare(flat, lens, int max_order, uint64_t mask):
    toks_a, lengths = check_flat_stream(flat, lens)
    cdef Py_ssize_t n = len(lengths), i, p, k, L, total = len(toks_a)
    cdef _Grams g = _Grams()
    g.n = n
    g.order = max_order
    g.lengths = lengths
    cdef int64_t[::1] lens_v = lengths
    cdef int64_t[::1] toks = toks_a

    # offsets per order
    off = np.zeros((max_order, n + 1), dtype=np.int64)
    cdef int64_t[:, ::1] offv = off
    for k in range(max_order):
        for i in range(n):
            offv[k, i + 1] = offv[k, i] + (lens_v[i] - k if lens_v[i] > k else 0)
    U = [np.empty(offv[k, n], dtype=np.int64) for k in range(max_order)]
    Cs = [np.empty(offv[k, n], dtype=np.int64) for k in range(max_order)]
    nu = np.zeros((max_order, n), dtype=np.int64)

    cdef Py_ssize_t higher = 0
    for k in range(1, max_order):
        higher += offv[k, n]
    if total + higher >= <Py_ssize_t> 0xFFFFFFFF:
        raise OverflowError("more than 2**32 - 2 n-grams in one call: cannot give them 32-bit ids")
    cdef _Tables t = _Tables(total, higher)
    cdef uint32_t next_id = 0
    cdef int64_t[::1] prev, cur, dense
    cdef int64_t[:, ::1] nuv = nu
    cdef Py_ssize_t tpos
    G = [np.empty(offv[k, n], dtype=np.int64) for k in range(max_order)]
    # order 1: dense token ids, one per position (order-1 layout = the flat token layout)
    dense = G[0]
    with nogil:
        for p in range(total):
            dense[p] = rb_tok_find_int(t.tok, t.tok_cap, t.tok_shift, <uint64_t> toks[p], mask, 1, &next_id)
    # order k + 1: the exact pair (id of the k-gram at p, id of token p + k)
    for k in range(1, max_order):
        prev = G[k - 1]
        cur = G[k]
        with nogil:
            tpos = 0
            for i in range(n):
                L = lens_v[i]
                for p in range(L - k if L > k else 0):
                    cur[offv[k, i] + p] = rb_pair_find(
                        t.pair, t.pair_cap, t.pair_shift, <uint32_t> prev[offv[k - 1, i] + p],
                        <uint32_t> dense[tpos + p + k], mask, 1, &next_id)
                tpos += L
    g.n_grams = next_id
    cdef int64_t[::1] src, uu, cc
    cdef int64_t[::1] ofk, nuk
    for k in range(max_order):
        src = G[k]
        uu = U[k]
        cc = Cs[k]
        ofk = offv[k]
        nuk = nuv[k]
        with nogil:
            _rle(&src[0] if src.shape[0] else NULL, &uu[0] if uu.shape[0] else NULL,
                 &cc[0] if cc.shape[0] else NULL, &ofk[0], &nuk[0], n)
    g.U = U
    g.C = Cs
    g.off = off
    g.nu = nu
    return g


cdef void _rle(int64_t *src, int64_t *uu, int64_t *cc, int64_t *off, int64_t *nu, Py_ssize_t n) noexcept nogil:
    """Sort each sentence's slice of ``src`` and write its distinct ids and counts."""
    cdef Py_ssize_t i, p, a, b, w
    for i in range(n):
        a = off[i]
        b = off[i + 1]
        if b == a:
            nu[i] = 0
            continue
        _sort(src + a, b - a)
        w = a
        uu[w] = src[a]
        cc[w] = 1
        for p in range(a + 1, b):
            if src[p] == uu[w]:
                cc[w] += 1
            else:
                w += 1
                uu[w] = src[p]
                cc[w] = 1
        nu[i] = w + 1 - a


# ------------------------------------------------------------------------------- self-BLEU

def self_stats(flat, lens, max_ngram_order=4, workers=1):
    return _self_stats(flat, lens, check_order(max_ngram_order), workers, _FULL_MASK)


def _self_stats(flat, lengths, int max_order, workers, uint64_t mask):
    cdef _Grams g = _prepare(flat, lengths, max_order, mask)
    cdef Py_ssize_t n = g.n, i, k, q, a, G = g.n_grams
    cdef int N = max_order
    out = np.zeros((n, 2 + 2 * N), dtype=np.int64)
    cdef int64_t[:, ::1] o = out
    cdef int64_t[::1] lens = g.lengths
    top1_a = np.zeros(G, dtype=np.int64)
    top2_a = np.zeros(G, dtype=np.int64)
    arg_a = np.full(G, -1, dtype=np.int64)
    cdef int64_t[::1] top1 = top1_a, top2 = top2_a, arg = arg_a
    cdef int64_t[:, ::1] off = g.off, nu = g.nu
    cdef int64_t[::1] uu, cc
    cdef int64_t gid, c
    for k in range(N):
        uu = g.U[k]
        cc = g.C[k]
        with nogil:
            for i in range(n):
                a = off[k, i]
                for q in range(a, a + nu[k, i]):
                    gid = uu[q]
                    c = cc[q]
                    if c > top1[gid]:
                        top2[gid] = top1[gid]
                        top1[gid] = c
                        arg[gid] = i
                    elif c > top2[gid]:
                        top2[gid] = c
    Us = g.U
    Cs = g.C

    def work(Py_ssize_t lo, Py_ssize_t hi):
        cdef Py_ssize_t i, k, q, a
        cdef int64_t m, c, clip, gid
        cdef int64_t[::1] uu, cc
        for k in range(N):
            uu = Us[k]
            cc = Cs[k]
            with nogil:
                for i in range(lo, hi):
                    a = off[k, i]
                    m = 0
                    for q in range(a, a + nu[k, i]):
                        gid = uu[q]
                        c = cc[q]
                        clip = top2[gid] if arg[gid] == i else top1[gid]
                        m += c if c < clip else clip
                    o[i, 2 + k] = m
                    o[i, 2 + N + k] = lens[i] - k if lens[i] > k else 0

    run_chunks(work, n, workers)
    out[:, 0] = g.lengths
    out[:, 1] = closest_other_lengths(g.lengths)
    return out


# ------------------------------------------------------------------------------- pairwise

cdef inline int64_t _clipped(const int64_t *ua, const int64_t *ca, Py_ssize_t na,
                             const int64_t *ub, const int64_t *cb, Py_ssize_t nb) noexcept nogil:
    """Sum over the ids of a of min(count in a, count in b), both lists sorted."""
    cdef Py_ssize_t p = 0, q = 0
    cdef int64_t m = 0
    while p < na and q < nb:
        if ua[p] < ub[q]:
            p += 1
        elif ua[p] > ub[q]:
            q += 1
        else:
            m += ca[p] if ca[p] < cb[q] else cb[q]
            p += 1
            q += 1
    return m


cdef inline void _pair_row(int64_t *row, Py_ssize_t i, Py_ssize_t j, int N, int64_t **U, int64_t **C,
                           int64_t[:, ::1] off, int64_t[:, ::1] nu, int64_t[::1] lens) noexcept nogil:
    cdef int k
    row[0] = lens[i]
    row[1] = lens[j]
    for k in range(N):
        row[2 + k] = _clipped(U[k] + off[k, i], C[k] + off[k, i], nu[k, i],
                              U[k] + off[k, j], C[k] + off[k, j], nu[k, j])
        row[2 + N + k] = lens[i] - k if lens[i] > k else 0


cdef class _Ptrs:
    """Raw pointers to the per-order arrays of a ``_Grams`` (kept alive by ``refs``)."""
    cdef int64_t **U
    cdef int64_t **C
    cdef object refs

    def __cinit__(self, _Grams g):
        cdef int k, N = g.order
        cdef int64_t[::1] a
        self.U = <int64_t **> malloc(max(N, 1) * sizeof(int64_t *))
        self.C = <int64_t **> malloc(max(N, 1) * sizeof(int64_t *))
        if self.U == NULL or self.C == NULL:
            raise MemoryError()
        self.refs = (g.U, g.C)
        for k in range(N):
            a = g.U[k]
            self.U[k] = &a[0] if a.shape[0] else NULL
            a = g.C[k]
            self.C[k] = &a[0] if a.shape[0] else NULL

    def __dealloc__(self):
        free(self.U)
        free(self.C)


def pairwise_stats(flat, lens, max_ngram_order=4, workers=1):
    return _pairwise_stats(flat, lens, check_order(max_ngram_order), workers, _FULL_MASK)


def _pairwise_stats(flat, lengths, int max_order, workers, uint64_t mask):
    cdef _Grams g = _prepare(flat, lengths, max_order, mask)
    out = np.zeros((g.n, g.n, 2 + 2 * max_order), dtype=np.int64)
    _pair_block(g, _Ptrs(g), out, 0, g.n, workers)
    return out


def pairwise_stats_blocks(flat, lens, max_ngram_order=4, workers=1, block_rows=None):
    cdef int max_order = check_order(max_ngram_order)
    cdef _Grams g = _prepare(flat, lens, max_order, _FULL_MASK)
    cdef _Ptrs P = _Ptrs(g)
    cdef Py_ssize_t n = g.n, start, stop
    cdef Py_ssize_t rows = block_rows_for(n, max_order, block_rows)
    for start in range(0, n, rows):
        stop = min(n, start + rows)
        out = np.zeros((stop - start, n, 2 + 2 * max_order), dtype=np.int64)
        _pair_block(g, P, out, start, stop, workers)
        yield start, out


def _pair_block(_Grams g, _Ptrs P, out, Py_ssize_t start, Py_ssize_t stop, workers):
    """Rows ``start .. stop - 1`` of the pairwise statistics into ``out`` (a block the call
    owns), threads over rows."""
    cdef Py_ssize_t n = g.n
    cdef int N = g.order
    cdef int64_t[:, :, ::1] o = out
    cdef int64_t[:, ::1] off = g.off, nu = g.nu
    cdef int64_t[::1] lens = g.lengths

    def work(Py_ssize_t lo, Py_ssize_t hi):
        # (lo, hi) count rows of the block; no other closure refers to this one, so no
        # reference cycle keeps the block alive while the garbage collector is paused
        cdef Py_ssize_t i, j
        with nogil:
            for i in range(start + lo, start + hi):
                for j in range(n):
                    _pair_row(&o[i - start, j, 0], i, j, N, P.U, P.C, off, nu, lens)

    run_chunks(work, stop - start, workers, 1)


def pairwise_scores(flat, lens, max_ngram_order, smooth_method, smooth_value, effective_order, workers=1,
                    hypotheses=None):
    return _pairwise_scores(flat, lens, max_ngram_order, smooth_method, smooth_value, effective_order, workers,
                            hypotheses)


def _pairwise_scores(flat, lengths, max_ngram_order, smooth_method, smooth_value, effective_order, workers,
                     hypotheses):
    cdef int max_order = check_order(max_ngram_order)
    cdef int code = method_code(smooth_method)
    cdef double sv = smooth_value_of(smooth_method, smooth_value)
    cdef bint eff = bool(effective_order)
    if not is_plain_smooth_value(smooth_value):  # numpy scalars, huge ints: the Python formula
        return _twin.pairwise_scores(flat, lengths, max_order, smooth_method, smooth_value, effective_order, workers,
                                     hypotheses)
    cdef _Grams g = _prepare(flat, lengths, max_order, _FULL_MASK)
    cdef _Ptrs P = _Ptrs(g)
    cdef Py_ssize_t n = g.n
    # rows: the hypotheses; columns: the references, from col0 on (the same set when None)
    cdef Py_ssize_t rows = n if hypotheses is None else check_split(hypotheses, n)
    cdef Py_ssize_t col0 = 0 if hypotheses is None else rows
    cdef int N = max_order
    out = np.zeros((rows, n - col0), dtype=np.float64)
    cdef double[:, ::1] o = out
    cdef int64_t[:, ::1] off = g.off, nu = g.nu
    cdef int64_t[::1] lens = g.lengths

    def work(Py_ssize_t lo, Py_ssize_t hi):
        cdef Py_ssize_t i, j
        cdef int64_t row[2 + 2 * MAX_N]
        with nogil:
            for i in range(lo, hi):
                for j in range(col0, n):
                    _pair_row(row, i, j, N, P.U, P.C, off, nu, lens)
                    o[i, j - col0] = sacre_row(row, N, code, sv, eff)

    run_chunks(work, rows, workers, 1)
    if not np.isfinite(out).all():  # an overflow or infinity (huge smooth_value): the formula decides
        return _twin.pairwise_scores(flat, lengths, max_order, smooth_method, smooth_value, effective_order, workers,
                                     hypotheses)
    return out


# -- test hooks ---------------------------------------------------------------------------

def _self_stats_masked(flat, lens, max_ngram_order, workers, uint64_t mask):
    """``self_stats`` with every hash ANDed with ``mask`` (0: all keys collide)."""
    return _self_stats(flat, lens, check_order(max_ngram_order), workers, mask)


def _pairwise_stats_masked(flat, lens, max_ngram_order, workers, uint64_t mask):
    """``pairwise_stats`` with every hash ANDed with ``mask`` (0: all keys collide)."""
    return _pairwise_stats(flat, lens, check_order(max_ngram_order), workers, mask)
