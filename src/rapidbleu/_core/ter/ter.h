/* TER's shift search and beamed edit distance in C, on words interned to int32 ids.
 *
 * The rules are those of the Python twin (src/rapidbleu/_core/ter/ter_py.py, whose module documentation
 * states them and where each comes from); this file and ter_bits.h follow it function for
 * function:
 *   rb_ter_beam      <- beam()               the columns of each row
 *   rb_ter_frow      <- _forward()           one forward row (values, and moves when asked)
 *   rb_ter_brow      <- backward_matrix()    one backward row
 *   rb_ter_trace     <- trace_moves() + _alignment() + _next_error()
 *   rb_ter_search_*  <- translation_edit_rate()   (ter_bits.h: cell by cell, 64- or 128-bit
 *                                                  vectors; rb_ter_pair picks one)
 *   rb_ter_segment   <- one segment of ter_stats() (its references), ter_sentence_row()
 *   rb_ter_segments  <- the loop of ter_stats() over segments
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
    void *fvp, *fvn, *fhp, *fhn, *bvp, *bvn; /* of the bit-vector copy's type (ter_bits.h) */
    void *eqf, *eqr, *teq; /* n: each word's columns in the reference (reversed: eqr); a span's */
    /* rb_ter_word_table: wper entries for each id of the pair (idlo the least), apart from the
     * block; in the bit-vector case a word's columns in the reference, forward and reversed,
     * else its first position in the reference (-1: none), the next ones through rnext */
    uint64_t *wtab;
    size_t wcap; /* its entries */
    int64_t idlo, wper;
    int32_t *rnext; /* m, cell by cell: the next position of the same word in the reference */
    int full;                  /* the beam holds every cell (no cell of it needs checking) */
    uint64_t errwin[2];        /* the reference positions r with an error in r .. r + 9 (bit r) */
} rb_ter_work;

/* Unsigned integers of 128 bits, where the compiler has them (GCC and Clang on 64-bit
 * targets): references of 65 to 128 words in bit vectors too (ter_bits.h's second copy). */
#if defined(__SIZEOF_INT128__)
#define RB_TER_HAVE_128 1
typedef unsigned __int128 rb_ter_u128;
#else
#define RB_TER_HAVE_128 0
#endif

/* The most reference words of the bit-vector case. */
#define RB_TER_BITS (RB_TER_HAVE_128 ? 128 : 64)

/* (ter_bits.h's bit-vector copies: the beam changes a value, compute the pair cell by cell) */
#define RB_TER_CELLS 3

static inline void rb_ter_work_init(rb_ter_work *w) { memset(w, 0, sizeof(*w)); }

static inline void rb_ter_work_free(rb_ter_work *w) {
    free(w->block);
    free(w->wtab);
    memset(w, 0, sizeof(*w));
}

static inline size_t rb_ter_align8(size_t x) { return (x + 7) & ~(size_t)7; }
static inline size_t rb_ter_align16(size_t x) { return (x + 15) & ~(size_t)15; }

/* The next array of a layout: `bytes` bytes at *p, which moves past them to the next multiple
 * of 8 (every array of the work area starts 8-aligned). */
static inline void *rb_ter_take(char **p, size_t bytes) {
    void *start = *p;
    *p += rb_ter_align8(bytes);
    return start;
}

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
    w->off = (int64_t *)rb_ter_take(&p, (size_t)(n + 2) * 8);
    w->lo = (int32_t *)rb_ter_take(&p, (size_t)(n + 1) * 4);
    w->hi = (int32_t *)rb_ter_take(&p, (size_t)(n + 1) * 4);
    return p;
}

/* The arrays of the trace and the shift search, for n hypothesis and m reference words: their
 * bytes (rb_ter_trace_bytes), and their layout from p (rb_ter_lay_trace: words, tmp and src of n;
 * next_h of n + 1; next_r and align of m + 1; returns their end). */
static size_t rb_ter_trace_bytes(int64_t n, int64_t m) {
    return 3 * rb_ter_align8((size_t)n * 4) + rb_ter_align8((size_t)(n + 1) * 4) +
           2 * rb_ter_align8((size_t)(m + 1) * 4);
}

static char *rb_ter_lay_trace(rb_ter_work *w, char *p, int64_t n, int64_t m) {
    w->words = (int32_t *)rb_ter_take(&p, (size_t)n * 4);
    w->tmp = (int32_t *)rb_ter_take(&p, (size_t)n * 4);
    w->src = (int32_t *)rb_ter_take(&p, (size_t)n * 4);
    w->next_h = (int32_t *)rb_ter_take(&p, (size_t)(n + 1) * 4);
    w->next_r = (int32_t *)rb_ter_take(&p, (size_t)(m + 1) * 4);
    w->align = (int32_t *)rb_ter_take(&p, (size_t)(m + 1) * 4);
    return p;
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
    w->fwd = (int32_t *)rb_ter_take(&p, (size_t)cells * 4);
    w->bwd = (int32_t *)rb_ter_take(&p, (size_t)cells * 4);
    w->ops = (uint8_t *)rb_ter_take(&p, (size_t)cells);
    p = rb_ter_lay_trace(w, p, n, m);
    w->row_a = (int32_t *)rb_ter_take(&p, (size_t)(m + 1) * 4);
    w->row_b = (int32_t *)rb_ter_take(&p, (size_t)(m + 1) * 4);
    w->rnext = (int32_t *)rb_ter_take(&p, (size_t)(m + 1) * 4);
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
    uint64_t win[2]; /* bit r % 64 of win[r / 64] */
} rb_ter_errors;

/* One move of a trace, read back from cell (*i, *j): the alignment (align: for each reference
 * word the hypothesis position it follows) and the first-error-at-or-after tables (next_h,
 * next_r: each position is met once, the positions after it first, so its entry is itself
 * where the move is an error, else the entry after it), and in the bit-vector case (`bits`:
 * the machine words of a vector, 1 or 2) win; the cell moves back. */
static RB_ALWAYS_INLINE void rb_ter_trace_move(rb_ter_work *w, uint8_t mv, int64_t *i, int64_t *j, rb_ter_errors *e,
                                               int bits) {
    if (mv != RB_OP_DEL) { /* a reference word: NOP, SUB or INS */
        int32_t r = (int32_t)(*j - 1);
        e->nr = mv == RB_OP_NOP ? e->nr : r;
        w->next_r[r] = e->nr;
        w->align[r] = (int32_t)(*i - 1);
        if (bits) { /* (bits: 1 for 64-bit vectors, 2 for 128-bit ones) */
            uint64_t bit = (uint64_t)(e->nr < r + RB_TER_MAX_SHIFT_SIZE) << (r & 63);
            if (bits > 1 && r >= 64)
                e->win[1] |= bit;
            else
                e->win[0] |= bit;
        }
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
    rb_ter_errors e = {(int32_t)n, (int32_t)m, {0, 0}};
    w->next_h[n] = (int32_t)n;
    w->next_r[m] = (int32_t)m;
    return e;
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

/* The words of the span a..b-1 after a shift: the words at src, through tmp (the bit-vector
 * case moves their columns too: rb_ter_shift_columns of ter_bits.h). */
static void rb_ter_apply_shift(rb_ter_work *w, int64_t a, int64_t b) {
    int64_t k;
    for (k = 0; k < b - a; k++)
        w->tmp[k] = w->words[w->src[k]];
    memcpy(w->words + a, w->tmp, (size_t)(b - a) * sizeof(int32_t));
}

/* The entry of word id x in the table. */
static RB_ALWAYS_INLINE uint64_t *rb_ter_word(const rb_ter_work *w, int32_t x) {
    return w->wtab + w->wper * ((int64_t)x - w->idlo);
}

/* The table of the pair's words (wtab): `per` entries (2 or 4) for each id from the least
 * (idlo) to the largest of hyp and ref, so that a word's entry is one look-up.  The ids are
 * interned (those of one segment, or of one call for a pairwise matrix: ter_tok.h), so the
 * table holds at most the call's distinct words (8 * per bytes each, one table a thread, kept
 * from pair to pair, its start aligned by malloc for any type); the entries of the pair's own
 * words are set to `fill`, and only those are read. */
static int rb_ter_word_table(rb_ter_work *w, const int32_t *hyp, int64_t n, const int32_t *ref, int64_t m,
                             uint64_t fill, int64_t per) {
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
    need = (size_t)per * (size_t)((int64_t)hi - lo + 1);
    if (need > w->wcap) {
        uint64_t *t = (uint64_t *)realloc(w->wtab, need * sizeof(uint64_t));
        if (t == NULL)
            return RB_TER_ENOMEM;
        w->wtab = t;
        w->wcap = need;
    }
    w->idlo = lo;
    w->wper = per;
    for (k = 0; k < n; k++) {
        uint64_t *e = rb_ter_word(w, hyp[k]);
        e[0] = e[1] = e[per - 2] = e[per - 1] = fill;
    }
    for (k = 0; k < m; k++) {
        uint64_t *e = rb_ter_word(w, ref[k]);
        e[0] = e[1] = e[per - 2] = e[per - 1] = fill;
    }
    return RB_TER_OK;
}

/* Set up the shift search cell by cell: each word's positions in the reference, ascending (its
 * first in the table, -1 for a word the reference lacks; the next ones in rnext). */
static int rb_ter_setup_positions(rb_ter_work *w, const int32_t *hyp, int64_t n, const int32_t *ref, int64_t m) {
    int64_t k;
    if (rb_ter_word_table(w, hyp, n, ref, m, (uint64_t)-1, 2) != RB_TER_OK)
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

/* The popcount and count of trailing zeros (x != 0) of 128 bits. */
#if RB_TER_HAVE_128
static RB_ALWAYS_INLINE int rb_ter_pop128(rb_ter_u128 x) {
    return rb_popcount64((uint64_t)x) + rb_popcount64((uint64_t)(x >> 64));
}
static RB_ALWAYS_INLINE int rb_ter_ctz128(rb_ter_u128 x) {
    return (uint64_t)x != 0 ? rb_ctz64((uint64_t)x) : 64 + rb_ctz64((uint64_t)(x >> 64));
}
#endif

/* The shift search and its matrices (ter_bits.h): cell by cell, in 64-bit vectors, in 128-bit
 * vectors. */
#define RB_TB(name) name##_cells
#define RB_TB_CELLS 1
#include "ter_bits.h"

#define RB_TB(name) name##_64
#define RB_TB_CELLS 0
#define RB_TB_W uint64_t
#define RB_TB_WBITS 64
#define RB_TB_POP(x) rb_popcount64(x)
#define RB_TB_CTZ(x) rb_ctz64(x)
#include "ter_bits.h"

#if RB_TER_HAVE_128
#define RB_TB(name) name##_128
#define RB_TB_CELLS 0
#define RB_TB_W rb_ter_u128
#define RB_TB_WBITS 128
#define RB_TB_POP(x) rb_ter_pop128(x)
#define RB_TB_CTZ(x) rb_ter_ctz128(x)
#include "ter_bits.h"
#endif

/* The number of edits that turn hyp (n words) into ref (m words): shifts + beamed edit
 * distance (the Python twin's translation_edit_rate).  The matrix is computed cell by cell
 * (rb_ter_cell), or, where the reference has at most RB_TER_BITS words, in bit vectors of 64
 * or 128 bits (rb_ter_bits_row, a row at a time: the same values, moves and results, or, where
 * the beam would change a value, the pair again cell by cell); `cells` forces the first
 * (tests). */
static int rb_ter_pair_in(rb_ter_work *w, const int32_t *hyp, int64_t n, const int32_t *ref, int64_t m, int64_t *edits,
                          int cells) {
    int rc = RB_TER_CELLS;
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
    if (!cells && m <= 64)
        rc = rb_ter_search_64(w, hyp, n, ref, m, edits);
#if RB_TER_HAVE_128
    else if (!cells && m <= RB_TER_BITS)
        rc = rb_ter_search_128(w, hyp, n, ref, m, edits);
#endif
    return rc == RB_TER_CELLS ? rb_ter_search_cells(w, hyp, n, ref, m, edits) : rc;
}

static int rb_ter_pair(rb_ter_work *w, const int32_t *hyp, int64_t n, const int32_t *ref, int64_t m, int64_t *edits) {
    return rb_ter_pair_in(w, hyp, n, ref, m, edits, 0);
}

/* The statistics of one segment, texts h .. e - 1 (its hypothesis first, then its references; text
 * k being ids[off[k] .. off[k + 1] - 1]), in work area w: out[0] = the fewest edits, out[1] = the
 * mean reference length (the Python twin's ter_stats loop; sum / count is Python's int division,
 * correctly rounded, below 2**53). */
static int rb_ter_segment(rb_ter_work *w, const int32_t *ids, const int64_t *off, int64_t h, int64_t e,
                          double *out) {
    const int32_t *hyp = ids + off[h];
    int64_t n = off[h + 1] - off[h], best = -1, total = 0, k;
    int rc = RB_TER_OK;
    for (k = h + 1; k < e; k++) {
        int64_t m = off[k + 1] - off[k], edits;
        total += m;
        if (best == 0)
            continue; /* no fewer edits are possible: only the length counts */
        rc = rb_ter_pair(w, hyp, n, ids + off[k], m, &edits);
        if (rc != RB_TER_OK)
            return rc;
        if (best < 0 || edits < best)
            best = edits;
    }
    out[0] = (double)best;
    out[1] = (double)total / (double)(e - h - 1);
    return rc;
}

/* Rows order[start..end-1] of the statistics: segment i is the texts seg[i] .. seg[i + 1] - 1
 * (rb_ter_segment), its row at out + 2i. */
static int rb_ter_segments(const int32_t *ids, const int64_t *off, const int64_t *seg, const int64_t *order,
                           int64_t start, int64_t end, double *out) {
    rb_ter_work w;
    int64_t p;
    int rc = RB_TER_OK;
    rb_ter_work_init(&w);
    for (p = start; p < end && rc == RB_TER_OK; p++) {
        int64_t i = order[p];
        rc = rb_ter_segment(&w, ids, off, seg[i], seg[i + 1], out + 2 * i);
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
