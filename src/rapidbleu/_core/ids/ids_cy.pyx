"""Compiled twin of ``rapidbleu._core.ids.ids_py``: token-id streams packed and cleaned in C.

Same functions, signatures and results as the twin (whose docstrings ``rapidbleu._core.backend``
copies here).  ``pack_int_lists`` reads each Python int in place under the GIL;
``clean_flat`` is one pass over the ids without the GIL.
"""

from ..._base.lazy import numpy as np  # imported on first use

from libc.stdint cimport int64_t
from cpython.object cimport PyObject

from ..c.pyapi cimport PySequence_Fast_GET_SIZE, PySequence_Fast_ITEMS, _is_int, rb_int64_of

from ..._base.errors import lengths_overrun_error, lengths_sum_error

#: Name of this backend, as reported by ``rapidbleu.backend``.
NAME = "cython"


def pack_int_lists(seqs, bint allow_none=False):
    """See ``rapidbleu._core.ids.ids_py.pack_int_lists``."""
    cdef Py_ssize_t n, i, j, m, total = 0
    cdef PyObject **items
    if type(seqs) is not list and type(seqs) is not tuple:
        return None
    # a private copy of the outer list: the allocations below may run a finalizer (garbage
    # collection) that changes the caller's list; inner lists are re-checked before reading.
    # (list(), not tuple(): CPython's list-to-tuple allocates the tuple, which may collect,
    # before it copies the items.)
    seqs = list(seqs)
    n = len(seqs)
    lens = np.empty(n, dtype=np.int64)
    cdef int64_t[::1] lv = lens
    for i in range(n):
        e = <object> PySequence_Fast_ITEMS(seqs)[i]
        if type(e) is list or type(e) is tuple:
            m = PySequence_Fast_GET_SIZE(e)
            lv[i] = m
            total += m
        elif allow_none and e is None:
            lv[i] = -1
        else:
            return None
    flat = np.empty(total, dtype=np.int64)
    cdef int64_t[::1] fv = flat
    cdef Py_ssize_t pos = 0
    for i in range(n):
        if lv[i] <= 0:
            continue
        e = <object> PySequence_Fast_ITEMS(seqs)[i]
        m = PySequence_Fast_GET_SIZE(e)
        if m != lv[i] or pos + m > total:
            return None  # changed meanwhile (another thread): let the checked path decide
        items = PySequence_Fast_ITEMS(e)
        for j in range(m):
            if not _is_int(items[j]) or not rb_int64_of(items[j], &fv[pos + j]):
                return None
        pos += m
    return flat, lens


cdef inline bint _in_sorted(const int64_t *a, Py_ssize_t n, int64_t v) noexcept nogil:
    """Whether ``v`` is in the sorted array ``a[0..n)`` (binary search)."""
    cdef Py_ssize_t lo = 0, hi = n, mid
    while lo < hi:
        mid = lo + (hi - lo) // 2
        if a[mid] < v:
            lo = mid + 1
        else:
            hi = mid
    return lo < n and a[lo] == v


def clean_flat(flat, lens, pad_id=None, eos_id=None, drop_ids=None):
    """See ``rapidbleu._core.ids.ids_py.clean_flat``."""
    def id_set(ids):  # a handful of ids: Python sets cost less than numpy's set routines here
        if ids is None:
            return set()
        return set(np.asarray(ids, dtype=np.int64).reshape(-1).tolist())

    eos_set = id_set(eos_id)
    special_set = id_set(pad_id) | eos_set | id_set(drop_ids)
    if not special_set:
        return flat, lens
    eos_arr = np.array(sorted(eos_set), dtype=np.int64)
    special_arr = np.array(sorted(special_set), dtype=np.int64)
    # the lengths bound every read and write below: a copy, checked, then used without the GIL
    # (the caller's array may change meanwhile); the ids are only compared, read in place
    cdef int64_t[::1] f = np.ascontiguousarray(flat, dtype=np.int64)
    cdef int64_t[::1] l = np.array(lens, dtype=np.int64)
    cdef int64_t[::1] eos = np.ascontiguousarray(eos_arr, dtype=np.int64)
    cdef int64_t[::1] special = np.ascontiguousarray(special_arr, dtype=np.int64)
    cdef Py_ssize_t n = l.shape[0], i, j, pos = 0, w = 0, m
    cdef Py_ssize_t n_eos = eos.shape[0], n_special = special.shape[0]
    cdef const int64_t *eos_p = &eos[0] if n_eos else NULL
    cdef const int64_t *special_p = &special[0]
    cdef int64_t v, lo_id = special[0], hi_id = special[n_special - 1]
    cdef bint seen_content
    for i in range(n):  # check first: the loop below trusts the lengths
        if l[i] > 0:
            if l[i] > f.shape[0]:  # each length bounded, so the sum cannot overflow
                raise lengths_overrun_error(f.shape[0])
            pos += l[i]
    if pos != f.shape[0]:
        raise lengths_sum_error(pos, f.shape[0])
    pos = 0
    out = np.empty(f.shape[0], dtype=np.int64)
    new_lens = np.empty(n, dtype=np.int64)
    cdef int64_t[::1] o = out
    cdef int64_t[::1] nl = new_lens
    with nogil:
        for i in range(n):
            m = l[i]
            if m < 0:
                nl[i] = -1  # no sequence
                continue
            nl[i] = w
            seen_content = False
            for j in range(pos, pos + m):
                v = f[j]
                # most ids lie outside [smallest, largest special id]: two compares
                if v < lo_id or v > hi_id or not _in_sorted(special_p, n_special, v):
                    o[w] = v  # content
                    w += 1
                    seen_content = True
                elif seen_content and n_eos and _in_sorted(eos_p, n_eos, v):
                    break  # the first eos after content, and everything after it, are dropped
            nl[i] = w - nl[i]
            pos += m
    return out[:w], new_lens
