# Flat id streams (included by bleu_stats_cy.pyx): ``(flat, lens)`` per stream.  The lengths are
# copied before they are checked, and the offsets computed from the copies: the kernel's bounds
# are the call's own memory.  The ids are read in place (each buffer held by a reference for
# the call); the kernel trusts no id as an index (rb_intern_ints), so a caller changing them
# meanwhile gets a wrong count for its changed data, never a read or write out of bounds.
#
# A small call (at most ``_ONE_SLICE_IDS`` ids in all its streams, a few milliseconds of
# counting) runs in one piece, without the thread runner's timed slices, and, on one thread,
# in the one-segment entries' shared scratch space when no other call holds it (its tables
# already grown: no allocation): a training step's batch of a few dozen short rows pays for
# neither (issue 38).

#: Ids (all streams together) counted in one piece, well within a slice of ``run_chunks``.
_ONE_SLICE_IDS = 1 << 16

def _flat_stats(hyp_flat, hyp_lens, ref_streams, int max_ngram_order, workers, uint64_t mask):
    cdef Py_ssize_t n, K = len(ref_streams) + 1, i, k, t
    # stream 0: the hypotheses; streams 1..K-1: the references
    flats = [np.ascontiguousarray(hyp_flat, dtype=np.int64)]
    lens = [np.array(hyp_lens, dtype=np.int64)]  # always a copy
    n = len(lens[0])
    for k, (f, l) in enumerate(ref_streams):
        l = np.array(l, dtype=np.int64)
        if len(l) != n:
            raise stream_length_error(f"reference stream {k}", len(l), n, "rows", len(ref_streams))
        flats.append(np.ascontiguousarray(f, dtype=np.int64))
        lens.append(l)
    if K == 1:
        raise no_reference_stream_error()
    cdef _Rows rows = _Rows()
    rows.order = max_ngram_order
    rows.mask = mask
    rows.reserve(n * K + 1, n)
    cdef const int64_t **fp = <const int64_t **> malloc(K * sizeof(int64_t *))
    cdef const int64_t **lp = <const int64_t **> malloc(K * sizeof(int64_t *))
    cdef int64_t *pos = <int64_t *> malloc(K * sizeof(int64_t))  # each stream's next offset
    cdef int64_t[::1] v
    cdef int64_t ln
    cdef Py_ssize_t total = 0
    if fp == NULL or lp == NULL or pos == NULL:
        free(fp); free(lp); free(pos)
        raise MemoryError()
    try:
        for k in range(K):
            v = flats[k]
            fp[k] = &v[0] if v.shape[0] else NULL
            total += v.shape[0]
            pos[k] = v.shape[0]
            v = lens[k]
            lp[k] = &v[0] if v.shape[0] else NULL
            _check_lengths(lp[k], n, <int64_t> pos[k], k)
            pos[k] = 0
        t = 0
        rows.off[0] = 0
        for i in range(n):
            for k in range(K):
                ln = lp[k][i]
                if ln < 0:
                    if k == 0:
                        raise hypothesis_length_error(i, ln)
                    continue  # no reference in this stream for segment i
                rows.texts[t].data = fp[k] + pos[k] if fp[k] != NULL else NULL
                rows.texts[t].len = <size_t> ln
                rows.texts[t].kind = RB_KIND_INT64
                pos[k] += ln
                t += 1
            if t - 1 == rows.off[i]:
                raise no_reference_error(i)
            rows.off[i + 1] = t
    finally:
        free(fp); free(lp); free(pos)
    out = np.empty((n, n_columns(max_ngram_order)), dtype=np.int64)  # the kernel fills every cell
    cdef int64_t[:, ::1] out_v = out
    rows._keep = (flats, lens, out)  # the texts point into these
    cdef int rc
    if n:
        rows.out = &out_v[0, 0]
        if total <= _ONE_SLICE_IDS and thread_count(workers, n // MIN_CHUNK) == 1 and PyThread_acquire_lock(
                _one_lock, NOWAIT_LOCK):
            # a small call in the calling thread: the one-segment entries' shared scratch space
            # (bleu_stats_one.pxi), its tables already grown, instead of a fresh one
            try:
                _one_sc.order = max_ngram_order
                _one_sc.tokenizer = RB_TOK_NONE
                _one_sc.mask = mask
                with nogil:
                    rc = rb_rows_grouped(&_one_sc, rows.texts, rows.off, 0, <size_t> n, rows.out)
            finally:
                PyThread_release_lock(_one_lock)
            _raise_rc(rc)
        else:
            run_chunks(rows.run, n, workers, MIN_CHUNK, n if total <= _ONE_SLICE_IDS else 1)
    return out


cdef int _check_lengths(const int64_t *lens, Py_ssize_t n, int64_t flat_len, Py_ssize_t k) except -1:
    """That the lengths of stream ``k`` (0: the hypotheses) cover its flat buffer exactly (a
    length of -1, no sequence, takes none)."""
    cdef Py_ssize_t i
    cdef int64_t pos = 0
    for i in range(n):
        if lens[i] > 0:
            if lens[i] > flat_len:  # each length bounded, so the sum cannot overflow
                raise lengths_overrun_error(flat_len, "hypotheses" if k == 0 else f"reference stream {k - 1}")
            pos += lens[i]
    if pos != flat_len:
        raise lengths_sum_error(pos, flat_len, "hypotheses" if k == 0 else f"reference stream {k - 1}")
    return 0
