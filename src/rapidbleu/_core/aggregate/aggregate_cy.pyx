"""Compiled twin of ``rapidbleu._core.aggregate.aggregate_py``: reference-aggregated n-gram statistics in C.

Same functions, signatures and results as the Python twin (whose docstrings
``rapidbleu._core.backend`` copies here).  The inputs are copied into arrays the call owns;
``aggregate.h`` builds the table of one order at a time from the pseudo-references (without
the GIL), then counts that order of the hypotheses on contiguous chunks, one chunk and one scratch space per thread
(``rapidbleu._core.threads.run_chunks``), so the result does not depend on ``workers``.
Compiler directives are set in ``setup.py`` only.
"""

import numpy as np

from libc.stdint cimport int64_t

from ..threads import run_chunks

NAME = "cython"

cdef extern from "aggregate.h" nogil:
    ctypedef struct rb_agg_table:
        double length
    enum:
        RB_AGG_OK
        RB_AGG_ENOMEM
    int rb_agg_build(rb_agg_table *t, const int64_t *units, const int64_t *off, int64_t m, const double *v,
                     double d, int k)
    void rb_agg_table_free(rb_agg_table *t)
    int rb_agg_rows(const rb_agg_table *t, int k, int max_order, const int64_t *ref_units, const int64_t *units,
                    const int64_t *off, int64_t start, int64_t end, double *out)
    double rb_agg_chrf_f(const double *row, int order, double factor, double one_plus, int eps_smoothing)


cdef class _Tables:
    """The table of the order being counted and the arrays it reads (owned by the call)."""
    cdef rb_agg_table table
    cdef bint built
    cdef int k, max_order
    cdef const int64_t[::1] ref_units
    cdef const int64_t[::1] hyp_units
    cdef const int64_t[::1] hyp_off
    cdef double[:, ::1] out

    def __cinit__(self):
        self.built = False

    def __dealloc__(self):
        if self.built:
            rb_agg_table_free(&self.table)

    def run(self, Py_ssize_t start, Py_ssize_t end):
        cdef int rc
        with nogil:
            rc = rb_agg_rows(&self.table, self.k, self.max_order, &self.ref_units[0], &self.hyp_units[0],
                             &self.hyp_off[0], start, end, &self.out[0, 0])
        if rc == RB_AGG_ENOMEM:
            raise MemoryError("rapidbleu: out of memory while counting a hypothesis's n-grams")


def ngram_stats(hyp_units, hyp_offsets, ref_units, ref_offsets, ref_weights, divisor, max_order, workers=1):
    cdef _Tables t = _Tables()
    # copies the call owns (one unit of padding keeps &a[0] valid for empty inputs)
    cdef const int64_t[::1] ru = np.append(np.asarray(ref_units, dtype=np.int64), 0)
    cdef const int64_t[::1] roff = np.array(ref_offsets, dtype=np.int64)
    cdef const double[::1] v = np.array(ref_weights, dtype=np.float64)
    cdef double d = float(divisor)
    cdef int order = int(max_order), k, rc = RB_AGG_OK
    cdef int64_t m = roff.shape[0] - 1
    t.ref_units = ru
    t.hyp_units = np.append(np.asarray(hyp_units, dtype=np.int64), 0)
    t.hyp_off = np.array(hyp_offsets, dtype=np.int64)
    t.max_order = order
    cdef Py_ssize_t n = t.hyp_off.shape[0] - 1
    out = np.zeros((n, 3 * order), dtype=np.float64)
    if n == 0:
        return out
    t.out = out
    for k in range(1, order + 1):
        with nogil:
            rc = rb_agg_build(&t.table, &ru[0], &roff[0], m, &v[0], d, k)
        if rc != RB_AGG_OK:
            raise MemoryError("rapidbleu: out of memory while aggregating the references' n-grams")
        t.built = True
        t.k = k
        run_chunks(t.run, n, workers)
        t.built = False
        rb_agg_table_free(&t.table)
    return out


def chrf_row_scores(rows, beta, eps_smoothing, workers=1):
    cdef const double[:, ::1] r = np.array(rows, dtype=np.float64, order="C", ndmin=2)
    cdef Py_ssize_t n = r.shape[0], i
    cdef int order = <int>(r.shape[1] // 3), eps = bool(eps_smoothing)
    cdef double factor = float(beta ** 2), one_plus = float(1 + beta ** 2)
    out = np.zeros(n, dtype=np.float64)
    cdef double[::1] o = out
    if n == 0 or order == 0:
        return out
    with nogil:
        for i in range(n):
            o[i] = rb_agg_chrf_f(&r[i, 0], order, factor, one_plus, eps)
    return out
