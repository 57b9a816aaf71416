/* chrF and chrF++ statistics of one segment at a time, without the GIL (see chrf_py.py for
 * the rules; this file follows that oracle operation for operation).
 *
 * Units: characters (whitespace dropped unless `whitespace`) and, for chrF++, words (split on
 * whitespace, one ASCII punctuation character split off).  A unit gets an exact dense id from
 * a token table of table.h (characters: keyed by the code point itself; words: by a hash of
 * their code points, every hit confirmed by comparing them), the hypothesis's units inserted,
 * the references' only looked up (RB_ABSENT: the hypothesis lacks it, so it cannot match).
 *
 * Orders are counted one at a time, ids rewritten in place: n-gram i of order n is exactly the
 * pair (id of (n-1)-gram i, id of (n-1)-gram i + 1) (they overlap in n - 2 units and together
 * fix all n), keyed in a pair table of table.h, so a hash collision costs a probe, never a
 * count.  An (n-1)-gram that occurs once in the hypothesis has one extension there, which gets
 * its id without the table (`ext`); only n-grams with a repeated prefix go into the table.
 * Ids restart at 0 per order; a count per id (hypothesis, and the current reference) gives the
 * clipped matches: the k-th occurrence of an id in the reference matches while k <= its count
 * in the hypothesis.  Memory therefore follows one order at a time: 4 bytes per unit of the
 * hypothesis and of every reference (their ids), plus per distinct n-gram of the hypothesis in
 * the current order at most 12 bytes of counts and `ext`, plus the pair table (16-byte entries
 * at load <= 1/2, only for n-grams whose prefix repeats; grown as needed, never sized for the
 * worst case), plus for chrF++ 4 bytes per code point of the hypothesis and of one reference
 * (words are compared by code points).
 *
 * Each reference gets its own row; the segment's row is the first reference's with the highest
 * sentence-level chrF (rb_chrf_f_int, the oracle's float), as sacreBLEU chooses it.
 */
#ifndef RAPIDBLEU_CHRF_H
#define RAPIDBLEU_CHRF_H

#include "chrf_score.h" /* rb_chrf_add, rb_chrf_score: the score of a row */
#include "table.h"
#include "text.h" /* rb_text: a str read in place (kinds 1, 2, 4 only here) */
#include "uni.h"  /* rb_is_space: Python's str.isspace(), the set str.split() splits on */

enum { RB_CHRF_OK = 0, RB_CHRF_ENOMEM = 1, RB_CHRF_ETOOLONG = 2 };

/* The one extension of an (n-1)-gram that occurs once in the hypothesis: the id of the
 * (n-1)-gram after it and the n-gram's id (RB_ABSENT, RB_ABSENT when there is none). */
typedef struct {
    uint32_t next, id;
} rb_chrf_ext;

/* Entries inserted before the tables' room is checked again (and the size a table starts at
 * when more may come).  Under a test mask (collision tests) 8 instead, so that small inputs
 * exercise the growth too. */
#define RB_CHRF_CHUNK ((size_t)1 << 15)
#define RB_CHRF_TEST_CHUNK ((size_t)8)

typedef struct {
    int char_order, word_order, whitespace;
    uint64_t mask; /* ANDed into every hash; all ones except in collision tests */
    size_t chunk;  /* RB_CHRF_CHUNK (RB_CHRF_TEST_CHUNK under a test mask) */
    uint32_t *hyp; size_t hyp_cap;           /* the hypothesis's unit ids, then n-gram ids */
    uint32_t *ref; size_t ref_cap;           /* every reference's, one after the other */
    size_t *roff; size_t roff_cap;           /* reference k: ref[roff[k] .. roff[k + 1]) */
    uint32_t *rpos; size_t rpos_cap;         /* positions of the references' surviving n-grams */
    size_t *live; size_t live_cap;           /* reference k: its surviving n-grams (rb_chrf_orders) */
    uint32_t *hc0; size_t hc0_cap;           /* per id: occurrences in the hypothesis */
    uint32_t *hc1; size_t hc1_cap;           /*   (this order and the last, alternately) */
    uint32_t *cnt; size_t cnt_cap;           /* per id: occurrences so far in one reference */
    rb_chrf_ext *ext; size_t ext_cap;        /* per id of the last order (rb_chrf_ext) */
    uint32_t *cps; size_t cps_cap;           /* code points (words only) */
    rb_tok_entry *ttab; size_t ttab_cap;     /* allocated slots */
    rb_pair_entry *ptab; size_t ptab_cap;
    size_t ttab_size, ptab_size;             /* slots in use */
    unsigned ttab_shift, ptab_shift;
    uint32_t next_id;
    int64_t *rows; size_t rows_cap;          /* one row per reference */
} rb_chrf_scratch;

static void rb_chrf_scratch_init(rb_chrf_scratch *sc, int char_order, int word_order, int whitespace,
                                 uint64_t mask) {
    memset(sc, 0, sizeof(*sc));
    sc->char_order = char_order;
    sc->word_order = word_order;
    sc->whitespace = whitespace;
    sc->mask = mask;
    sc->chunk = mask == ~(uint64_t)0 ? RB_CHRF_CHUNK : RB_CHRF_TEST_CHUNK;
}

/* New options for a scratch space in use (its buffers kept: the one-segment calls' shared
 * space, chrf_one.pxi). */
static void rb_chrf_scratch_set(rb_chrf_scratch *sc, int char_order, int word_order, int whitespace, uint64_t mask) {
    sc->char_order = char_order;
    sc->word_order = word_order;
    sc->whitespace = whitespace;
    sc->mask = mask;
    sc->chunk = mask == ~(uint64_t)0 ? RB_CHRF_CHUNK : RB_CHRF_TEST_CHUNK;
}

static void rb_chrf_scratch_free(rb_chrf_scratch *sc) {
    free(sc->hyp); free(sc->ref); free(sc->rpos); free(sc->roff); free(sc->live); free(sc->hc0); free(sc->hc1);
    free(sc->cnt); free(sc->ext); free(sc->cps); free(sc->ttab); free(sc->ptab); free(sc->rows);
    memset(sc, 0, sizeof(*sc));
}

#define RB_CHRF_RESERVE(sc, field, need) \
    rb_reserve((void **)&(sc)->field, &(sc)->field##_cap, (need), sizeof(*(sc)->field))

/* Columns of a row: [hyp, ref, match] per order. */
static inline size_t rb_chrf_cols(const rb_chrf_scratch *sc) {
    return 3 * (size_t)(sc->char_order + sc->word_order);
}

/* ------------------------------------------------------------------------------------------
 * The score of one row (sacreBLEU's CHRF._compute_f_score; see chrf_py.f_score)
 * ---------------------------------------------------------------------------------------- */
/* On Python ints (and numpy int64, whose divisions give the same doubles for counts below
 * 2**53): the formula of chrf_score.h on each count converted to double. */
static double rb_chrf_f_int(const int64_t *row, int order, double factor, double one_plus, int eps_smoothing) {
    rb_chrf_sum s = {0.0, 0.0, 0.0, 0};
    for (int k = 0; k < order; k++)
        rb_chrf_add(&s, (double)row[3 * k], (double)row[3 * k + 1], (double)row[3 * k + 2], factor, one_plus);
    return rb_chrf_score(&s, order, factor, one_plus, eps_smoothing);
}

/* A number in sacreBLEU's float32 arithmetic: a Python float (f32 = 0) or a numpy float32
 * scalar (f32 = 1).  NumPy >= 2 (NEP 50): an operation with a float32 operand converts a
 * Python float to float32 and computes in float32; two Python floats stay double. */
typedef struct {
    double v;
    int f32;
} rb_pynum;

static inline rb_pynum rb_py(double v) { rb_pynum x = {v, 0}; return x; }
static inline rb_pynum rb_f32(float v) { rb_pynum x = {(double)v, 1}; return x; }

static inline rb_pynum rb_pn_add(rb_pynum a, rb_pynum b) {
    return (a.f32 || b.f32) ? rb_f32((float)a.v + (float)b.v) : rb_py(a.v + b.v);
}
static inline rb_pynum rb_pn_mul(rb_pynum a, rb_pynum b) {
    return (a.f32 || b.f32) ? rb_f32((float)a.v * (float)b.v) : rb_py(a.v * b.v);
}
static inline rb_pynum rb_pn_div(rb_pynum a, rb_pynum b) {
    return (a.f32 || b.f32) ? rb_f32((float)a.v / (float)b.v) : rb_py(a.v / b.v);
}

/* On a numpy float32 row (bootstrap resampling): every step of rb_chrf_f_int in the type
 * Python's operators give it; *is_f32 says whether the score is a numpy float32 (else a
 * Python float, which numpy.array of the scores makes a float64 array). */
static double rb_chrf_f_f32(const float *row, int order, double factor, double one_plus, int eps_smoothing,
                            int *is_f32) {
    const rb_pynum eps = rb_py(RB_CHRF_EPS), fac = rb_py(factor), opf = rb_py(one_plus);
    rb_pynum score = rb_py(0.0), avg_prec = rb_py(0.0), avg_rec = rb_py(0.0);
    int effective = 0;
    for (int k = 0; k < order; k++) {
        const float h = row[3 * k], r = row[3 * k + 1], m = row[3 * k + 2];
        const rb_pynum prec = h > 0 ? rb_f32(m / h) : eps;
        const rb_pynum rec = r > 0 ? rb_f32(m / r) : eps;
        const rb_pynum denom = rb_pn_add(rb_pn_mul(fac, prec), rec);
        score = rb_pn_add(score, denom.v > 0 ? rb_pn_div(rb_pn_mul(rb_pn_mul(opf, prec), rec), denom) : eps);
        if (h > 0 && r > 0) {
            avg_prec = rb_pn_add(avg_prec, prec);
            avg_rec = rb_pn_add(avg_rec, rec);
            effective++;
        }
    }
    if (eps_smoothing) {
        score = rb_pn_div(rb_pn_mul(rb_py(100.0), score), rb_py((double)order));
        *is_f32 = score.f32;
        return score.v;
    }
    if (effective) {
        avg_prec = rb_pn_div(avg_prec, rb_py((double)effective));
        avg_rec = rb_pn_div(avg_rec, rb_py((double)effective));
    } else {
        avg_prec = avg_rec = rb_py(0.0);
    }
    if (rb_pn_add(avg_prec, avg_rec).v == 0.0) {
        *is_f32 = 0; /* sacreBLEU's literal 0.0 */
        return 0.0;
    }
    score = rb_pn_mul(rb_pn_mul(opf, avg_prec), avg_rec);
    score = rb_pn_div(score, rb_pn_add(rb_pn_mul(fac, avg_prec), avg_rec));
    score = rb_pn_mul(rb_py(100.0), score);
    *is_f32 = score.f32;
    return score.v;
}

/* ------------------------------------------------------------------------------------------
 * Tables
 * ---------------------------------------------------------------------------------------- */

/* An empty token table for up to `expect` entries (it grows past that: rb_chrf_tok_room). */
static int rb_chrf_tok_reset(rb_chrf_scratch *sc, size_t expect) {
    size_t cap = rb_table_size(expect < sc->chunk ? expect : sc->chunk, &sc->ttab_shift);
    if (!rb_reserve((void **)&sc->ttab, &sc->ttab_cap, cap, sizeof(rb_tok_entry))) return 0;
    rb_tok_clear(sc->ttab, cap);
    sc->ttab_size = cap;
    sc->next_id = 0;
    return 1;
}

/* Room in the token table for `more` new entries, of at most `bound` entries in all
 * (rb_tok_room).  `tmask`: the mask its slots were computed with (~0 for words, whose stored
 * key is the masked hash; the scratch's mask for characters, keyed by the code point). */
static int rb_chrf_tok_room(rb_chrf_scratch *sc, size_t more, size_t bound, uint64_t tmask) {
    return rb_tok_room(&sc->ttab, &sc->ttab_cap, &sc->ttab_size, &sc->ttab_shift, (size_t)sc->next_id + more, bound,
                       tmask);
}

/* An empty pair table for up to `expect` entries. */
static int rb_chrf_pair_reset(rb_chrf_scratch *sc, size_t expect) {
    size_t cap = rb_table_size(expect < sc->chunk ? expect : sc->chunk, &sc->ptab_shift);
    if (!rb_reserve((void **)&sc->ptab, &sc->ptab_cap, cap, sizeof(rb_pair_entry))) return 0;
    rb_pair_clear(sc->ptab, cap);
    sc->ptab_size = cap;
    return 1;
}

/* ------------------------------------------------------------------------------------------
 * Units: characters
 * ---------------------------------------------------------------------------------------- */

/* The most distinct code points a str of this kind can hold. */
static inline size_t rb_chrf_kind_max(int kind) { return kind == 1 ? 256 : kind == 2 ? 65536 : 0x110000; }

/* Character ids of text t into ids[] (insert: the hypothesis, new ids; else a reference,
 * RB_ABSENT for characters the hypothesis lacks; lookup 0: count only, ids not written).
 * Returns the number of characters (whitespace dropped unless sc->whitespace), or -1 when out
 * of memory. */
static ptrdiff_t rb_chrf_char_ids(rb_chrf_scratch *sc, const rb_text *t, int insert, int lookup, uint32_t *ids) {
    const size_t n = t->len;
    const int ws = sc->whitespace;
    const uint64_t mask = sc->mask;
    const size_t kmax = rb_chrf_kind_max(t->kind), chunk = sc->chunk;
    size_t w = 0;
    /* insert: the room is checked once per chunk of characters, for as many new ones as
     * the chunk or the kind's alphabet can still bring */
#define RB_CHRF_SCAN(T)                                                                                \
    do {                                                                                               \
        const T *d = (const T *)t->data;                                                               \
        for (size_t i0 = 0; i0 < n; i0 += chunk) {                                                     \
            const size_t i1 = n - i0 < chunk ? n : i0 + chunk;                                         \
            const size_t left = kmax - (size_t)sc->next_id;                                            \
            if (insert && !rb_chrf_tok_room(sc, i1 - i0 < left ? i1 - i0 : left, kmax, mask)) return -1;     \
            for (size_t i = i0; i < i1; i++) {                                                         \
                const uint32_t c = d[i];                                                               \
                if (!ws && rb_is_space(c)) continue;                                                   \
                if (lookup)                                                                            \
                    ids[w] = rb_tok_find_int(sc->ttab, sc->ttab_size, sc->ttab_shift, c, mask, insert, \
                                             &sc->next_id);                                            \
                w++;                                                                                   \
            }                                                                                          \
        }                                                                                              \
    } while (0)
    if (t->kind == 1)
        RB_CHRF_SCAN(uint8_t);
    else if (t->kind == 2)
        RB_CHRF_SCAN(uint16_t);
    else
        RB_CHRF_SCAN(uint32_t);
#undef RB_CHRF_SCAN
    return (ptrdiff_t)w;
}

/* ------------------------------------------------------------------------------------------
 * Units: words
 * ---------------------------------------------------------------------------------------- */

/* Python's string.punctuation, bit c set for each ASCII character c in it. */
static const uint64_t rb_chrf_punct[2] = {0xFC00FFFE00000000ULL, 0x78000001F8000001ULL};

static inline int rb_chrf_is_punct(uint32_t c) { return c < 128 && ((rb_chrf_punct[c >> 6] >> (c & 63)) & 1); }

/* Decode text t into sc->cps at `base`.  Returns 0, -1 (out of memory) or -2 (the code points
 * of a hypothesis and a reference together would not have 32-bit offsets). */
static int rb_chrf_decode(rb_chrf_scratch *sc, const rb_text *t, size_t base) {
    const size_t n = t->len;
    if (base + n >= (size_t)UINT32_MAX) return -2;
    if (!RB_CHRF_RESERVE(sc, cps, base + n + 1)) return -1;
    uint32_t *s = sc->cps + base;
    if (t->kind == 1) {
        const uint8_t *d = (const uint8_t *)t->data;
        for (size_t i = 0; i < n; i++) s[i] = d[i];
    } else if (t->kind == 2) {
        const uint16_t *d = (const uint16_t *)t->data;
        for (size_t i = 0; i < n; i++) s[i] = d[i];
    } else {
        memcpy(s, t->data, n * sizeof(uint32_t));
    }
    return 0;
}

/* Id of the word cps[start .. start + len) (insert or look up). */
static inline uint32_t rb_chrf_word_id(rb_chrf_scratch *sc, size_t start, size_t len, int insert) {
    const uint32_t *s = sc->cps + start;
    const uint64_t h = rb_hash_cps(s, (uint32_t)len) & sc->mask;
    return rb_tok_find_str(sc->ttab, sc->ttab_size, sc->ttab_shift, sc->cps, s, (uint32_t)start, (uint32_t)len, h,
                           insert, &sc->next_id);
}

/* Word ids of the code points cps[base .. base + n) into ids[] (chrF++'s words: split on
 * whitespace; a token of two or more characters loses one ASCII punctuation character to a
 * word of its own, at its end if it ends with one, else at its start).  insert/lookup as
 * rb_chrf_char_ids.  Returns the number of words, or -1 when out of memory. */
static ptrdiff_t rb_chrf_word_ids(rb_chrf_scratch *sc, size_t base, size_t n, int insert, int lookup, uint32_t *ids) {
    const uint32_t *s = sc->cps + base;
    size_t w = 0, i = 0;
    while (i < n) {
        while (i < n && rb_is_space(s[i])) i++;
        if (i == n) break;
        const size_t start = i;
        while (i < n && !rb_is_space(s[i])) i++;
        const size_t len = i - start;
        size_t cut = len; /* the first part's length; the rest (if any) is the second word */
        if (len > 1) {
            if (rb_chrf_is_punct(s[i - 1]))
                cut = len - 1;
            else if (rb_chrf_is_punct(s[start]))
                cut = 1;
        }
        if (lookup) {
            if (insert && !rb_chrf_tok_room(sc, 2, (size_t)sc->next_id + n - start, ~(uint64_t)0)) return -1;
            ids[w] = rb_chrf_word_id(sc, base + start, cut, insert);
            if (cut < len) ids[w + 1] = rb_chrf_word_id(sc, base + start + cut, len - cut, insert);
        }
        w += cut < len ? 2 : 1;
    }
    return (ptrdiff_t)w;
}

/* ------------------------------------------------------------------------------------------
 * Orders: statistics of every reference from the units' ids
 * ---------------------------------------------------------------------------------------- */

/* Make *p hold `need` counts. */
static inline int rb_chrf_counts(uint32_t **p, size_t *cap, size_t need) {
    return rb_reserve((void **)p, cap, need, sizeof(uint32_t));
}

/* Reset the counts cnt[] of the ids ids[0..w) and of the sink d. */
static inline void rb_chrf_clear(uint32_t *cnt, const uint32_t *ids, size_t w, uint32_t d) {
    for (size_t j = 0; j < w; j++) cnt[ids[j]] = 0;
    cnt[d] = 0;
}

/* Orders 1..N of one kind of unit: the hypothesis's unit ids in sc->hyp[0..hl) (dense,
 * 0..d1-1) and each reference's in sc->ref[roff[k] ..] (rlen[k] units, RB_ABSENT where the
 * hypothesis lacks the unit).  For each reference k, order n goes to
 * rows[k * cols + col0 + 3 (n - 1) ..]: [hypothesis n-grams (0 when the reference has none),
 * reference n-grams, clipped matches].
 *
 * The hypothesis's ids are rewritten in place, order by order.  A reference keeps only its
 * survivors: after order n, ref[roff[k] .. + live[k]) are the ids of its n-grams that the
 * hypothesis has, rpos alongside their positions; an n-gram of order n + 1 can only be a
 * survivor at position p followed by one at p + 1, so higher orders look at fewer and fewer.
 * Matches are counted as the survivors are found: the c-th occurrence of an id matches while
 * c <= its count in the hypothesis (cnt: zero on entry and on exit; slot d, whose hypothesis
 * count is 0, absorbs what is not kept).  Returns RB_CHRF_OK or RB_CHRF_ENOMEM. */
static int rb_chrf_orders(rb_chrf_scratch *sc, size_t hl, uint32_t d1, size_t nrefs, const size_t *rlen, int N,
                          int64_t *rows, size_t cols, size_t col0) {
    uint32_t *const H = sc->hyp;
    uint32_t d = d1; /* distinct hypothesis n-grams of the current order */
    /* the hypothesis's counts per id: this order's in hcs[cur], the last order's in the other */
    uint32_t **hcs[2] = {&sc->hc0, &sc->hc1};
    size_t *hcs_cap[2] = {&sc->hc0_cap, &sc->hc1_cap};
    int cur = 0;
    if (!rb_chrf_counts(&sc->hc0, &sc->hc0_cap, (size_t)d1 + 1) || !rb_chrf_counts(&sc->cnt, &sc->cnt_cap, (size_t)d1 + 1))
        return RB_CHRF_ENOMEM;
    memset(sc->hc0, 0, ((size_t)d1 + 1) * sizeof(uint32_t));
    memset(sc->cnt, 0, ((size_t)d1 + 1) * sizeof(uint32_t));
    for (size_t i = 0; i < hl; i++) sc->hc0[H[i]]++;

    for (int n = 1; n <= N; n++) {
        const size_t m = hl >= (size_t)n ? hl - (size_t)n + 1 : 0; /* hypothesis n-grams */
        uint32_t *const cnt = sc->cnt;
        if (n == 1) {
            /* references: the units the hypothesis has, counted */
            const uint32_t *const hc = sc->hc0;
            for (size_t k = 0; k < nrefs; k++) {
                uint32_t *const R = sc->ref + sc->roff[k], *const P = sc->rpos + sc->roff[k];
                int64_t mt = 0;
                size_t w = 0;
                if (d1 > 0) {
                    for (size_t i = 0; i < rlen[k]; i++) {
                        const uint32_t id = R[i];
                        const int keep = id != RB_ABSENT;
                        const uint32_t slot = keep ? id : d1;
                        R[w] = slot;
                        P[w] = (uint32_t)i;
                        w += keep;
                        mt += ++cnt[slot] <= hc[slot];
                    }
                    rb_chrf_clear(cnt, R, w, d1);
                }
                sc->live[k] = w;
                int64_t *out = rows + k * cols + col0;
                out[0] = rlen[k] > 0 ? (int64_t)m : 0;
                out[1] = (int64_t)rlen[k];
                out[2] = mt;
            }
            continue;
        }
        if (d > 0 && m > 0) {
            /* hypothesis: n-gram i = (H[i], H[i + 1]) of the last order's ids */
            cur ^= 1;
            const uint32_t *const hprev = *hcs[cur ^ 1];
            const uint32_t dp = d;
            size_t repeated = 0; /* n-grams whose prefix repeats: the most the table can hold */
            for (size_t i = 0; i < m; i++) repeated += hprev[H[i]] > 1;
            if (!RB_CHRF_RESERVE(sc, ext, (size_t)dp) || !rb_chrf_counts(hcs[cur], hcs_cap[cur], m + 1) ||
                !rb_chrf_counts(&sc->cnt, &sc->cnt_cap, m + 1) || !rb_chrf_pair_reset(sc, repeated))
                return RB_CHRF_ENOMEM;
            uint32_t *const hc = *hcs[cur];
            rb_chrf_ext *const ext = sc->ext;
            memset(ext, 0xFF, (size_t)dp * sizeof(rb_chrf_ext));
            memset(hc, 0, (m + 1) * sizeof(uint32_t));
            memset(sc->cnt, 0, (m + 1) * sizeof(uint32_t));
            uint32_t next = 0;
            size_t in_table = 0;
            const size_t chunk = sc->chunk;
            for (size_t i0 = 0; i0 < m; i0 += chunk) {
                const size_t i1 = m - i0 < chunk ? m : i0 + chunk;
                if (repeated > chunk && !rb_pair_room(&sc->ptab, &sc->ptab_cap, &sc->ptab_size, &sc->ptab_shift,
                                                      in_table + (i1 - i0), sc->mask))
                    return RB_CHRF_ENOMEM;
                rb_pair_entry *const ptab = sc->ptab;
                const size_t psize = sc->ptab_size;
                const unsigned pshift = sc->ptab_shift;
                for (size_t i = i0; i < i1; i++) {
                    const uint32_t a = H[i], b = H[i + 1];
                    uint32_t id;
                    if (hprev[a] == 1) {
                        id = next++;
                        ext[a].next = b;
                        ext[a].id = id;
                    } else {
                        const uint32_t before = next;
                        id = rb_pair_find(ptab, psize, pshift, a, b, sc->mask, 1, &next);
                        in_table += next != before;
                    }
                    H[i] = id;
                    hc[id]++;
                }
            }
            d = next;
            /* references: the survivors followed by a survivor, looked up the same way */
            uint32_t *const cnt2 = sc->cnt;
            for (size_t k = 0; k < nrefs; k++) {
                const size_t L = sc->live[k];
                int64_t mt = 0;
                size_t w = 0;
                if (L >= 2) {
                    uint32_t *const R = sc->ref + sc->roff[k], *const P = sc->rpos + sc->roff[k];
                    for (size_t j = 0; j + 1 < L; j++) {
                        const uint32_t a = R[j], b = R[j + 1];
                        const uint32_t id = hprev[a] == 1 ? (ext[a].next == b ? ext[a].id : RB_ABSENT)
                                                          : rb_pair_find(sc->ptab, sc->ptab_size, sc->ptab_shift, a, b,
                                                                         sc->mask, 0, &next);
                        const int keep = (P[j + 1] == P[j] + 1) & (id != RB_ABSENT);
                        const uint32_t slot = keep ? id : d;
                        const uint32_t pos = P[j];
                        R[w] = slot;
                        P[w] = pos;
                        w += keep;
                        mt += ++cnt2[slot] <= hc[slot];
                    }
                    rb_chrf_clear(cnt2, R, w, d);
                }
                sc->live[k] = w;
                int64_t *out = rows + k * cols + col0 + 3 * (size_t)(n - 1);
                out[0] = rlen[k] >= (size_t)n ? (int64_t)m : 0;
                out[1] = rlen[k] >= (size_t)n ? (int64_t)(rlen[k] - (size_t)n + 1) : 0;
                out[2] = mt;
            }
        } else {
            d = 0; /* the hypothesis has no n-gram of this order, nor of any higher one */
            for (size_t k = 0; k < nrefs; k++) {
                sc->live[k] = 0;
                int64_t *out = rows + k * cols + col0 + 3 * (size_t)(n - 1);
                out[0] = 0;
                out[1] = rlen[k] >= (size_t)n ? (int64_t)(rlen[k] - (size_t)n + 1) : 0;
                out[2] = 0;
            }
        }
    }
    return RB_CHRF_OK;
}

/* ------------------------------------------------------------------------------------------
 * One segment
 * ---------------------------------------------------------------------------------------- */

/* Rows of hypothesis `hyp` against each of refs[0..nrefs) into sc->rows (nrefs x cols).
 * Returns an RB_CHRF_* code. */
static int rb_chrf_segment(rb_chrf_scratch *sc, const rb_text *hyp, const rb_text *refs, size_t nrefs) {
    const size_t cols = rb_chrf_cols(sc);
    size_t total = 0;
    /* ids and positions are 32-bit */
    if (hyp->len >= (size_t)UINT32_MAX - 1) return RB_CHRF_ETOOLONG;
    for (size_t k = 0; k < nrefs; k++) {
        if (refs[k].len >= (size_t)UINT32_MAX - 1) return RB_CHRF_ETOOLONG;
        total += refs[k].len;
    }
    if (!RB_CHRF_RESERVE(sc, rows, nrefs * cols + 1) || !RB_CHRF_RESERVE(sc, roff, nrefs + 1) ||
        !RB_CHRF_RESERVE(sc, live, nrefs + 1) || !RB_CHRF_RESERVE(sc, hyp, hyp->len + 1) ||
        !RB_CHRF_RESERVE(sc, ref, total + 1) || !RB_CHRF_RESERVE(sc, rpos, total + 1))
        return RB_CHRF_ENOMEM;
    size_t rlen_stack[16];
    size_t *rlen = nrefs <= 16 ? rlen_stack : (size_t *)malloc(nrefs * sizeof(size_t));
    if (!rlen) return RB_CHRF_ENOMEM;
    int rc = RB_CHRF_ENOMEM;

    /* characters */
    if (sc->char_order > 0) {
        size_t kmax = rb_chrf_kind_max(hyp->kind);
        if (!rb_chrf_tok_reset(sc, hyp->len < kmax ? hyp->len : kmax)) goto done;
        ptrdiff_t hl = rb_chrf_char_ids(sc, hyp, 1, 1, sc->hyp);
        if (hl < 0) goto done;
        const int lookup = hl > 0; /* an empty hypothesis matches nothing: only count */
        sc->roff[0] = 0;
        for (size_t k = 0; k < nrefs; k++) {
            ptrdiff_t rl = rb_chrf_char_ids(sc, &refs[k], 0, lookup, sc->ref + sc->roff[k]);
            if (rl < 0) goto done;
            rlen[k] = (size_t)rl;
            sc->roff[k + 1] = sc->roff[k] + (size_t)rl;
        }
        rc = rb_chrf_orders(sc, (size_t)hl, sc->next_id, nrefs, rlen, sc->char_order, sc->rows, cols, 0);
        if (rc != RB_CHRF_OK) goto done;
        rc = RB_CHRF_ENOMEM;
    }

    /* words: the hypothesis's code points stay at the front of sc->cps (the token table's
     * entries point there); each reference's go after them in turn */
    if (sc->word_order > 0) {
        int e = rb_chrf_decode(sc, hyp, 0);
        if (e < 0) {
            rc = e == -1 ? RB_CHRF_ENOMEM : RB_CHRF_ETOOLONG;
            goto done;
        }
        /* (the table grows with the words: a quarter of the code points is room for most) */
        if (!rb_chrf_tok_reset(sc, hyp->len / 4 + 16)) goto done;
        ptrdiff_t hl = rb_chrf_word_ids(sc, 0, hyp->len, 1, 1, sc->hyp);
        if (hl < 0) goto done;
        const int lookup = hl > 0;
        sc->roff[0] = 0;
        for (size_t k = 0; k < nrefs; k++) {
            e = rb_chrf_decode(sc, &refs[k], hyp->len);
            if (e < 0) {
                rc = e == -1 ? RB_CHRF_ENOMEM : RB_CHRF_ETOOLONG;
                goto done;
            }
            ptrdiff_t rl = rb_chrf_word_ids(sc, hyp->len, refs[k].len, 0, lookup, sc->ref + sc->roff[k]);
            if (rl < 0) goto done;
            rlen[k] = (size_t)rl;
            sc->roff[k + 1] = sc->roff[k] + (size_t)rl;
        }
        rc = rb_chrf_orders(sc, (size_t)hl, sc->next_id, nrefs, rlen, sc->word_order, sc->rows, cols,
                            3 * (size_t)sc->char_order);
        if (rc != RB_CHRF_OK) goto done;
    }
    rc = RB_CHRF_OK;
done:
    if (rlen != rlen_stack) free(rlen);
    return rc;
}

/* The row of the first reference with the highest rb_chrf_f_int among nrefs rows. */
static const int64_t *rb_chrf_best(const int64_t *rows, size_t nrefs, size_t cols, double factor, double one_plus,
                                   int eps_smoothing) {
    const int64_t *best = rows;
    double best_f = -1.0;
    if (nrefs == 1) return rows;
    for (size_t k = 0; k < nrefs; k++) {
        const double f = rb_chrf_f_int(rows + k * cols, (int)(cols / 3), factor, one_plus, eps_smoothing);
        if (f > best_f) {
            best_f = f;
            best = rows + k * cols;
        }
    }
    return best;
}

/* Rows start..end-1 of a batch: the hypothesis of segment i is texts[off[i]], its references
 * texts[off[i] + 1 .. off[i + 1]); row i (the best reference's) at out + i * cols. */
static int rb_chrf_rows(rb_chrf_scratch *sc, const rb_text *texts, const int64_t *off, size_t start, size_t end,
                        double factor, double one_plus, int eps_smoothing, int64_t *out) {
    const size_t cols = rb_chrf_cols(sc);
    for (size_t i = start; i < end; i++) {
        const size_t nrefs = (size_t)(off[i + 1] - off[i] - 1);
        int rc = rb_chrf_segment(sc, &texts[off[i]], &texts[off[i] + 1], nrefs);
        if (rc != RB_CHRF_OK) return rc;
        memcpy(out + i * cols, rb_chrf_best(sc->rows, nrefs, cols, factor, one_plus, eps_smoothing),
               cols * sizeof(int64_t));
    }
    return RB_CHRF_OK;
}

/* Pairwise rows start..end-1 of n sentences: hypothesis i against every sentence j as its
 * single reference.  stats != NULL: rows into stats + (i * n + j) * cols; scores != NULL: the
 * sentence chrF into scores[i * n + j]. */
static int rb_chrf_pairwise(rb_chrf_scratch *sc, const rb_text *texts, size_t n, size_t start, size_t end,
                            double factor, double one_plus, int eps_smoothing, int64_t *stats, double *scores) {
    const size_t cols = rb_chrf_cols(sc);
    for (size_t i = start; i < end; i++) {
        int rc = rb_chrf_segment(sc, &texts[i], texts, n);
        if (rc != RB_CHRF_OK) return rc;
        if (stats) memcpy(stats + i * n * cols, sc->rows, n * cols * sizeof(int64_t));
        if (scores)
            for (size_t j = 0; j < n; j++)
                scores[i * n + j] = rb_chrf_f_int(sc->rows + j * cols, (int)(cols / 3), factor, one_plus, eps_smoothing);
    }
    return RB_CHRF_OK;
}

#endif
