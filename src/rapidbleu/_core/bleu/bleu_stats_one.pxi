# One segment a call (included by bleu_stats_cy.pyx): ``sentence_row`` and ``token_row``, the
# row of a hypothesis and its references (strings; token sequences) as Python ints, for the sentence-level entries a Python loop
# calls once per segment (issue 41).  No numpy array, no thread pool, no allocation once the
# shared scratch space is large enough: the counting is the batch kernel's ``rb_segment``.
#
# Memory: one scratch space (``_one_sc``) and one token block (``_one_blk``) serve every call,
# guarded by a lock taken without waiting; a call that finds it busy (another thread is
# counting, or a token's own ``__hash__`` scores a segment) or whose texts exceed
# ``_ONE_SHARED_CPS`` code points (tokens) counts in a scratch space (block) of its own, freed
# on return.  The shared ones therefore hold at most the buffers of ``_ONE_SHARED_CPS`` code
# points or tokens (a few MB) for the life of the process, and no reference to a caller's
# token once a call returns.

#: Largest segment (hypothesis and references, in code points) counted in the shared scratch.
_ONE_SHARED_CPS = 1 << 16

cdef rb_scratch _one_sc
cdef PyThread_type_lock _one_lock = PyThread_allocate_lock()
if _one_lock == NULL:
    raise MemoryError()
rb_scratch_init(&_one_sc, 4, RB_TOK_13A, _FULL_MASK)

# rows up to this many columns live on the stack (N <= 64: validate.MAX_ORDER_LIMIT)
DEF _ONE_MAX_COLS = 130
# references read into a stack array up to this many
DEF _ONE_STACK_REFS = 8


cdef inline int _order(max_ngram_order) except -1:
    """``check_order`` without its call for the usual exact ``int`` in range."""
    if type(max_ngram_order) is int and 1 <= <long long> max_ngram_order <= 64:
        return <int> max_ngram_order
    return check_order(max_ngram_order)


cdef list _sentence_row(hypothesis, references, int order, tokenizer, bint lowercase, uint64_t mask):
    cdef int tok
    cdef object py_tok = None
    if type(tokenizer) is str and tokenizer in _C_TOKENIZERS:
        tok = _C_TOKENIZERS[tokenizer]
        if tok == RB_TOK_INTL:
            _need_intl()
    else:
        tok = RB_TOK_NONE
        py_tok = get_tokenizer(tokenizer)
    # a private list of the texts (the hypothesis first): the strings stay alive, and their code
    # points unchanged, while the counting runs without the GIL
    cdef list keep = [hypothesis]
    for r in references:
        if r is not None:
            keep.append(r)
    cdef Py_ssize_t n_texts = len(keep), i
    if n_texts == 1:
        raise no_reference_error(0)
    if lowercase or py_tok is not None:
        for i in range(n_texts):
            x = keep[i]
            if not isinstance(x, str):  # (a str subclass, numpy.str_: its own lower(), as sacreBLEU calls it)
                raise TypeError(f"expected str, got {type(x).__name__}")
            if lowercase:
                x = x.lower()  # the method, as sacreBLEU calls it
            if py_tok is not None:
                x = py_tok(x.rstrip())
            keep[i] = x
    cdef rb_text stack_texts[_ONE_STACK_REFS + 1]
    cdef rb_text *texts = stack_texts
    if n_texts > _ONE_STACK_REFS + 1:
        texts = <rb_text *> malloc(n_texts * sizeof(rb_text))
        if texts == NULL:
            raise MemoryError()
    cdef int64_t row[_ONE_MAX_COLS]
    cdef int64_t one_off[2]
    cdef rb_scratch own
    cdef rb_scratch *sc = &_one_sc
    cdef size_t cps = 0
    cdef int rc
    cdef bint shared = False
    try:
        for i in range(n_texts):
            _set_str(&texts[i], <PyObject *> keep[i])
            cps += texts[i].len
        one_off[0] = 0
        one_off[1] = n_texts
        shared = cps <= _ONE_SHARED_CPS and PyThread_acquire_lock(_one_lock, NOWAIT_LOCK)
        if shared:
            _one_sc.order = order
            _one_sc.tokenizer = tok
            _one_sc.mask = mask
        else:
            rb_scratch_init(&own, order, tok, mask)
            sc = &own
        with nogil:
            rc = rb_rows_grouped(sc, texts, one_off, 0, 1, row)  # (sets up, or drops, the id map too)
            if shared:
                PyThread_release_lock(_one_lock)
            else:
                rb_scratch_free(&own)
    finally:
        if texts != stack_texts:
            free(texts)
    _raise_rc(rc)
    return [row[i] for i in range(2 + 2 * order)]


cdef _Block _one_blk = _Block()


cdef list _token_row(hypothesis, references, int order, uint64_t mask):
    cdef Py_ssize_t size = len(hypothesis)
    if type(references) is not list and type(references) is not tuple:
        references = list(references)
    for r in references:
        size += len(r)
    cdef bint shared = size <= _ONE_SHARED_CPS and PyThread_acquire_lock(_one_lock, NOWAIT_LOCK)
    cdef _Block blk = _one_blk if shared else _Block()
    cdef rb_scratch own
    cdef rb_scratch *sc = &_one_sc
    cdef int64_t row[_ONE_MAX_COLS]
    cdef int64_t one_off[2]
    cdef int rc
    cdef Py_ssize_t i
    try:
        blk.order = order
        blk.mask = mask
        blk.reset()
        blk.pack_segment(hypothesis, references, 0)
        blk.point()
        one_off[0] = 0
        one_off[1] = <int64_t> blk.n_texts
        if shared:
            _one_sc.order = order
            _one_sc.tokenizer = RB_TOK_NONE
            _one_sc.mask = mask
        else:
            rb_scratch_init(&own, order, RB_TOK_NONE, mask)
            sc = &own
        with nogil:
            rc = rb_rows_grouped(sc, blk.texts, one_off, 0, 1, row)  # (the id map set up for these ids)
            if not shared:
                rb_scratch_free(&own)
    finally:
        if shared:
            blk.reset()  # no reference to the caller's tokens kept
            PyThread_release_lock(_one_lock)
    _raise_rc(rc)
    return [row[i] for i in range(2 + 2 * order)]
