"""Compiled BLEU sufficient statistics: the same functions as ``rapidbleu._stats_py``, in C.

The Python layer only collects pointers: each ``str``'s code points are read in place
(PyUnicode kinds 1, 2 and 4), token-id sequences are packed into one int64 buffer.  The
counting (tokenization, exact n-gram ids, clipping) runs in ``_ngram.h`` without the GIL, on
contiguous chunks of segments, one chunk and one scratch space per thread, so the result does
not depend on the number of threads.  Compiler directives are set in ``setup.py`` only.
"""

import os
from concurrent.futures import ThreadPoolExecutor
from itertools import chain
from operator import methodcaller

import numpy as np

from libc.stdint cimport int64_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memset
from cpython.list cimport PyList_GET_ITEM
from cpython.object cimport PyObject
from cpython.unicode cimport PyUnicode_GET_LENGTH

from ._stats import n_columns
from .tokenizers import get_tokenizer

cdef extern from *:
    object PyUnicode_FromKindAndData(int kind, const void *buffer, Py_ssize_t size)

cdef extern from "_ngram.h" nogil:
    ctypedef struct rb_text:
        const void *data
        size_t len
        int kind
    ctypedef struct rb_scratch:
        pass
    enum:
        RB_TOK_NONE
        RB_TOK_13A
        RB_TOK_CHAR
        RB_TOK_ZH
        RB_TOK_INTL
        RB_KIND_INT64
        RB_OK
        RB_ENOMEM
        RB_ETOOLONG
    void rb_scratch_init(rb_scratch *sc, int order, int tokenizer, uint64_t mask)
    void rb_scratch_free(rb_scratch *sc)
    int rb_rows(rb_scratch *sc, const rb_text *texts, size_t n_hyp, const int64_t *ref_off,
                size_t start, size_t end, int64_t *out)
    ptrdiff_t rb_debug_tokenize(rb_scratch *sc, const rb_text *t, uint32_t *out)
    int rb_is_space(uint32_t c)
    int rb_is_zh(uint32_t c)
    unsigned rb_u_class(uint32_t c)

cdef extern from *:
    """
    /* Point t at the code points of str s (subclasses included, their data is the str's own).
     * Returns 0, -1 if s is not a str, -2 with a Python error set. */
    static int rb_set_text(rb_text *t, PyObject *s) {
        if (!PyUnicode_Check(s)) return -1;
    #if PY_VERSION_HEX < 0x030C0000
        if (PyUnicode_READY(s) < 0) return -2; /* legacy strings, before Python 3.12 */
    #endif
        t->data = PyUnicode_DATA(s);
        t->len = (size_t)PyUnicode_GET_LENGTH(s);
        t->kind = (int)PyUnicode_KIND(s);
        return 0;
    }
    """
    int rb_set_text(rb_text *t, PyObject *s)

#: Name of this backend, as reported by ``rapidbleu.backend``.
NAME = "cython"

#: Tokenizers implemented in C; any other registered tokenizer runs in Python first.
_C_TOKENIZERS = {"none": RB_TOK_NONE, "13a": RB_TOK_13A, "char": RB_TOK_CHAR, "zh": RB_TOK_ZH,
                 "intl": RB_TOK_INTL}

#: Fewest segments per thread: below this, starting threads costs more than it saves.
_MIN_CHUNK = 64

cdef uint64_t _FULL_MASK = 0xFFFFFFFFFFFFFFFF


cdef class _Batch:
    """A batch as C arrays: texts (hypotheses, then all references), reference offsets and
    the output matrix.  ``_keep`` holds every object whose memory the texts point into."""

    cdef rb_text *texts
    cdef int64_t *ref_off
    cdef size_t n_hyp
    cdef int order
    cdef int tokenizer
    cdef uint64_t mask
    cdef int64_t[:, ::1] out
    cdef object _keep

    def __cinit__(self):
        self.texts = NULL
        self.ref_off = NULL

    def __dealloc__(self):
        free(self.texts)
        free(self.ref_off)

    def run(self, Py_ssize_t start, Py_ssize_t end):
        """Fill rows start..end-1 (with the GIL released); one scratch space per call."""
        cdef rb_scratch *sc = <rb_scratch *> malloc(sizeof(rb_scratch))
        cdef int rc
        cdef int64_t *out = &self.out[0, 0]
        cdef const rb_text *texts = self.texts
        cdef const int64_t *ref_off = self.ref_off
        cdef size_t n_hyp = self.n_hyp
        if sc == NULL:
            raise MemoryError()
        rb_scratch_init(sc, self.order, self.tokenizer, self.mask)
        with nogil:
            rc = rb_rows(sc, texts, n_hyp, ref_off, <size_t> start, <size_t> end, out)
            rb_scratch_free(sc)
            free(sc)
        if rc == RB_ENOMEM:
            raise MemoryError("rapidbleu: out of memory while counting n-grams")
        if rc == RB_ETOOLONG:
            raise ValueError("rapidbleu: a hypothesis and reference together exceed 2**32 - 1 code points")


def _resolve_workers(workers):
    """Threads to use: 1 = serial, -1 = os.cpu_count(), k >= 1 = k."""
    if isinstance(workers, bool) or not isinstance(workers, (int, np.integer)):
        raise TypeError(f"workers must be an int (1, -1 or k >= 1), got {type(workers).__name__}")
    workers = int(workers)
    if workers == -1:
        return os.cpu_count() or 1
    if workers < 1:
        raise ValueError(f"workers must be -1 (all cores) or >= 1, got {workers}")
    return workers


def _execute(_Batch batch, Py_ssize_t n, workers):
    """Run the batch on contiguous chunks, one per thread; same rows for any thread count."""
    cdef Py_ssize_t w = min(_resolve_workers(workers), max(1, n // _MIN_CHUNK))
    if n == 0:
        return
    if w <= 1:
        batch.run(0, n)
        return
    bounds = [n * k // w for k in range(w + 1)]
    with ThreadPoolExecutor(max_workers=w) as pool:
        futures = [pool.submit(batch.run, bounds[k], bounds[k + 1]) for k in range(w)]
        for f in futures:
            f.result()


cdef inline int _set_str(rb_text *t, PyObject *s) except -1:
    cdef int rc = rb_set_text(t, s)
    if rc == -1:
        raise TypeError(f"expected str, got {type(<object> s).__name__}")
    if rc != 0:
        return -1  # -2: PyUnicode_READY set the error, which propagates
    return 0


cdef _Batch _new_batch(Py_ssize_t n, Py_ssize_t n_texts, int order, int tokenizer, uint64_t mask):
    if order < 1:
        raise ValueError(f"max_ngram_order must be >= 1, got {order}")
    cdef _Batch b = _Batch()
    b.texts = <rb_text *> malloc(max(1, n_texts) * sizeof(rb_text))
    b.ref_off = <int64_t *> malloc((n + 1) * sizeof(int64_t))
    if b.texts == NULL or b.ref_off == NULL:
        raise MemoryError()
    b.n_hyp = <size_t> n
    b.order = order
    b.tokenizer = tokenizer
    b.mask = mask
    return b


def _prepared(lines, prep):
    """A private list of ``lines`` (``prep`` applied, ``None`` kept)."""
    if prep is None:
        return list(lines)
    return [None if x is None else prep(x) for x in lines]


def _string_stats(hypotheses, references, int max_ngram_order, tokenizer, bint lowercase,
                  workers, uint64_t mask):
    cdef Py_ssize_t n, i, k, n_streams, t
    cdef int tok
    if tokenizer in _C_TOKENIZERS:
        tok = _C_TOKENIZERS[tokenizer]
        prep = methodcaller("lower") if lowercase else None  # the method, as sacreBLEU calls it
    else:
        # no C fast path: sacreBLEU's preprocessing in Python, then split in C
        tok = RB_TOK_NONE
        py_tok = get_tokenizer(tokenizer)
        prep = (lambda s: py_tok(s.lower().rstrip())) if lowercase else (lambda s: py_tok(s.rstrip()))
    # Private lists (copies of the top level, or of the preprocessed strings): nobody else can
    # change them, so holding them in b._keep keeps every str the texts point into alive while
    # the counting runs without the GIL.
    cdef list hyps = _prepared(hypotheses, prep)
    cdef list streams = [_prepared(s, prep) for s in references]
    n = len(hyps)
    n_streams = len(streams)
    for k in range(n_streams):
        if len(<list> streams[k]) != n:
            raise ValueError(f"{n} hypotheses but reference stream {k} has {len(streams[k])} lines")
    cdef _Batch b = _new_batch(n, n + n * n_streams, max_ngram_order, tok, mask)
    b._keep = (hyps, streams)
    cdef PyObject **cols = <PyObject **> malloc(max(1, n_streams) * sizeof(PyObject *))
    if cols == NULL:
        raise MemoryError()
    cdef PyObject *x
    try:
        for k in range(n_streams):
            cols[k] = <PyObject *> streams[k]
        for i in range(n):
            _set_str(&b.texts[i], PyList_GET_ITEM(hyps, i))
        t = n
        b.ref_off[0] = 0
        for i in range(n):
            for k in range(n_streams):
                x = PyList_GET_ITEM(<object> cols[k], i)
                if x != <PyObject *> None:
                    _set_str(&b.texts[t], x)
                    t += 1
            if t - n == b.ref_off[i]:
                raise ValueError(f"segment {i} has no reference (every stream is None there)")
            b.ref_off[i + 1] = t - n
    finally:
        free(cols)
    out = np.zeros((n, n_columns(max_ngram_order)), dtype=np.int64)
    if n:
        b.out = out
        _execute(b, n, workers)
    return out


def _as_int64_flat(seqs):
    """One contiguous int64 buffer with all token ids, and the length of each sequence."""
    lens = np.fromiter((len(s) for s in seqs), dtype=np.int64, count=len(seqs))
    total = int(lens.sum())
    if all(isinstance(s, np.ndarray) for s in seqs):
        for s in seqs:
            if s.ndim != 1:
                raise ValueError(f"token-id arrays must be 1-D, got shape {s.shape}")
        flat = np.concatenate([s.astype(np.int64, copy=False) for s in seqs]) if seqs else np.empty(0, np.int64)
    else:
        for s in seqs:
            if isinstance(s, np.ndarray) and s.ndim != 1:
                raise ValueError(f"token-id arrays must be 1-D, got shape {s.shape}")
        flat = np.fromiter(chain.from_iterable(seqs), dtype=np.int64, count=total)
    return np.ascontiguousarray(flat, dtype=np.int64), lens


def _token_stats(hypotheses, references, int max_ngram_order, workers, uint64_t mask):
    cdef Py_ssize_t n = len(hypotheses), i, k, n_texts
    if len(references) != n:
        raise ValueError(f"{n} hypotheses but references for {len(references)} segments")
    refs = [list(r) for r in references]
    seqs = list(hypotheses)
    for r in refs:
        seqs.extend(r)
    n_texts = len(seqs)
    flat, lens = _as_int64_flat(seqs)
    cdef _Batch b = _new_batch(n, n_texts, max_ngram_order, RB_TOK_NONE, mask)
    cdef int64_t[::1] lens_v = lens
    cdef int64_t[::1] flat_v = flat
    cdef const int64_t *base = &flat_v[0] if flat.shape[0] else NULL
    cdef int64_t off = 0
    for i in range(n_texts):
        b.texts[i].data = base + off if base != NULL else NULL
        b.texts[i].len = <size_t> lens_v[i]
        b.texts[i].kind = RB_KIND_INT64
        off += lens_v[i]
    k = 0
    b.ref_off[0] = 0
    for i in range(n):
        k += len(refs[i])
        b.ref_off[i + 1] = k
    b._keep = flat
    out = np.zeros((n, n_columns(max_ngram_order)), dtype=np.int64)
    if n:
        b.out = out
        _execute(b, n, workers)
    return out


def string_stats(hypotheses, references, max_ngram_order=4, tokenizer="13a", lowercase=False,
                 workers=1):
    """See ``rapidbleu._stats_py.string_stats`` (same arguments, same int64 (n, 2 + 2N) result).

    Also raises ``ValueError`` for ``workers`` not in {-1, 1, 2, ...} and ``TypeError`` for a
    non-``str`` segment.
    """
    return _string_stats(hypotheses, references, max_ngram_order, tokenizer, lowercase, workers,
                         _FULL_MASK)


def token_stats(hypotheses, references, max_ngram_order=4, workers=1):
    """See ``rapidbleu._stats_py.token_stats`` (same arguments, same int64 (n, 2 + 2N) result).

    Token ids must fit in int64 (``OverflowError`` otherwise); numpy arrays are cast to int64.
    """
    return _token_stats(hypotheses, references, max_ngram_order, workers, _FULL_MASK)


# -- test hooks ---------------------------------------------------------------------------

def _string_stats_masked(hypotheses, references, max_ngram_order, tokenizer, lowercase, workers,
                         uint64_t mask):
    """``string_stats`` with every hash ANDed with ``mask`` (0: all keys collide)."""
    return _string_stats(hypotheses, references, max_ngram_order, tokenizer, lowercase, workers,
                         mask)


def _token_stats_masked(hypotheses, references, max_ngram_order, workers, uint64_t mask):
    """``token_stats`` with every hash ANDed with ``mask`` (0: all keys collide)."""
    return _token_stats(hypotheses, references, max_ngram_order, workers, mask)


def _tokenize(str line, tokenizer="13a"):
    """The C tokenizer's tokens of ``line.rstrip()``, joined by single spaces (any name in
    ``_C_TOKENIZERS``)."""
    cdef rb_text t
    cdef int tok = _C_TOKENIZERS[tokenizer]
    cdef rb_scratch *sc = <rb_scratch *> malloc(sizeof(rb_scratch))
    cdef uint32_t *buf = <uint32_t *> malloc((2 * PyUnicode_GET_LENGTH(line) + 1) * sizeof(uint32_t))
    cdef ptrdiff_t w
    if sc == NULL or buf == NULL:
        free(sc)
        free(buf)
        raise MemoryError()
    _set_str(&t, <PyObject *> line)
    rb_scratch_init(sc, 1, tok, _FULL_MASK)
    w = rb_debug_tokenize(sc, &t, buf)
    try:
        if w < 0:
            raise MemoryError()
        return PyUnicode_FromKindAndData(4, buf, w)
    finally:
        rb_scratch_free(sc)
        free(sc)
        free(buf)


def _whitespace():
    """Every code point the C core treats as whitespace (must equal Python's str.isspace)."""
    cdef uint32_t c
    return [c for c in range(0x110000) if rb_is_space(c)]


def _zh_chars():
    """Every code point the C zh tokenizer splits off (must equal tokenizer_zh.is_chinese_char)."""
    cdef uint32_t c
    return [c for c in range(0x110000) if rb_is_zh(c)]


cdef extern from "_uni.h":
    const char *RB_UNI_REGEX_VERSION

#: Version of the ``regex`` module whose Unicode classes the C intl tokenizer was built with.
INTL_REGEX_VERSION = RB_UNI_REGEX_VERSION.decode("ascii")


def _intl_classes():
    """The C intl table: bytes of length 0x110000, 0 other, 1 \\p{P}, 2 \\p{S}, 3 \\p{N}."""
    cdef uint32_t c
    cdef bytearray out = bytearray(0x110000)
    for c in range(0x110000):
        out[c] = rb_u_class(c)
    return bytes(out)
