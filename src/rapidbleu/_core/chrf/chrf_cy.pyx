"""Compiled twin of ``rapidbleu._core.chrf.chrf_py``: chrF and chrF++ statistics and scores in C.

Same functions, signatures and results as the Python twin (whose docstrings ``rapidbleu._core.backend``
copies here).  The Python layer lowercases (``str.lower``, exactly Python's, in a private copy)
and points C at each ``str``'s code points in place (PyUnicode kinds 1, 2 and 4); ``chrf.h``
counts the n-grams (exact ids from the tables of ``table.h``) and computes the scores without
the GIL, on contiguous chunks of segments, one chunk and one scratch space per thread
(``rapidbleu._core.threads.run_chunks``), so the result does not depend on ``workers``.  Compiler
directives are set in ``setup.py`` only.
"""

import numpy as np

from libc.math cimport pow
from libc.stdint cimport int64_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy
from cpython.list cimport PyList_GET_ITEM
from cpython.object cimport PyObject
from cpython.pythread cimport (NOWAIT_LOCK, PyThread_acquire_lock, PyThread_allocate_lock, PyThread_release_lock,
                               PyThread_type_lock)

from ..c.pyapi cimport rb_int64_of
from ..c.text cimport rb_set_text, rb_text

from . import chrf_py as _twin
from .chrf_py import (as_stats_matrix, best_reference, check_beta, check_orders, check_segments, check_sentences,
                       is_plain_beta, option_values, plain_arithmetic)
from ..threads import run_chunks
from ..._base.errors import no_reference_error

NAME = "cython"

cdef uint64_t _FULL_MASK = 0xFFFFFFFFFFFFFFFF

#: Fewest rows per thread when scoring statistics (a row takes well under a microsecond).
_MIN_SCORE_CHUNK = 1 << 14

cdef extern from "chrf.h" nogil:
    ctypedef struct rb_chrf_scratch:
        int64_t *rows  # one row per reference, after rb_chrf_segment
    enum:
        RB_CHRF_OK
        RB_CHRF_ENOMEM
        RB_CHRF_ETOOLONG
    void rb_chrf_scratch_init(rb_chrf_scratch *sc, int char_order, int word_order, int whitespace, uint64_t mask)
    void rb_chrf_scratch_set(rb_chrf_scratch *sc, int char_order, int word_order, int whitespace, uint64_t mask)
    void rb_chrf_scratch_free(rb_chrf_scratch *sc)
    int rb_chrf_segment(rb_chrf_scratch *sc, const rb_text *hyp, const rb_text *refs, size_t nrefs)
    const int64_t *rb_chrf_best(const int64_t *rows, size_t nrefs, size_t cols, double factor, double one_plus,
                                int eps_smoothing)
    int rb_chrf_rows(rb_chrf_scratch *sc, const rb_text *texts, const int64_t *off, size_t start, size_t end,
                     double factor, double one_plus, int eps_smoothing, int64_t *out)
    int rb_chrf_pairwise(rb_chrf_scratch *sc, const rb_text *texts, size_t n, size_t start, size_t end,
                         double factor, double one_plus, int eps_smoothing, int64_t *stats, double *scores)
    double rb_chrf_f_int(const int64_t *row, int order, double factor, double one_plus, int eps_smoothing)
    double rb_chrf_f_f32(const float *row, int order, double factor, double one_plus, int eps_smoothing,
                         int *is_f32)

cdef int _raise_rc(int rc) except -1:
    if rc == RB_CHRF_ENOMEM:
        raise MemoryError("rapidbleu: out of memory while counting chrF n-grams")
    if rc == RB_CHRF_ETOOLONG:
        raise ValueError("rapidbleu: a hypothesis and a reference together exceed 2**32 - 1 code points")
    return 0


def _factors(beta):
    """``(float(beta ** 2), float(1 + beta ** 2))``: the numbers sacreBLEU's formula multiplies
    by, as Python converts them."""
    factor = beta ** 2
    return float(factor), float(1 + factor)


cdef class _Texts:
    """Segments as C texts, one after the other: segment i's hypothesis is ``texts[off[i]]``
    and its references follow, up to ``texts[off[i + 1]]``.  ``_keep`` holds the private lists
    of (lowercased) strings the texts point into."""

    cdef rb_text *texts
    cdef int64_t *off
    cdef Py_ssize_t n_seg
    cdef int char_order, word_order, whitespace, eps_smoothing
    cdef double factor, one_plus
    cdef uint64_t mask
    cdef int64_t *out_rows
    cdef double *out_scores
    cdef object _keep

    def __cinit__(self):
        self.texts = NULL
        self.off = NULL

    def __dealloc__(self):
        free(self.texts)
        free(self.off)

    cdef int alloc(self, Py_ssize_t n_texts, Py_ssize_t n_seg) except -1:
        self.texts = <rb_text *> malloc(max(1, n_texts) * sizeof(rb_text))
        self.off = <int64_t *> malloc((n_seg + 1) * sizeof(int64_t))
        if self.texts == NULL or self.off == NULL:
            raise MemoryError()
        return 0

    cdef rb_chrf_scratch *new_scratch(self) except NULL:
        """A scratch space for these options (the caller frees it: rb_chrf_scratch_free, free)."""
        cdef rb_chrf_scratch *sc = <rb_chrf_scratch *> malloc(sizeof(rb_chrf_scratch))
        if sc == NULL:
            raise MemoryError()
        rb_chrf_scratch_init(sc, self.char_order, self.word_order, self.whitespace, self.mask)
        return sc

    def run_rows(self, Py_ssize_t start, Py_ssize_t end):
        """Rows start..end-1, with the GIL released; one scratch space per call."""
        cdef rb_chrf_scratch *sc = self.new_scratch()
        cdef int rc
        with nogil:
            rc = rb_chrf_rows(sc, self.texts, self.off, <size_t> start, <size_t> end, self.factor, self.one_plus,
                              self.eps_smoothing, self.out_rows)
            rb_chrf_scratch_free(sc)
            free(sc)
        _raise_rc(rc)

    def run_pairwise(self, Py_ssize_t start, Py_ssize_t end):
        """Pairwise rows start..end-1 (every sentence against every sentence)."""
        cdef rb_chrf_scratch *sc = self.new_scratch()
        cdef int rc
        with nogil:
            rc = rb_chrf_pairwise(sc, self.texts, <size_t> self.n_seg, <size_t> start, <size_t> end, self.factor,
                                  self.one_plus, self.eps_smoothing, self.out_rows, self.out_scores)
            rb_chrf_scratch_free(sc)
            free(sc)
        _raise_rc(rc)


cdef inline int _set(rb_text *t, PyObject *s, Py_ssize_t k, Py_ssize_t i) except -1:
    """Point t at str s: hypothesis i (k = -1), sentence i (k = -2) or references[k][i]."""
    cdef int rc = rb_set_text(t, s)
    if rc == -1:  # (the checks before make this unreachable; kept for any later caller)
        what = "hypotheses" if k == -1 else "sentences" if k == -2 else f"references[{k}]"
        raise TypeError(f"{what}[{i}] is a {type(<object> s).__name__}, expected str")
    if rc != 0:
        return -1  # PyUnicode_READY set the error
    return 0


cdef _Texts _options(_Texts b, int char_order, int word_order, beta, whitespace, eps_smoothing, uint64_t mask):
    b.char_order = char_order
    b.word_order = word_order
    b.whitespace = bool(whitespace)
    b.eps_smoothing = bool(eps_smoothing)
    b.factor, b.one_plus = _factors(beta)
    b.mask = mask
    return b


def _lowered(list lines, bint lowercase):
    """``lines`` (a private, checked list) lowercased if asked (``None`` kept).  Held by the
    batch, nobody else can change it, so it keeps every str the C texts point into alive while
    the kernel runs."""
    if not lowercase:
        return lines
    return [None if x is None else x.lower() for x in lines]


def _chrf_stats(hypotheses, ref_streams, char_order, word_order, beta, lowercase, whitespace, eps_smoothing, workers,
                uint64_t mask):
    cdef int co, wo
    co, wo = check_orders(char_order, word_order)
    beta = check_beta(beta)
    checked_hyps, checked_streams = check_segments(hypotheses, ref_streams)
    cdef list hyps = _lowered(checked_hyps, lowercase)
    cdef list streams = [_lowered(s, lowercase) for s in checked_streams]
    cdef Py_ssize_t n = len(hyps), n_streams = len(streams), i, k, t
    cdef _Texts b = _options(_Texts(), co, wo, beta, whitespace, eps_smoothing, mask)
    b.alloc(n * (1 + n_streams), n)
    b.n_seg = n
    b._keep = (hyps, streams)
    cdef PyObject *x
    t = 0
    b.off[0] = 0
    for i in range(n):
        _set(&b.texts[t], PyList_GET_ITEM(hyps, i), -1, i)
        t += 1
        for k in range(n_streams):
            x = PyList_GET_ITEM(<list> streams[k], i)
            if x != <PyObject *> None:
                _set(&b.texts[t], x, k, i)
                t += 1
        if t - 1 == b.off[i]:
            raise no_reference_error(i)
        b.off[i + 1] = t
    out = np.zeros((n, 3 * (co + wo)), dtype=np.int64)
    cdef int64_t[:, ::1] ov = out
    if n and co + wo:
        b.out_rows = &ov[0, 0]
        run_chunks(b.run_rows, n, workers)
    return out


def _chrf_stats_numpy_beta(hypotheses, ref_streams, char_order, word_order, beta, lowercase, whitespace,
                           eps_smoothing, workers, uint64_t mask):
    """``chrf_stats`` for a beta that is not a Python int or float (``is_plain_beta``) and several
    reference streams: the rows against each stream come from C (one stream at a time, a missing
    reference counted against ""), the best reference is chosen by the Python formula in beta's
    own arithmetic (``chrf_py.best_reference``), as sacreBLEU chooses it."""
    co, wo = check_orders(char_order, word_order)
    check_beta(beta)
    hyps, streams = check_segments(hypotheses, ref_streams)
    present = [[s[i] is not None for s in streams] for i in range(len(hyps))]
    for i, p in enumerate(present):
        if not any(p):
            raise no_reference_error(i)
    per_stream = [_chrf_stats(hyps, [["" if r is None else r for r in s]], co, wo, 2, lowercase, whitespace,
                              eps_smoothing, workers, mask).tolist() for s in streams]
    out = np.zeros((len(hyps), 3 * (co + wo)), dtype=np.int64)
    for i, p in enumerate(present):
        rows = [per_stream[k][i] for k in range(len(streams)) if p[k]]
        out[i] = rows[best_reference(rows, co + wo, beta, eps_smoothing)]
    return out


def _stats_any_beta(hypotheses, ref_streams, char_order, word_order, beta, lowercase, whitespace, eps_smoothing,
                    workers, uint64_t mask):
    if is_plain_beta(beta) or len(ref_streams) < 2:  # (one stream: beta chooses nothing)
        return _chrf_stats(hypotheses, ref_streams, char_order, word_order, beta, lowercase, whitespace,
                           eps_smoothing, workers, mask)
    return _chrf_stats_numpy_beta(hypotheses, ref_streams, char_order, word_order, beta, lowercase, whitespace,
                                  eps_smoothing, workers, mask)


def chrf_stats(hypotheses, ref_streams, options, workers=1):
    return _stats_any_beta(hypotheses, ref_streams, *option_values(options), workers, _FULL_MASK)


def _chrf_stats_masked(hypotheses, ref_streams, options, workers, mask):
    """``chrf_stats`` with ``mask`` ANDed into every hash (the tests set 0: every key on one
    probe chain, to show that collisions never change a count)."""
    return _stats_any_beta(hypotheses, ref_streams, *option_values(options), workers, mask)


def chrf_scores(sums, options, dtype=None, workers=1):
    cdef int co, wo
    char_order, word_order, beta, _, _, eps_smoothing = option_values(options)
    co, wo = check_orders(char_order, word_order)
    beta = check_beta(beta)
    if not plain_arithmetic(char_order, word_order, beta, eps_smoothing):  # numpy's (or a Fraction's)
        return _twin.chrf_scores(sums, options, dtype, workers)
    arr = as_stats_matrix(sums, co, wo, dtype)
    if arr.dtype == object:  # Python ints beyond 2**53 - 1: sacreBLEU's exact divisions, in Python
        return _twin.chrf_scores(arr, options, dtype, workers)
    cdef double factor, one_plus
    factor, one_plus = _factors(beta)
    cdef int order = co + wo
    cdef int eps = bool(eps_smoothing)
    cdef bint f32 = arr.dtype == np.float32
    arr = np.ascontiguousarray(arr)
    cdef Py_ssize_t m = arr.shape[0]
    out = np.empty(m, dtype=np.float64)
    cdef double[::1] o = out
    kinds = np.ones(m, dtype=np.intc)  # 1: the score is a numpy float32 (float32 rows)
    cdef int[::1] kv = kinds
    cdef int64_t[:, ::1] si
    cdef float[:, ::1] sf
    if f32:
        sf = arr
    else:
        si = arr

    def run(Py_ssize_t lo, Py_ssize_t hi):
        cdef Py_ssize_t i
        with nogil:
            if f32:
                for i in range(lo, hi):
                    o[i] = rb_chrf_f_f32(&sf[i, 0], order, factor, one_plus, eps, &kv[i])
            else:
                for i in range(lo, hi):
                    o[i] = rb_chrf_f_int(&si[i, 0], order, factor, one_plus, eps)

    run_chunks(run, m, workers, _MIN_SCORE_CHUNK)
    return out.astype(np.float32) if f32 and kinds.all() else out


cdef _Texts _sentences(sentences, int co, int wo, beta, lowercase, whitespace, eps_smoothing, uint64_t mask):
    cdef list sents = _lowered(check_sentences(sentences), lowercase)
    cdef Py_ssize_t n = len(sents), i
    cdef _Texts b = _options(_Texts(), co, wo, beta, whitespace, eps_smoothing, mask)
    b.alloc(n, n)
    b.n_seg = n
    b._keep = sents
    for i in range(n):
        _set(&b.texts[i], PyList_GET_ITEM(sents, i), -2, i)
    return b


def _pairwise(sentences, char_order, word_order, beta, lowercase, whitespace, eps_smoothing, workers, bint scores,
              uint64_t mask):
    cdef int co, wo
    co, wo = check_orders(char_order, word_order)
    beta = check_beta(beta)
    cdef _Texts b = _sentences(sentences, co, wo, beta, lowercase, whitespace, eps_smoothing, mask)
    cdef Py_ssize_t n = b.n_seg
    cdef int64_t[:, :, ::1] sv
    cdef double[:, ::1] fv
    if scores:
        out = np.zeros((n, n), dtype=np.float64)
        fv = out
        b.out_rows = NULL
        b.out_scores = &fv[0, 0] if n else NULL
    else:
        out = np.zeros((n, n, 3 * (co + wo)), dtype=np.int64)
        sv = out
        b.out_rows = &sv[0, 0, 0] if n else NULL
        b.out_scores = NULL
    if n:
        run_chunks(b.run_pairwise, n, workers, 1)
    return out


def chrf_pairwise_stats(sentences, options, workers=1):
    char_order, word_order, _, lowercase, whitespace, _ = option_values(options)
    return _pairwise(sentences, char_order, word_order, 2, lowercase, whitespace, False, workers, False, _FULL_MASK)


def chrf_pairwise_scores(sentences, options, workers=1):
    char_order, word_order, beta, lowercase, whitespace, eps_smoothing = option_values(options)
    co, wo = check_orders(char_order, word_order)
    if not is_plain_beta(check_beta(beta)):  # the statistics from C, the scores by the Python formula
        stats = _pairwise(sentences, co, wo, 2, lowercase, whitespace, False, workers, False, _FULL_MASK)
        n = stats.shape[0]
        return _twin.chrf_scores(stats.reshape(n * n, 3 * (co + wo)), options, None, workers).reshape(n, n)
    return _pairwise(sentences, char_order, word_order, beta, lowercase, whitespace, eps_smoothing, workers, True,
                     _FULL_MASK)


include "chrf_one.pxi"
