# String batches (included by bleu_stats_cy.pyx): each ``str``'s code points are read in place
# (PyUnicode kinds 1, 2 and 4) from private lists of the caller's strings, tokenized and counted
# by bleu_ngram.h without the GIL.

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
            raise stream_length_error(f"reference stream {k}", len(streams[k]), n, n_streams=n_streams)
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
