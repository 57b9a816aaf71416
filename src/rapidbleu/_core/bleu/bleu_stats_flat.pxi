# Flat id streams (included by bleu_stats_cy.pyx): ``(flat, lens)`` per stream.  The lengths are
# copied before they are checked, and the offsets computed from the copies: the kernel's bounds
# are the call's own memory.  The ids are read in place (each buffer held by a reference for
# the call); the kernel trusts no id as an index (rb_intern_ints), so a caller changing them
# meanwhile gets a wrong count for its changed data, never a read or write out of bounds.

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
                        raise hypothesis_length_error(i, ln)
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
                raise lengths_overrun_error(flat.shape[0], what)
            pos += lens[i]
    if pos != flat.shape[0]:
        raise lengths_sum_error(pos, flat.shape[0], what)
    return out
