# One segment a call (included by chrf_cy.pyx): ``chrf_sentence_row``, the row of a hypothesis
# against its best reference as Python ints, and ``chrf_of_row``, its score, for the
# sentence-level entries a Python loop calls once per segment (issue 41).  No numpy array, no
# thread pool, no allocation once the shared scratch space is large enough: the counting is the
# batch kernel's ``rb_chrf_segment`` and ``rb_chrf_best``.
#
# Memory: one scratch space (``_one_sc``) serves every call, guarded by a lock taken without
# waiting; a call that finds it busy (another thread is counting), whose texts exceed
# ``_ONE_SHARED_CPS`` code points or whose references exceed ``_ONE_SHARED_REFS`` counts in a
# scratch space of its own, freed on return.  The shared space therefore holds at most the
# buffers of ``_ONE_SHARED_CPS`` code points and ``_ONE_SHARED_REFS`` rows of at most 384
# columns (a few MB) for the life of the process.

DEF _ONE_CPS = 65536
DEF _ONE_REFS = 64
#: Largest segment (hypothesis and references, in code points) counted in the shared scratch.
_ONE_SHARED_CPS = _ONE_CPS
#: Most references of a segment counted in the shared scratch (its rows, one per reference).
_ONE_SHARED_REFS = _ONE_REFS

cdef rb_chrf_scratch _one_sc
cdef PyThread_type_lock _one_lock = PyThread_allocate_lock()
if _one_lock == NULL:
    raise MemoryError()
rb_chrf_scratch_init(&_one_sc, 6, 0, 0, _FULL_MASK)

# rows up to this many columns live on the stack (orders <= 64 each: validate.MAX_ORDER_LIMIT)
DEF _ONE_MAX_COLS = 384
# texts (hypothesis and references) read into a stack array up to this many
DEF _ONE_STACK_TEXTS = 9
DEF _EXACT = 9007199254740991  # 2**53 - 1: counts exact in a double


cdef int _plain_options(options, int *co, int *wo, double *factor, double *one_plus) except -1:
    """The orders and beta's factors of ``options`` when they are the usual exact ints in range
    and a Python ``int`` or ``float`` beta (1: then the C arithmetic is sacreBLEU's), else 0
    (nothing checked: the caller takes the general path, whose checks raise)."""
    if type(options) is not dict:
        return 0
    c = (<dict> options).get("char_order", 6)
    w = (<dict> options).get("word_order", 0)
    beta = (<dict> options).get("beta", 2)
    cdef int64_t cv, wv, b
    cdef double fb
    if (type(c) is not int or type(w) is not int or not rb_int64_of(<PyObject *> c, &cv)
            or not rb_int64_of(<PyObject *> w, &wv) or not 0 <= cv <= 64 or not 0 <= wv <= 64 or cv + wv == 0):
        return 0
    if type(beta) is int and rb_int64_of(<PyObject *> beta, &b) and 0 <= b <= 67108864:
        # (2**26: its square and one more are exact doubles)
        factor[0] = <double> (b * b)
        one_plus[0] = <double> (b * b + 1)
    elif type(beta) is float and 0.0 <= <double> beta <= 1e150:  # finite, and so is its square
        fb = beta
        factor[0] = pow(fb, 2.0)  # (Python's float ** 2 is this libm call)
        one_plus[0] = 1.0 + factor[0]
    else:
        return 0
    co[0] = <int> cv
    wo[0] = <int> wv
    return 1


cdef list _sentence_row(hypothesis, references, options, uint64_t mask):
    cdef int co, wo
    cdef double factor = 0.0, one_plus = 0.0
    cdef object choose = None  # a beta the best reference is chosen in Python's arithmetic with
    if not _plain_options(options, &co, &wo, &factor, &one_plus):
        char_order, word_order, beta, _, _, _ = option_values(options)
        co, wo = check_orders(char_order, word_order)
        beta = check_beta(beta)
        if is_plain_beta(beta):
            factor, one_plus = _factors(beta)
        else:
            choose = beta
    cdef bint lowercase = bool(options.get("lowercase", False))
    cdef bint whitespace = bool(options.get("whitespace", False))
    cdef bint eps = bool(options.get("eps_smoothing", False))
    if not isinstance(hypothesis, str):
        raise TypeError(f"hypotheses[0] is a {type(hypothesis).__name__}, expected str")
    # a private list of the texts (the hypothesis first): the strings stay alive, and their code
    # points unchanged, while the counting runs without the GIL
    cdef list keep = [hypothesis.lower() if lowercase else hypothesis]
    cdef Py_ssize_t k = 0, i
    for r in references:
        if r is not None:
            if not isinstance(r, str):
                raise TypeError(f"references[{k}][0] is a {type(r).__name__}, expected str or None")
            keep.append(r.lower() if lowercase else r)
        k += 1
    cdef Py_ssize_t n_texts = len(keep)
    if n_texts == 1:
        raise no_reference_error(0)
    cdef size_t nrefs = <size_t> (n_texts - 1)
    cdef size_t cols = 3 * <size_t> (co + wo)
    cdef bint all_rows = choose is not None and nrefs > 1
    cdef rb_text stack_texts[_ONE_STACK_TEXTS]
    cdef rb_text *texts = stack_texts
    if n_texts > _ONE_STACK_TEXTS:
        texts = <rb_text *> malloc(n_texts * sizeof(rb_text))
        if texts == NULL:
            raise MemoryError()
    cdef int64_t row[_ONE_MAX_COLS]
    cdef const int64_t *best
    cdef rb_chrf_scratch own
    cdef rb_chrf_scratch *sc = &_one_sc
    cdef size_t cps = 0
    cdef int rc
    cdef bint shared = False
    cdef list rows
    cdef size_t q, j
    try:
        for i in range(n_texts):
            _set(&texts[i], <PyObject *> keep[i], -1, 0)
            cps += texts[i].len
        shared = (not all_rows and cps <= _ONE_CPS and nrefs <= _ONE_REFS
                  and PyThread_acquire_lock(_one_lock, NOWAIT_LOCK))
        if shared:
            rb_chrf_scratch_set(&_one_sc, co, wo, whitespace, mask)
        else:
            rb_chrf_scratch_init(&own, co, wo, whitespace, mask)
            sc = &own
        with nogil:
            rc = rb_chrf_segment(sc, &texts[0], &texts[1], nrefs)
            if rc == RB_CHRF_OK and not all_rows:
                best = rb_chrf_best(sc.rows, nrefs, cols, factor, one_plus, eps)
                memcpy(row, best, cols * sizeof(int64_t))
            if shared:
                PyThread_release_lock(_one_lock)
            elif not all_rows:
                rb_chrf_scratch_free(&own)
        if all_rows:  # (own scratch: its rows read, then freed)
            try:
                _raise_rc(rc)
                rows = [[own.rows[q * cols + j] for j in range(cols)] for q in range(nrefs)]
            finally:
                rb_chrf_scratch_free(&own)
            return rows[best_reference(rows, co + wo, choose, eps)]
    finally:
        if texts != stack_texts:
            free(texts)
    _raise_rc(rc)
    return [row[i] for i in range(<Py_ssize_t> cols)]


def chrf_sentence_row(hypothesis, references, options):
    """See ``rapidbleu._core.chrf.chrf_py.chrf_sentence_row`` (one segment, a list of Python
    ints; no numpy, no thread pool)."""
    return _sentence_row(hypothesis, references, options, _FULL_MASK)


def _chrf_sentence_row_masked(hypothesis, references, options, uint64_t mask):
    """``chrf_sentence_row`` with every hash ANDed with ``mask`` (0: all keys collide)."""
    return _sentence_row(hypothesis, references, options, mask)


def chrf_of_row(row, options):
    """See ``rapidbleu._core.chrf.chrf_py.chrf_of_row`` (rows of exact ints below 2**53 with plain
    options in C, any other by the twin's formula)."""
    cdef int co, wo
    cdef double factor, one_plus
    cdef Py_ssize_t i, width
    cdef int64_t v
    cdef int64_t vals[_ONE_MAX_COLS]
    if not _plain_options(options, &co, &wo, &factor, &one_plus) or type(row) is not list:
        return _twin.chrf_of_row(row, options)
    width = 3 * (co + wo)
    if len(row) != width:
        return _twin.chrf_of_row(row, options)
    for i in range(width):
        x = (<list> row)[i]
        if type(x) is not int or not rb_int64_of(<PyObject *> x, &v) or not 0 <= v <= _EXACT:
            return _twin.chrf_of_row(row, options)
        vals[i] = v
    return rb_chrf_f_int(vals, co + wo, factor, one_plus, bool((<dict> options).get("eps_smoothing", False)))
