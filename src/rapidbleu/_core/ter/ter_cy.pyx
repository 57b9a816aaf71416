"""Compiled twin of ``rapidbleu._core.ter.ter_py``: the same functions, signatures and results.

Segments are checked in Python (``ter_py.check_segment_rules``, on private copies of the lists),
with the GIL held; then, with the GIL released, each is lowercased in C from a table of
``str.lower``'s own single-code-point lowercases (exactly Python's: sacreBLEU's first step) but
for the few that hold a code point the table cannot lowercase (U+0130, U+03A3, any beyond
U+FFFF), which ``str.lower`` lowercases when the tokenizer stops at them; tercom's normalizer
runs on their code points and every word is interned to an int32 id (``ter_tok.h``, one
vocabulary per segment, or per call for the pairwise matrix), and the shift search and beamed
edit distance (``ter.h``) run over chunks of segments (``rapidbleu._core.threads.run_chunks``).
Each thread owns its work area; inputs are strings this call holds, outputs arrays it made.
Documentation is the twin's.
"""

import numpy as np

from cpython.object cimport PyObject
from cpython.pyport cimport PY_SSIZE_T_MAX
from cpython.pythread cimport (NOWAIT_LOCK, PyThread_acquire_lock, PyThread_allocate_lock, PyThread_release_lock,
                               PyThread_type_lock)
from cpython.unicode cimport PyUnicode_Check, PyUnicode_CheckExact, PyUnicode_GET_LENGTH
from cpython.unicode cimport PyUnicode_FromKindAndData
from libc.stdint cimport int32_t, int64_t, uint8_t, uint32_t
from libc.stdlib cimport free, malloc

from ..c.text cimport rb_set_text, rb_text

from . import ter_py as _twin
from .ter_py import BEAM_WIDTH, LOWER_GROWTH, MAX_SHIFT_CANDIDATES, MAX_SHIFT_DIST, MAX_SHIFT_SIZE, MAX_WORDS
from .ter_py import check_cross_rules, check_segment_rules, check_sums, check_words, option_values
from ..threads import run_chunks

NAME = "cython"

cdef extern from "ter.h" nogil:
    ctypedef struct rb_ter_work:
        size_t cap   # the work area's bytes (and wcap entries of 8 bytes): the shared space's bound
        size_t wcap
    int RB_TER_OK
    int RB_TER_ENOMEM
    int RB_TER_MAX_SHIFT_SIZE
    int RB_TER_MAX_SHIFT_DIST
    int RB_TER_BEAM_WIDTH
    int RB_TER_MAX_CANDIDATES
    int RB_TER_INF
    void rb_ter_work_init(rb_ter_work *w)
    void rb_ter_work_free(rb_ter_work *w)
    int rb_ter_pair_in(rb_ter_work *w, const int32_t *hyp, int64_t n, const int32_t *ref, int64_t m, int64_t *edits,
                       int cells)
    int rb_ter_segment(rb_ter_work *w, const int32_t *ids, const int64_t *off, int64_t h, int64_t e, double *out)
    int rb_ter_segments(const int32_t *ids, const int64_t *off, const int64_t *seg, const int64_t *order,
                        int64_t start, int64_t end, double *out)
    int rb_ter_pairwise(const int32_t *ids, const int64_t *off, int64_t n, int64_t ref0, int64_t start,
                        int64_t end, double *out)

cdef extern from "ter_tok.h" nogil:
    ctypedef struct rb_tercom_buf:
        pass
    ctypedef struct rb_ter_vocab:
        size_t count
        uint32_t *chars
        int64_t *start
    ctypedef struct rb_ter_ids:
        int32_t *ids
        int64_t len
        int64_t cap
    int RB_TERCOM_NORMALIZED
    int RB_TERCOM_NO_PUNCT
    int RB_TERCOM_ASIAN
    int RB_TERTOK_OK
    int RB_TERTOK_ENOMEM
    int RB_TERTOK_TOOLONG
    void rb_tercom_buf_init(rb_tercom_buf *b)
    void rb_tercom_buf_free(rb_tercom_buf *b)
    void rb_ter_vocab_init(rb_ter_vocab *v)
    void rb_ter_vocab_free(rb_ter_vocab *v)
    int RB_TERTOK_LOWER
    int RB_TER_LOWER_SPACE
    int rb_ter_tokenize_texts(rb_ter_vocab *v, rb_tercom_buf *b, rb_ter_ids *a, const rb_text *texts, size_t start,
                              size_t n, int opts, const int32_t *lower, const uint8_t *lowered,
                              const uint8_t *twice, const uint8_t *fresh, int64_t max_words, int64_t *off,
                              int64_t *where)

# The C limits are the Python twin's (one set of rules); costs fit in int32 below MAX_WORDS.
assert (RB_TER_MAX_SHIFT_SIZE, RB_TER_MAX_SHIFT_DIST, RB_TER_BEAM_WIDTH, RB_TER_MAX_CANDIDATES) == (
    MAX_SHIFT_SIZE, MAX_SHIFT_DIST, BEAM_WIDTH, MAX_SHIFT_CANDIDATES)
assert 2 * MAX_WORDS + MAX_SHIFT_CANDIDATES < RB_TER_INF

#: Fewest segments per thread: a segment costs from microseconds to milliseconds.
_MIN_TER_CHUNK = 16


#: Step 1's table (ter_tok.h): the running interpreter's single-code-point lowercase of every
#: code point below 0x10000 (with RB_TER_LOWER_SPACE where ``str.isspace``), -1 where
#: ``str.lower`` must do it; built on first use (a few milliseconds).
_LOWER = None


def _lower_table():
    """Step 1's table of ``ter_tok.h`` (int32, 0x10000 entries), from ``str.lower`` itself."""
    global _LOWER
    if _LOWER is None:
        cps = np.arange(0x10000, dtype=np.uint32)
        context = (0x3A3,)  # Python's final-sigma rule: its lowercase depends on its neighbours
        multi = tuple(c for c in (0x130,) if len(chr(c).lower()) != 1)
        cps[list(context + multi)] = ord("a")
        text = cps.tobytes().decode("utf-32-le", "surrogatepass").lower()
        if len(text) != 0x10000:  # a Unicode version with other multi-code-point lowercases
            multi = tuple(c for c in range(0x10000) if len(chr(c).lower()) != 1)
            cps[list(multi)] = ord("a")
            text = cps.tobytes().decode("utf-32-le", "surrogatepass").lower()
        table = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32).astype(np.int32)
        spaces = [c for c in range(0x10000) if chr(c).isspace()]
        table[spaces] |= RB_TER_LOWER_SPACE
        table[list(context + multi)] = -1
        _LOWER = table
    return _LOWER


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


cdef const int32_t *_i32(object a):
    cdef const int32_t[::1] v = a
    return &v[0] if v.shape[0] else NULL


cdef class _Words:
    """Texts tokenized and interned (``ter_tok.h``): text k's word ids are
    ``ids[off[k]:off[k + 1]]``.  ``_keep`` holds the strings the texts point into (the call's
    own list) and the arrays the kernels read."""

    cdef rb_text *texts
    cdef rb_ter_ids words
    cdef Py_ssize_t n_texts
    cdef const int64_t *off
    cdef const int64_t *seg
    cdef const int64_t *order
    cdef int64_t n_cols, ref0
    cdef double *out
    cdef object _keep

    def __cinit__(self):
        self.texts = NULL
        self.words.ids = NULL
        self.words.len = 0
        self.words.cap = 0

    def __dealloc__(self):
        free(self.texts)
        free(self.words.ids)

    cdef int64_t tokenize(self, list strings, twice, off, int opts, bint case_sensitive,
                          list vocab_out=None, fresh=None) except -2:
        """Lowercase (unless ``case_sensitive``), tokenize and intern ``strings`` (``twice[k]``:
        text k is a reference) into ``off`` (``n + 1`` int64); returns -1, or the index of a text
        of more than MAX_WORDS words.  A text the C table cannot lowercase is replaced in
        ``strings`` (the call's own list, which keeps it alive) by its ``str.lower`` and
        tokenized again.  With ``vocab_out``, the words (``str``) of the ids are appended to it
        (tests).  With ``fresh`` (uint8, one per text), ids are numbered anew from each text k
        with ``fresh[k]`` (a segment's words apart from the others')."""
        cdef Py_ssize_t n = len(strings), k
        cdef size_t q
        cdef rb_tercom_buf buf
        cdef rb_ter_vocab vocab
        cdef const uint8_t[::1] tw = twice
        cdef int64_t[::1] o = off
        cdef int64_t where = -1, max_words = MAX_WORDS
        cdef int rc
        cdef const int32_t[::1] table
        cdef const int32_t *lower = NULL
        cdef size_t start = 0
        lowered_arr = np.zeros(max(1, n), dtype=np.uint8)
        cdef uint8_t[::1] lowered = lowered_arr
        cdef const uint8_t[::1] fr
        cdef const uint8_t *fresh_p = NULL
        if fresh is not None and n:
            fr = fresh
            fresh_p = &fr[0]
        if not case_sensitive:
            table = _lower_table()
            lower = &table[0]
        self.texts = <rb_text *> malloc(max(1, n) * sizeof(rb_text))
        if self.texts == NULL:
            raise MemoryError()
        for k in range(n):
            rc = rb_set_text(&self.texts[k], <PyObject *> strings[k])
            if rc == -1:
                raise TypeError(f"TER: a segment is a {type(strings[k]).__name__}, expected str")
            if rc != 0:
                return -2
        self.n_texts = n
        rb_tercom_buf_init(&buf)
        rb_ter_vocab_init(&vocab)
        while True:
            with nogil:
                rc = rb_ter_tokenize_texts(&vocab, &buf, &self.words, self.texts, start, <size_t> n, opts, lower,
                                           &lowered[0], &tw[0] if n else NULL, fresh_p, max_words, &o[0], &where)
            if rc != RB_TERTOK_LOWER:
                break
            # a text the table cannot lowercase: sacreBLEU's first step, exactly Python's, then
            # the tokenizer again from that text
            k = where
            strings[k] = str.lower(strings[k])
            if rb_set_text(&self.texts[k], <PyObject *> strings[k]) != 0:
                rb_tercom_buf_free(&buf)
                rb_ter_vocab_free(&vocab)
                return -2
            lowered[k] = 1
            self.words.len = o[k]
            start = k
        rb_tercom_buf_free(&buf)
        if vocab_out is not None and rc == RB_TERTOK_OK:
            for q in range(vocab.count):
                vocab_out.append(PyUnicode_FromKindAndData(
                    4, &vocab.chars[vocab.start[q]], vocab.start[q + 1] - vocab.start[q]))
        rb_ter_vocab_free(&vocab)
        if rc == RB_TERTOK_TOOLONG:
            return where
        if rc == RB_TERTOK_ENOMEM:
            raise MemoryError("rapidbleu: out of memory in TER's tokenizer")
        if rc != RB_TERTOK_OK:
            raise RuntimeError(f"rapidbleu: TER's tokenizer failed (code {rc}); please report this")
        self.off = &o[0]
        return -1

    def run(self, Py_ssize_t start, Py_ssize_t end):
        """Statistics of the segments ``order[start:end]``, with the GIL released."""
        cdef int rc
        with nogil:
            rc = rb_ter_segments(self.words.ids, self.off, self.seg, self.order, start, end, self.out)
        _raise_rc(rc)

    def run_pairwise(self, Py_ssize_t start, Py_ssize_t end):
        """Rows ``start:end`` of the pairwise matrix, with the GIL released."""
        cdef int rc
        with nogil:
            rc = rb_ter_pairwise(self.words.ids, self.off, self.n_cols, self.ref0, start, end, self.out)
        _raise_rc(rc)


cdef int _options(bint normalized, bint no_punct, bint asian_support):
    return ((RB_TERCOM_NORMALIZED if normalized else 0) | (RB_TERCOM_NO_PUNCT if no_punct else 0)
            | (RB_TERCOM_ASIAN if asian_support else 0))


def _tokenize(strings, normalized=False, no_punct=False, asian_support=False, case_sensitive=False,
              reference=False):
    """The compiled tokenizer's words of each string, as ``ter_stats`` computes them (a hypothesis,
    or with ``reference`` a reference: tokenized twice): a test hook."""
    texts = list(strings)
    twice = np.full(len(texts), 1 if reference else 0, dtype=np.uint8)
    off = np.empty(len(texts) + 1, dtype=np.int64)
    vocab = []
    cdef _Words words = _Words()
    if words.tokenize(texts, twice, off, _options(normalized, no_punct, asian_support), case_sensitive, vocab) >= 0:
        raise ValueError("too many words")
    ids = np.frombuffer(<bytes> (<char *> words.words.ids)[:4 * words.words.len], dtype=np.int32) if words.words.len else []
    return [[vocab[x] for x in ids[off[k]:off[k + 1]]] for k in range(len(texts))]


cdef bint _all_str(list texts, bint exact, Py_ssize_t longest):
    """Whether every item of ``texts`` is a ``str`` (with ``exact``, not of a subclass) of at most
    ``longest`` code points: one C loop, for ``plain_streams`` and ``ter_stats``'s common case."""
    cdef object t
    for t in texts:
        if not (PyUnicode_CheckExact(t) if exact else PyUnicode_Check(t)) or PyUnicode_GET_LENGTH(t) > longest:
            return False
    return True


def plain_streams(hypotheses, ref_streams):
    if type(hypotheses) is not list or not hypotheses or type(ref_streams) is not list or not ref_streams:
        return False
    cdef Py_ssize_t n = len(hypotheses)
    cdef object s
    for s in ref_streams:
        if type(s) is not list or len(s) != n:
            return False
    if not _all_str(hypotheses, True, PY_SSIZE_T_MAX):
        return False
    for s in ref_streams:
        if not _all_str(s, True, PY_SSIZE_T_MAX):
            return False
    return True


def ter_stats(hypotheses, ref_streams, options, workers=1):
    normalized, no_punct, asian_support, case_sensitive = option_values(options)
    hyps = list(hypotheses)
    streams = [list(s) for s in ref_streams]
    # every segment checked, on the lists this call holds, before any is tokenized; where every
    # stream is as long as the hypotheses and every text a short str (no None: each segment has
    # its references), check_segment_rules has nothing to find
    cdef Py_ssize_t short = MAX_WORDS // LOWER_GROWTH
    cdef list stream
    cdef bint plain = bool(streams) and _all_str(hyps, False, short) and all(
        len(stream) == len(hyps) and _all_str(stream, False, short) for stream in streams)
    if not plain:
        check_segment_rules(hyps, streams, options)
    cdef Py_ssize_t n = len(hyps), i
    cdef list texts
    if len(streams) == 1 and (plain or None not in streams[0]):
        texts = [None] * (2 * n)
        texts[0::2] = hyps
        texts[1::2] = streams[0]
        seg = np.arange(0, 2 * n + 1, 2, dtype=np.int64)
    else:
        texts = []
        seg = np.empty(n + 1, dtype=np.int64)
        for i in range(n):
            seg[i] = len(texts)
            texts.append(hyps[i])
            texts.extend([s[i] for s in streams if s[i] is not None])
        seg[n] = len(texts)
    twice = np.ones(len(texts), dtype=np.uint8)
    twice[seg[:n]] = 0
    off = np.empty(len(texts) + 1, dtype=np.int64)
    cdef _Words words = _Words()
    # each segment's words interned apart (ids are compared within a segment only)
    cdef int64_t bad = words.tokenize(texts, twice, off, _options(normalized, no_punct, asian_support), case_sensitive,
                                      None, twice == 0)
    if bad >= 0:  # (the checks before make this unreachable)
        i = int(np.searchsorted(seg, bad, side="right")) - 1
        check_words(MAX_WORDS + 1, f"segment {i}: " + ("the hypothesis" if bad == seg[i] else "a reference"))
    order = _spread(n)
    out = np.empty((n, 2), dtype=np.float64)
    cdef double[:, ::1] out_v = out
    cdef const int64_t[::1] seg_v = seg
    cdef const int64_t[::1] order_v = order
    words._keep = (texts, twice, off, seg, order, out)
    if n:
        words.seg = &seg_v[0]
        words.order = &order_v[0]
        words.out = &out_v[0, 0]
        run_chunks(words.run, n, workers, _MIN_TER_CHUNK)
    return out


def ter_pairwise_scores(sentences, options, workers=1, references=None):
    normalized, no_punct, asian_support, case_sensitive = option_values(options)
    sents = list(sentences)
    others = None if references is None else list(references)
    check_cross_rules(sents, others, options)
    cdef Py_ssize_t n = len(sents), m
    cdef list texts = sents
    cdef bint twice_differs = normalized or no_punct  # else a reference's words are its words once
    if others is not None:  # the hypotheses, then the references (tokenized as references)
        m = len(others)
        texts = texts + others
        ref0 = n
    else:
        m = n
        if twice_differs:
            texts = texts + texts
        ref0 = n if twice_differs else 0
    twice = np.zeros(len(texts), dtype=np.uint8)
    twice[n:] = 1
    off = np.empty(len(texts) + 1, dtype=np.int64)
    cdef _Words words = _Words()
    cdef int64_t bad = words.tokenize(texts, twice, off, _options(normalized, no_punct, asian_support), case_sensitive)
    if bad >= 0:  # (the checks before make this unreachable)
        check_words(MAX_WORDS + 1, f"sentence {bad % max(n, 1)}")
    out = np.empty((n, m), dtype=np.float64)
    cdef double[:, ::1] out_v = out
    words._keep = (texts, twice, off, out)
    words.n_cols = m  # (each row: one hypothesis against m references)
    words.ref0 = ref0
    if n and m:
        words.out = &out_v[0, 0]
        run_chunks(words.run_pairwise, n, workers, 1)
    return out


def translation_edit_rate(words_hyp, words_ref):
    return _edit_rate(words_hyp, words_ref, False)


def _edit_rate_cells(words_hyp, words_ref):
    """``translation_edit_rate`` with the matrix computed cell by cell even where ``ter.h``
    would use bit vectors (a test hook: the two ways must agree)."""
    return _edit_rate(words_hyp, words_ref, True)


def _edit_rate(words_hyp, words_ref, bint cells):
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
        rc = rb_ter_pair_in(&work, hp, n, rp, m, &edits, cells)
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


include "ter_one.pxi"
