"""Compiled twin of ``rapidbleu._core.ter_py``: the same functions, signatures and results.

Segments are tokenized and checked in Python (``ter_py.segment_words``: tercom's normalizer is
a few regular-expression passes, a small part of TER's cost), every word interned to an int32
id as its segment is read, with the GIL held (one dict per call), and the shift search and beamed
edit distance (``ter.h``) run in C with the GIL released, over chunks of segments
(``rapidbleu._core.threads.run_chunks``).  Each thread owns its work area; inputs and outputs are
arrays this call made.  Documentation is the twin's.
"""

from array import array

import numpy as np

from libc.stdint cimport int32_t, int64_t

from . import ter_py as _twin
from .ter_py import BEAM_WIDTH, MAX_SHIFT_CANDIDATES, MAX_SHIFT_DIST, MAX_SHIFT_SIZE, MAX_WORDS
from .ter_py import check_sums, check_words, segment_words
from .threads import run_chunks

NAME = "cython"

cdef extern from "ter.h" nogil:
    ctypedef struct rb_ter_work:
        pass
    int RB_TER_OK
    int RB_TER_ENOMEM
    int RB_TER_MAX_SHIFT_SIZE
    int RB_TER_MAX_SHIFT_DIST
    int RB_TER_BEAM_WIDTH
    int RB_TER_MAX_CANDIDATES
    int RB_TER_INF
    void rb_ter_work_init(rb_ter_work *w)
    void rb_ter_work_free(rb_ter_work *w)
    int rb_ter_pair(rb_ter_work *w, const int32_t *hyp, int64_t n, const int32_t *ref, int64_t m, int64_t *edits)
    int rb_ter_segments(const int32_t *hyp_ids, const int64_t *hyp_off, const int32_t *ref_ids,
                        const int64_t *ref_off, const int64_t *seg_off, const int64_t *order,
                        int64_t start, int64_t end, double *out)

# The C limits are the Python twin's (one set of rules); costs fit in int32 below MAX_WORDS.
assert (RB_TER_MAX_SHIFT_SIZE, RB_TER_MAX_SHIFT_DIST, RB_TER_BEAM_WIDTH, RB_TER_MAX_CANDIDATES) == (
    MAX_SHIFT_SIZE, MAX_SHIFT_DIST, BEAM_WIDTH, MAX_SHIFT_CANDIDATES)
assert 2 * MAX_WORDS + MAX_SHIFT_CANDIDATES < RB_TER_INF

#: Fewest segments per thread: a segment costs from microseconds to milliseconds.
_MIN_TER_CHUNK = 16


cdef int _raise_rc(int rc) except -1:
    if rc == RB_TER_ENOMEM:
        raise MemoryError("rapidbleu: out of memory in TER's edit distance")
    if rc != RB_TER_OK:
        raise RuntimeError(f"rapidbleu: TER's edit distance failed (code {rc}); please report this")
    return 0


def _spread(Py_ssize_t n):
    """A fixed permutation of range(n) that spreads neighbouring segments over the chunks (a
    document's long segments sit together; contiguous chunks of them would load one thread)."""
    from math import gcd

    stride = max(1, int(n * 0.6180339887))
    while gcd(stride, n) != 1:
        stride += 1
    return (np.arange(n, dtype=np.int64) * stride) % max(n, 1)


cdef class _Segments:
    """The interned corpus and its output; ``run(start, end)`` computes rows
    ``order[start:end]`` with the GIL released."""

    cdef object _keep
    cdef const int32_t *hyp_ids
    cdef const int64_t *hyp_off
    cdef const int32_t *ref_ids
    cdef const int64_t *ref_off
    cdef const int64_t *seg_off
    cdef const int64_t *order
    cdef double *out

    def run(self, Py_ssize_t start, Py_ssize_t end):
        cdef int rc
        with nogil:
            rc = rb_ter_segments(self.hyp_ids, self.hyp_off, self.ref_ids, self.ref_off, self.seg_off, self.order,
                                 start, end, self.out)
        _raise_rc(rc)


cdef const int32_t *_i32(object a):
    cdef const int32_t[::1] v = a
    return &v[0] if v.shape[0] else NULL


cdef const int64_t *_i64(object a):
    cdef const int64_t[::1] v = a
    return &v[0] if v.shape[0] else NULL


def ter_stats(hypotheses, ref_streams, normalized=False, no_punct=False, asian_support=False, case_sensitive=False,
              workers=1):
    # Each segment's words become int32 ids as soon as it is tokenized (only the vocabulary
    # keeps strings); every segment is checked before the kernel runs.
    vocab = {}
    intern = vocab.setdefault
    hyp_ids, ref_ids = array("i"), array("i")
    hyp_len, ref_len, n_refs = array("q"), array("q"), array("q")
    for words, refs in segment_words(hypotheses, ref_streams, normalized, no_punct, asian_support, case_sensitive):
        hyp_ids.extend([intern(w, len(vocab)) for w in words])
        hyp_len.append(len(words))
        for ref_words in refs:
            ref_ids.extend([intern(w, len(vocab)) for w in ref_words])
            ref_len.append(len(ref_words))
        n_refs.append(len(refs))
    cdef Py_ssize_t n = len(hyp_len)
    hyp_off = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.frombuffer(hyp_len, dtype=np.int64), out=hyp_off[1:])
    seg_off = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.frombuffer(n_refs, dtype=np.int64), out=seg_off[1:])
    ref_off = np.zeros(len(ref_len) + 1, dtype=np.int64)
    np.cumsum(np.frombuffer(ref_len, dtype=np.int64), out=ref_off[1:])
    hyp_arr = np.frombuffer(hyp_ids, dtype=np.int32)
    ref_arr = np.frombuffer(ref_ids, dtype=np.int32)
    order = _spread(n)
    out = np.empty((n, 2), dtype=np.float64)
    cdef double[:, ::1] out_v = out
    cdef _Segments seg = _Segments()
    seg._keep = (hyp_ids, ref_ids, hyp_arr, ref_arr, hyp_off, ref_off, seg_off, order, out)
    seg.hyp_ids = _i32(hyp_arr)
    seg.hyp_off = _i64(hyp_off)
    seg.ref_ids = _i32(ref_arr)
    seg.ref_off = _i64(ref_off)
    seg.seg_off = _i64(seg_off)
    seg.order = _i64(order)
    if n:
        seg.out = &out_v[0, 0]
        run_chunks(seg.run, n, workers, _MIN_TER_CHUNK)
    return out


def translation_edit_rate(words_hyp, words_ref):
    check_words(len(words_hyp), "the hypothesis")
    check_words(len(words_ref), "the reference")
    vocab = {}
    intern = vocab.setdefault
    hyp = np.array([intern(w, len(vocab)) for w in words_hyp], dtype=np.int32)
    ref = np.array([intern(w, len(vocab)) for w in words_ref], dtype=np.int32)
    cdef rb_ter_work work
    cdef int64_t edits = 0
    cdef int rc
    cdef const int32_t *hp = _i32(hyp)
    cdef const int32_t *rp = _i32(ref)
    cdef int64_t n = len(hyp), m = len(ref)
    rb_ter_work_init(&work)
    with nogil:
        rc = rb_ter_pair(&work, hp, n, rp, m, &edits)
        rb_ter_work_free(&work)
    _raise_rc(rc)
    return int(edits), int(m)


def ter_scores(sums, dtype=None):
    arr = check_sums(sums, dtype)
    if arr.dtype == object:  # Python ints beyond 2**53: sacreBLEU's exact divisions, in Python
        return _twin.ter_scores(arr, dtype)
    arr = np.ascontiguousarray(arr)
    cdef Py_ssize_t i, m = arr.shape[0]
    out = np.empty(m, dtype=np.float64)
    cdef double[::1] o = out
    cdef const float[:, ::1] f32
    cdef const double[:, ::1] f64
    cdef float e32, r32
    cdef double e, r
    if m == 0:
        return out
    cdef bint every_f32 = True  # (a row without reference words scores a Python float)
    if arr.dtype == np.float32:
        f32 = arr
        with nogil:
            for i in range(m):
                e32 = f32[i, 0]
                r32 = f32[i, 1]
                if r32 > 0:
                    o[i] = <double> (<float> 100.0 * (e32 / r32))
                else:
                    o[i] = 100.0 if e32 > 0 else 0.0
                    every_f32 = False
        return out.astype(np.float32) if every_f32 else out
    f64 = np.ascontiguousarray(arr, dtype=np.float64)  # int64 values are integers below 2**53
    with nogil:
        for i in range(m):
            e = f64[i, 0]
            r = f64[i, 1]
            if r > 0:
                o[i] = 100.0 * (e / r)
            else:
                o[i] = 100.0 if e > 0 else 0.0
    return out
