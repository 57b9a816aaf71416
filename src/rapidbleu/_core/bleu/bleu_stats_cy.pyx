"""Compiled BLEU sufficient statistics: the same functions as ``rapidbleu._core.bleu.bleu_stats_py``, in C.

The Python layer only collects pointers or copies into C buffers: each ``str``'s code points
are read in place (PyUnicode kinds 1, 2 and 4); token sequences are packed block by block
(int64 ids, or the code points of ``str`` tokens); flat id streams are used as they are.  The
counting (tokenization, exact n-gram ids, clipping) runs in ``bleu_ngram.h`` without the GIL, on
contiguous chunks of segments, one chunk and one scratch space per thread, so the result does
not depend on the number of threads.  Compiler directives are set in ``setup.py`` only.

One extension module, one job per file (msgpack's layout: this file includes the others):

* ``bleu_stats_strings.pxi``: batches of ``str`` segments;
* ``bleu_stats_tokens.pxi``: token sequences packed block by block, and the ``_Crew`` pipeline that
  counts one block while the next is packed;
* ``bleu_stats_flat.pxi``: flat id streams;
* ``bleu_stats_intl.pxi``: the C ``intl`` tokenizer's class table;
* here: what they share (the batch type ``_Rows``), the public functions and the test hooks.
"""

from operator import methodcaller

from ..._base.lazy import numpy as np  # imported on first use: the CLI's corpus score needs none

from libc.stdint cimport int64_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc
from cpython.exc cimport PyErr_CheckSignals
from cpython.list cimport PyList_GET_ITEM
from cpython.object cimport PyObject
from cpython.pythread cimport (NOWAIT_LOCK, PyThread_acquire_lock, PyThread_allocate_lock,
                               PyThread_free_lock, PyThread_release_lock, PyThread_type_lock, WAIT_LOCK)
from cpython.unicode cimport PyUnicode_GET_LENGTH

from ..c.pyapi cimport (PySequence_Fast_GET_SIZE, PySequence_Fast_ITEMS, PySequence_GetItem, _as_ll, _is_int,
                        _is_str)
from ..c.table cimport rb_reserve
from ..c.text cimport rb_set_text, rb_text

from ..._base.errors import (hypothesis_length_error, lengths_overrun_error, lengths_sum_error, no_reference_error,
                      no_reference_stream_error, stream_length_error)
from .bleu_row import n_columns
from ..threads import MIN_CHUNK, run_chunks, thread_count
from ..validate import check_order
from ...tokenizers import get_tokenizer

cdef extern from *:
    object PyUnicode_FromKindAndData(int kind, const void *buffer, Py_ssize_t size)


cdef extern from "bleu_ngram.h" nogil:
    ctypedef struct rb_scratch:
        int order       # the fields a one-segment call sets on the shared scratch space
        int tokenizer
        uint64_t mask
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
        _reserve(<void **> &self.texts, &self.cap_texts, n_texts, sizeof(rb_text))
        _reserve(<void **> &self.off, &self.cap_seg, n_seg + 1, sizeof(int64_t))
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


cdef int _reserve(void **p, size_t *cap, size_t need, size_t size) except -1:
    """Make *p hold ``need`` elements of ``size`` bytes (``rb_reserve``: amortised doubling,
    contents kept); ``MemoryError`` when out of memory."""
    if not rb_reserve(p, cap, need, size):
        raise MemoryError()
    return 0


include "bleu_stats_strings.pxi"
include "bleu_stats_tokens.pxi"
include "bleu_stats_one.pxi"
include "bleu_stats_flat.pxi"
include "bleu_stats_intl.pxi"


# -- the public functions ---------------------------------------------------------------------

def string_stats(hypotheses, references, max_ngram_order=4, tokenizer="13a", lowercase=False,
                 workers=1):
    """See ``rapidbleu._core.bleu.bleu_stats_py.string_stats`` (same arguments, same int64 (n, 2 + 2N) result).

    Also raises ``ValueError`` for ``workers`` not in {-1, 1, 2, ...} and ``TypeError`` for a
    non-``str`` segment.
    """
    return _string_stats(hypotheses, references, check_order(max_ngram_order), tokenizer, lowercase,
                         workers, _FULL_MASK)


def string_totals(hypotheses, references, max_ngram_order=4, tokenizer="13a", lowercase=False,
                  workers=1):
    """See ``rapidbleu._core.bleu.bleu_stats_py.string_totals`` (the column sums of ``string_stats``, as a
    list of ``2 + 2N`` Python ints; numpy is not imported)."""
    return _string_totals(hypotheses, references, check_order(max_ngram_order), tokenizer, lowercase,
                          workers, _FULL_MASK)


def sentence_row(hypothesis, references, max_ngram_order=4, tokenizer="13a", lowercase=False):
    """See ``rapidbleu._core.bleu.bleu_stats_py.sentence_row`` (one segment, a list of ``2 + 2N``
    Python ints; no numpy, no thread pool)."""
    return _sentence_row(hypothesis, references, _order(max_ngram_order), tokenizer, lowercase, _FULL_MASK)


def token_row(hypothesis, references, max_ngram_order=4):
    """See ``rapidbleu._core.bleu.bleu_stats_py.token_row`` (one segment of token sequences, a list
    of ``2 + 2N`` Python ints; no numpy, no thread pool)."""
    return _token_row(hypothesis, references, _order(max_ngram_order), _FULL_MASK)


def token_stats(hypotheses, references, max_ngram_order=4, workers=1):
    """See ``rapidbleu._core.bleu.bleu_stats_py.token_stats`` (same arguments, same int64 (n, 2 + 2N) result).

    Token ids must fit in int64 (``OverflowError`` otherwise); numpy arrays are cast to int64.
    """
    return _token_stats(hypotheses, references, check_order(max_ngram_order), workers, _FULL_MASK)


def flat_stats(hyp_flat, hyp_lens, ref_streams, max_ngram_order=4, workers=1):
    """See ``rapidbleu._core.bleu.bleu_stats_py.flat_stats`` (same arguments, same int64 (n, 2 + 2N) result)."""
    return _flat_stats(hyp_flat, hyp_lens, ref_streams, check_order(max_ngram_order), workers, _FULL_MASK)


# -- test hooks ---------------------------------------------------------------------------

def _string_stats_masked(hypotheses, references, max_ngram_order, tokenizer, lowercase, workers,
                         uint64_t mask):
    """``string_stats`` with every hash ANDed with ``mask`` (0: all keys collide)."""
    return _string_stats(hypotheses, references, check_order(max_ngram_order), tokenizer, lowercase,
                         workers, mask)


def _sentence_row_masked(hypothesis, references, max_ngram_order, tokenizer, lowercase, uint64_t mask):
    """``sentence_row`` with every hash ANDed with ``mask`` (0: all keys collide)."""
    return _sentence_row(hypothesis, references, _order(max_ngram_order), tokenizer, lowercase, mask)


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
