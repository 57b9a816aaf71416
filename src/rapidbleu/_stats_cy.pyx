"""Compiled BLEU sufficient statistics: the same functions as ``rapidbleu._stats_py``, in C.

The Python layer only collects pointers or copies into C buffers: each ``str``'s code points
are read in place (PyUnicode kinds 1, 2 and 4); token sequences are packed block by block
(int64 ids, or the code points of ``str`` tokens); flat id streams are used as they are.  The
counting (tokenization, exact n-gram ids, clipping) runs in ``_ngram.h`` without the GIL, on
contiguous chunks of segments, one chunk and one scratch space per thread, so the result does
not depend on the number of threads.  Compiler directives are set in ``setup.py`` only.
"""

from concurrent.futures import ThreadPoolExecutor
from operator import methodcaller

from ._lazy import numpy as np  # imported on first use: the CLI's corpus score needs none

from libc.stdint cimport int64_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memset
from cpython.list cimport PyList_GET_ITEM
from cpython.object cimport PyObject
from cpython.pythread cimport (NOWAIT_LOCK, PyThread_acquire_lock, PyThread_allocate_lock,
                               PyThread_free_lock, PyThread_release_lock, PyThread_type_lock, WAIT_LOCK)
from cpython.unicode cimport PyUnicode_GET_LENGTH

from ._stats import n_columns
from ._threads import MIN_CHUNK, run_chunks
from ._validate import check_order, no_reference_error, resolve_workers, stream_length_error
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
    ctypedef struct rb_strref:
        pass
    enum:
        RB_TOK_NONE
        RB_TOK_13A
        RB_TOK_CHAR
        RB_TOK_ZH
        RB_TOK_INTL
        RB_KIND_INT64
        RB_KIND_STRREFS
        RB_OK
        RB_ENOMEM
        RB_ETOOLONG
    void rb_scratch_init(rb_scratch *sc, int order, int tokenizer, uint64_t mask)
    void rb_scratch_free(rb_scratch *sc)
    int rb_rows_grouped(rb_scratch *sc, const rb_text *texts, const int64_t *off, size_t start,
                        size_t end, int64_t *out)
    ptrdiff_t rb_debug_tokenize(rb_scratch *sc, const rb_text *t, uint32_t *out)
    int rb_is_space(uint32_t c)
    int rb_is_zh(uint32_t c)
    unsigned rb_u_class(uint32_t c)
    const unsigned char *rb_intl_table
    enum:
        RB_U_SIZE

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

cdef uint64_t _FULL_MASK = 0xFFFFFFFFFFFFFFFF


cdef class _Rows:
    """A batch as C arrays, segments stored one after the other for ``rb_rows_grouped``: the
    hypothesis of segment i is ``texts[off[i]]``, its references follow.  ``out`` points at row 0 of this batch in an
    int64 (rows, 2 + 2N) array held by ``_keep`` with every buffer the texts point into."""

    cdef rb_text *texts
    cdef size_t n_texts, cap_texts
    cdef int64_t *off
    cdef size_t n_seg, cap_seg
    cdef int64_t *out
    cdef int order
    cdef int tokenizer          # RB_TOK_*: how str texts are split (none for token sequences)
    cdef uint64_t mask
    cdef object _keep

    def __cinit__(self):
        self.texts = NULL
        self.off = NULL
        self.tokenizer = RB_TOK_NONE

    def __dealloc__(self):
        free(self.texts)
        free(self.off)

    cdef int reserve(self, size_t n_texts, size_t n_seg) except -1:
        _grow(<void **> &self.texts, &self.cap_texts, n_texts, sizeof(rb_text))
        _grow(<void **> &self.off, &self.cap_seg, n_seg + 1, sizeof(int64_t))
        return 0

    def run(self, Py_ssize_t start, Py_ssize_t end):
        """Fill rows start..end-1 (with the GIL released); one scratch space per call."""
        cdef rb_scratch *sc = <rb_scratch *> malloc(sizeof(rb_scratch))
        cdef int rc
        if sc == NULL:
            raise MemoryError()
        rb_scratch_init(sc, self.order, self.tokenizer, self.mask)
        with nogil:
            rc = rb_rows_grouped(sc, self.texts, self.off, <size_t> start, <size_t> end, self.out)
            rb_scratch_free(sc)
            free(sc)
        _raise_rc(rc)


cdef int _raise_rc(int rc) except -1:
    """Raise the error of a kernel return code (nothing for RB_OK)."""
    if rc == RB_ENOMEM:
        raise MemoryError("rapidbleu: out of memory while counting n-grams")
    if rc == RB_ETOOLONG:
        raise ValueError("rapidbleu: a hypothesis and reference together exceed 2**32 - 1 code points")
    return 0


cdef inline int _set_str(rb_text *t, PyObject *s) except -1:
    cdef int rc = rb_set_text(t, s)
    if rc == -1:
        raise TypeError(f"expected str, got {type(<object> s).__name__}")
    if rc != 0:
        return -1  # -2: PyUnicode_READY set the error, which propagates
    return 0


def _prepared(lines, prep):
    """A private list of ``lines`` (``prep`` applied, ``None`` kept)."""
    if prep is None:
        return list(lines)
    return [None if x is None else prep(x) for x in lines]


cdef _Rows _string_batch(hypotheses, references, int max_ngram_order, tokenizer, bint lowercase,
                         uint64_t mask):
    """The segments of string inputs as a ``_Rows`` batch (rows not yet counted)."""
    cdef Py_ssize_t n, i, k, n_streams, t
    cdef int tok
    if tokenizer in _C_TOKENIZERS:
        tok = _C_TOKENIZERS[tokenizer]
        if tok == RB_TOK_INTL:
            _need_intl()
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
            raise stream_length_error(f"reference stream {k}", len(streams[k]), n)
    cdef _Rows b = _Rows()
    b.order = max_ngram_order
    b.tokenizer = tok
    b.mask = mask
    b.reserve(n + n * n_streams + 1, n)
    cdef PyObject **cols = <PyObject **> malloc(max(1, n_streams) * sizeof(PyObject *))
    if cols == NULL:
        raise MemoryError()
    cdef PyObject *x
    try:
        for k in range(n_streams):
            cols[k] = <PyObject *> streams[k]
        t = 0
        b.off[0] = 0
        for i in range(n):
            _set_str(&b.texts[t], PyList_GET_ITEM(hyps, i))
            t += 1
            for k in range(n_streams):
                x = PyList_GET_ITEM(<object> cols[k], i)
                if x != <PyObject *> None:
                    _set_str(&b.texts[t], x)
                    t += 1
            if t - 1 == b.off[i]:
                raise no_reference_error(i)
            b.off[i + 1] = t
    finally:
        free(cols)
    b.n_seg = n
    b._keep = (hyps, streams)  # the texts point into these strings
    return b


def _string_stats(hypotheses, references, int max_ngram_order, tokenizer, bint lowercase,
                  workers, uint64_t mask):
    cdef _Rows b = _string_batch(hypotheses, references, max_ngram_order, tokenizer, lowercase, mask)
    cdef Py_ssize_t n = b.n_seg
    out = np.zeros((n, n_columns(max_ngram_order)), dtype=np.int64)
    cdef int64_t[:, ::1] out_v = out
    if n:
        b.out = &out_v[0, 0]
        run_chunks(b.run, n, workers)
    return out


def _string_totals(hypotheses, references, int max_ngram_order, tokenizer, bint lowercase,
                   workers, uint64_t mask):
    """Column sums of ``_string_stats`` as a list of Python ints, without numpy: the rows go
    to a C buffer that lives for this call only (``import numpy`` alone costs more than a
    whole CLI run on one test set)."""
    cdef _Rows b = _string_batch(hypotheses, references, max_ngram_order, tokenizer, lowercase, mask)
    cdef Py_ssize_t n = b.n_seg, i, j, cols = n_columns(max_ngram_order)
    cdef int64_t *rows
    cdef int64_t *sums = <int64_t *> calloc(cols, sizeof(int64_t))
    if sums == NULL:
        raise MemoryError()
    try:
        if n:
            rows = <int64_t *> malloc(n * cols * sizeof(int64_t))
            if rows == NULL:
                raise MemoryError()
            try:
                b.out = rows
                run_chunks(b.run, n, workers)
                for i in range(n):  # int64 sums, as numpy's column sums of the int64 rows
                    for j in range(cols):
                        sums[j] += rows[i * cols + j]
            finally:
                b.out = NULL
                free(rows)
        return [sums[j] for j in range(cols)]
    finally:
        free(sums)


# -- token sequences: packed block by block -------------------------------------------------
#
# A token sequence (NLTK's convention: any hashable tokens) reaches the kernel in one of two
# C forms, chosen per segment (tokens are only ever compared within a segment):
#   * every token an exact ``int`` that fits int64 (or a 1-D integer numpy array): int64 ids,
#     copied;
#   * every token an exact ``str``: one rb_strref per token (RB_KIND_STRREFS, _strtok.h): its
#     kind, length and bytes (up to 16 bytes, most tokens, held whole; a longer one by its
#     first bytes, a hash and the address of its characters, which the kernel reads in place),
#     compared byte for byte, which is ``str`` equality.  The block holds a reference to each
#     long token until it is packed again (or freed), so none can be freed while the kernel
#     reads it, whatever the caller's lists become meanwhile; strs are immutable.
# Anything else (mixed types, floats, bools, tuples, str subclasses, ...) is mapped to ids by a
# dict for that segment, so equality is Python's ``==``/``hash`` as in NLTK's Counters.
# Packing (under the GIL) only touches each token's object header: the hashing and copying of
# characters is the kernel's, without the GIL, in as many threads as asked.  Blocks bound the
# memory, and while the threads count one block the next one is packed (``_Crew``).

cdef extern from "Python.h":
    # on borrowed pointers: no reference counting around these calls
    long long _as_ll "PyLong_AsLongLongAndOverflow"(PyObject *o, int *overflow)
    bint _is_int "PyLong_CheckExact"(PyObject *o)
    bint _is_str "PyUnicode_CheckExact"(PyObject *o)
    Py_ssize_t PySequence_Fast_GET_SIZE(object o)
    object PySequence_GetItem(object o, Py_ssize_t i)
    PyObject **PySequence_Fast_ITEMS(object o)

cdef extern from *:
    """
    /* Describe the str tokens items[0..m) in refs[0..m) (rb_strref_set); a token of more than 16
     * bytes is read again by the kernel, so a reference to it is taken and appended to objs
     * (*n_objs of them so far).  Stops at the first item that is not an exact str (or is too
     * long: *too_long set).  Returns the number of tokens described, or -1 with a Python error
     * set (a legacy string that cannot be made ready, before Python 3.12). */
    static Py_ssize_t rb_take_strs(PyObject *const *items, Py_ssize_t m, rb_strref *refs,
                                   PyObject **objs, size_t *n_objs, int *too_long) {
        for (Py_ssize_t j = 0; j < m; j++) {
            PyObject *x = items[j];
            if (!PyUnicode_CheckExact(x)) return j;
    #if PY_VERSION_HEX < 0x030C0000
            if (PyUnicode_READY(x) < 0) return -1;
    #endif
            Py_ssize_t len = PyUnicode_GET_LENGTH(x);
            if ((size_t)len >= (size_t)UINT32_MAX) { *too_long = 1; return j; }
            int kind = PyUnicode_KIND(x);
            rb_strref_set(&refs[j], PyUnicode_DATA(x), (uint32_t)len, (uint32_t)kind);
            if (!rb_strref_short(&refs[j])) {
                Py_INCREF(x);
                objs[(*n_objs)++] = x;
            }
        }
        return m;
    }

    /* Drop the references taken by rb_take_strs. */
    static void rb_drop_strs(PyObject **objs, size_t n) {
        for (size_t j = 0; j < n; j++) Py_DECREF(objs[j]);
    }
    """
    Py_ssize_t rb_take_strs(PyObject **items, Py_ssize_t m, rb_strref *refs, PyObject **objs,
                            size_t *n_objs, int *too_long) except -1
    void rb_drop_strs(PyObject **objs, size_t n)


cdef extern from *:
    """
    #if PY_VERSION_HEX < 0x030B0000
    #include "longintrepr.h" /* Python 3.10: not included by Python.h */
    #endif
    /* *v = o (an exact int) and 1 if it fits int64; 0 if not (no error set).  Ints of one
     * digit (below 2**30: nearly every token id) are read in place, as Cython's own
     * conversions read them, instead of a call to PyLong_AsLongLongAndOverflow per id. */
    static inline int rb_int64_of(PyObject *o, int64_t *v) {
    #if PY_VERSION_HEX >= 0x030C0000
        if (_PyLong_IsCompact((PyLongObject *)o)) {
            *v = (int64_t)_PyLong_CompactValue((PyLongObject *)o);
            return 1;
        }
    #else
        const Py_ssize_t size = Py_SIZE(o);
        if (size == 0) {
            *v = 0;
            return 1;
        }
        if (size == 1 || size == -1) {
            *v = (int64_t)size * (int64_t)((PyLongObject *)o)->ob_digit[0];
            return 1;
        }
    #endif
        int overflow;
        *v = (int64_t)PyLong_AsLongLongAndOverflow(o, &overflow);
        return !overflow;
    }
    """
    bint rb_int64_of(PyObject *o, int64_t *v) noexcept


#: Tokens per packed block (256 KB of ids, or 1 MB of str refs): small enough that the token
#: objects a block describes are still in cache when the kernel reads the long ones, and that
#: dropping the block's references finds them there (1 << 20 was 1.3x slower on str tokens).
_BLOCK_TOKENS = 1 << 15

cdef enum:
    _K_UNKNOWN = 0  # token kind of a segment: not seen yet (all its texts empty so far)
    _K_INT = 1
    _K_STR = 2


cdef int _grow(void **p, size_t *cap, size_t need, size_t size) except -1:
    """Make *p hold ``need`` elements (amortised doubling, contents kept)."""
    if need <= cap[0]:
        return 0
    cdef size_t c = cap[0] * 2 if cap[0] else 1024
    while c < need:
        c *= 2
    cdef void *q = realloc(p[0], c * size)
    if q == NULL:
        raise MemoryError()
    p[0] = q
    cap[0] = c
    return 0


cdef class _Block(_Rows):
    """A block of token-sequence segments packed for the kernel (see the comment above).

    Int tokens are copied into ``ids``: the kernel reads memory that nothing else can change
    or free while it runs without the GIL, and reads it sequentially.  Str tokens are read in
    place through ``refs``; ``objs`` holds a reference to each one the kernel reads again
    (over 16 bytes; dropped when the block is packed again or freed), so that they outlive the
    counting.
    """

    cdef int64_t *ids
    cdef size_t n_ids, cap_ids
    cdef rb_strref *refs
    cdef PyObject **objs        # the long str tokens of refs, one reference each
    cdef size_t n_refs, cap_refs, n_objs, cap_objs
    cdef int64_t *start         # per text: first token in ids (int) or refs (str)
    cdef size_t cap_start

    def __cinit__(self):
        self.ids = NULL
        self.refs = NULL
        self.objs = NULL
        self.start = NULL

    def __dealloc__(self):
        self._drop()
        free(self.ids)
        free(self.refs)
        free(self.objs)
        free(self.start)

    cdef void _drop(self) noexcept:
        """Drop the references to the str tokens packed since the last ``_drop``."""
        cdef size_t n = self.n_objs
        self.n_objs = 0
        rb_drop_strs(self.objs, n)

    cdef int _new_text(self) except -1:
        cdef size_t t = self.n_texts
        if t + 1 > self.cap_texts or self.n_seg + 2 > self.cap_seg:
            self.reserve(t + 1, self.n_seg + 1)
        if t + 1 > self.cap_start:
            _grow(<void **> &self.start, &self.cap_start, t + 1, sizeof(int64_t))
        self.texts[t].len = 0
        self.texts[t].data = NULL
        self.n_texts = t + 1
        return 0

    cdef int _pack_text(self, object seq, int *kind) except -1:
        """Append one text; 1 if packed, 0 if the segment needs the dict path."""
        cdef size_t t = self.n_texts
        cdef Py_ssize_t m, j
        cdef PyObject **items
        cdef PyObject *x
        cdef int ovf = 0, too_long = 0
        self._new_text()
        self.start[t] = <int64_t> (self.n_refs if kind[0] == _K_STR else self.n_ids)
        if type(seq) is list or type(seq) is tuple:
            m = PySequence_Fast_GET_SIZE(seq)
            if m == 0:
                return 1
            items = PySequence_Fast_ITEMS(seq)
            if kind[0] == _K_UNKNOWN:
                if _is_int(items[0]):
                    kind[0] = _K_INT
                elif _is_str(items[0]):
                    kind[0] = _K_STR
                    self.start[t] = <int64_t> self.n_refs
                else:
                    return 0
            if kind[0] == _K_INT:
                if self.n_ids + m > self.cap_ids:
                    _grow(<void **> &self.ids, &self.cap_ids, self.n_ids + m, sizeof(int64_t))
                for j in range(m):
                    x = items[j]
                    if not _is_int(x):
                        return 0
                    self.ids[self.n_ids + j] = _as_ll(x, &ovf)
                    if ovf:
                        return 0
                self.n_ids += m
            else:
                if self.n_refs + m > self.cap_refs:
                    _grow(<void **> &self.refs, &self.cap_refs, self.n_refs + m, sizeof(rb_strref))
                if self.n_objs + m > self.cap_objs:
                    _grow(<void **> &self.objs, &self.cap_objs, self.n_objs + m, sizeof(PyObject *))
                # (references taken count in n_objs even when the segment goes to the dict path)
                j = rb_take_strs(items, m, self.refs + self.n_refs, self.objs, &self.n_objs, &too_long)
                self.n_refs += j
                if too_long:
                    raise ValueError("rapidbleu: a token of 2**32 - 1 code points or more")
                if j < m:
                    return 0
            self.texts[t].len = <size_t> m
            return 1
        if type(seq) is np.ndarray and seq.ndim == 1 and kind[0] != _K_STR and (
                seq.dtype.kind == "i" or (seq.dtype.kind == "u" and seq.dtype.itemsize < 8)):
            arr = np.ascontiguousarray(seq, dtype=np.int64)
            m = arr.shape[0]
            kind[0] = _K_INT
            if m == 0:
                return 1
            _grow(<void **> &self.ids, &self.cap_ids, self.n_ids + m, sizeof(int64_t))
            _copy_int64(self.ids + self.n_ids, arr)
            self.n_ids += m
            self.texts[t].len = <size_t> m
            return 1
        return 0

    cdef int _pack_ids(self, list ids) except -1:
        """Append one text of small exact ints (the dict path's output)."""
        cdef int kind = _K_INT
        if not self._pack_text(ids, &kind):
            raise AssertionError("dict-mapped ids are exact ints")
        return 0

    cdef int pack_segment(self, object hyp, object refs, Py_ssize_t i) except -1:
        cdef size_t t0 = self.n_texts, n_ids = self.n_ids, n_refs = self.n_refs, n_objs = self.n_objs
        cdef int kind = _K_UNKNOWN
        cdef int ok
        cdef size_t t
        if type(refs) is not list and type(refs) is not tuple:
            refs = list(refs)
        if len(refs) == 0:
            raise no_reference_error(i)
        ok = self._pack_text(hyp, &kind)
        if ok:
            for r in refs:
                ok = self._pack_text(r, &kind)
                if not ok:
                    break
        if not ok:
            # mixed or other token types: ids from a dict, Python's equality
            rb_drop_strs(self.objs + n_objs, self.n_objs - n_objs)
            self.n_texts, self.n_ids, self.n_refs, self.n_objs = t0, n_ids, n_refs, n_objs
            kind = _K_INT
            vocab = {}
            get = vocab.setdefault
            self._pack_ids([get(tok, len(vocab)) for tok in hyp])
            for r in refs:
                self._pack_ids([get(tok, len(vocab)) for tok in r])
        for t in range(t0, self.n_texts):
            self.texts[t].kind = RB_KIND_STRREFS if kind == _K_STR else RB_KIND_INT64
        self.off[self.n_seg + 1] = <int64_t> self.n_texts
        self.n_seg += 1
        return 0

    cdef Py_ssize_t pack(self, hypotheses, references, Py_ssize_t i, Py_ssize_t n,
                         size_t limit) except -1:
        """Pack segments i, i+1, ... until the block holds ``limit`` tokens or more; returns the
        first segment not packed.  Then point the texts into the (now final) buffers.  The
        block must not be in use by the kernel."""
        cdef size_t t
        self._drop()
        self.n_texts = self.n_seg = self.n_ids = self.n_refs = 0
        self.reserve(1, 1)
        self.off[0] = 0
        # at least one segment per block (any limit); indexing through the sequence protocol,
        # bounds checked: user code (a token's __hash__, another thread while the workers
        # count) may have shortened the lists since len() was read
        while i < n and (self.n_seg == 0 or self.n_ids + self.n_refs < limit):
            self.pack_segment(_item(hypotheses, i), _item(references, i), i)
            i += 1
        for t in range(self.n_texts):
            if self.texts[t].kind == RB_KIND_STRREFS:
                self.texts[t].data = self.refs + self.start[t]
            else:
                self.texts[t].data = self.ids + self.start[t]
        return i


cdef inline object _item(seq, Py_ssize_t i):
    """``seq[i]`` with Python's bounds check (IndexError), whatever the build's directives."""
    return PySequence_GetItem(seq, i)


cdef void _copy_int64(int64_t *dst, int64_t[::1] src):
    cdef Py_ssize_t k
    for k in range(src.shape[0]):
        dst[k] = src[k]


cdef class _Crew:
    """Counting threads that take blocks without ever taking the GIL.

    The packing thread holds the GIL for as long as it packs (C code that never returns to the
    interpreter loop never offers it), so a thread that needed the GIL to start counting a block
    (a ``ThreadPoolExecutor`` task) would wait until the *next* block was packed: packing and
    counting would alternate instead of overlapping.  Each crew thread therefore enters
    ``serve`` once, releases the GIL and then waits on plain OS locks (``PyThread`` locks may
    be taken and released without the GIL): ``go[p]`` released by the packer hands it rows
    ``lo[p]..hi[p]-1`` of the current block, ``done[p]`` released by the thread hands them back
    (with the kernel's return code in ``rc[p]``).  Each thread has its own scratch space for the
    whole call.  A lock is the only synchronisation, so every field written before a release
    is seen after the matching acquire.
    """

    cdef int w
    cdef PyThread_type_lock *go
    cdef PyThread_type_lock *done
    cdef rb_scratch *sc
    cdef size_t *lo
    cdef size_t *hi
    cdef int *rc
    cdef const rb_text *texts   # the block being counted
    cdef const int64_t *off
    cdef int64_t *out
    cdef bint stop
    cdef size_t min_chunk

    def __cinit__(self, int w, int order, uint64_t mask):
        cdef int p
        self.w = w
        self.min_chunk = MIN_CHUNK
        self.go = <PyThread_type_lock *> calloc(w, sizeof(PyThread_type_lock))
        self.done = <PyThread_type_lock *> calloc(w, sizeof(PyThread_type_lock))
        self.sc = <rb_scratch *> calloc(w, sizeof(rb_scratch))
        self.lo = <size_t *> calloc(w, sizeof(size_t))
        self.hi = <size_t *> calloc(w, sizeof(size_t))
        self.rc = <int *> calloc(w, sizeof(int))
        if not (self.go and self.done and self.sc and self.lo and self.hi and self.rc):
            raise MemoryError()
        for p in range(w):
            rb_scratch_init(&self.sc[p], order, RB_TOK_NONE, mask)
            self.go[p] = PyThread_allocate_lock()
            self.done[p] = PyThread_allocate_lock()
            if self.go[p] == NULL or self.done[p] == NULL:
                raise MemoryError()
            PyThread_acquire_lock(self.go[p], WAIT_LOCK)    # no work yet
            PyThread_acquire_lock(self.done[p], WAIT_LOCK)  # released once serving

    def __dealloc__(self):
        # only after every thread has left serve(): they hold a reference to the crew
        cdef int p
        if self.sc != NULL:
            for p in range(self.w):
                rb_scratch_free(&self.sc[p])
        for p in range(self.w):
            if self.go != NULL:
                _free_lock(self.go[p])
            if self.done != NULL:
                _free_lock(self.done[p])
        free(self.go); free(self.done); free(self.sc); free(self.lo); free(self.hi); free(self.rc)

    def serve(self, int p):
        """Thread p: count the rows handed over until told to stop (without the GIL)."""
        with nogil:
            PyThread_release_lock(self.done[p])  # serving: the packer may go on
            while True:
                PyThread_acquire_lock(self.go[p], WAIT_LOCK)
                if self.stop:
                    break
                self.rc[p] = rb_rows_grouped(&self.sc[p], self.texts, self.off, self.lo[p], self.hi[p],
                                             self.out)
                PyThread_release_lock(self.done[p])

    cdef void wait(self) noexcept:
        """Wait (without the GIL) until every thread has handed its rows back."""
        cdef int p
        with nogil:
            for p in range(self.w):
                PyThread_acquire_lock(self.done[p], WAIT_LOCK)

    cdef int count_here(self, _Block blk) except -1:
        """Count a packed block in this thread (one worker: no crew threads)."""
        cdef int rc
        with nogil:
            rc = rb_rows_grouped(&self.sc[0], blk.texts, blk.off, 0, blk.n_seg, blk.out)
        return _raise_rc(rc)

    cdef void hand(self, _Block blk) noexcept:
        """Hand the rows of a packed block to the threads, in contiguous parts (any thread
        finished with the previous block: ``wait`` first)."""
        cdef int p, parts
        cdef size_t k = blk.n_seg
        self.texts = blk.texts
        self.off = blk.off
        self.out = blk.out
        parts = <int> min(<size_t> self.w, max(<size_t> 1, k // self.min_chunk))
        for p in range(self.w):
            self.lo[p] = k * p // parts if p < parts else 0
            self.hi[p] = k * (p + 1) // parts if p < parts else 0
            self.rc[p] = RB_OK
        for p in range(self.w):
            PyThread_release_lock(self.go[p])

    cdef void finish(self) noexcept:
        """Let every thread leave ``serve`` (after ``wait``)."""
        cdef int p
        self.stop = True
        for p in range(self.w):
            PyThread_release_lock(self.go[p])

    cdef int check(self) except -1:
        cdef int p
        for p in range(self.w):
            _raise_rc(self.rc[p])
        return 0


cdef void _free_lock(PyThread_type_lock lock) noexcept:
    """Free a lock, held or not (a held one is released first)."""
    if lock != NULL:
        PyThread_acquire_lock(lock, NOWAIT_LOCK)  # now held, whichever it was
        PyThread_release_lock(lock)
        PyThread_free_lock(lock)


def _run_blocks(hypotheses, references, Py_ssize_t n, int order, uint64_t mask, workers, out):
    """Pack and count block by block; with threads (a ``_Crew``), block k+1 is packed while
    block k is counted."""
    cdef Py_ssize_t w = resolve_workers(workers)
    cdef Py_ssize_t i = 0, b = 0
    cdef size_t limit = _BLOCK_TOKENS
    cdef _Block blk
    cdef int64_t[:, ::1] out_v = out
    cdef _Crew crew
    cdef bint handed = False
    blocks = []
    for b in range(2 if w > 1 else 1):
        blk = _Block()
        blk.order = order
        blk.mask = mask
        blk._keep = out
        blocks.append(blk)
    b = 0
    crew = _Crew(w, order, mask)
    if w <= 1:
        blk = blocks[0]
        while i < n:
            blk.out = &out_v[i, 0]
            i = blk.pack(hypotheses, references, i, n, limit)
            crew.count_here(blk)
        return
    with ThreadPoolExecutor(max_workers=w) as pool:
        try:
            serving = [pool.submit(crew.serve, p) for p in range(w)]
            crew.wait()  # every thread serving without the GIL
            while i < n:
                blk = blocks[b]
                blk.out = &out_v[i, 0]
                i = blk.pack(hypotheses, references, i, n, limit)
                if handed:
                    crew.wait()  # the other block is free again
                    handed = False
                    crew.check()
                crew.hand(blk)
                handed = True
                b ^= 1
            if handed:
                crew.wait()
                handed = False
                crew.check()
        finally:
            if handed:
                crew.wait()  # never leave with a block being counted
            crew.finish()  # (a thread not yet serving stops as soon as it is)
    for f in serving:
        f.result()


def _token_stats(hypotheses, references, int max_ngram_order, workers, uint64_t mask):
    cdef Py_ssize_t n = len(hypotheses)
    if len(references) != n:
        raise stream_length_error("references", len(references), n, "segments")
    resolve_workers(workers)
    out = np.empty((n, n_columns(max_ngram_order)), dtype=np.int64)  # the kernel fills every cell
    if n:
        _run_blocks(hypotheses, references, n, max_ngram_order, mask, workers, out)
    return out


def _flat_stats(hyp_flat, hyp_lens, ref_streams, int max_ngram_order, workers, uint64_t mask):
    cdef Py_ssize_t n = len(hyp_lens), K = len(ref_streams) + 1, i, k, t
    resolve_workers(workers)
    # stream 0: the hypotheses; streams 1..K-1: the references
    flats = [np.ascontiguousarray(hyp_flat, dtype=np.int64)]
    lens = [np.ascontiguousarray(hyp_lens, dtype=np.int64)]
    for k, (f, l) in enumerate(ref_streams):
        if len(l) != n:
            raise stream_length_error(f"reference stream {k}", len(l), n, "rows")
        flats.append(np.ascontiguousarray(f, dtype=np.int64))
        lens.append(np.ascontiguousarray(l, dtype=np.int64))
    if K == 1:
        raise ValueError("no reference stream")
    starts = []
    for k in range(K):
        starts.append(_starts(lens[k], flats[k], "hypotheses" if k == 0 else f"reference stream {k - 1}"))
    cdef _Rows rows = _Rows()
    rows.order = max_ngram_order
    rows.mask = mask
    rows.reserve(n * K + 1, n)
    cdef const int64_t **fp = <const int64_t **> malloc(K * sizeof(int64_t *))
    cdef const int64_t **lp = <const int64_t **> malloc(K * sizeof(int64_t *))
    cdef const int64_t **sp = <const int64_t **> malloc(K * sizeof(int64_t *))
    cdef int64_t[::1] v
    cdef int64_t ln
    if fp == NULL or lp == NULL or sp == NULL:
        free(fp); free(lp); free(sp)
        raise MemoryError()
    try:
        for k in range(K):
            v = flats[k]
            fp[k] = &v[0] if v.shape[0] else NULL
            v = lens[k]
            lp[k] = &v[0] if v.shape[0] else NULL
            v = starts[k]
            sp[k] = &v[0] if v.shape[0] else NULL
        t = 0
        rows.off[0] = 0
        for i in range(n):
            for k in range(K):
                ln = lp[k][i]
                if ln < 0:
                    if k == 0:
                        raise ValueError(f"hypothesis {i} has length {ln}")
                    continue  # no reference in this stream for segment i
                rows.texts[t].data = fp[k] + sp[k][i] if fp[k] != NULL else NULL
                rows.texts[t].len = <size_t> ln
                rows.texts[t].kind = RB_KIND_INT64
                t += 1
            if t - 1 == rows.off[i]:
                raise no_reference_error(i)
            rows.off[i + 1] = t
    finally:
        free(fp); free(lp); free(sp)
    out = np.empty((n, n_columns(max_ngram_order)), dtype=np.int64)  # the kernel fills every cell
    cdef int64_t[:, ::1] out_v = out
    rows._keep = (flats, lens, starts, out)  # the texts point into these
    if n:
        rows.out = &out_v[0, 0]
        run_chunks(rows.run, n, workers)
    return out


cdef _starts(int64_t[::1] lens, int64_t[::1] flat, what):
    """Offset of each sequence in its flat buffer (a length of -1, no sequence, takes none);
    checks that the lengths cover the buffer exactly."""
    cdef Py_ssize_t i, n = lens.shape[0]
    cdef int64_t pos = 0
    out = np.empty(n, dtype=np.int64)
    cdef int64_t[::1] o = out
    for i in range(n):
        o[i] = pos
        if lens[i] > 0:
            if lens[i] > flat.shape[0]:  # each length bounded, so the sum cannot overflow
                raise ValueError(f"{what}: the lengths add up to more than the {flat.shape[0]} ids "
                                 f"in the buffer")
            pos += lens[i]
    if pos != flat.shape[0]:
        raise ValueError(f"{what}: the lengths sum to {pos} but the buffer holds {flat.shape[0]} ids")
    return out


def pack_int_lists(seqs, bint allow_none=False):
    """See ``rapidbleu._stats_py.pack_int_lists``."""
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
    """See ``rapidbleu._stats_py.clean_flat``."""
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
    cdef int64_t[::1] f = np.ascontiguousarray(flat, dtype=np.int64)
    cdef int64_t[::1] l = np.ascontiguousarray(lens, dtype=np.int64)
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
                raise ValueError(f"the lengths add up to more than the {f.shape[0]} ids in the buffer")
            pos += l[i]
    if pos != f.shape[0]:
        raise ValueError(f"the lengths sum to {pos} but the buffer holds {f.shape[0]} ids")
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


def string_stats(hypotheses, references, max_ngram_order=4, tokenizer="13a", lowercase=False,
                 workers=1):
    """See ``rapidbleu._stats_py.string_stats`` (same arguments, same int64 (n, 2 + 2N) result).

    Also raises ``ValueError`` for ``workers`` not in {-1, 1, 2, ...} and ``TypeError`` for a
    non-``str`` segment.
    """
    return _string_stats(hypotheses, references, check_order(max_ngram_order), tokenizer, lowercase,
                         workers, _FULL_MASK)


def string_totals(hypotheses, references, max_ngram_order=4, tokenizer="13a", lowercase=False,
                  workers=1):
    """See ``rapidbleu._stats_py.string_totals`` (the column sums of ``string_stats``, as a
    list of ``2 + 2N`` Python ints; numpy is not imported)."""
    return _string_totals(hypotheses, references, check_order(max_ngram_order), tokenizer, lowercase,
                          workers, _FULL_MASK)


def token_stats(hypotheses, references, max_ngram_order=4, workers=1):
    """See ``rapidbleu._stats_py.token_stats`` (same arguments, same int64 (n, 2 + 2N) result).

    Token ids must fit in int64 (``OverflowError`` otherwise); numpy arrays are cast to int64.
    """
    return _token_stats(hypotheses, references, check_order(max_ngram_order), workers, _FULL_MASK)


def flat_stats(hyp_flat, hyp_lens, ref_streams, max_ngram_order=4, workers=1):
    """See ``rapidbleu._stats_py.flat_stats`` (same arguments, same int64 (n, 2 + 2N) result)."""
    return _flat_stats(hyp_flat, hyp_lens, ref_streams, check_order(max_ngram_order), workers, _FULL_MASK)


# -- test hooks ---------------------------------------------------------------------------

def _string_stats_masked(hypotheses, references, max_ngram_order, tokenizer, lowercase, workers,
                         uint64_t mask):
    """``string_stats`` with every hash ANDed with ``mask`` (0: all keys collide)."""
    return _string_stats(hypotheses, references, check_order(max_ngram_order), tokenizer, lowercase,
                         workers, mask)


def _token_stats_masked(hypotheses, references, max_ngram_order, workers, uint64_t mask):
    """``token_stats`` with every hash ANDed with ``mask`` (0: all keys collide)."""
    return _token_stats(hypotheses, references, check_order(max_ngram_order), workers, mask)


def _flat_stats_masked(hyp_flat, hyp_lens, ref_streams, max_ngram_order, workers, uint64_t mask):
    """``flat_stats`` with every hash ANDed with ``mask`` (0: all keys collide)."""
    return _flat_stats(hyp_flat, hyp_lens, ref_streams, check_order(max_ngram_order), workers, mask)


def _tokenize(str line, tokenizer="13a"):
    """The C tokenizer's tokens of ``line.rstrip()``, joined by single spaces (any name in
    ``_C_TOKENIZERS``)."""
    cdef rb_text t
    cdef int tok = _C_TOKENIZERS[tokenizer]
    cdef rb_scratch *sc = <rb_scratch *> malloc(sizeof(rb_scratch))
    cdef uint32_t *buf = <uint32_t *> malloc((2 * PyUnicode_GET_LENGTH(line) + 1) * sizeof(uint32_t))
    cdef ptrdiff_t w
    if tok == RB_TOK_INTL:
        _need_intl()
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


# -- the intl classes: built from the installed regex module, once per process -------------

cdef bytes _intl_table = None  # owns the memory rb_intl_table points into (never released)


def _set_intl_table(table):
    """Hand the C intl tokenizer its class table (``tokenizer_intl.intl_class_table()``: bytes of
    length 0x110000, 0 other, 1 \\p{P}, 2 \\p{S}, 3 \\p{N}).  Set once per process; setting an
    equal table again does nothing, a different one raises ``RuntimeError`` (threads may be
    reading the first one)."""
    global _intl_table, rb_intl_table
    if type(table) is not bytes or len(<bytes> table) != RB_U_SIZE:
        raise ValueError(f"the intl table must be bytes of length {RB_U_SIZE}")
    if max(<bytes> table) > 3:
        raise ValueError("the intl table holds classes 0-3 only")
    if _intl_table is not None:
        if table != _intl_table:
            raise RuntimeError("the intl table is already set (to another table)")
        return
    _intl_table = table
    rb_intl_table = <const unsigned char *> <char *> _intl_table


cdef int _need_intl() except -1:
    """Build and set the intl table on first use (about 0.1 s: one regex sweep per class)."""
    if _intl_table is None:
        from .tokenizers.tokenizer_intl import intl_class_table
        _set_intl_table(intl_class_table())
    return 0


def _code_points():
    """A str of every code point U+0000..U+10FFFF in order (lone surrogates included), built
    in C: the text ``intl_class_table`` sweeps."""
    cdef uint32_t *buf = <uint32_t *> malloc(RB_U_SIZE * sizeof(uint32_t))
    cdef uint32_t c
    if buf == NULL:
        raise MemoryError()
    try:
        for c in range(RB_U_SIZE):
            buf[c] = c
        return PyUnicode_FromKindAndData(4, buf, RB_U_SIZE)
    finally:
        free(buf)


def _intl_classes():
    """The C intl table: bytes of length 0x110000, 0 other, 1 \\p{P}, 2 \\p{S}, 3 \\p{N}."""
    cdef uint32_t c
    _need_intl()
    cdef bytearray out = bytearray(RB_U_SIZE)
    for c in range(RB_U_SIZE):
        out[c] = rb_u_class(c)
    return bytes(out)
