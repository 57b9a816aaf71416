/* TER's shift search and beamed edit distance in C, on words interned to int32 ids.
 *
 * The rules are those of the Python twin (src/rapidbleu/_core/ter_py.py, whose module documentation
 * states them and where each comes from); this file follows it function for function:
 *   rb_ter_beam      <- beam()               the columns of each row
 *   rb_ter_frow      <- _forward()           one forward row (values, and moves when asked)
 *   rb_ter_brow      <- backward_matrix()    one backward row
 *   rb_ter_trace     <- trace_moves() + _alignment() + _next_error()
 *   rb_ter_pair      <- translation_edit_rate()
 *   rb_ter_segments  <- the loop of ter_stats() over segments and references
 * Everything runs without the GIL on memory the caller owns (inputs, outputs) or that rb_ter_work
 * owns (one work area per thread, grown as needed, freed by rb_ter_work_free).
 */
#ifndef RAPIDBLEU_TER_H
#define RAPIDBLEU_TER_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compiler.h"

#define RB_TER_MAX_SHIFT_SIZE 10
#define RB_TER_MAX_SHIFT_DIST 50
#define RB_TER_BEAM_WIDTH 25
#define RB_TER_MAX_CANDIDATES 1000
/* An unreachable cell.  Costs are at most n + m + shifts <= 2**19 + 1000 (MAX_WORDS each), and INF + INF
 * still fits in an int32. */
#define RB_TER_INF 0x3FFFFFFF

#define RB_TER_OK 0
#define RB_TER_ENOMEM 1
#define RB_TER_EBROKEN 2 /* no move into a cell of the trace: cannot happen (the beam connects) */

enum { RB_OP_NOP = 0, RB_OP_SUB = 1, RB_OP_INS = 2, RB_OP_DEL = 3, RB_OP_UNDEF = 4 };

typedef struct {
    void *block; /* one allocation, carved into the arrays below */
    size_t cap;  /* its size in bytes */
    int64_t *off;             /* n + 2: first cell of each row; off[n + 1] = cells */
    int32_t *lo, *hi;         /* n + 1: the columns lo[i] <= j < hi[i] of row i */
    int32_t *fwd, *bwd;       /* cells: forward and backward values */
    uint8_t *ops;             /* cells: forward moves */
    int32_t *words, *tmp;     /* n: current hypothesis; scratch for a shifted block */
    int32_t *next_h, *next_r; /* n + 1, m + 1: first error at or after each position */
    int32_t *align;           /* m */
    int32_t *row_a, *row_b;   /* width: two rows for a candidate's recomputed span */
    int32_t *src;             /* n: the source position of each word of a shifted span */
    int64_t bvalid;           /* backward rows bvalid .. n hold the current hypothesis's values */
    /* The bit-vector case (rb_ter_reserve_bits; fvp NULL otherwise), bit k for column k + 1:
     * forward row i's deltas along the row (fvp: D[i][k+1] - D[i][k] = +1, fvn: -1) and from
     * the row above (fhp: D[i][k+1] - D[i-1][k+1] = +1, fhn: -1); backward row i's deltas along
     * the reversed reference (bvp, bvn: B[i][m-k-1] - B[i][m-k] = +1, -1), n + 1 each. */
    uint64_t *fvp, *fvn, *fhp, *fhn, *bvp, *bvn;
    uint64_t *eqf, *eqr, *teq; /* n: each word's columns in the reference (reversed: eqr); a span's */
    /* rb_ter_word_table: two entries for each id of the pair (idlo the least), apart from the
     * block; in the bit-vector case a word's columns in the reference, forward and reversed,
     * else its first position in the reference (-1: none), the next ones through rnext */
    uint64_t *wtab;
    size_t wcap; /* its entries */
    int64_t idlo;
    int32_t *rnext; /* m, cell by cell: the next position of the same word in the reference */
    int full;                  /* the beam holds every cell (no cell of it needs checking) */
    uint64_t errwin;           /* the reference positions r with an error in r .. r + 9 */
} rb_ter_work;

/* The most reference words of the bit-vector case. */
#define RB_TER_BITS 64

static inline void rb_ter_work_init(rb_ter_work *w) { memset(w, 0, sizeof(*w)); }

static inline void rb_ter_work_free(rb_ter_work *w) {
    free(w->block);
    free(w->wtab);
    memset(w, 0, sizeof(*w));
}

static inline size_t rb_ter_align8(size_t x) { return (x + 7) & ~(size_t)7; }

/* The beam of an n x m matrix (n >= 1, m >= 1) into lo/hi (n + 1 each): the Python twin's
 * beam(), in the same double arithmetic.  Rows 0 and n hold every column, m + 1. */
static void rb_ter_beam(int64_t n, int64_t m, int32_t *lo, int32_t *hi) {
    double ratio = (double)m / (double)n;
    int64_t width = RB_TER_BEAM_WIDTH, i;
    if ((double)RB_TER_BEAM_WIDTH < ratio / 2)
        width = (int64_t)ceil(ratio / 2 + (double)RB_TER_BEAM_WIDTH);
    lo[0] = 0;
    hi[0] = (int32_t)(m + 1);
    for (i = 1; i <= n; i++) {
        int64_t diag = (int64_t)floor((double)i * ratio);
        int64_t l = diag - width, h = diag + width;
        lo[i] = (int32_t)(l > 0 ? l : 0);
        hi[i] = (int32_t)(i == n || h > m + 1 ? m + 1 : h);
    }
}

/* The work area at least `need` bytes (its contents kept). */
static int rb_ter_grow(rb_ter_work *w, size_t need) {
    void *b;
    if (w->cap >= need)
        return RB_TER_OK;
    b = realloc(w->block, need);
    if (b == NULL)
        return RB_TER_ENOMEM;
    w->block = b;
    w->cap = need;
    return RB_TER_OK;
}

/* The head of the work area for n hypothesis words: off (n + 2), lo and hi (n + 1 each), each
 * 8-aligned; returns where the rest of the layout starts. */
static char *rb_ter_lay_head(rb_ter_work *w, int64_t n) {
    char *p = (char *)w->block;
    w->off = (int64_t *)p;
    p += rb_ter_align8((size_t)(n + 2) * 8);
    w->lo = (int32_t *)p;
    p += rb_ter_align8((size_t)(n + 1) * 4);
    w->hi = (int32_t *)p;
    return p + rb_ter_align8((size_t)(n + 1) * 4);
}

/* The arrays of the trace and the shift search, for n hypothesis and m reference words: their
 * bytes (rb_ter_trace_bytes), and their layout from p (rb_ter_lay_trace: words, tmp and src of n;
 * next_h of n + 1; next_r and align of m + 1; returns their end). */
static size_t rb_ter_trace_bytes(int64_t n, int64_t m) {
    return 3 * rb_ter_align8((size_t)n * 4) + rb_ter_align8((size_t)(n + 1) * 4) +
           2 * rb_ter_align8((size_t)(m + 1) * 4);
}

static char *rb_ter_lay_trace(rb_ter_work *w, char *p, int64_t n, int64_t m) {
    w->words = (int32_t *)p;
    p += rb_ter_align8((size_t)n * 4);
    w->tmp = (int32_t *)p;
    p += rb_ter_align8((size_t)n * 4);
    w->src = (int32_t *)p;
    p += rb_ter_align8((size_t)n * 4);
    w->next_h = (int32_t *)p;
    p += rb_ter_align8((size_t)(n + 1) * 4);
    w->next_r = (int32_t *)p;
    p += rb_ter_align8((size_t)(m + 1) * 4);
    w->align = (int32_t *)p;
    return p + rb_ter_align8((size_t)(m + 1) * 4);
}

/* Size the work area for an n x m pair and lay the arrays out in it. */
static int rb_ter_reserve(rb_ter_work *w, int64_t n, int64_t m) {
    /* the beam first (into a temporary layout): it decides the number of cells */
    size_t head = rb_ter_align8((size_t)(n + 2) * 8) + 2 * rb_ter_align8((size_t)(n + 1) * 4);
    size_t need;
    int64_t cells = 0, i;
    char *p;
    if (rb_ter_grow(w, head) != RB_TER_OK)
        return RB_TER_ENOMEM;
    rb_ter_lay_head(w, n);
    rb_ter_beam(n, m, w->lo, w->hi);
    for (i = 0; i <= n; i++) {
        w->off[i] = cells;
        cells += w->hi[i] - w->lo[i];
    }
    w->off[n + 1] = cells;
    need = head + 2 * rb_ter_align8((size_t)cells * 4) + rb_ter_align8((size_t)cells) + rb_ter_trace_bytes(n, m) +
           3 * rb_ter_align8((size_t)(m + 1) * 4);
    if (rb_ter_grow(w, need) != RB_TER_OK) /* realloc keeps the head (off, lo, hi) */
        return RB_TER_ENOMEM;
    p = rb_ter_lay_head(w, n);
    w->fwd = (int32_t *)p;
    p += rb_ter_align8((size_t)cells * 4);
    w->bwd = (int32_t *)p;
    p += rb_ter_align8((size_t)cells * 4);
    w->ops = (uint8_t *)p;
    p += rb_ter_align8((size_t)cells);
    p = rb_ter_lay_trace(w, p, n, m);
    w->row_a = (int32_t *)p;
    p += rb_ter_align8((size_t)(m + 1) * 4);
    w->row_b = (int32_t *)p;
    p += rb_ter_align8((size_t)(m + 1) * 4);
    w->rnext = (int32_t *)p;
    w->fvp = NULL;
    return RB_TER_OK;
}

/* Whether the beam of an n x m matrix (n, m >= 1) holds every cell: rb_ter_beam's bounds, in
 * its arithmetic, at the rows where they are tightest (floor(i * ratio) grows with i): the
 * first column of the last row (row n has every column from its first on), the last column of
 * row 1. */
static int rb_ter_beam_full(int64_t n, int64_t m) {
    double ratio;
    int64_t width = RB_TER_BEAM_WIDTH;
    if (m < RB_TER_BEAM_WIDTH)
        return 1; /* floor(i * ratio) <= m < width for every row: no arithmetic needed */
    ratio = (double)m / (double)n;
    if ((double)RB_TER_BEAM_WIDTH < ratio / 2)
        width = (int64_t)ceil(ratio / 2 + (double)RB_TER_BEAM_WIDTH);
    if ((int64_t)floor((double)n * ratio) - width > 0)
        return 0;
    return n < 2 || (int64_t)floor(ratio) + width >= m + 1;
}

/* Size the work area of the bit-vector case (n hypothesis words, m <= RB_TER_BITS reference
 * words) and lay its arrays out: no matrix, one 64-bit word per row for each delta vector. */
static int rb_ter_reserve_bits(rb_ter_work *w, int64_t n, int64_t m) {
    size_t u64row = (size_t)(n + 1) * 8, need;
    char *p;
    need = rb_ter_trace_bytes(n, m) + 2 * rb_ter_align8((size_t)(n + 1) * 4) + 6 * u64row + 3 * (size_t)n * 8;
    if (rb_ter_grow(w, need) != RB_TER_OK)
        return RB_TER_ENOMEM;
    p = (char *)w->block;
    w->fvp = (uint64_t *)p;
    w->fvn = w->fvp + (n + 1);
    w->fhp = w->fvn + (n + 1);
    w->fhn = w->fhp + (n + 1);
    w->bvp = w->fhn + (n + 1);
    w->bvn = w->bvp + (n + 1);
    w->eqf = w->bvn + (n + 1);
    w->eqr = w->eqf + n;
    w->teq = w->eqr + n;
    p = (char *)(w->teq + n);
    p = rb_ter_lay_trace(w, p, n, m);
    w->lo = (int32_t *)p;
    p += rb_ter_align8((size_t)(n + 1) * 4);
    w->hi = (int32_t *)p;
    w->full = rb_ter_beam_full(n, m);
    if (w->full) { /* the beam of rb_ter_beam, without its arithmetic */
        int64_t i;
        for (i = 0; i <= n; i++) {
            w->lo[i] = 0;
            w->hi[i] = (int32_t)(m + 1);
        }
    } else {
        rb_ter_beam(n, m, w->lo, w->hi);
    }
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
static RB_ALWAYS_INLINE void rb_ter_bits_row(uint64_t eq, uint64_t vp, uint64_t vn, uint64_t mask, uint64_t *ovp,
                                             uint64_t *ovn, uint64_t *ohp, uint64_t *ohn) {
    uint64_t x = eq | vn;
    uint64_t d0 = (((x & vp) + vp) ^ vp) | x;
    uint64_t hp = vn | ~(d0 | vp), hn = vp & d0, hp1;
    if (ohp != NULL) {
        *ohp = hp & mask;
        *ohn = hn & mask;
    }
    hp1 = (hp << 1) | 1; /* column 0 is one edit more in each row */
    *ovp = ((hn << 1) | ~(d0 | hp1)) & mask;
    *ovn = d0 & hp1 & mask;
}

/* The rule of one forward cell: the first cheapest of the diagonal move (cost d, move dm: NOP or
 * SUB), the vertical move (v: a hypothesis word without reference word) and the horizontal move
 * (h: a reference word without hypothesis word), a move that does not exist costing RB_TER_INF;
 * an unreachable cell is RB_TER_INF with move UNDEF.  Returns the cost, the move into *mv. */
static inline int32_t rb_ter_cell(int32_t d, uint8_t dm, int32_t v, int32_t h, uint8_t *mv) {
    /* (selections, not branches: which move is the cheapest follows no pattern) */
    int vless = v < d, hless, inf;
    int32_t best = vless ? v : d;
    uint8_t m = vless ? (uint8_t)RB_OP_DEL : dm;
    hless = h < best;
    best = hless ? h : best;
    m = hless ? (uint8_t)RB_OP_INS : m;
    inf = best >= RB_TER_INF;
    *mv = inf ? (uint8_t)RB_OP_UNDEF : m;
    return inf ? RB_TER_INF : best;
}

/* One forward row: columns clo..chi-1 of `cur` from the previous row (`prev`, columns
 * plo..phi-1, plo <= clo: the beam never moves left) and the hypothesis word consumed into this
 * row, each cell by rb_ter_cell; `ops` (may be NULL) gets the moves.  The columns split into
 * runs where the same moves exist (the first column has no horizontal move, the columns from
 * phi on no vertical one), so the inner loop has no bounds tests. */
static inline void rb_ter_frow(const int32_t *prev, int32_t plo, int32_t phi, int32_t *cur, uint8_t *ops,
                               int32_t clo, int32_t chi, int32_t word, const int32_t *ref) {
    int32_t j = clo, best, mid_end;
    uint8_t mv;
    {
        int has_diag = j > plo && j <= phi;
        int32_t sub = has_diag ? word != ref[j - 1] : 0;
        best = rb_ter_cell(has_diag ? prev[j - 1 - plo] + sub : RB_TER_INF,
                           has_diag ? (sub ? RB_OP_SUB : RB_OP_NOP) : RB_OP_UNDEF,
                           j < phi ? prev[j - plo] + 1 : RB_TER_INF, RB_TER_INF, &mv);
    }
    cur[0] = best;
    if (ops != NULL)
        ops[0] = mv;
    /* every move exists: clo < j < phi */
    mid_end = phi < chi ? phi : chi;
    for (j = clo + 1; j < mid_end; j++) {
        int32_t sub = word != ref[j - 1];
        best = rb_ter_cell(prev[j - 1 - plo] + sub, sub ? RB_OP_SUB : RB_OP_NOP, prev[j - plo] + 1, best + 1, &mv);
        cur[j - clo] = best;
        if (ops != NULL)
            ops[j - clo] = mv;
    }
    /* j == phi: diagonal and horizontal; beyond: horizontal only */
    for (j = mid_end > clo + 1 ? mid_end : clo + 1; j < chi; j++) {
        int32_t sub = j <= phi ? word != ref[j - 1] : 0;
        best = rb_ter_cell(j <= phi ? prev[j - 1 - plo] + sub : RB_TER_INF,
                           j <= phi ? (sub ? RB_OP_SUB : RB_OP_NOP) : RB_OP_UNDEF, RB_TER_INF, best + 1, &mv);
        cur[j - clo] = best;
        if (ops != NULL)
            ops[j - clo] = mv;
    }
}

/* The rule of one backward cell: the cheapest of the horizontal move (h: to the next column of
 * the same row), the vertical move (v) and the diagonal move (d), a move that does not exist
 * costing RB_TER_INF; an unreachable cell is RB_TER_INF. */
static inline int32_t rb_ter_bcell(int32_t h, int32_t v, int32_t d) {
    int32_t best = h;
    if (v < best)
        best = v;
    if (d < best)
        best = d;
    return best > RB_TER_INF ? RB_TER_INF : best;
}

/* One backward row (cheapest completion to the last cell): columns clo..chi-1 of `cur` from
 * the next row (`nxt`, columns nlo..nhi-1), the hypothesis word consumed into the next row. */
static inline void rb_ter_brow(const int32_t *nxt, int32_t nlo, int32_t nhi, int32_t *cur, int32_t clo, int32_t chi,
                               int32_t word, const int32_t *ref, int64_t m) {
    int32_t j, right = RB_TER_INF;
    for (j = chi - 1; j >= clo; j--) {
        int32_t h = j + 1 < chi ? right + 1 : RB_TER_INF;
        int32_t v = j >= nlo && j < nhi ? nxt[j - nlo] + 1 : RB_TER_INF;
        int32_t d = j < m && j + 1 >= nlo && j + 1 < nhi ? nxt[j + 1 - nlo] + (word != ref[j]) : RB_TER_INF;
        int32_t best = rb_ter_bcell(h, v, d);
        cur[j - clo] = best;
        right = best;
    }
}

/* Forward rows from+1 .. n of the current hypothesis (row `from` already computed). */
static void rb_ter_forward(rb_ter_work *w, int64_t from, int64_t n, const int32_t *ref) {
    int64_t i;
    for (i = from + 1; i <= n; i++)
        rb_ter_frow(w->fwd + w->off[i - 1], w->lo[i - 1], w->hi[i - 1], w->fwd + w->off[i], w->ops + w->off[i],
                    w->lo[i], w->hi[i], w->words[i - 1], ref);
}

/* Backward rows down to row `to` (rows bvalid .. n already hold the current hypothesis's
 * values): computed when a candidate first needs them, so rows no candidate reads are never
 * computed (the values are the same whenever they are computed). */
static void rb_ter_backward(rb_ter_work *w, int64_t to, const int32_t *ref, int64_t m) {
    int64_t i;
    for (i = w->bvalid - 1; i >= to; i--)
        rb_ter_brow(w->bwd + w->off[i + 1], w->lo[i + 1], w->hi[i + 1], w->bwd + w->off[i], w->lo[i], w->hi[i],
                    w->words[i], ref, m);
    if (to < w->bvalid)
        w->bvalid = to;
}

/* The first errors of a trace as it is read back (from the last cell): the first error of the
 * hypothesis at or after the current row (nh) and of the reference at or after the current
 * column (nr); in the bit-vector case, win: the reference positions r where a block of at most
 * RB_TER_MAX_SHIFT_SIZE words can start and hold an error (nr of r < r + the size). */
typedef struct {
    int32_t nh, nr;
    uint64_t win;
} rb_ter_errors;

/* One move of a trace, read back from cell (*i, *j): the alignment (align: for each reference
 * word the hypothesis position it follows) and the first-error-at-or-after tables (next_h,
 * next_r: each position is met once, the positions after it first, so its entry is itself
 * where the move is an error, else the entry after it); the cell moves back. */
static RB_ALWAYS_INLINE void rb_ter_trace_move(rb_ter_work *w, uint8_t mv, int64_t *i, int64_t *j, rb_ter_errors *e,
                                               int bits) {
    if (mv != RB_OP_DEL) { /* a reference word: NOP, SUB or INS */
        int32_t r = (int32_t)(*j - 1);
        e->nr = mv == RB_OP_NOP ? e->nr : r;
        w->next_r[r] = e->nr;
        w->align[r] = (int32_t)(*i - 1);
        if (bits)
            e->win |= (uint64_t)(e->nr < r + RB_TER_MAX_SHIFT_SIZE) << r;
        --*j;
    }
    if (mv != RB_OP_INS) { /* a hypothesis word: NOP, SUB or DEL */
        int32_t h = (int32_t)(*i - 1);
        e->nh = mv == RB_OP_NOP ? e->nh : h;
        w->next_h[h] = e->nh;
        --*i;
    }
}

/* The state of a trace's errors before its first move back from cell (n, m). */
static RB_ALWAYS_INLINE rb_ter_errors rb_ter_errors_start(rb_ter_work *w, int64_t n, int64_t m) {
    rb_ter_errors e = {(int32_t)n, (int32_t)m, 0};
    w->next_h[n] = (int32_t)n;
    w->next_r[m] = (int32_t)m;
    return e;
}

/* The next reference position of a set of them (bits), -1 when none is left. */
static RB_ALWAYS_INLINE int64_t rb_ter_next_bit(uint64_t *set) {
    int64_t r;
    if (*set == 0)
        return -1;
    r = rb_ctz64(*set);
    *set &= *set - 1;
    return r;
}

/* The trace of the forward matrix, read back from the last cell, into the alignment and the
 * first-error-at-or-after tables. */
static int rb_ter_trace(rb_ter_work *w, int64_t n, int64_t m) {
    int64_t i = n, j = m;
    rb_ter_errors e = rb_ter_errors_start(w, n, m);
    while (i > 0 || j > 0) {
        uint8_t mv = w->ops[w->off[i] + j - w->lo[i]];
        if (mv > RB_OP_DEL)
            return RB_TER_EBROKEN;
        rb_ter_trace_move(w, mv, &i, &j, &e, 0);
    }
    return RB_TER_OK;
}

/* The delta of column j >= 1 in a pair of delta vectors: +1, -1 or 0. */
static RB_ALWAYS_INLINE int32_t rb_ter_delta(uint64_t p, uint64_t q, int64_t j) {
    return (int32_t)((p >> (j - 1)) & 1) - (int32_t)((q >> (j - 1)) & 1);
}

/* The bits of columns 1..c (0 <= c <= 64) of a delta vector. */
static RB_ALWAYS_INLINE uint64_t rb_ter_low(int64_t c) { return c >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << c) - 1; }

/* The sum of the deltas of columns 1..c (0 <= c <= 64) of a pair of delta vectors. */
static RB_ALWAYS_INLINE int32_t rb_ter_prefix(uint64_t p, uint64_t q, int64_t c) {
    uint64_t low = rb_ter_low(c);
    return (int32_t)rb_popcount64(p & low) - (int32_t)rb_popcount64(q & low);
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
static int rb_ter_fcell_ok(const rb_ter_work *w, int64_t i, int64_t j, uint64_t pvp, uint64_t pvn, uint64_t cvp,
                           uint64_t cvn, uint64_t eq) {
    int32_t plo = w->lo[i - 1], phi = w->hi[i - 1], base = (int32_t)(i - 1);
    uint8_t mv;
    int32_t d = j > plo && j <= phi ? base + rb_ter_prefix(pvp, pvn, j - 1) + !((eq >> (j - 1)) & 1) : RB_TER_INF;
    int32_t v = j >= plo && j < phi ? base + rb_ter_prefix(pvp, pvn, j) + 1 : RB_TER_INF;
    int32_t h = j > w->lo[i] ? (int32_t)i + rb_ter_prefix(cvp, cvn, j - 1) + 1 : RB_TER_INF;
    return rb_ter_cell(d, RB_OP_NOP, v, h, &mv) == (int32_t)i + rb_ter_prefix(cvp, cvn, j);
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
static RB_ALWAYS_INLINE int rb_ter_frow_ok(const rb_ter_work *w, int64_t i, uint64_t pvp, uint64_t pvn, uint64_t cvp, uint64_t cvn,
                          uint64_t chp, uint64_t eq) {
    int64_t j, clo = w->lo[i], chi = w->hi[i], plo = w->lo[i - 1], phi = w->hi[i - 1];
    if (clo > 0 && !(clo > plo && clo < phi && !((cvp >> (clo - 1)) & 1)) &&
        !rb_ter_fcell_ok(w, i, clo, pvp, pvn, cvp, cvn, eq))
        return 0;
    j = phi > clo + 1 ? phi : clo + 1;
    if (j == phi && j < chi) {
        if (((chp >> (j - 1)) & 1) && !rb_ter_fcell_ok(w, i, j, pvp, pvn, cvp, cvn, eq))
            return 0;
        j++;
    }
    if (j < chi) { /* columns j .. chi - 1: bits j - 1 .. chi - 2 */
        uint64_t cols = rb_ter_low(chi - 1) & ~rb_ter_low(j - 1);
        if ((cvp & cols) != cols)
            return 0;
    }
    return 1;
}

/* The backward value of cell (i, j) from row i's reversed deltas. */
static RB_ALWAYS_INLINE int32_t rb_ter_bvalue(uint64_t vp, uint64_t vn, int64_t n, int64_t m, int64_t i, int64_t j) {
    return (int32_t)(n - i) + rb_ter_prefix(vp, vn, m - j);
}

/* Whether U of backward cell (i, j) is the beamed value (rb_ter_brow's recurrence). */
static int rb_ter_bcell_ok(const rb_ter_work *w, int64_t i, int64_t j, int64_t n, int64_t m) {
    int64_t chi = w->hi[i], nlo = w->lo[i + 1], nhi = w->hi[i + 1];
    uint64_t cvp = w->bvp[i], cvn = w->bvn[i], nvp = w->bvp[i + 1], nvn = w->bvn[i + 1];
    int32_t h = j + 1 < chi ? rb_ter_bvalue(cvp, cvn, n, m, i, j + 1) + 1 : RB_TER_INF;
    int32_t v = j >= nlo && j < nhi ? rb_ter_bvalue(nvp, nvn, n, m, i + 1, j) + 1 : RB_TER_INF;
    int32_t d = RB_TER_INF;
    if (j < m && j + 1 >= nlo && j + 1 < nhi)
        d = rb_ter_bvalue(nvp, nvn, n, m, i + 1, j + 1) + !((w->eqf[i] >> j) & 1);
    return rb_ter_bcell(h, v, d) == rb_ter_bvalue(cvp, cvn, n, m, i, j);
}

/* Whether backward row i (from row i + 1) holds the beamed values: its columns before the next
 * row's first, and its last column. */
static int rb_ter_brow_ok(const rb_ter_work *w, int64_t i, int64_t n, int64_t m) {
    int64_t clo = w->lo[i], chi = w->hi[i], nlo = w->lo[i + 1], j;
    for (j = clo; j < nlo && j < chi - 1; j++)
        if (!rb_ter_bcell_ok(w, i, j, n, m))
            return 0;
    return rb_ter_bcell_ok(w, i, chi - 1, n, m);
}

/* The same trace in the bit-vector case: each cell's move is rb_ter_cell's (the first cheapest
 * of the diagonal, vertical and horizontal moves within the beam), read off the deltas without
 * the values: with dh = D[i][j] - D[i-1][j] and dv = D[i-1][j] - D[i-1][j-1], the diagonal move
 * costs D[i-1][j-1] + sub = D[i][j] - dh - dv + sub, the cheapest (D[i][j]) exactly where
 * sub = dh + dv; the vertical move D[i-1][j] + 1 exactly where dh = 1; else the horizontal one
 * is the cheapest.  Only the moves the beam holds count (every one where it holds every cell). */
static void rb_ter_trace_bits(rb_ter_work *w, int64_t n, int64_t m) {
    int64_t i = n, j = m;
    rb_ter_errors e = rb_ter_errors_start(w, n, m);
    while (i > 0 || j > 0) {
        uint8_t mv;
        if (i == 0) {
            mv = RB_OP_INS;
        } else if (j == 0) {
            mv = RB_OP_DEL;
        } else {
            int32_t plo = w->lo[i - 1], phi = w->hi[i - 1];
            int32_t sub = !((w->eqf[i - 1] >> (j - 1)) & 1);
            int32_t dh = rb_ter_delta(w->fhp[i], w->fhn[i], j);
            int32_t dv = rb_ter_delta(w->fvp[i - 1], w->fvn[i - 1], j);
            if (sub == dh + dv && (w->full || (j > plo && j <= phi)))
                mv = sub ? RB_OP_SUB : RB_OP_NOP;
            else if (dh == 1 && (w->full || j < phi))
                mv = RB_OP_DEL;
            else
                mv = RB_OP_INS;
        }
        rb_ter_trace_move(w, mv, &i, &j, &e, 1);
    }
    w->errwin = e.win;
}

/* The positions a..b-1 a shift may change and the source position of each of their new words
 * (into src): the Python twin's changed_span() and shifted(). */
static inline void rb_ter_shift_src(int64_t n, int64_t h, int64_t len, int64_t t, int64_t *a, int64_t *b,
                                    int32_t *src) {
    int64_t end = h + len, k = 0, p;
    if (t < h) {
        *a = t;
        *b = end;
        for (p = h; p < end; p++)
            src[k++] = (int32_t)p;
        for (p = t; p < h; p++)
            src[k++] = (int32_t)p;
    } else if (t > end) {
        *a = h;
        *b = t;
        for (p = end; p < t; p++)
            src[k++] = (int32_t)p;
        for (p = h; p < end; p++)
            src[k++] = (int32_t)p;
    } else {
        int64_t stop = len + t < n ? len + t : n;
        *a = h;
        *b = stop;
        for (p = end; p < stop; p++)
            src[k++] = (int32_t)p;
        for (p = h; p < end; p++)
            src[k++] = (int32_t)p;
    }
}

/* Edit distance of the current hypothesis with the span a..b-1 replaced by the words at src:
 * forward rows a+1..b from the unchanged row a, then the cheapest join with backward row b
 * (computed first if no candidate has needed it yet). */
static int32_t rb_ter_candidate(rb_ter_work *w, int64_t a, int64_t b, const int32_t *ref, int64_t m) {
    const int32_t *prev = w->fwd + w->off[a];
    int32_t plo = w->lo[a], phi = w->hi[a], best = 2 * RB_TER_INF, j;
    int32_t *cur = w->row_a, *other = w->row_b;
    const int32_t *bw;
    int64_t i;
    rb_ter_backward(w, b, ref, m);
    for (i = a + 1; i <= b; i++) {
        int32_t *t;
        rb_ter_frow(prev, plo, phi, cur, NULL, w->lo[i], w->hi[i], w->words[w->src[i - 1 - a]], ref);
        prev = cur;
        plo = w->lo[i];
        phi = w->hi[i];
        t = cur;
        cur = other;
        other = t;
    }
    bw = w->bwd + w->off[b];
    for (j = 0; j < phi - plo; j++) {
        int32_t v = prev[j] + bw[j];
        if (v < best)
            best = v;
    }
    return best;
}

/* Forward rows from+1 .. n of the current hypothesis in bit vectors (row `from` computed);
 * 0 where a row is not the beamed one (the pair is computed cell by cell instead). */
static int rb_ter_forward_bits(rb_ter_work *w, int64_t from, int64_t n, uint64_t mask) {
    int64_t i;
    for (i = from + 1; i <= n; i++) {
        rb_ter_bits_row(w->eqf[i - 1], w->fvp[i - 1], w->fvn[i - 1], mask, &w->fvp[i], &w->fvn[i], &w->fhp[i],
                        &w->fhn[i]);
        if (!w->full &&
            !rb_ter_frow_ok(w, i, w->fvp[i - 1], w->fvn[i - 1], w->fvp[i], w->fvn[i], w->fhp[i], w->eqf[i - 1]))
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
static int32_t rb_ter_candidate_bits(rb_ter_work *w, int64_t a, int64_t b, int64_t n, int64_t m, uint64_t mask) {
    uint64_t vp = w->fvp[a], vn = w->fvn[a], bvp, bvn;
    int64_t i, j, jlo, jhi;
    int32_t f, bk, best;
    if (w->full && n - b <= m + 1) {
        /* every cell in the beam: the rows after the span (the current words) to row n cost no
         * more than the join over row b's m + 1 columns, and need no backward rows */
        for (i = a + 1; i <= n; i++)
            rb_ter_bits_row(i <= b ? w->eqf[w->src[i - 1 - a]] : w->eqf[i - 1], vp, vn, mask, &vp, &vn, NULL, NULL);
        return (int32_t)n + rb_popcount64(vp) - rb_popcount64(vn);
    }
    for (i = w->bvalid - 1; i >= b; i--) {
        rb_ter_bits_row(w->eqr[i], w->bvp[i + 1], w->bvn[i + 1], mask, &w->bvp[i], &w->bvn[i], NULL, NULL);
        w->bvalid = i;
        if (!w->full && !rb_ter_brow_ok(w, i, n, m))
            return -1;
    }
    for (i = a + 1; i <= b; i++) {
        uint64_t pvp = vp, pvn = vn, hp, hn, eq = w->eqf[w->src[i - 1 - a]];
        rb_ter_bits_row(eq, pvp, pvn, mask, &vp, &vn, &hp, &hn);
        if (!w->full && !rb_ter_frow_ok(w, i, pvp, pvn, vp, vn, hp, eq))
            return -1;
    }
    /* forward row b: D[b][j] = b + the deltas of columns 1..j; backward row b: B[b][j] =
     * n - b + the reversed deltas of columns 1..m - j; over the beam's columns jlo..jhi-1 */
    bvp = w->bvp[b];
    bvn = w->bvn[b];
    jlo = w->lo[b];
    jhi = w->hi[b];
    f = (int32_t)b + rb_ter_prefix(vp, vn, jlo);
    bk = rb_ter_bvalue(bvp, bvn, n, m, b, jlo);
    best = f + bk;
    for (j = jlo + 1; j < jhi; j++) {
        f += rb_ter_delta(vp, vn, j);
        bk -= rb_ter_delta(bvp, bvn, m - j + 1);
        if (f + bk < best)
            best = f + bk;
    }
    return best;
}

/* The words (and in the bit-vector case their columns) of the span a..b-1 after a shift: the
 * words at src, through tmp. */
static void rb_ter_apply_shift(rb_ter_work *w, int64_t a, int64_t b) {
    int64_t k;
    for (k = 0; k < b - a; k++)
        w->tmp[k] = w->words[w->src[k]];
    memcpy(w->words + a, w->tmp, (size_t)(b - a) * sizeof(int32_t));
    if (w->fvp != NULL) {
        uint64_t *eq[2] = {w->eqf, w->eqr};
        int e;
        for (e = 0; e < 2; e++) {
            for (k = 0; k < b - a; k++)
                w->teq[k] = eq[e][w->src[k]];
            memcpy(eq[e] + a, w->teq, (size_t)(b - a) * sizeof(uint64_t));
        }
    }
}

/* The entry of word id x in the table. */
static RB_ALWAYS_INLINE uint64_t *rb_ter_word(const rb_ter_work *w, int32_t x) {
    return w->wtab + 2 * ((int64_t)x - w->idlo);
}

/* The table of the pair's words (wtab): two entries for each id from the least (idlo) to the
 * largest of hyp and ref, so that a word's entry is one look-up.  The ids are interned (those of
 * one segment, or of one call for a pairwise matrix: ter_tok.h), so the table holds at most the
 * call's distinct words (16 bytes each, one table a thread, kept from pair to pair); the entries
 * of the pair's own words are set to `fill` (both halves), and only those are read. */
static int rb_ter_word_table(rb_ter_work *w, const int32_t *hyp, int64_t n, const int32_t *ref, int64_t m,
                             uint64_t fill) {
    int32_t lo = ref[0], hi = ref[0];
    int64_t k;
    size_t need;
    for (k = 1; k < m; k++) {
        lo = ref[k] < lo ? ref[k] : lo;
        hi = ref[k] > hi ? ref[k] : hi;
    }
    for (k = 0; k < n; k++) {
        lo = hyp[k] < lo ? hyp[k] : lo;
        hi = hyp[k] > hi ? hyp[k] : hi;
    }
    need = 2 * (size_t)((int64_t)hi - lo + 1);
    if (need > w->wcap) {
        uint64_t *t = (uint64_t *)realloc(w->wtab, need * sizeof(uint64_t));
        if (t == NULL)
            return RB_TER_ENOMEM;
        w->wtab = t;
        w->wcap = need;
    }
    w->idlo = lo;
    for (k = 0; k < n; k++)
        rb_ter_word(w, hyp[k])[0] = rb_ter_word(w, hyp[k])[1] = fill;
    for (k = 0; k < m; k++)
        rb_ter_word(w, ref[k])[0] = rb_ter_word(w, ref[k])[1] = fill;
    return RB_TER_OK;
}

/* Set up the bit-vector case: each hypothesis word's columns in the reference (forward and
 * reversed), through the table of the pair's words; rows 0 and n. */
static int rb_ter_setup_bits(rb_ter_work *w, const int32_t *hyp, int64_t n, const int32_t *ref, int64_t m,
                             uint64_t mask) {
    int64_t k;
    if (rb_ter_word_table(w, hyp, n, ref, m, 0) != RB_TER_OK)
        return RB_TER_ENOMEM;
    for (k = 0; k < m; k++) {
        uint64_t *e = rb_ter_word(w, ref[k]);
        e[0] |= (uint64_t)1 << k;
        e[1] |= (uint64_t)1 << (m - 1 - k);
    }
    for (k = 0; k < n; k++) {
        const uint64_t *e = rb_ter_word(w, hyp[k]);
        w->eqf[k] = e[0];
        w->eqr[k] = e[1];
    }
    w->fvp[0] = mask; /* D[0][j] = j */
    w->fvn[0] = 0;
    w->fhp[0] = w->fhn[0] = 0;
    w->bvp[n] = mask; /* B[n][j] = m - j */
    w->bvn[n] = 0;
    return RB_TER_OK;
}

/* Set up the shift search cell by cell: each word's positions in the reference, ascending (its
 * first in the table, -1 for a word the reference lacks; the next ones in rnext). */
static int rb_ter_setup_positions(rb_ter_work *w, const int32_t *hyp, int64_t n, const int32_t *ref, int64_t m) {
    int64_t k;
    if (rb_ter_word_table(w, hyp, n, ref, m, (uint64_t)-1) != RB_TER_OK)
        return RB_TER_ENOMEM;
    for (k = m - 1; k >= 0; k--) {
        uint64_t *e = rb_ter_word(w, ref[k]);
        w->rnext[k] = (int32_t)(int64_t)e[0];
        e[0] = (uint64_t)k;
    }
    return RB_TER_OK;
}

/* The first position of word x in the reference at or after r_lo, -1 where none is. */
static RB_ALWAYS_INLINE int64_t rb_ter_first_at(const rb_ter_work *w, int32_t x, int64_t r_lo) {
    int64_t r = (int64_t)rb_ter_word(w, x)[0];
    while (r >= 0 && r < r_lo)
        r = w->rnext[r];
    return r;
}

/* The number of edits that turn hyp (n words) into ref (m words): shifts + beamed edit
 * distance (the Python twin's translation_edit_rate).  The matrix is computed cell by cell
 * (rb_ter_cell), or, where the reference has at most RB_TER_BITS words, in bit vectors
 * (rb_ter_bits_row, a row at a time: the same values, moves and results, or, where the beam
 * would change a value, the pair again cell by cell); `cells` forces the first (tests). */
static int rb_ter_pair_in(rb_ter_work *w, const int32_t *hyp, int64_t n, const int32_t *ref, int64_t m, int64_t *edits,
                          int cells) {
    int64_t shifts = 0, checked = 0, j, h, r;
    uint64_t mask = 0;
    int rc, bits;
    if (m == 0) {
        *edits = n;
        return RB_TER_OK;
    }
    if (n == m && (n == 0 || memcmp(hyp, ref, (size_t)n * sizeof(int32_t)) == 0)) {
        *edits = 0;
        return RB_TER_OK;
    }
    if (n == 0) {
        *edits = m;
        return RB_TER_OK;
    }
    bits = !cells && m <= RB_TER_BITS;
    if (bits) {
        mask = m == 64 ? ~(uint64_t)0 : ((uint64_t)1 << m) - 1;
        if (rb_ter_reserve_bits(w, n, m) != RB_TER_OK)
            return RB_TER_ENOMEM;
        memcpy(w->words, hyp, (size_t)n * sizeof(int32_t));
        if (rb_ter_setup_bits(w, hyp, n, ref, m, mask) != RB_TER_OK)
            return RB_TER_ENOMEM;
        if (!rb_ter_forward_bits(w, 0, n, mask))
            return rb_ter_pair_in(w, hyp, n, ref, m, edits, 1);
    } else {
        rc = rb_ter_reserve(w, n, m);
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
    }
    w->bvalid = n; /* the other backward rows: when a candidate needs them */

    for (;;) {
        int32_t dist;
        int have = 0;
        int64_t bg = 0, bl = 0, bh = 0, bt = 0, a, b;
        if (bits) {
            dist = (int32_t)n + (int32_t)rb_popcount64(w->fvp[n]) - (int32_t)rb_popcount64(w->fvn[n]);
            rb_ter_trace_bits(w, n, m);
        } else {
            dist = w->fwd[w->off[n] + m - w->lo[n]];
            rc = rb_ter_trace(w, n, m);
            if (rc != RB_TER_OK)
                return rc;
        }
        for (h = 0; h < n; h++) {
            int32_t word_h = w->words[h];
            if (w->next_h[h] >= h + RB_TER_MAX_SHIFT_SIZE)
                continue; /* no block starting here holds a hypothesis error */
            int64_t r_lo = h - RB_TER_MAX_SHIFT_DIST > 0 ? h - RB_TER_MAX_SHIFT_DIST : 0;
            int64_t r_hi = h + RB_TER_MAX_SHIFT_DIST < m - 1 ? h + RB_TER_MAX_SHIFT_DIST : m - 1;
            /* the positions r of the window, ascending, where word h is (a common block starts):
             * in the bit-vector case the set bits of its columns where a block can hold a
             * reference error, else its positions in the reference from the window's first */
            uint64_t starts = 0;
            if (bits && r_lo <= r_hi) {
                uint64_t upto = r_hi >= 63 ? ~(uint64_t)0 : ((uint64_t)1 << (r_hi + 1)) - 1;
                starts = w->eqf[h] & w->errwin & upto & ~(((uint64_t)1 << r_lo) - 1);
            }
            for (r = bits ? rb_ter_next_bit(&starts) : rb_ter_first_at(w, word_h, r_lo);
                 bits ? r >= 0 : r >= 0 && r <= r_hi; r = bits ? rb_ter_next_bit(&starts) : w->rnext[r]) {
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
                            d = bits ? rb_ter_candidate_bits(w, a, b, n, m, mask) : rb_ter_candidate(w, a, b, ref, m);
                            if (d < 0) /* a row the beam changes: the pair cell by cell */
                                return rb_ter_pair_in(w, hyp, n, ref, m, edits, 1);
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
        if (bits) {
            if (!rb_ter_forward_bits(w, a, n, mask))
                return rb_ter_pair_in(w, hyp, n, ref, m, edits, 1);
        } else
            rb_ter_forward(w, a, n, ref);
        if (w->bvalid < b) /* rows from b on are unchanged; those above are the old hypothesis's */
            w->bvalid = b;
        shifts++;
    }
}

static int rb_ter_pair(rb_ter_work *w, const int32_t *hyp, int64_t n, const int32_t *ref, int64_t m, int64_t *edits) {
    return rb_ter_pair_in(w, hyp, n, ref, m, edits, 0);
}

/* Rows order[start..end-1] of the statistics: segment i is the texts seg[i] .. seg[i + 1] - 1,
 * its hypothesis first and then its references, text k being ids[off[k] .. off[k + 1] - 1];
 * out[2i] = the fewest edits, out[2i + 1] = the mean reference length (the Python twin's
 * ter_stats loop; sum / count is Python's int division, correctly rounded, below 2**53). */
static int rb_ter_segments(const int32_t *ids, const int64_t *off, const int64_t *seg, const int64_t *order,
                           int64_t start, int64_t end, double *out) {
    rb_ter_work w;
    int64_t p, k;
    int rc = RB_TER_OK;
    rb_ter_work_init(&w);
    for (p = start; p < end && rc == RB_TER_OK; p++) {
        int64_t i = order[p], h = seg[i];
        const int32_t *hyp = ids + off[h];
        int64_t n = off[h + 1] - off[h], best = -1, total = 0;
        for (k = h + 1; k < seg[i + 1]; k++) {
            int64_t m = off[k + 1] - off[k], e;
            total += m;
            if (best == 0)
                continue; /* no fewer edits are possible: only the length counts */
            rc = rb_ter_pair(&w, hyp, n, ids + off[k], m, &e);
            if (rc != RB_TER_OK)
                break;
            if (best < 0 || e < best)
                best = e;
        }
        out[2 * i] = (double)best;
        out[2 * i + 1] = (double)total / (double)(seg[i + 1] - h - 1);
    }
    rb_ter_work_free(&w);
    return rc;
}

/* Rows start..end-1 of a sentence-TER matrix of n columns: out[i * n + j] is the TER of
 * hypothesis text i (ids[off[i] .. off[i + 1] - 1]) against reference text ref0 + j, the
 * Python twin's ter_from_stats of (edits, m): 100 * (edits / m), 100.0 when m is 0 and there
 * are edits, else 0.0 (double division of integers below 2**53: Python's, correctly rounded). */
static int rb_ter_pairwise(const int32_t *ids, const int64_t *off, int64_t n, int64_t ref0, int64_t start, int64_t end,
                           double *out) {
    rb_ter_work w;
    int64_t i, j;
    int rc = RB_TER_OK;
    rb_ter_work_init(&w);
    for (i = start; i < end && rc == RB_TER_OK; i++) {
        const int32_t *hyp = ids + off[i];
        int64_t nh = off[i + 1] - off[i];
        for (j = 0; j < n; j++) {
            int64_t r = ref0 + j, m = off[r + 1] - off[r], e;
            double score;
            rc = rb_ter_pair(&w, hyp, nh, ids + off[r], m, &e);
            if (rc != RB_TER_OK)
                break;
            if (m > 0)
                score = 100.0 * ((double)e / (double)m);
            else
                score = e > 0 ? 100.0 * 1.0 : 100.0 * 0.0;
            out[i * n + j] = score;
        }
    }
    rb_ter_work_free(&w);
    return rc;
}

#endif /* RAPIDBLEU_TER_H */
