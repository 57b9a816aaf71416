# cython: language_level=3
# Compiler directives (bounds checks off unless RAPIDBLEU_DEBUG_BUILD=1) come from setup.py.
"""Compiled kernels for batched BLEU on token ids: self-BLEU, pairwise matrices, and scores.

Same functions, signatures and results as the pure-Python twin ``rapidbleu._batch_py`` (whose
module docstring documents them).

N-gram identity is exact: every token id gets a dense id from an open-addressing table keyed by
the id itself, and every n-gram of order n >= 2 a dense id from a table keyed by the exact pair
(id of its first n - 1 tokens, dense id of its last token) packed into 64 bits.  Full keys are
stored and compared, so a hash collision costs a probe, never a false match; ``_set_mask(0)``
(tests) forces every key onto one probe chain to prove it.

Scores follow ``rapidbleu._stats.bleu_from_stats`` operation for operation with C doubles and
the C library's ``log``/``exp`` (which CPython's ``math.log``/``math.exp`` call), and with the
summation of the running Python's ``sum()`` (plain left-to-right before 3.12, Neumaier's
compensated sum from 3.12).  ``rapidbleu.batch`` re-checks the equality at import.
"""

import sys
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from libc.math cimport exp, fabs, isfinite, log
from libc.stdint cimport int64_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc, qsort
from libc.string cimport memset

NAME = "cython"

cdef uint64_t _MASK = 0xFFFFFFFFFFFFFFFFULL
cdef bint _NEUMAIER = sys.version_info >= (3, 12)

# smoothing codes
cdef enum:
    M_NONE = 0
    M_FLOOR = 1
    M_ADDK = 2
    M_EXP = 3
    MAX_ORDER_C = 64

_METHODS = {"none": M_NONE, "floor": M_FLOOR, "add-k": M_ADDK, "exp": M_EXP}
_DEFAULTS = {"none": None, "floor": 0.1, "add-k": 1, "exp": None}


def _set_mask(uint64_t mask):
    """Test hook: AND every hash with ``mask`` (0 puts every key on one probe chain)."""
    global _MASK
    _MASK = mask


cdef inline uint64_t _mix(uint64_t h) noexcept nogil:
    h ^= h >> 33
    h *= 0xff51afd7ed558ccdULL
    h ^= h >> 33
    h *= 0xc4ceb9fe1a85ec53ULL
    h ^= h >> 33
    return h


cdef struct Table:
    uint64_t *keys
    int64_t *vals      # -1: empty slot
    size_t cap         # power of two
    size_t size


cdef int _table_init(Table *t, size_t n) noexcept nogil:
    cdef size_t cap = 16
    while cap < 2 * n + 2:
        cap <<= 1
    t.keys = <uint64_t *> malloc(cap * sizeof(uint64_t))
    t.vals = <int64_t *> malloc(cap * sizeof(int64_t))
    if t.keys == NULL or t.vals == NULL:
        free(t.keys)
        free(t.vals)
        t.keys = NULL
        t.vals = NULL
        return -1
    memset(t.vals, 0xFF, cap * sizeof(int64_t))
    t.cap = cap
    t.size = 0
    return 0


cdef void _table_free(Table *t) noexcept nogil:
    free(t.keys)
    free(t.vals)
    t.keys = NULL
    t.vals = NULL


cdef inline int64_t _intern(Table *t, uint64_t key, int64_t *next_id, uint64_t mask) noexcept nogil:
    """Dense id of ``key``; a new key gets ``*next_id`` (then incremented).  Capacity is sized
    by the caller for all keys, so the table never fills."""
    cdef size_t m = t.cap - 1
    cdef size_t s = <size_t> (_mix(key) & mask) & m
    while True:
        if t.vals[s] < 0:
            t.keys[s] = key
            t.vals[s] = next_id[0]
            next_id[0] += 1
            t.size += 1
            return t.vals[s]
        if t.keys[s] == key:
            return t.vals[s]
        s = (s + 1) & m


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


def _prepare(seqs, int max_order):
    cdef Py_ssize_t n = len(seqs), i, p, k, L, total = 0
    cdef _Grams g = _Grams()
    g.n = n
    g.order = max_order
    lengths = np.empty(n, dtype=np.int64)
    cdef int64_t[::1] lens = lengths
    arrs = []
    for i in range(n):
        a = np.ascontiguousarray(seqs[i], dtype=np.int64)
        arrs.append(a)
        lens[i] = a.shape[0]
        total += a.shape[0]
    flat = np.concatenate(arrs) if n else np.zeros(0, dtype=np.int64)
    if flat.dtype != np.int64:
        flat = flat.astype(np.int64)
    cdef int64_t[::1] toks = flat
    g.lengths = lengths

    # offsets per order
    off = np.zeros((max_order, n + 1), dtype=np.int64)
    cdef int64_t[:, ::1] offv = off
    for k in range(max_order):
        for i in range(n):
            offv[k, i + 1] = offv[k, i] + (lens[i] - k if lens[i] > k else 0)
    U = [np.empty(offv[k, n], dtype=np.int64) for k in range(max_order)]
    Cs = [np.empty(offv[k, n], dtype=np.int64) for k in range(max_order)]
    nu = np.zeros((max_order, n), dtype=np.int64)

    cdef Table t1, t2
    cdef int64_t next_id = 0
    cdef uint64_t mask = _MASK
    cdef Py_ssize_t higher = 0
    for k in range(1, max_order):
        higher += offv[k, n]
    if _table_init(&t1, total) != 0:
        raise MemoryError()
    if _table_init(&t2, higher) != 0:
        _table_free(&t1)
        raise MemoryError()
    cdef int64_t[::1] prev, cur, dense
    cdef int64_t[:, ::1] nuv = nu
    cdef Py_ssize_t tpos
    G = [np.empty(offv[k, n], dtype=np.int64) for k in range(max_order)]
    try:
        # order 1: dense token ids, one per position (order-1 layout = the flat token layout)
        dense = G[0]
        with nogil:
            for p in range(total):
                dense[p] = _intern(&t1, <uint64_t> toks[p], &next_id, mask)
        # order k + 1: the exact pair (id of the k-gram at p, dense id of token p + k)
        for k in range(1, max_order):
            if next_id >= (<int64_t> 1 << 32):
                raise OverflowError("more than 2**32 distinct n-grams: cannot key them exactly")
            prev = G[k - 1]
            cur = G[k]
            with nogil:
                tpos = 0
                for i in range(n):
                    L = lens[i]
                    for p in range(L - k if L > k else 0):
                        cur[offv[k, i] + p] = _intern(
                            &t2, ((<uint64_t> prev[offv[k - 1, i] + p]) << 32) | <uint64_t> dense[tpos + p + k],
                            &next_id, mask)
                    tpos += L
    finally:
        _table_free(&t1)
        _table_free(&t2)
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


# ------------------------------------------------------------------------------- scoring

cdef double _LOG_ZERO = -9999999999.0


cdef double _score(const int64_t *row, int N, int method, double sv, bint eff, bint neumaier) noexcept nogil:
    """``bleu_from_stats(...)[0]`` for one row ``[c, r, m_1..m_N, t_1..t_N]`` (N <= 64)."""
    cdef int64_t sys_len = row[0]
    cdef int64_t ref_len = row[1]
    cdef double bp = 1.0
    cdef double prec[MAX_ORDER_C]
    cdef double corr, tot, smooth_mteval = 1.0
    cdef double f, x, t, comp
    cdef int n, eff_order = N
    cdef bint anymatch = False
    if sys_len < ref_len:
        if sys_len > 0:
            bp = exp(1.0 - (<double> ref_len) / (<double> sys_len))
        else:
            bp = 0.0
    for n in range(N):
        prec[n] = 0.0
        if row[2 + n] != 0:
            anymatch = True
    if not anymatch:
        return 0.0
    for n in range(N):
        corr = <double> row[2 + n]
        tot = <double> row[2 + N + n]
        if method == M_ADDK and n > 0:
            corr = corr + sv
            tot = tot + sv
        if tot == 0.0:
            break
        if eff:
            eff_order = n + 1
        if corr == 0.0:
            if method == M_EXP:
                smooth_mteval *= 2.0
                prec[n] = 100.0 / (smooth_mteval * tot)
            elif method == M_FLOOR:
                prec[n] = 100.0 * sv / tot
        else:
            prec[n] = 100.0 * corr / tot
    # sum([_log(p) for p in prec[:eff_order]]) as the running CPython sums it; prec[0] > 0
    # whenever any order matches, so the sum is a float from the first term on.
    f = log(prec[0])
    comp = 0.0
    for n in range(1, eff_order):
        if prec[n] == 0.0:
            f += _LOG_ZERO  # an int term: added without compensation in every version
            continue
        x = log(prec[n])
        if neumaier:
            t = f + x
            if fabs(f) >= fabs(x):
                comp += (f - t) + x
            else:
                comp += (x - t) + f
            f = t
        else:
            f += x
    if neumaier and comp != 0.0 and isfinite(comp):
        f += comp
    return bp * exp(f / eff_order)


cdef int _method_code(method) except -1:
    if method not in _METHODS:
        raise ValueError(f"unknown smooth_method {method!r}; choose one of: {', '.join(_METHODS)}")
    return _METHODS[method]


cdef double _smooth(method, smooth_value) except? -1.0:
    if smooth_value is None:
        smooth_value = _DEFAULTS[method]
    return 0.0 if smooth_value is None else float(smooth_value)


def _n_workers(workers):
    import os
    if workers is None or workers == 1:
        return 1
    if workers == -1 or workers == 0:
        return os.cpu_count() or 1
    if workers < 1:
        raise ValueError(f"workers must be >= 1 or -1 (all cores), got {workers}")
    return int(workers)


def _run(fn, Py_ssize_t n, workers):
    """Call ``fn(lo, hi)`` over row chunks [0, n), in ``workers`` threads (fn releases the GIL)."""
    w = _n_workers(workers)
    if w == 1 or n < 2:
        fn(0, n)
        return
    chunk = max(1, -(-n // (w * 4)))
    with ThreadPoolExecutor(max_workers=w) as ex:
        futs = [ex.submit(fn, lo, min(n, lo + chunk)) for lo in range(0, n, chunk)]
        for f in futs:
            f.result()


def sacre_scores(stats, int max_order, method, smooth_value, bint effective_order, workers=1):
    cdef int code = _method_code(method)
    cdef double sv = _smooth(method, smooth_value)
    if max_order > MAX_ORDER_C:
        from . import _batch_py
        return _batch_py.sacre_scores(stats, max_order, method, smooth_value, effective_order)
    arr = np.ascontiguousarray(stats, dtype=np.int64)
    if arr.ndim != 2 or arr.shape[1] != 2 + 2 * max_order:
        raise ValueError(f"stats must have shape (n, {2 + 2 * max_order}), got {arr.shape}")
    cdef int64_t[:, ::1] st = arr
    cdef Py_ssize_t n = arr.shape[0]
    out = np.empty(n, dtype=np.float64)
    cdef double[::1] o = out
    cdef bint neu = _NEUMAIER

    def work(Py_ssize_t lo, Py_ssize_t hi):
        cdef Py_ssize_t i
        with nogil:
            for i in range(lo, hi):
                o[i] = _score(&st[i, 0], max_order, code, sv, effective_order, neu)

    _run(work, n, workers)
    return out


# ------------------------------------------------------------------------------- self-BLEU

def self_stats(seqs, int max_order, workers=1):
    from ._batch_py import closest_other_lengths
    cdef _Grams g = _prepare(seqs, max_order)
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

    _run(work, n, workers)
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


def pairwise_stats(seqs, int max_order, workers=1):
    cdef _Grams g = _prepare(seqs, max_order)
    cdef _Ptrs P = _Ptrs(g)
    cdef Py_ssize_t n = g.n
    cdef int N = max_order
    out = np.zeros((n, n, 2 + 2 * N), dtype=np.int64)
    cdef int64_t[:, :, ::1] o = out
    cdef int64_t[:, ::1] off = g.off, nu = g.nu
    cdef int64_t[::1] lens = g.lengths

    def work(Py_ssize_t lo, Py_ssize_t hi):
        cdef Py_ssize_t i, j
        with nogil:
            for i in range(lo, hi):
                for j in range(n):
                    _pair_row(&o[i, j, 0], i, j, N, P.U, P.C, off, nu, lens)

    _run(work, n, workers)
    return out


def pairwise_scores(seqs, int max_order, method, smooth_value, bint effective_order, workers=1):
    cdef int code = _method_code(method)
    cdef double sv = _smooth(method, smooth_value)
    if max_order > MAX_ORDER_C:
        from . import _batch_py
        return _batch_py.pairwise_scores(seqs, max_order, method, smooth_value, effective_order)
    cdef _Grams g = _prepare(seqs, max_order)
    cdef _Ptrs P = _Ptrs(g)
    cdef Py_ssize_t n = g.n
    cdef int N = max_order
    out = np.zeros((n, n), dtype=np.float64)
    cdef double[:, ::1] o = out
    cdef int64_t[:, ::1] off = g.off, nu = g.nu
    cdef int64_t[::1] lens = g.lengths
    cdef bint neu = _NEUMAIER

    def work(Py_ssize_t lo, Py_ssize_t hi):
        cdef Py_ssize_t i, j
        cdef int64_t row[2 + 2 * MAX_ORDER_C]
        with nogil:
            for i in range(lo, hi):
                for j in range(n):
                    _pair_row(row, i, j, N, P.U, P.C, off, nu, lens)
                    o[i, j] = _score(row, N, code, sv, effective_order, neu)

    _run(work, n, workers)
    return out


# ------------------------------------------------------------------------------- NLTK-style

cdef double _fsum(const double *terms, int n) noexcept nogil:
    """Correctly rounded sum of finite ``terms`` (Shewchuk's exact partials, round half even
    at the end): the value ``math.fsum`` returns, since both are the exact sum rounded once."""
    cdef double partials[160]
    cdef int i, j, m = 0
    cdef double x, y, t, hi, lo, yr
    for k in range(n):
        x = terms[k]
        i = 0
        for j in range(m):
            y = partials[j]
            if fabs(x) < fabs(y):
                t = x
                x = y
                y = t
            hi = x + y
            lo = y - (hi - x)
            if lo != 0.0:
                partials[i] = lo
                i += 1
            x = hi
        m = i
        partials[m] = x
        m += 1
    hi = 0.0
    if m > 0:
        m -= 1
        hi = partials[m]
        lo = 0.0
        while m > 0:
            x = hi
            m -= 1
            y = partials[m]
            hi = x + y
            yr = hi - x
            lo = y - yr
            if lo != 0.0:
                break
        if m > 0 and ((lo < 0.0 and partials[m - 1] < 0.0) or (lo > 0.0 and partials[m - 1] > 0.0)):
            y = lo * 2.0
            x = hi + y
            yr = x - hi
            if y == yr:
                hi = x
    return hi


cdef double _nltk_score(const int64_t *row, int N, const double *w, int method, double eps,
                        double tiny) noexcept nogil:
    """NLTK 3.9/3.10 ``sentence_bleu`` (methods 0 and 1) from one statistics row; method 1 needs
    ``eps > 0`` (NLTK skips non-positive precisions, this does not)."""
    cdef double terms[MAX_ORDER_C]
    cdef double p, d, bp
    cdef int k
    cdef int64_t c = row[0], r = row[1]
    if row[2] == 0:
        return 0.0
    for k in range(N):
        d = <double> (row[2 + N + k] if row[2 + N + k] > 1 else 1)
        if row[2 + k] != 0:
            p = (<double> row[2 + k]) / d
        elif method == 1:
            p = eps / d
        else:
            p = tiny
        terms[k] = w[k] * log(p)
    if c > r:
        bp = 1.0
    else:
        bp = exp(1.0 - (<double> r) / (<double> c))
    return bp * exp(_fsum(terms, N))


def nltk_scores(stats, int max_order, weights, int method, double eps, workers=1):
    """NLTK-style (0-1) scores of statistics rows; methods 0 and 1 (``eps > 0``), one weight per
    order.  Called by ``rapidbleu.nltk._from_stats``, which checks those conditions and is the
    oracle this is tested against (``rapidbleu.batch._c_nltk_exact`` at import)."""
    if max_order > MAX_ORDER_C:
        raise ValueError(f"at most {MAX_ORDER_C} orders")
    arr = np.ascontiguousarray(stats, dtype=np.int64)
    if arr.ndim != 2 or arr.shape[1] != 2 + 2 * max_order:
        raise ValueError(f"stats must have shape (n, {2 + 2 * max_order}), got {arr.shape}")
    wa = np.ascontiguousarray(weights, dtype=np.float64)
    if wa.shape[0] != max_order:
        raise ValueError("one weight per order")
    cdef double[::1] wv = wa
    cdef int64_t[:, ::1] st = arr
    cdef Py_ssize_t n = arr.shape[0]
    out = np.zeros(n, dtype=np.float64)
    cdef double[::1] o = out
    cdef double tiny = sys.float_info.min

    def work(Py_ssize_t lo, Py_ssize_t hi):
        cdef Py_ssize_t i
        with nogil:
            for i in range(lo, hi):
                o[i] = _nltk_score(&st[i, 0], max_order, &wv[0], method, eps, tiny)

    if n:
        _run(work, n, workers)
    return out
