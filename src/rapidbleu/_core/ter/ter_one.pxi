# One segment a call (included by ter_cy.pyx): ``ter_sentence_row``, the statistics of a
# hypothesis and its references as two Python floats, and ``ter_of_row``, their score, for the
# sentence-level entries a Python loop calls once per segment (issue 41).  No numpy array, no
# thread pool, no allocation once the shared scratch space is large enough: the tokenizer is the
# batch kernel's ``rb_ter_tokenize_texts`` and the edits its ``rb_ter_segment``.
#
# Memory: one scratch space (``_one``: the tokenizer's buffers, the vocabulary, the word ids and
# the edit distance's work area) serves every call, guarded by a lock taken without waiting; a
# call that finds it busy (another thread is in it), whose texts exceed ``_ONE_SHARED_CPS`` code
# points or whose references exceed ``_ONE_SHARED_REFS`` works in a scratch space of its own,
# freed on return.  The tokenizer's part of the shared space grows with the code points (at most
# ``_ONE_SHARED_CPS`` of them: a few MB); the edit distance's grows with the words of a pair
# (quadratically where the lengths differ), and is freed after any call that left it above
# ``_ONE_SHARED_WORK`` bytes.  The lowercasing table the tokenizer reads without the GIL is
# ``_LOWER``, made once and never replaced.

DEF _ONE_CPS = 65536
DEF _ONE_REFS = 64
DEF _ONE_WORK = 4194304
#: Largest segment (hypothesis and references, in code points) tokenized in the shared scratch.
_ONE_SHARED_CPS = _ONE_CPS
#: Most references of a segment handled in the shared scratch.
_ONE_SHARED_REFS = _ONE_REFS
#: The most bytes of edit-distance work area the shared scratch keeps between calls.
_ONE_SHARED_WORK = _ONE_WORK
# texts (hypothesis and references) read into stack arrays up to this many
DEF _ONE_STACK_TEXTS = 9


cdef struct _TerScratch:
    rb_tercom_buf buf
    rb_ter_vocab vocab
    rb_ter_ids ids
    rb_ter_work work


cdef void _scratch_init(_TerScratch *s) noexcept nogil:
    rb_tercom_buf_init(&s.buf)
    rb_ter_vocab_init(&s.vocab)
    s.ids.ids = NULL
    s.ids.len = 0
    s.ids.cap = 0
    rb_ter_work_init(&s.work)


cdef void _scratch_free(_TerScratch *s) noexcept nogil:
    rb_tercom_buf_free(&s.buf)
    rb_ter_vocab_free(&s.vocab)
    free(s.ids.ids)
    rb_ter_work_free(&s.work)
    _scratch_init(s)


cdef _TerScratch _one
_scratch_init(&_one)
cdef PyThread_type_lock _one_lock = PyThread_allocate_lock()
if _one_lock == NULL:
    raise MemoryError()

#: ``_lower_table()``'s first entry (NULL until first used; the table lives in ``_LOWER``).
cdef const int32_t *_lower_ptr = NULL


cdef const int32_t *_lower_first() except NULL:
    global _lower_ptr
    cdef const int32_t[::1] table
    if _lower_ptr == NULL:
        table = _lower_table()
        _lower_ptr = &table[0]
    return _lower_ptr


cdef list _sentence_row(hypothesis, references, options):
    cdef bint normalized, no_punct, asian_support, case_sensitive
    if type(options) is dict:  # (TEROptions: read in place, each value's truth as option_values)
        normalized = bool((<dict> options).get("normalized", False))
        no_punct = bool((<dict> options).get("no_punct", False))
        asian_support = bool((<dict> options).get("asian_support", False))
        case_sensitive = bool((<dict> options).get("case_sensitive", False))
    else:
        normalized, no_punct, asian_support, case_sensitive = option_values(options)
    # a private list of the texts (the hypothesis first): the strings stay alive, and their code
    # points unchanged, while the work runs without the GIL
    cdef list keep = [hypothesis]
    for r in references:
        if r is not None:
            keep.append(r)
    cdef Py_ssize_t n = len(keep), k
    cdef size_t cps = 0
    cdef Py_ssize_t short = MAX_WORDS // LOWER_GROWTH
    cdef bint long_text = False
    for x in keep:
        if not isinstance(x, str):
            raise TypeError(f"TER: a segment is a {type(x).__name__}, expected str")
        cps += <size_t> PyUnicode_GET_LENGTH(x)
        long_text = long_text or PyUnicode_GET_LENGTH(x) > short
    if n == 1 or long_text:  # the rules' own errors (no reference, too many words), by name
        check_segment_rules([hypothesis], [[r] for r in references], options)
    cdef int opts = _options(normalized, no_punct, asian_support)
    cdef const int32_t *lower = NULL
    if not case_sensitive:
        lower = _lower_first()
    cdef rb_text stack_texts[_ONE_STACK_TEXTS]
    cdef int64_t stack_off[_ONE_STACK_TEXTS + 1]
    cdef uint8_t stack_flags[3 * _ONE_STACK_TEXTS]
    cdef rb_text *texts = stack_texts
    cdef int64_t *off = stack_off
    cdef uint8_t *flags = stack_flags  # lowered, then twice, then fresh: n each
    cdef _TerScratch own
    cdef _TerScratch *sc = &_one
    cdef bint shared = False
    cdef int rc = RB_TERTOK_OK, rc_ter = RB_TER_OK
    cdef int64_t where = -1
    cdef size_t start = 0
    cdef double out[2]
    cdef int64_t max_words = MAX_WORDS
    if n > _ONE_STACK_TEXTS:
        texts = <rb_text *> malloc(n * sizeof(rb_text))
        off = <int64_t *> malloc((n + 1) * sizeof(int64_t))
        flags = <uint8_t *> malloc(3 * n)
        if texts == NULL or off == NULL or flags == NULL:
            free(texts)
            free(off)
            free(flags)
            raise MemoryError()
    try:
        for k in range(n):
            if rb_set_text(&texts[k], <PyObject *> keep[k]) != 0:
                raise TypeError(f"TER: a segment is a {type(keep[k]).__name__}, expected str")
            flags[k] = 0  # lowered (by str.lower)
            flags[n + k] = k > 0  # twice: the references
            flags[2 * n + k] = k == 0  # fresh: the segment's own vocabulary
        shared = cps <= _ONE_CPS and n - 1 <= _ONE_REFS and PyThread_acquire_lock(_one_lock, NOWAIT_LOCK)
        if not shared:
            _scratch_init(&own)
            sc = &own
        try:
            sc.ids.len = 0
            while True:
                with nogil:
                    rc = rb_ter_tokenize_texts(&sc.vocab, &sc.buf, &sc.ids, texts, start, <size_t> n, opts, lower,
                                               flags, flags + n, flags + 2 * n, max_words, off, &where)
                    if rc == RB_TERTOK_OK:
                        rc_ter = rb_ter_segment(&sc.work, sc.ids.ids, off, 0, n, out)
                if rc != RB_TERTOK_LOWER:
                    break
                # a text the table cannot lowercase: sacreBLEU's first step, exactly Python's, then
                # the tokenizer again from that text (as the batch kernel does)
                k = where
                keep[k] = str.lower(keep[k])
                if rb_set_text(&texts[k], <PyObject *> keep[k]) != 0:
                    raise MemoryError()
                flags[k] = 1
                sc.ids.len = off[k]
                start = <size_t> k
        finally:
            if shared:
                if sc.work.cap + 8 * sc.work.wcap > _ONE_WORK:
                    rb_ter_work_free(&sc.work)
                PyThread_release_lock(_one_lock)
            else:
                _scratch_free(&own)
    finally:
        if texts != stack_texts:
            free(texts)
            free(off)
            free(flags)
    if rc == RB_TERTOK_TOOLONG:  # (the checks before make this unreachable)
        check_words(MAX_WORDS + 1, "segment 0: " + ("the hypothesis" if where == 0 else "a reference"))
    if rc == RB_TERTOK_ENOMEM:
        raise MemoryError("rapidbleu: out of memory in TER's tokenizer")
    if rc != RB_TERTOK_OK:
        raise RuntimeError(f"rapidbleu: TER's tokenizer failed (code {rc}); please report this")
    _raise_rc(rc_ter)
    return [out[0], out[1]]


def ter_sentence_row(hypothesis, references, options):
    """See ``rapidbleu._core.ter.ter_py.ter_sentence_row`` (one segment, two Python floats; no
    numpy, no thread pool)."""
    return _sentence_row(hypothesis, references, options)


def ter_of_row(row):
    """See ``rapidbleu._core.ter.ter_py.ter_of_row`` (a list of two floats in C, as
    ``ter_sentence_row`` gives it; any other row by the twin's formula)."""
    cdef double e, r
    if type(row) is not list or len(row) != 2:
        return _twin.ter_of_row(row)
    a = (<list> row)[0]
    b = (<list> row)[1]
    if type(a) is float and type(b) is float:
        e = a
        r = b
    else:
        return _twin.ter_of_row(row)
    if r > 0:
        return 100.0 * (e / r)
    return 100.0 if e > 0 else 0.0
