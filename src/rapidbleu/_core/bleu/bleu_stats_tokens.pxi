# Token sequences, packed block by block (included by bleu_stats_cy.pyx).
#
# A token sequence (NLTK's convention: any hashable tokens) reaches the kernel in one of two
# C forms, chosen per segment (tokens are only ever compared within a segment):
#   * every token an exact ``int`` that fits int64 (or a 1-D integer numpy array): int64 ids,
#     copied;
#   * every token an exact ``str``: one rb_strref per token (RB_KIND_STRREFS, strtok.h): its
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

#: Tokens per packed block (256 KB of ids, or 1 MB of str refs): small enough that the token
#: objects a block describes are still in cache when the kernel reads the long ones, and that
#: dropping the block's references finds them there (1 << 20 was 1.3x slower on str tokens).
_BLOCK_TOKENS = 1 << 15

cdef enum:
    _K_UNKNOWN = 0  # token kind of a segment: not seen yet (all its texts empty so far)
    _K_INT = 1
    _K_STR = 2


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
            _reserve(<void **> &self.start, &self.cap_start, t + 1, sizeof(int64_t))
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
                    _reserve(<void **> &self.ids, &self.cap_ids, self.n_ids + m, sizeof(int64_t))
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
                    _reserve(<void **> &self.refs, &self.cap_refs, self.n_refs + m, sizeof(rb_strref))
                if self.n_objs + m > self.cap_objs:
                    _reserve(<void **> &self.objs, &self.cap_objs, self.n_objs + m, sizeof(PyObject *))
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
            _reserve(<void **> &self.ids, &self.cap_ids, self.n_ids + m, sizeof(int64_t))
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
        self.reset()
        # at least one segment per block (any limit); indexing through the sequence protocol,
        # bounds checked: user code (a token's __hash__, another thread while the workers
        # count) may have shortened the lists since len() was read
        while i < n and (self.n_seg == 0 or self.n_ids + self.n_refs < limit):
            self.pack_segment(_item(hypotheses, i), _item(references, i), i)
            i += 1
        self.point()
        return i

    cdef int reset(self) except -1:
        """Empty the block (dropping its references to str tokens) for packing."""
        self._drop()
        self.n_texts = self.n_seg = self.n_ids = self.n_refs = 0
        self.reserve(1, 1)
        self.off[0] = 0
        return 0

    cdef void point(self) noexcept:
        """Point the texts into the (now final) buffers, once every segment is packed."""
        cdef size_t t
        for t in range(self.n_texts):
            if self.texts[t].kind == RB_KIND_STRREFS:
                self.texts[t].data = self.refs + self.start[t]
            else:
                self.texts[t].data = self.ids + self.start[t]


cdef inline object _item(seq, Py_ssize_t i):
    """``seq[i]`` with Python's bounds check (IndexError), whatever the build's directives."""
    return PySequence_GetItem(seq, i)


cdef void _copy_int64(int64_t *dst, int64_t[::1] src):
    cdef Py_ssize_t k
    for k in range(src.shape[0]):
        dst[k] = src[k]


cdef class _Crew:
    """Counting threads that take blocks without ever taking the GIL: the package's second
    thread runner (the other is ``threads.run_chunks``), with the same thread count rule
    (``threads.thread_count``: never more threads than chunks of work or than
    ``threads.MAX_THREADS``) and the same contiguous chunks (rows ``k * p // parts``).

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
    block k is counted.  Signals are handled between blocks (a block takes milliseconds), so
    Ctrl-C stops the call there, once no thread is counting."""
    # a block is split into at most one part per MIN_CHUNK rows: no more threads than that
    cdef Py_ssize_t w = thread_count(workers, n // MIN_CHUNK)
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
            PyErr_CheckSignals()
            blk.out = &out_v[i, 0]
            i = blk.pack(hypotheses, references, i, n, limit)
            crew.count_here(blk)
        return
    # (imported here: a run on one thread, the command line's usual, does without it)
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=w) as pool:
        try:
            serving = [pool.submit(crew.serve, p) for p in range(w)]
            crew.wait()  # every thread serving without the GIL
            while i < n:
                PyErr_CheckSignals()
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
    out = np.empty((n, n_columns(max_ngram_order)), dtype=np.int64)  # the kernel fills every cell
    if n:
        _run_blocks(hypotheses, references, n, max_ngram_order, mask, workers, out)
    return out
