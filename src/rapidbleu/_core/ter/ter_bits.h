/* TER's shift search, and its edit distance in bit vectors: one text, compiled once per way of
 * computing the matrix (no include guard: ter.h includes it once for each).  The includer
 * defines
 *   RB_TB(name)  the name of this copy's function `name` (its suffix: _cells, _64, _128)
 *   RB_TB_CELLS  1: the matrix cell by cell (rb_ter_frow, rb_ter_brow of ter.h); 0: in bit
 *                vectors of RB_TB_W, an unsigned integer of RB_TB_WBITS bits (one bit a
 *                reference word: references of at most RB_TB_WBITS words), whose popcount and
 *                count of trailing zeros are RB_TB_POP and RB_TB_CTZ
 * and this file undefines them at its end.  The bit vectors of the work area are this copy's
 * type (RB_TB_A): rb_ter_reserve_bits lays them out in it, 16-byte aligned.
 */

#if !RB_TB_CELLS

/* A bit-vector array of the work area, as this copy's type. */
#define RB_TB_A(field) ((RB_TB_W *)w->field)

/* The bits of columns 1..c (0 <= c <= RB_TB_WBITS) of a delta vector. */
static RB_ALWAYS_INLINE RB_TB_W RB_TB(rb_ter_low)(int64_t c) {
    return c >= RB_TB_WBITS ? ~(RB_TB_W)0 : ((RB_TB_W)1 << c) - 1;
}

/* Size the work area of the bit-vector case (n hypothesis words, m <= RB_TB_WBITS reference
 * words) and lay its arrays out: no matrix, one word per row for each delta vector (first in
 * the block, whose start malloc aligns for any type, each array a multiple of 16 bytes). */
static int RB_TB(rb_ter_reserve_bits)(rb_ter_work *w, int64_t n, int64_t m) {
    size_t row = (size_t)(n + 1) * sizeof(RB_TB_W), col = rb_ter_align16((size_t)n * sizeof(RB_TB_W)), need;
    char *p;
    row = rb_ter_align16(row);
    need = 6 * row + 3 * col + rb_ter_trace_bytes(n, m) + 2 * rb_ter_align8((size_t)(n + 1) * 4);
    if (rb_ter_grow(w, need) != RB_TER_OK)
        return RB_TER_ENOMEM;
    p = (char *)w->block;
    w->fvp = p;
    w->fvn = p + row;
    w->fhp = p + 2 * row;
    w->fhn = p + 3 * row;
    w->bvp = p + 4 * row;
    w->bvn = p + 5 * row;
    p += 6 * row;
    w->eqf = p;
    w->eqr = p + col;
    w->teq = p + 2 * col;
    p += 3 * col;
    p = rb_ter_lay_trace(w, p, n, m);
    w->lo = (int32_t *)rb_ter_take(&p, (size_t)(n + 1) * 4);
    w->hi = (int32_t *)rb_ter_take(&p, (size_t)(n + 1) * 4);
    w->full = rb_ter_beam_full(n, m);
    if (!w->full) /* (a beam that holds every cell is read nowhere: lo and hi stay unset) */
        rb_ter_beam(n, m, w->lo, w->hi);
    w->off = NULL;
    w->fwd = w->bwd = w->row_a = w->row_b = w->rnext = NULL;
    w->ops = NULL;
    return RB_TER_OK;
}

/* One row of the edit distance in bit vectors (Hyyro 2003, "A bit-vector algorithm for
 * computing Levenshtein and Damerau edit distances", for the distance between whole strings):
 * from the previous row's deltas along the row (vp, vn) and the columns `eq` where the row's
 * hypothesis word equals the reference word, the new row's (*ovp, *ovn) and the deltas from
 * the previous row (*ohp, *ohn, may be NULL); `mask` holds the m columns.  The values are those
 * of rb_ter_cell's recurrence over the whole matrix (tests/test_ter.py compares them). */
static RB_ALWAYS_INLINE void RB_TB(rb_ter_bits_row)(RB_TB_W eq, RB_TB_W vp, RB_TB_W vn, RB_TB_W mask, RB_TB_W *ovp,
                                                    RB_TB_W *ovn, RB_TB_W *ohp, RB_TB_W *ohn) {
    RB_TB_W x = eq | vn;
    RB_TB_W d0 = (((x & vp) + vp) ^ vp) | x;
    RB_TB_W hp = vn | ~(d0 | vp), hn = vp & d0, hp1;
    if (ohp != NULL) {
        *ohp = hp & mask;
        *ohn = hn & mask;
    }
    hp1 = (hp << 1) | 1; /* column 0 is one edit more in each row */
    *ovp = ((hn << 1) | ~(d0 | hp1)) & mask;
    *ovn = d0 & hp1 & mask;
}

/* The next reference position of a set of them (bits), -1 when none is left. */
static RB_ALWAYS_INLINE int64_t RB_TB(rb_ter_next_bit)(RB_TB_W *set) {
    int64_t r;
    if (*set == 0)
        return -1;
    r = RB_TB_CTZ(*set);
    *set &= *set - 1;
    return r;
}

/* The delta of column j >= 1 in a pair of delta vectors: +1, -1 or 0. */
static RB_ALWAYS_INLINE int32_t RB_TB(rb_ter_delta)(RB_TB_W p, RB_TB_W q, int64_t j) {
    return (int32_t)((p >> (j - 1)) & 1) - (int32_t)((q >> (j - 1)) & 1);
}

/* The sum of the deltas of columns 1..c (0 <= c <= RB_TB_WBITS) of a pair of delta vectors. */
static RB_ALWAYS_INLINE int32_t RB_TB(rb_ter_prefix)(RB_TB_W p, RB_TB_W q, int64_t c) {
    RB_TB_W low = RB_TB(rb_ter_low)(c);
    return (int32_t)RB_TB_POP(p & low) - (int32_t)RB_TB_POP(q & low);
}

/* The bit-vector case computes the matrix over every cell, as if there were no beam (the values
 * U).  Where the beam leaves cells out, U equals the beamed values on every cell of the beam iff
 * U obeys rb_ter_cell's recurrence there with the cells outside the beam unreachable (the
 * recurrence determines the values, row by row); only the cells of the beam with a neighbour
 * outside it can break that, so those are checked as each row is computed, and a pair where one
 * fails is computed again cell by cell.  Forward row i (values D[i][0] = i + the deltas) has
 * such cells at its first column and at the columns beyond the previous row's last; backward
 * row i (B[i][m] = n - i + the reversed deltas) at the columns before the next row's first and
 * at its last column. */

/* Whether U of forward cell (i, j) is the beamed value: rows i - 1 (pvp, pvn) and i (cvp, cvn),
 * `eq` the columns of hypothesis word i - 1. */
static int RB_TB(rb_ter_fcell_ok)(const rb_ter_work *w, int64_t i, int64_t j, RB_TB_W pvp, RB_TB_W pvn, RB_TB_W cvp,
                                  RB_TB_W cvn, RB_TB_W eq) {
    int32_t plo = w->lo[i - 1], phi = w->hi[i - 1], base = (int32_t)(i - 1);
    uint8_t mv;
    int32_t d = j > plo && j <= phi ? base + RB_TB(rb_ter_prefix)(pvp, pvn, j - 1) + !((eq >> (j - 1)) & 1)
                                    : RB_TER_INF;
    int32_t v = j >= plo && j < phi ? base + RB_TB(rb_ter_prefix)(pvp, pvn, j) + 1 : RB_TER_INF;
    int32_t h = j > w->lo[i] ? (int32_t)i + RB_TB(rb_ter_prefix)(cvp, cvn, j - 1) + 1 : RB_TER_INF;
    return rb_ter_cell(d, RB_OP_NOP, v, h, &mv) == (int32_t)i + RB_TB(rb_ter_prefix)(cvp, cvn, j);
}

/* Whether forward row i (from row i - 1, word columns eq; chp: the columns where U[i][j] -
 * U[i-1][j] = +1) holds the beamed values.  U[i][j] is the least of the three moves' values,
 * the beamed value the least of those within the beam, with the previous row's and the cells
 * before j's beamed values already equal to U; so a cell equals U where the moves the beam
 * leaves out cannot be the only cheapest, read off the deltas before rb_ter_fcell_ok computes
 * it: the first column (no horizontal move) where U[i][j] - U[i][j-1] is not +1 and both other
 * moves lie in the beam; column phi, the previous row's end (no vertical move), where U[i][j] -
 * U[i-1][j] is not +1; each column beyond (the horizontal move alone) exactly where U[i][j] -
 * U[i][j-1] = +1. */
static RB_ALWAYS_INLINE int RB_TB(rb_ter_frow_ok)(const rb_ter_work *w, int64_t i, RB_TB_W pvp, RB_TB_W pvn,
                                                  RB_TB_W cvp, RB_TB_W cvn, RB_TB_W chp, RB_TB_W eq) {
    int64_t j, clo = w->lo[i], chi = w->hi[i], plo = w->lo[i - 1], phi = w->hi[i - 1];
    if (clo > 0 && !(clo > plo && clo < phi && !((cvp >> (clo - 1)) & 1)) &&
        !RB_TB(rb_ter_fcell_ok)(w, i, clo, pvp, pvn, cvp, cvn, eq))
        return 0;
    j = phi > clo + 1 ? phi : clo + 1;
    if (j == phi && j < chi) {
        if (((chp >> (j - 1)) & 1) && !RB_TB(rb_ter_fcell_ok)(w, i, j, pvp, pvn, cvp, cvn, eq))
            return 0;
        j++;
    }
    if (j < chi) { /* columns j .. chi - 1: bits j - 1 .. chi - 2 */
        RB_TB_W cols = RB_TB(rb_ter_low)(chi - 1) & ~RB_TB(rb_ter_low)(j - 1);
        if ((cvp & cols) != cols)
            return 0;
    }
    return 1;
}

/* The backward value of cell (i, j) from row i's reversed deltas. */
static RB_ALWAYS_INLINE int32_t RB_TB(rb_ter_bvalue)(RB_TB_W vp, RB_TB_W vn, int64_t n, int64_t m, int64_t i,
                                                     int64_t j) {
    return (int32_t)(n - i) + RB_TB(rb_ter_prefix)(vp, vn, m - j);
}

/* Whether U of backward cell (i, j) is the beamed value (rb_ter_brow's recurrence). */
static int RB_TB(rb_ter_bcell_ok)(const rb_ter_work *w, int64_t i, int64_t j, int64_t n, int64_t m) {
    int64_t chi = w->hi[i], nlo = w->lo[i + 1], nhi = w->hi[i + 1];
    RB_TB_W cvp = RB_TB_A(bvp)[i], cvn = RB_TB_A(bvn)[i], nvp = RB_TB_A(bvp)[i + 1], nvn = RB_TB_A(bvn)[i + 1];
    int32_t h = j + 1 < chi ? RB_TB(rb_ter_bvalue)(cvp, cvn, n, m, i, j + 1) + 1 : RB_TER_INF;
    int32_t v = j >= nlo && j < nhi ? RB_TB(rb_ter_bvalue)(nvp, nvn, n, m, i + 1, j) + 1 : RB_TER_INF;
    int32_t d = RB_TER_INF;
    if (j < m && j + 1 >= nlo && j + 1 < nhi)
        d = RB_TB(rb_ter_bvalue)(nvp, nvn, n, m, i + 1, j + 1) + !((RB_TB_A(eqf)[i] >> j) & 1);
    return rb_ter_bcell(h, v, d) == RB_TB(rb_ter_bvalue)(cvp, cvn, n, m, i, j);
}

/* Whether backward row i (from row i + 1) holds the beamed values: its columns before the next
 * row's first, and its last column. */
static int RB_TB(rb_ter_brow_ok)(const rb_ter_work *w, int64_t i, int64_t n, int64_t m) {
    int64_t clo = w->lo[i], chi = w->hi[i], nlo = w->lo[i + 1], j;
    for (j = clo; j < nlo && j < chi - 1; j++)
        if (!RB_TB(rb_ter_bcell_ok)(w, i, j, n, m))
            return 0;
    return RB_TB(rb_ter_bcell_ok)(w, i, chi - 1, n, m);
}

/* The same trace in the bit-vector case: each cell's move is rb_ter_cell's (the first cheapest
 * of the diagonal, vertical and horizontal moves within the beam), read off the deltas without
 * the values: with dh = D[i][j] - D[i-1][j] and dv = D[i-1][j] - D[i-1][j-1], the diagonal move
 * costs D[i-1][j-1] + sub = D[i][j] - dh - dv + sub, the cheapest (D[i][j]) exactly where
 * sub = dh + dv; the vertical move D[i-1][j] + 1 exactly where dh = 1; else the horizontal one
 * is the cheapest.  Only the moves the beam holds count (every one where it holds every cell). */
static void RB_TB(rb_ter_trace_bits)(rb_ter_work *w, int64_t n, int64_t m) {
    int64_t i = n, j = m;
    rb_ter_errors e = rb_ter_errors_start(w, n, m);
    while (i > 0 || j > 0) {
        uint8_t mv;
        if (i == 0) {
            mv = RB_OP_INS;
        } else if (j == 0) {
            mv = RB_OP_DEL;
        } else {
            int32_t sub = !((RB_TB_A(eqf)[i - 1] >> (j - 1)) & 1);
            int32_t dh = RB_TB(rb_ter_delta)(RB_TB_A(fhp)[i], RB_TB_A(fhn)[i], j);
            int32_t dv = RB_TB(rb_ter_delta)(RB_TB_A(fvp)[i - 1], RB_TB_A(fvn)[i - 1], j);
            if (sub == dh + dv && (w->full || (j > w->lo[i - 1] && j <= w->hi[i - 1])))
                mv = sub ? RB_OP_SUB : RB_OP_NOP;
            else if (dh == 1 && (w->full || j < w->hi[i - 1]))
                mv = RB_OP_DEL;
            else
                mv = RB_OP_INS;
        }
        rb_ter_trace_move(w, mv, &i, &j, &e, RB_TB_WBITS / 64);
    }
    w->errwin[0] = e.win[0];
    w->errwin[1] = e.win[1];
}

/* Forward rows from+1 .. n of the current hypothesis in bit vectors (row `from` computed);
 * 0 where a row is not the beamed one (the pair is computed cell by cell instead). */
static int RB_TB(rb_ter_forward_bits)(rb_ter_work *w, int64_t from, int64_t n, RB_TB_W mask) {
    RB_TB_W *fvp = RB_TB_A(fvp), *fvn = RB_TB_A(fvn), *fhp = RB_TB_A(fhp), *fhn = RB_TB_A(fhn), *eqf = RB_TB_A(eqf);
    int64_t i;
    for (i = from + 1; i <= n; i++) {
        RB_TB(rb_ter_bits_row)(eqf[i - 1], fvp[i - 1], fvn[i - 1], mask, &fvp[i], &fvn[i], &fhp[i], &fhn[i]);
        if (!w->full && !RB_TB(rb_ter_frow_ok)(w, i, fvp[i - 1], fvn[i - 1], fvp[i], fvn[i], fhp[i], eqf[i - 1]))
            return 0;
    }
    return 1;
}

/* The candidate's edit distance in the bit-vector case (rb_ter_candidate's join): row b of the
 * forward values from row a over the span's words, plus backward row b, at their cheapest
 * column of the beam; backward rows run over the reversed strings (row i from row i + 1 and
 * word i).  Where the beam holds every cell and the hypothesis has at most m + 1 words after
 * the span, the forward rows go on to row n instead (the same value: the edit distance).  -1
 * where a row is not the beamed one. */
static int32_t RB_TB(rb_ter_candidate_bits)(rb_ter_work *w, int64_t a, int64_t b, int64_t n, int64_t m,
                                            RB_TB_W mask) {
    RB_TB_W *eqf = RB_TB_A(eqf), *bvpa = RB_TB_A(bvp), *bvna = RB_TB_A(bvn);
    RB_TB_W vp = RB_TB_A(fvp)[a], vn = RB_TB_A(fvn)[a], bvp, bvn;
    int64_t i, j, jlo, jhi;
    int32_t f, bk, best;
    if (w->full && n - b <= m + 1) {
        /* every cell in the beam: the rows after the span (the current words) to row n cost no
         * more than the join over row b's m + 1 columns, and need no backward rows */
        for (i = a + 1; i <= n; i++)
            RB_TB(rb_ter_bits_row)(i <= b ? eqf[w->src[i - 1 - a]] : eqf[i - 1], vp, vn, mask, &vp, &vn, NULL, NULL);
        return (int32_t)n + RB_TB_POP(vp) - RB_TB_POP(vn);
    }
    for (i = w->bvalid - 1; i >= b; i--) {
        RB_TB(rb_ter_bits_row)(RB_TB_A(eqr)[i], bvpa[i + 1], bvna[i + 1], mask, &bvpa[i], &bvna[i], NULL, NULL);
        w->bvalid = i;
        if (!w->full && !RB_TB(rb_ter_brow_ok)(w, i, n, m))
            return -1;
    }
    for (i = a + 1; i <= b; i++) {
        RB_TB_W pvp = vp, pvn = vn, hp, hn, eq = eqf[w->src[i - 1 - a]];
        RB_TB(rb_ter_bits_row)(eq, pvp, pvn, mask, &vp, &vn, &hp, &hn);
        if (!w->full && !RB_TB(rb_ter_frow_ok)(w, i, pvp, pvn, vp, vn, hp, eq))
            return -1;
    }
    /* forward row b: D[b][j] = b + the deltas of columns 1..j; backward row b: B[b][j] =
     * n - b + the reversed deltas of columns 1..m - j; over the beam's columns jlo..jhi-1 */
    bvp = bvpa[b];
    bvn = bvna[b];
    jlo = w->full ? 0 : w->lo[b];
    jhi = w->full ? m + 1 : w->hi[b];
    f = (int32_t)b + RB_TB(rb_ter_prefix)(vp, vn, jlo);
    bk = RB_TB(rb_ter_bvalue)(bvp, bvn, n, m, b, jlo);
    best = f + bk;
    for (j = jlo + 1; j < jhi; j++) {
        f += RB_TB(rb_ter_delta)(vp, vn, j);
        bk -= RB_TB(rb_ter_delta)(bvp, bvn, m - j + 1);
        if (f + bk < best)
            best = f + bk;
    }
    return best;
}

/* The columns of the words of the span a..b-1 after a shift (rb_ter_apply_shift moved the
 * words): those at src, through teq. */
static void RB_TB(rb_ter_shift_columns)(rb_ter_work *w, int64_t a, int64_t b) {
    RB_TB_W *eq[2] = {RB_TB_A(eqf), RB_TB_A(eqr)}, *teq = RB_TB_A(teq);
    int64_t k;
    int e;
    for (e = 0; e < 2; e++) {
        for (k = 0; k < b - a; k++)
            teq[k] = eq[e][w->src[k]];
        memcpy(eq[e] + a, teq, (size_t)(b - a) * sizeof(RB_TB_W));
    }
}

/* Set up the bit-vector case: each hypothesis word's columns in the reference (forward and
 * reversed), through the table of the pair's words (two words of this copy's type an id); rows
 * 0 and n. */
static int RB_TB(rb_ter_setup_bits)(rb_ter_work *w, const int32_t *hyp, int64_t n, const int32_t *ref, int64_t m,
                                    RB_TB_W mask) {
    RB_TB_W *eqf = RB_TB_A(eqf), *eqr = RB_TB_A(eqr);
    int64_t k;
    if (rb_ter_word_table(w, hyp, n, ref, m, 0, 2 * sizeof(RB_TB_W) / 8) != RB_TER_OK)
        return RB_TER_ENOMEM;
    for (k = 0; k < m; k++) {
        RB_TB_W *e = (RB_TB_W *)rb_ter_word(w, ref[k]);
        e[0] |= (RB_TB_W)1 << k;
        e[1] |= (RB_TB_W)1 << (m - 1 - k);
    }
    for (k = 0; k < n; k++) {
        const RB_TB_W *e = (const RB_TB_W *)rb_ter_word(w, hyp[k]);
        eqf[k] = e[0];
        eqr[k] = e[1];
    }
    RB_TB_A(fvp)[0] = mask; /* D[0][j] = j */
    RB_TB_A(fvn)[0] = 0;
    RB_TB_A(fhp)[0] = RB_TB_A(fhn)[0] = 0;
    RB_TB_A(bvp)[n] = mask; /* B[n][j] = m - j */
    RB_TB_A(bvn)[n] = 0;
    return RB_TER_OK;
}

/* The reference positions r with an error in r .. r + RB_TER_MAX_SHIFT_SIZE - 1 (the trace's). */
static RB_ALWAYS_INLINE RB_TB_W RB_TB(rb_ter_errwin)(const rb_ter_work *w) {
#if RB_TB_WBITS > 64
    return (RB_TB_W)w->errwin[0] | ((RB_TB_W)w->errwin[1] << 64);
#else
    return (RB_TB_W)w->errwin[0];
#endif
}

#endif /* !RB_TB_CELLS */

/* The number of edits that turn hyp (n words, n >= 1) into ref (m words, m >= 1): shifts +
 * beamed edit distance (the Python twin's translation_edit_rate), this copy's way: cell by
 * cell (rb_ter_cell), or in bit vectors (rb_ter_bits_row, a row at a time: the same values,
 * moves and results), which give way where the beam would change a value: RB_TER_CELLS, and
 * the caller computes the pair cell by cell. */
static int RB_TB(rb_ter_search)(rb_ter_work *w, const int32_t *hyp, int64_t n, const int32_t *ref, int64_t m,
                                int64_t *edits) {
    int64_t shifts = 0, checked = 0, h, r;
#if RB_TB_CELLS
    int64_t j;
    int rc = rb_ter_reserve(w, n, m);
    if (rc == RB_TER_OK)
        rc = rb_ter_setup_positions(w, hyp, n, ref, m);
    if (rc != RB_TER_OK)
        return rc;
    memcpy(w->words, hyp, (size_t)n * sizeof(int32_t));
    for (j = 0; j <= m; j++) {
        w->fwd[j] = (int32_t)j;
        w->ops[j] = RB_OP_INS;
    }
    rb_ter_forward(w, 0, n, ref);
    for (j = w->lo[n]; j <= m; j++)
        w->bwd[w->off[n] + j - w->lo[n]] = (int32_t)(m - j);
#else
    RB_TB_W mask = RB_TB(rb_ter_low)(m);
    if (RB_TB(rb_ter_reserve_bits)(w, n, m) != RB_TER_OK)
        return RB_TER_ENOMEM;
    memcpy(w->words, hyp, (size_t)n * sizeof(int32_t));
    if (RB_TB(rb_ter_setup_bits)(w, hyp, n, ref, m, mask) != RB_TER_OK)
        return RB_TER_ENOMEM;
    if (!RB_TB(rb_ter_forward_bits)(w, 0, n, mask))
        return RB_TER_CELLS;
#endif
    w->bvalid = n; /* the other backward rows: when a candidate needs them */

    for (;;) {
        int32_t dist;
        int have = 0;
        int64_t bg = 0, bl = 0, bh = 0, bt = 0, a, b;
#if RB_TB_CELLS
        dist = w->fwd[w->off[n] + m - w->lo[n]];
        rc = rb_ter_trace(w, n, m);
        if (rc != RB_TER_OK)
            return rc;
#else
        RB_TB_W errwin;
        dist = (int32_t)n + (int32_t)RB_TB_POP(RB_TB_A(fvp)[n]) - (int32_t)RB_TB_POP(RB_TB_A(fvn)[n]);
        RB_TB(rb_ter_trace_bits)(w, n, m);
        errwin = RB_TB(rb_ter_errwin)(w);
#endif
        for (h = 0; h < n; h++) {
            /* the positions r of the shift window (at most RB_TER_MAX_SHIFT_DIST from h),
             * ascending, where word h is (a common block starts): in the bit-vector case the set
             * bits of its columns where a block can hold a reference error, else its positions in
             * the reference from the window's first; none where no block starting at h holds a
             * hypothesis error */
#if RB_TB_CELLS
            int64_t r_lo = h - RB_TER_MAX_SHIFT_DIST > 0 ? h - RB_TER_MAX_SHIFT_DIST : 0;
            int64_t r_hi = h + RB_TER_MAX_SHIFT_DIST < m - 1 ? h + RB_TER_MAX_SHIFT_DIST : m - 1;
            if (w->next_h[h] >= h + RB_TER_MAX_SHIFT_SIZE)
                continue;
            for (r = rb_ter_first_at(w, w->words[h], r_lo); r >= 0 && r <= r_hi; r = w->rnext[r]) {
#else
            RB_TB_W starts = RB_TB_A(eqf)[h] & errwin;
            if ((starts == 0) | (w->next_h[h] >= h + RB_TER_MAX_SHIFT_SIZE)) /* (one branch) */
                continue;
            if (h + RB_TER_MAX_SHIFT_DIST < m - 1) /* (the window cuts the reference only past 50 words) */
                starts &= RB_TB(rb_ter_low)(h + RB_TER_MAX_SHIFT_DIST + 1);
            if (h > RB_TER_MAX_SHIFT_DIST) /* (every column where h is past the reference's end) */
                starts &= ~RB_TB(rb_ter_low)(h - RB_TER_MAX_SHIFT_DIST);
            for (r = RB_TB(rb_ter_next_bit)(&starts); r >= 0; r = RB_TB(rb_ter_next_bit)(&starts)) {
#endif
                /* the block lengths that can give a candidate: those whose hypothesis block and
                 * reference block both hold an error (len_lo on), and not those whose
                 * hypothesis block holds the word aligned to reference position r (up to len_hi) */
                int64_t common, len, ar = w->align[r];
                int64_t len_lo = 1 + (w->next_h[h] - h > w->next_r[r] - r ? w->next_h[h] - h : w->next_r[r] - r);
                int64_t len_hi = ar >= h && ar - h < RB_TER_MAX_SHIFT_SIZE ? ar - h : RB_TER_MAX_SHIFT_SIZE;
                if (len_lo > len_hi)
                    continue;
                common = 1; /* the common block's length, as far as len_hi */
                while (common < len_hi && h + common < n && r + common < m && w->words[h + common] == ref[r + common])
                    common++;
                for (len = len_lo; len <= common; len++) {
                    int64_t prev_t = -1, off;
                    for (off = -1; off < len; off++) {
                        int64_t t = r + off == -1 ? 0 : (int64_t)w->align[r + off] + 1, gain;
                        if (t == prev_t)
                            continue;
                        prev_t = t;
                        checked++;
                        if (t == h) {
                            gain = 0; /* the identity */
                        } else {
                            int32_t d;
                            rb_ter_shift_src(n, h, len, t, &a, &b, w->src);
#if RB_TB_CELLS
                            d = rb_ter_candidate(w, a, b, ref, m);
#else
                            d = RB_TB(rb_ter_candidate_bits)(w, a, b, n, m, mask);
                            if (d < 0) /* a row the beam changes: the pair cell by cell */
                                return RB_TER_CELLS;
#endif
                            gain = (int64_t)dist - d;
                        }
                        if (!have || gain > bg ||
                            (gain == bg && (len > bl || (len == bl && (h < bh || (h == bh && t < bt)))))) {
                            have = 1;
                            bg = gain;
                            bl = len;
                            bh = h;
                            bt = t;
                        }
                    }
                    if (checked >= RB_TER_MAX_CANDIDATES) {
                        *edits = shifts + dist;
                        return RB_TER_OK;
                    }
                }
            }
        }
        if (!have || bg <= 0) {
            *edits = shifts + dist;
            return RB_TER_OK;
        }
        /* apply the best shift; rows before its span (forward) and after it (backward) stay */
        rb_ter_shift_src(n, bh, bl, bt, &a, &b, w->src);
        rb_ter_apply_shift(w, a, b);
#if RB_TB_CELLS
        rb_ter_forward(w, a, n, ref);
#else
        RB_TB(rb_ter_shift_columns)(w, a, b);
        if (!RB_TB(rb_ter_forward_bits)(w, a, n, mask))
            return RB_TER_CELLS;
#endif
        if (w->bvalid < b) /* rows from b on are unchanged; those above are the old hypothesis's */
            w->bvalid = b;
        shifts++;
    }
}

#undef RB_TB_A
#undef RB_TB
#undef RB_TB_CELLS
#undef RB_TB_W
#undef RB_TB_WBITS
#undef RB_TB_POP
#undef RB_TB_CTZ
