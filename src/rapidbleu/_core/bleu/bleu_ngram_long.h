/* Long segments (more than RB_TAB_CHUNK hypothesis n-grams): one order at a time.
 *
 * rb_segment's tables hold every order's n-grams at once, which on a long line whose n-grams
 * are mostly distinct is about (N - 1) x tokens entries, plus the peak of rehashing them.  Here
 * the memory follows the largest single order instead:
 *
 *  1. tokens: the hypothesis's token ids, then each reference's (looked up), kept at 4 bytes
 *     per token; order 1 is clipped on the way.  String tokens' code points are first
 *     compacted to the hypothesis's distinct tokens, so the references' code points overwrite
 *     the rest.  Then the code points, spans and token table are freed.
 *  2. orders n = 2..N, each with a fresh pair table: n-gram i of order n is exactly the pair
 *     (id of (n-1)-gram i, id of (n-1)-gram i + 1) (they overlap in n - 2 tokens and together
 *     fix all n), so every text's ids are rewritten in place, order by order, and nothing but
 *     one id per token is kept across orders.  Ids restart at 0 per order (given in order of
 *     first occurrence); clipping counts are per order.  Where the last order had many
 *     distinct n-grams, the table is sized from a HyperLogLog estimate of this order's (a pass
 *     over the keys, a few ns each), so it is neither rehashed nor oversized (no power-of-two
 *     rounding: slots by multiply-shift range reduction); elsewhere (repetitive text) it
 *     starts from the last order's count and grows.  Either way it grows whenever its load
 *     would pass 3/4, so the sizing only ever costs memory or time, never a count.  (With a
 *     test mask tables start at 16 slots, so the collision tests run the growth too.)
 *
 * References longer together than twice the hypothesis are taken in groups (see
 * rb_segment_long).  A reference n-gram is only looked up (an absent (n-1)-gram makes its
 * extensions absent, and a reference with no n-gram of order n in the hypothesis stops there),
 * as in rb_segment.
 */
#ifndef RAPIDBLEU_NGRAM_LONG_H
#define RAPIDBLEU_NGRAM_LONG_H

#include "compiler.h"
#include "bleu_ngram_core.h"
#include "table.h"

/* A well-mixed 64-bit hash of a pair of ids: the two halves of one 64 x 64 -> 128-bit
 * product folded together (as wyhash); MurmurHash3's finalizer without 128-bit integers. */
static inline uint64_t rb_mix_pair(uint32_t a, uint32_t b) {
    uint64_t key = ((uint64_t)a << 32 | b) ^ 0x2d358dccaa6c78a5ULL;
#if defined(__SIZEOF_INT128__)
    unsigned __int128 p = (unsigned __int128)key * 0x8bb84b93962eacc9ULL;
    return (uint64_t)p ^ (uint64_t)(p >> 64);
#else
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdULL;
    key ^= key >> 33;
    key *= 0xc4ceb9fe1a85ec53ULL;
    return key ^ (key >> 33);
#endif
}

static inline unsigned rb_clz64(uint64_t x) { /* x != 0 */
#if defined(__GNUC__) || defined(__clang__)
    return (unsigned)__builtin_clzll(x);
#else
    unsigned n = 0;
    while (!(x >> 63)) {
        x <<= 1;
        n++;
    }
    return n;
#endif
}

/* HyperLogLog (Flajolet et al. 2007) of the distinct pairs (ids[i], ids[i + 1]), i < cnt: the
 * distinct n-grams of the next order, in one pass over the ids.  `reg` holds 2**RB_HLL_BITS
 * bytes.  It only sizes a table, never decides a count. */
#define RB_HLL_BITS 14 /* 16384 registers: a standard error of 1.04 / 128, under 1% */

static size_t rb_distinct_pairs(const uint32_t *ids, size_t cnt, uint8_t *reg) {
    const size_t m = (size_t)1 << RB_HLL_BITS;
    memset(reg, 0, m);
    for (size_t i = 0; i < cnt; i++) {
        uint64_t h = rb_mix_pair(ids[i], ids[i + 1]);
        size_t j = (size_t)(h >> (64 - RB_HLL_BITS));
        uint8_t r = (uint8_t)(rb_clz64((h << RB_HLL_BITS) | ((uint64_t)1 << (RB_HLL_BITS - 1))) + 1);
        if (r > reg[j]) reg[j] = r;
    }
    double sum = 0;
    for (size_t j = 0; j < m; j++) { /* 2**-reg[j], built from its IEEE 754 bits (no libm) */
        uint64_t bits = (uint64_t)(1023 - reg[j]) << 52;
        double p;
        memcpy(&p, &bits, sizeof p);
        sum += p;
    }
    /* the raw estimate: under about 2.5 * m distinct it overestimates (up to 0.72 * m for
     * a handful), which only makes a small table a little larger */
    double e = 0.7213 / (1 + 1.079 / (double)m) * (double)m * (double)m / sum;
    return e < (double)cnt ? (size_t)e : cnt;
}

/* Free a scratch buffer (the long path's code points, spans and token table: the next
 * segment grows them again, to its own size). */
#define RB_RELEASE(sc, field) \
    do {                      \
        free((sc)->field);    \
        (sc)->field = NULL;   \
        (sc)->field##_cap = 0; \
    } while (0)

/* Counts of one order: clipped matches of the ids 0..d-1 (hcnt: in the hypothesis; refmax:
 * most in one reference); clears both for the next order. */
static int64_t rb_clip_order(uint32_t *hcnt, uint32_t *refmax, uint32_t d) {
    int64_t m = 0;
    for (uint32_t id = 0; id < d; id++) {
        uint32_t h = hcnt[id], b = refmax[id];
        m += h < b ? h : b;
    }
    memset(hcnt, 0, ((size_t)d + 1) * sizeof(uint32_t));
    memset(refmax, 0, ((size_t)d + 1) * sizeof(uint32_t));
    return m;
}

/* One reference's ids of the current order (`sink`: the slot of absent ones) into refmax.
 * The first reference of an order counts straight into refmax (all zero then); later ones
 * count in cnt (zero on entry and exit), listing the ids they touch in touched, then raise
 * refmax.  Returns whether any id was present. */
static int rb_ref_counts(const uint32_t *ids, size_t cnt_n, uint32_t sink, int first, uint32_t *cnt,
                         uint32_t *refmax, uint32_t *touched) {
    int any = 0;
    if (first) {
        for (size_t i = 0; i < cnt_n; i++) {
            const uint32_t id = ids[i];
            any |= id != RB_ABSENT;
            refmax[id == RB_ABSENT ? sink : id]++;
        }
        return any;
    }
    size_t nt = 0;
    for (size_t i = 0; i < cnt_n; i++) {
        const uint32_t id = ids[i];
        const uint32_t slot = id == RB_ABSENT ? sink : id;
        any |= id != RB_ABSENT;
        touched[nt] = slot;
        nt += cnt[slot]++ == 0;
    }
    for (size_t t = 0; t < nt; t++) {
        uint32_t id = touched[t];
        if (cnt[id] > refmax[id]) refmax[id] = cnt[id];
        cnt[id] = 0;
    }
    return any;
}

/* Make *p hold `need` counts, zero where new (its old part kept): count arrays are sized by
 * the ids in use, not by the tokens, because calloc only leaves untouched pages untouched
 * when it maps fresh memory (large blocks), not when it reuses the heap. */
static int rb_counts_reserve(uint32_t **p, size_t *cap, size_t need) {
    if (need <= *cap) return 1;
    uint32_t *q = (uint32_t *)realloc(*p, need * sizeof(uint32_t));
    if (!q) return 0;
    memset(q + *cap, 0, (need - *cap) * sizeof(uint32_t));
    *p = q;
    *cap = need;
    return 1;
}

/* rb_segment for a hypothesis of hl tokens, already tokenized into sc (rb_text_tokens at 0),
 * with more than RB_TAB_CHUNK n-grams.  Not inlined: rb_segment's loop over ordinary
 * segments stays as small as it was.
 *
 * References are taken in groups, each group's token ids kept across the orders: one group
 * when they are together at most twice as long as the hypothesis (one or two references:
 * every order is counted once), else groups of about the hypothesis's length, the
 * hypothesis's orders recounted for each (its ids come out the same every time: ids follow
 * first occurrence) and each order's reference maxima kept until the last group clips them;
 * so many long references cost time, not 4 bytes per token each. */
static RB_NOINLINE int rb_segment_long(rb_scratch *sc, const rb_text *hyp, const rb_text *refs, size_t nrefs,
                                       int64_t *row, size_t hl) {
    const int N = sc->order;
    const int int_keyed = hyp->kind == RB_KIND_INT64 || rb_cp_tokens(sc, hyp);
    const uint64_t tmask = int_keyed ? sc->mask : ~(uint64_t)0;
    int rc = RB_ENOMEM;
    uint32_t *tok0 = NULL, *tok = NULL, *rtok = NULL, *hcnt1 = NULL, *hcnt = NULL, *cnt = NULL;
    uint32_t *touched = NULL, *first = NULL;
    size_t hcnt_cap = 0, cnt_cap = 0, touched_cap = 0;
    uint32_t **rmax = NULL; /* per order: most occurrences in one reference, per id */
    uint32_t *dn = NULL;    /* per order: distinct hypothesis n-grams (from the first group) */
    unsigned char *counted = NULL; /* per order: some reference counted into rmax already */
    size_t *roff = NULL, rtok_cap = 0;
    unsigned char *alive = NULL;
    uint8_t *reg = NULL;
    rb_ltab t = {NULL, 0, 0, sc->mask, 0};
    int64_t best_len = -1, best_diff = -1;

    size_t ref_len = 0; /* code points (str) or tokens: an upper bound on the tokens */
    for (size_t k = 0; k < nrefs; k++) ref_len += refs[k].len;
    const size_t group_len = ref_len <= 2 * hyp->len ? ref_len : hyp->len;
    const int one_group = ref_len <= 2 * hyp->len;

    /* per-id counts, sized by the ids in use (+ the sink; cnt and touched are used only from
     * the second reference on).  Those of one group (and its copy of the hypothesis's ids)
     * are freed after it, so that they are not resident while the next group's references
     * are read. */
    tok0 = (uint32_t *)malloc((hl + 1) * sizeof(uint32_t));
    rmax = (uint32_t **)calloc((size_t)N + 1, sizeof(uint32_t *));
    dn = (uint32_t *)calloc((size_t)N + 1, sizeof(uint32_t));
    counted = (unsigned char *)calloc((size_t)N + 1, 1);
    roff = (size_t *)malloc((nrefs + 1) * sizeof(size_t));
    alive = (unsigned char *)malloc(nrefs + 1);
    reg = (uint8_t *)malloc((size_t)1 << RB_HLL_BITS);
    if (!tok0 || !rmax || !dn || !counted || !roff || !alive || !reg) goto done;

    /* 1. hypothesis tokens, in chunks: the token table grows with the distinct tokens (int64
     * tokens in rb_segment's direct-mapped vocabulary need no table: its stamp is set) */
    const int direct = hyp->kind == RB_KIND_INT64 && sc->vmap != NULL;
    sc->next_id = 0;
    if (!direct) {
        size_t tcap = rb_table_size(hl < RB_TAB_CHUNK ? hl : RB_TAB_CHUNK, &sc->ttab_shift);
        if (!rb_reserve((void **)&sc->ttab, &sc->ttab_cap, tcap, sizeof(rb_tok_entry))) goto done;
        rb_tok_clear(sc->ttab, tcap);
        sc->ttab_size = tcap;
    }
    /* each step inserts at most the tokens the table can take at load 1/2 (each adds at most
     * one entry); it grows only when that room runs short, so a line of few distinct tokens
     * keeps its first table (growing before every chunk of RB_TAB_CHUNK would size it for
     * the chunk's tokens all being new) */
    for (size_t k0 = 0; k0 < hl;) {
        size_t room = direct ? hl - k0 : sc->ttab_size / 2 > sc->next_id ? sc->ttab_size / 2 - sc->next_id : 0;
        if (room < RB_TAB_CHUNK / 8 && room < hl - k0) {
            if (!rb_tok_room(&sc->ttab, &sc->ttab_cap, &sc->ttab_size, &sc->ttab_shift,
                             (size_t)sc->next_id + RB_TAB_CHUNK, hl, tmask)) goto done;
            room = sc->ttab_size / 2 - sc->next_id;
        }
        size_t k1 = hl - k0 < room ? hl : k0 + room;
        rb_text_ids_range(sc, hyp, k0, k1, tok0);
        k0 = k1;
    }
    const uint32_t d1 = sc->next_id;
    hcnt1 = (uint32_t *)calloc((size_t)d1 + 2, sizeof(uint32_t));
    if (!hcnt1) goto done;
    for (size_t k = 0; k < hl; k++) hcnt1[tok0[k]]++;
    rmax[1] = (uint32_t *)calloc((size_t)d1 + 2, sizeof(uint32_t));
    if (!rmax[1]) goto done;

    /* string tokens with spans in sc->cps: move each distinct token's code points to the
     * front, in id order (ids are given in order of first occurrence, so every move is to the
     * left), and point the table there; the references then go right after them.  (str
     * tokens read in place, RB_KIND_STRREFS, have no code points here: their table entries
     * index the hypothesis's own tokens.) */
    size_t ref_base = 0;
    if (!int_keyed && hyp->kind != RB_KIND_STRREFS) {
        first = (uint32_t *)malloc(((size_t)d1 + 1) * sizeof(uint32_t));
        if (!first) goto done;
        uint32_t seen = 0;
        for (size_t k = 0; k < hl && seen < d1; k++) {
            if (tok0[k] != seen) continue;
            memmove(sc->cps + ref_base, sc->cps + sc->ts[k], sc->tl[k] * sizeof(uint32_t));
            first[seen++] = (uint32_t)ref_base;
            ref_base += sc->tl[k];
        }
        for (size_t s = 0; s < sc->ttab_size; s++)
            if (sc->ttab[s].id != RB_ABSENT) sc->ttab[s].start = first[sc->ttab[s].id];
        free(first);
        first = NULL;
    }

    row[0] = (int64_t)hl;
    for (int n = 1; n <= N; n++) {
        row[1 + n] = 0;
        row[1 + N + n] = (int64_t)rb_ngrams(hl, n);
    }
    size_t g0 = 0;
    do {
        /* the group: references g0..g1-1 */
        size_t g1 = g0, glen = 0;
        while (g1 < nrefs && (g1 == g0 || glen + refs[g1].len <= group_len)) glen += refs[g1++].len;
        const int last = g1 == nrefs;

        /* its token ids (kept for the longer orders), closest length, order 1 */
        roff[g0] = 0;
        for (size_t k = g0; k < g1; k++) {
            ptrdiff_t r = rb_text_tokens(sc, &refs[k], ref_base);
            if (r < 0) {
                rc = r == -1 ? RB_ENOMEM : RB_ETOOLONG;
                goto done;
            }
            const size_t rl = (size_t)r;
            rb_closest(&best_len, &best_diff, hl, rl);
            if (!rb_reserve((void **)&rtok, &rtok_cap, roff[k] + rl + 1, sizeof(uint32_t))) goto done;
            rb_text_ids(sc, &refs[k], rl, 0, rtok + roff[k]);
            if (counted[1] && (!rb_counts_reserve(&cnt, &cnt_cap, (size_t)d1 + 2) ||
                               !rb_counts_reserve(&touched, &touched_cap, (size_t)d1 + 2)))
                goto done;
            alive[k] = (unsigned char)rb_ref_counts(rtok + roff[k], rl, d1, !counted[1], cnt, rmax[1], touched);
            counted[1] = 1;
            roff[k + 1] = roff[k] + rl;
        }
        /* the spans are not needed any more, nor the code points but the hypothesis's distinct
         * tokens' (string tokens, while another group needs the token table) */
        RB_RELEASE(sc, ts);
        RB_RELEASE(sc, tl);
        if (last) {
            row[2] = rb_clip_order(hcnt1, rmax[1], d1);
            RB_RELEASE(sc, cps);
            RB_RELEASE(sc, ttab);
            sc->ttab_size = 0;
        } else if (ref_base == 0) {
            RB_RELEASE(sc, cps);
        } else {
            uint32_t *c = (uint32_t *)realloc(sc->cps, ref_base * sizeof(uint32_t));
            if (c) { /* shrinking: on failure the larger block is kept */
                sc->cps = c;
                sc->cps_cap = ref_base;
            }
        }

        /* 2. orders 2..N, one table each; ids rewritten in place */
        tok = one_group ? tok0 : (uint32_t *)malloc((hl + 1) * sizeof(uint32_t));
        if (!tok) goto done;
        if (tok != tok0) memcpy(tok, tok0, hl * sizeof(uint32_t));
        uint32_t dprev = d1; /* distinct n-grams of the last order */
        for (int n = 2; n <= N; n++) {
            const size_t cnt_n = rb_ngrams(hl, n);
            if (cnt_n == 0) break;
            /* The table: for as many entries as the estimate says (with ~3 standard errors
             * of room) when the last order already had many distinct n-grams; otherwise
             * (repetitive text, where estimating would cost more than the few rehashes of
             * small tables) from the last order's count, which this order's cannot be much
             * below; after the first group, for the exact count. */
            size_t want;
            if (dn[n]) {
                want = dn[n];
            } else if ((size_t)dprev * 256 >= cnt_n) {
                size_t est = rb_distinct_pairs(tok, cnt_n, reg);
                want = est + est / 32 + 64;
            } else {
                want = 2 * (size_t)dprev + 1024;
            }
            if (want > cnt_n) want = cnt_n;
            if (sc->mask != ~(uint64_t)0) want = 8; /* collision tests: grow from the smallest table */
            if (!rb_ltab_alloc(&t, 2 * want) || !rb_counts_reserve(&hcnt, &hcnt_cap, t.limit + 2)) goto done;
            for (size_t i0 = 0; i0 < cnt_n; i0 += RB_TAB_CHUNK) {
                size_t i1 = cnt_n - i0 < RB_TAB_CHUNK ? cnt_n : i0 + RB_TAB_CHUNK;
                size_t need = (size_t)t.next + (i1 - i0);
                if (need > t.limit) {
                    size_t cap = 2 * t.cap > 2 * need ? 2 * t.cap : 2 * need;
                    if (cap > 2 * cnt_n + 16) cap = 2 * cnt_n + 16;
                    if (!rb_ltab_grow(&t, cap) || !rb_counts_reserve(&hcnt, &hcnt_cap, t.limit + 2)) goto done;
                }
                for (size_t i = i0; i < i1; i++) {
                    uint32_t id = rb_ltab_find(&t, tok[i], tok[i + 1], 1);
                    tok[i] = id;
                    hcnt[id]++;
                }
            }
            const uint32_t d = t.next; /* also the sink: no hypothesis n-gram has that id */
            if (!rmax[n]) {
                dn[n] = d;
                rmax[n] = (uint32_t *)calloc((size_t)d + 2, sizeof(uint32_t));
                if (!rmax[n]) goto done;
            }
            for (size_t k = g0; k < g1; k++) {
                const size_t rl = roff[k + 1] - roff[k];
                if (!alive[k] || rl < (size_t)n) continue;
                uint32_t *r = rtok + roff[k];
                const size_t rcnt = rl - n + 1;
                for (size_t i = 0; i < rcnt; i++) r[i] = rb_ltab_find(&t, r[i], r[i + 1], 0);
                if (counted[n] && (!rb_counts_reserve(&cnt, &cnt_cap, (size_t)d + 2) ||
                                   !rb_counts_reserve(&touched, &touched_cap, (size_t)d + 2)))
                    goto done;
                alive[k] = (unsigned char)rb_ref_counts(r, rcnt, d, !counted[n], cnt, rmax[n], touched);
                counted[n] = 1;
            }
            if (last) {
                row[1 + n] = rb_clip_order(hcnt, rmax[n], d);
                free(rmax[n]);
                rmax[n] = NULL;
            } else {
                memset(hcnt, 0, ((size_t)d + 1) * sizeof(uint32_t));
            }
            dprev = d;
        }
        free(t.e);
        t.e = NULL;
        if (tok != tok0) free(tok);
        tok = NULL;
        free(hcnt);
        free(cnt);
        free(touched);
        hcnt = cnt = touched = NULL;
        hcnt_cap = cnt_cap = touched_cap = 0;
        g0 = g1;
    } while (g0 < nrefs);
    row[1] = best_len;
    rc = RB_OK;
done:
    free(t.e);
    if (tok != tok0) free(tok);
    free(tok0);
    free(rtok);
    free(hcnt1);
    free(hcnt);
    free(cnt);
    free(touched);
    free(first);
    if (rmax)
        for (int n = 0; n <= N; n++) free(rmax[n]);
    free(rmax);
    free(dn);
    free(counted);
    free(roff);
    free(alive);
    free(reg);
    return rc;
}

#endif
