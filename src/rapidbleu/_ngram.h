/* BLEU sufficient statistics of one segment at a time, without the GIL.
 *
 * Per segment: the hypothesis is tokenized and its tokens and n-grams get exact dense ids
 * (inserted into the tables); each reference is then only *looked up*, since an n-gram that
 * is not in the hypothesis cannot match (an unknown prefix ends the extension early).  With
 * dense ids, clipping is plain arrays: refmax[id] (the maximum count over references) and a
 * counter per id.  All buffers live in one rb_scratch per thread and only grow, so the loop
 * over segments never allocates once they are large enough.
 */
#ifndef RAPIDBLEU_NGRAM_H
#define RAPIDBLEU_NGRAM_H

#include "_strtok.h"
#include "_table.h"
#include "_tok.h"

/* c ? a : b without a branch (compilers tend to turn a ?: into one), for choices that
 * depend on the data and would be mispredicted half the time. */
static inline uint32_t rb_select(int c, uint32_t a, uint32_t b) {
    const uint32_t m = (uint32_t)0 - (uint32_t)(c != 0);
    return (a & m) | (b & ~m);
}

#define RB_KIND_INT64 8  /* a text of int64 token ids instead of a str (kinds 1, 2, 4) */
#define RB_KIND_STRREFS 10 /* a text of str tokens read in place: rb_strref[len] (_strtok.h) */

enum { RB_OK = 0, RB_ENOMEM = 1, RB_ETOOLONG = 2 };

typedef struct {
    const void *data; /* PyUnicode_DATA, int64 token ids or rb_strref */
    size_t len;       /* code points (str), or tokens (ids, str refs) */
    int kind;         /* 1, 2, 4 (PyUnicode kinds), RB_KIND_INT64 or RB_KIND_STRREFS */
} rb_text;

/* The one n-gram that extends an n-gram occurring once in the hypothesis (see rb_segment):
 * its last token's id and its own id; both RB_ABSENT when there is none (the n-gram ends the
 * hypothesis). */
typedef struct {
    uint32_t last, id;
} rb_ext;

/* A slot of the direct-mapped vocabulary (rb_vmap_setup): the id of integer token
 * vmin + slot in the current segment, valid only if stamp is the segment's. */
typedef struct {
    uint32_t stamp, id;
} rb_vslot;

/* Reference positions looked up together (see rb_segment): their ids stay in the cache. */
#define RB_REF_BLOCK 1024

typedef struct {
    int order;      /* maximum n-gram order N >= 1 */
    int tokenizer;  /* RB_TOK_* */
    uint64_t mask;  /* ANDed into every hash; all ones except in collision tests */
    uint32_t next_id;
    uint32_t *cps; size_t cps_cap;        /* code points: hypothesis, then current reference */
    uint32_t *ts; size_t ts_cap;          /* token spans of the current text */
    uint32_t *tl; size_t tl_cap;
    uint32_t *hyp; size_t hyp_cap;        /* the hypothesis's token ids and n-gram ids of the
                                             current order; then a reference's token ids */
    uint32_t *refmax; size_t refmax_cap;  /* per id: max count over the references */
    uint32_t *cnt; size_t cnt_cap;        /* per id: count in the current reference */
    uint32_t *touched; size_t touched_cap; /* the ids it has counted (if more references follow) */
    uint32_t *hcnt; size_t hcnt_cap;      /* per id: occurrences in the hypothesis */
    rb_ext *ext; size_t ext_cap;          /* per id: its extension if it occurs once (rb_ext) */
    uint32_t *ofirst; size_t ofirst_cap;  /* per order n: its first id (order n+1's ends it) */
    rb_tok_entry *ttab; size_t ttab_cap;  /* allocated slots */
    rb_pair_entry *ptab; size_t ptab_cap;
    size_t ttab_size, ptab_size;           /* slots in use for the current segment */
    size_t text_end;                       /* end in cps of the last text placed there */
    size_t text_base;                      /* start in cps of the last text placed there */
    unsigned ttab_shift, ptab_shift;
    const rb_strref *keys;                 /* RB_KIND_STRREFS: the hypothesis's tokens, which
                                              token-table entries index */
    uint32_t blk_lvl[RB_REF_BLOCK], blk_pos[RB_REF_BLOCK]; /* a block of reference positions */
    rb_vslot *vmap; size_t vmap_len;      /* int64 tokens, when their range is small enough: */
    uint64_t vmin;                        /* vmap[tok - vmin] replaces the token table */
    uint32_t stamp;                       /* the current segment's (0: none yet) */
} rb_scratch;

static void rb_scratch_init(rb_scratch *sc, int order, int tokenizer, uint64_t mask) {
    memset(sc, 0, sizeof(*sc));
    sc->order = order;
    sc->tokenizer = tokenizer;
    sc->mask = mask;
}

static void rb_scratch_free(rb_scratch *sc) {
    free(sc->cps); free(sc->ts); free(sc->tl); free(sc->hyp);
    free(sc->refmax); free(sc->cnt); free(sc->touched); free(sc->ttab); free(sc->ptab);
    free(sc->hcnt); free(sc->ofirst); free(sc->ext); free(sc->vmap);
    memset(sc, 0, sizeof(*sc));
}

#define RB_RESERVE(sc, field, need) \
    rb_reserve((void **)&(sc)->field, &(sc)->field##_cap, (need), sizeof(*(sc)->field))

/* True when the tokens of text t are single code points used as integer keys: str texts under
 * the char tokenizer.  Their code points are packed into sc->cps (spaces dropped), token k is
 * cps[text_base + k], and no spans are made: a long line needs no 8 bytes per character of
 * spans, and its code points are not needed once its tokens have ids. */
static inline int rb_cp_tokens(const rb_scratch *sc, const rb_text *t) {
    return sc->tokenizer == RB_TOK_CHAR && t->kind <= 4;
}

/* Decode a str text into sc->cps at `base`, rstrip and tokenize it; spans in sc->ts/tl (char:
 * see rb_cp_tokens).  Returns the token count, or -1 (out of memory) / -2 (segment over 2**32
 * code points). */
static ptrdiff_t rb_str_spans(rb_scratch *sc, const rb_text *t, size_t base) {
    size_t n = t->len;
    const int cp_tokens = rb_cp_tokens(sc, t);
    if (base + n >= (size_t)UINT32_MAX) return -2;
    if (!RB_RESERVE(sc, cps, base + n + 1) ||
        (!cp_tokens && (!RB_RESERVE(sc, ts, n + 1) || !RB_RESERVE(sc, tl, n + 1))))
        return -1;
    uint32_t *s = sc->cps + base;
    int step1_flags = -1;
    switch (t->kind) {
        case 1: {
            const uint8_t *d = (const uint8_t *)t->data;
            for (size_t i = 0; i < n; i++) s[i] = d[i];
            if (sc->tokenizer == RB_TOK_13A) step1_flags = rb_step1_flags_ucs1(d, n);
            break;
        }
        case 2: {
            const uint16_t *d = (const uint16_t *)t->data;
            for (size_t i = 0; i < n; i++) s[i] = d[i];
            break;
        }
        default:
            memcpy(s, t->data, n * sizeof(uint32_t));
    }
    sc->text_base = base;
    sc->text_end = base + n;
    n = rb_rstrip(s, n);
    if (cp_tokens) { /* "c h a r".split(): every non-space code point, in order */
        size_t w = 0;
        for (size_t i = 0; i < n; i++)
            if (!rb_is_space(s[i])) s[w++] = s[i];
        sc->text_end = base + w;
        return (ptrdiff_t)w;
    }
    return (ptrdiff_t)rb_tokenize(sc->tokenizer, s, n, (uint32_t)base, sc->ts, sc->tl, step1_flags);
}

/* Ids of single-code-point tokens k0..k1-1 (rb_cp_tokens), keyed by the code point. */
static void rb_intern_cps(rb_scratch *sc, size_t k0, size_t k1, int insert, uint32_t *ids) {
    const uint32_t *s = sc->cps + sc->text_base;
    for (size_t k = k0; k < k1; k++)
        ids[k] = rb_tok_find_int(sc->ttab, sc->ttab_size, sc->ttab_shift, (uint64_t)s[k], sc->mask, insert,
                                 &sc->next_id);
}

/* Ids of the ntok tokens whose spans are in sc->ts/tl (insert: new ids; else RB_ABSENT). */
static void rb_intern_spans(rb_scratch *sc, size_t ntok, int insert, uint32_t *ids) {
    for (size_t k = 0; k < ntok; k++) {
        const uint32_t *s = sc->cps + sc->ts[k];
        uint64_t h = rb_hash_cps(s, sc->tl[k]) & sc->mask;
        ids[k] = rb_tok_find_str(sc->ttab, sc->ttab_size, sc->ttab_shift, sc->cps, s, sc->ts[k], sc->tl[k], h,
                                 insert, &sc->next_id);
    }
}

static void rb_intern_ints(rb_scratch *sc, const int64_t *tok, size_t ntok, int insert,
                           uint32_t *ids) {
    if (sc->vmap) {
        /* no probing, no data-dependent branch: a slot from an earlier segment is free */
        rb_vslot *const v = sc->vmap;
        const uint64_t vmin = sc->vmin;
        const uint32_t stamp = sc->stamp;
        if (insert) {
            uint32_t next = sc->next_id;
            for (size_t k = 0; k < ntok; k++) {
                rb_vslot *e = &v[(uint64_t)tok[k] - vmin];
                const int fresh = e->stamp != stamp;
                const uint32_t id = rb_select(fresh, next, e->id);
                e->stamp = stamp;
                e->id = id;
                next += (uint32_t)fresh;
                ids[k] = id;
            }
            sc->next_id = next;
        } else {
            for (size_t k = 0; k < ntok; k++) {
                const rb_vslot e = v[(uint64_t)tok[k] - vmin];
                ids[k] = rb_select(e.stamp == stamp, e.id, RB_ABSENT);
            }
        }
        return;
    }
    for (size_t k = 0; k < ntok; k++)
        ids[k] = rb_tok_find_int(sc->ttab, sc->ttab_size, sc->ttab_shift, (uint64_t)tok[k], sc->mask, insert,
                                 &sc->next_id);
}

/* Direct-mapped vocabulary slots allowed per int64 token of a chunk of rows, and at most: the
 * map (8 bytes a slot) then costs at most four times the ids' own memory, and clearing it (once
 * per chunk, by the allocator) at most a few ns per token. */
#define RB_VMAP_PER_TOKEN 4
#define RB_VMAP_MAX ((size_t)1 << 22)

/* Use a direct-mapped vocabulary for the int64 texts texts[t0..t1) when the range of their
 * ids is small enough (token ids of a model's vocabulary): an array indexed by id, stamped
 * per segment so that it is never cleared, instead of a hash table filled and cleared per
 * segment.  Not under a test mask, whose purpose is to exercise the token table's collisions.
 * Returns 0 when out of memory. */
static int rb_vmap_setup(rb_scratch *sc, const rb_text *texts, size_t t0, size_t t1) {
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    size_t ntok = 0;
    for (size_t t = t0; t < t1; t++) {
        if (texts[t].kind != RB_KIND_INT64) continue;
        const int64_t *d = (const int64_t *)texts[t].data;
        for (size_t k = 0; k < texts[t].len; k++) {
            lo = d[k] < lo ? d[k] : lo;
            hi = d[k] > hi ? d[k] : hi;
        }
        ntok += texts[t].len;
    }
    free(sc->vmap);
    sc->vmap = NULL;
    sc->vmap_len = 0;
    if (ntok == 0 || sc->mask != ~(uint64_t)0) return 1;
    const uint64_t range = (uint64_t)hi - (uint64_t)lo + 1; /* no overflow: hi >= lo */
    if (range == 0 || range > RB_VMAP_MAX || range > (uint64_t)RB_VMAP_PER_TOKEN * ntok) return 1;
    sc->vmap = (rb_vslot *)calloc((size_t)range, sizeof(rb_vslot));
    if (!sc->vmap) return 0;
    sc->vmap_len = (size_t)range;
    sc->vmin = (uint64_t)lo;
    sc->stamp = 0;
    return 1;
}

/* ext[from..to): no extension (yet). */
static inline void rb_no_ext(rb_ext *ext, uint32_t from, uint32_t to) {
    for (uint32_t id = from; id < to; id++) ext[id].last = ext[id].id = RB_ABSENT;
}

/* Hypothesis entries inserted per chunk once a segment is long (see rb_segment). */
#define RB_TAB_CHUNK ((size_t)1 << 15)

/* Room for `need` entries at load <= 1/2: room for twice that when the table must grow (so
 * a table of n distinct entries is rehashed about log4(n / 2**15) times), but never more than
 * for `bound`, the most entries it can end with (so it never exceeds the table sized for
 * every token or n-gram being distinct). */
static inline size_t rb_grow_target(size_t need, size_t bound) {
    size_t target = 2 * need < bound ? 2 * need : bound;
    return target > need ? target : need;
}

/* Make the token table hold `need` entries at load <= 1/2 (rehashing into a larger one). */
static int rb_grow_ttab(rb_scratch *sc, size_t need, size_t bound, uint64_t tmask) {
    if (2 * need <= sc->ttab_size) return 1;
    unsigned shift;
    size_t cap = rb_table_size(rb_grow_target(need, bound), &shift);
    rb_tok_entry *t = rb_tok_rehash(sc->ttab, sc->ttab_size, cap, shift, tmask);
    if (!t) return 0;
    sc->ttab = t;
    sc->ttab_cap = sc->ttab_size = cap;
    sc->ttab_shift = shift;
    return 1;
}

/* Insert the hypothesis tokens k0..k1-1 (ids into ids[k0..k1)). */
static void rb_text_ids_range(rb_scratch *sc, const rb_text *t, size_t k0, size_t k1, uint32_t *ids) {
    if (t->kind == RB_KIND_INT64) {
        rb_intern_ints(sc, (const int64_t *)t->data + k0, k1 - k0, 1, ids + k0);
    } else if (t->kind == RB_KIND_STRREFS) {
        sc->keys = (const rb_strref *)t->data;
        rb_intern_refs(sc->ttab, sc->ttab_size, sc->ttab_shift, sc->mask, sc->keys, sc->keys, k0, k1, 1,
                       &sc->next_id, ids);
    } else if (rb_cp_tokens(sc, t)) {
        rb_intern_cps(sc, k0, k1, 1, ids);
    } else {
        for (size_t k = k0; k < k1; k++) {
            const uint32_t *s = sc->cps + sc->ts[k];
            uint64_t h = rb_hash_cps(s, sc->tl[k]) & sc->mask;
            ids[k] = rb_tok_find_str(sc->ttab, sc->ttab_size, sc->ttab_shift, sc->cps, s, sc->ts[k], sc->tl[k],
                                     h, 1, &sc->next_id);
        }
    }
}

/* Room in hcnt for the ids a chunk of `len` insertions may create, those counts zeroed. */
static int rb_hcnt_fresh(rb_scratch *sc, size_t len) {
    size_t from = (size_t)sc->next_id;
    if (!RB_RESERVE(sc, hcnt, from + len + 1)) return 0;
    memset(sc->hcnt + from, 0, len * sizeof(uint32_t));
    return 1;
}

/* Number of n-grams of order n in a text of `len` tokens. */
static inline size_t rb_ngrams(size_t len, int n) { return len >= (size_t)n ? len - n + 1 : 0; }

/* Token spans (str), or the token count (int ids, str refs), of a text placed at cps offset `base`. */
static ptrdiff_t rb_text_tokens(rb_scratch *sc, const rb_text *t, size_t base) {
    if (t->kind == RB_KIND_STRREFS) { /* token k is the table's start index k */
        if (t->len >= (size_t)UINT32_MAX) return -2;
        sc->text_end = base;
        return (ptrdiff_t)t->len;
    }
    if (t->kind == RB_KIND_INT64) {
        sc->text_end = base;
        return (ptrdiff_t)t->len;
    }
    return rb_str_spans(sc, t, base);
}

static void rb_text_ids(rb_scratch *sc, const rb_text *t, size_t ntok, int insert, uint32_t *ids) {
    if (t->kind == RB_KIND_INT64)
        rb_intern_ints(sc, (const int64_t *)t->data, ntok, insert, ids);
    else if (t->kind == RB_KIND_STRREFS)
        rb_intern_refs(sc->ttab, sc->ttab_size, sc->ttab_shift, sc->mask, sc->keys, (const rb_strref *)t->data,
                       0, ntok, insert, &sc->next_id, ids);
    else if (rb_cp_tokens(sc, t))
        rb_intern_cps(sc, 0, ntok, insert, ids);
    else
        rb_intern_spans(sc, ntok, insert, ids);
}

#include "_ngram_long.h"

/* One row [hyp_len, ref_len, matches_1..N, totals_1..N] into `row`.  Returns RB_OK or an
 * error code. */
static int rb_segment(rb_scratch *sc, const rb_text *hyp, const rb_text *refs, size_t nrefs,
                      int64_t *row) {
    const int N = sc->order;
    ptrdiff_t r = rb_text_tokens(sc, hyp, 0);
    if (r < 0) return r == -1 ? RB_ENOMEM : RB_ETOOLONG;
    const size_t hl = (size_t)r;
    /* references go after the hypothesis's code points, which string tokens' table entries
     * point into; integer-keyed tokens need them no more, so references overwrite them */
    const int int_keyed = hyp->kind == RB_KIND_INT64 || rb_cp_tokens(sc, hyp);
    const size_t ref_base = int_keyed ? 0 : sc->text_end;
    /* int64 tokens in the direct-mapped vocabulary (a segment's texts are of one kind): a new
     * stamp frees every slot */
    const int direct = hyp->kind == RB_KIND_INT64 && sc->vmap != NULL;
    if (direct && ++sc->stamp == 0) {
        memset(sc->vmap, 0, sc->vmap_len * sizeof(rb_vslot));
        sc->stamp = 1;
    }

    /* hypothesis: the token ids in hyp[0..hl); each order's n-gram ids are then computed in
     * place in hyp[hl..2hl) from the previous order's (n-gram i of order n = (n-gram i of order
     * n-1, token i+n-1)), and hcnt[id] counts each id's occurrences.  Ids are given order by
     * order, so the ids of order n are ofirst[n]..ofirst[n+1]-1: the clipping needs only
     * hcnt, not every n-gram's id (8 bytes per token instead of 4 x order). */
    size_t total = 0;
    for (int n = 1; n <= N; n++) total += rb_ngrams(hl, n);
    /* a long line: one order at a time, memory bounded by the largest order (_ngram_long.h) */
    if (total > RB_TAB_CHUNK) return rb_segment_long(sc, hyp, refs, nrefs, row, hl);
    /* From here on the segment has at most RB_TAB_CHUNK n-grams: tables sized for every token /
     * n-gram that can need one being distinct (see `pbound` below), so one allocation and no
     * growth check.  Only the part in use is cleared (0xFF.. = empty slot), so small segments
     * stay cheap. */
    size_t tcap = direct ? 0 : rb_table_size(hl, &sc->ttab_shift);
    if (!RB_RESERVE(sc, hyp, 2 * hl + 1) || !RB_RESERVE(sc, ofirst, (size_t)N + 2) ||
        !rb_reserve((void **)&sc->ttab, &sc->ttab_cap, tcap, sizeof(rb_tok_entry)))
        return RB_ENOMEM;
    if (tcap) memset(sc->ttab, 0xFF, tcap * sizeof(rb_tok_entry));
    sc->ttab_size = tcap; /* probing stays within the cleared prefix */
    sc->next_id = 0;

    uint32_t *const tok = sc->hyp, *const level = sc->hyp + hl;
    if (!rb_hcnt_fresh(sc, total)) return RB_ENOMEM; /* every id this segment can create */
    sc->ofirst[1] = 0;
    rb_text_ids_range(sc, hyp, 0, hl, tok);
    for (size_t k = 0; k < hl; k++) sc->hcnt[tok[k]]++;
    const uint32_t n_tok_ids = sc->next_id;

    /* An n-gram whose prefix (its first n-1 tokens) occurs once in the hypothesis occurs once
     * too, and is that prefix's only extension: it gets its id without the n-gram table, and
     * the prefix keeps (last token, id) in ext[prefix] for the references' look-ups (random
     * token ids make nearly every prefix unique).  Only n-grams with a repeated prefix go
     * into the table, and a repeated prefix starts with a repeated token: at most `repeated`
     * (positions whose token is repeated) table entries per order. */
    size_t repeated = hl;
    for (uint32_t id = 0; id < n_tok_ids; id++) repeated -= sc->hcnt[id] == 1;
    const size_t pbound = (size_t)(N - 1) * repeated < total - hl ? (size_t)(N - 1) * repeated : total - hl;
    size_t pcap = rb_table_size(pbound, &sc->ptab_shift);
    if (!rb_reserve((void **)&sc->ptab, &sc->ptab_cap, pcap, sizeof(rb_pair_entry))) return RB_ENOMEM;
    memset(sc->ptab, 0xFF, pcap * sizeof(rb_pair_entry));
    sc->ptab_size = pcap;

    if (N >= 2 && hl >= 2) memcpy(level, tok, hl * sizeof(uint32_t));
    int n = 2;
    for (; n <= N && rb_ngrams(hl, n) > 0; n++) {
        size_t cnt_n = rb_ngrams(hl, n);
        sc->ofirst[n] = sc->next_id;
        /* the prefixes of this order are the ids of the previous one: no extension yet */
        if (!RB_RESERVE(sc, ext, (size_t)sc->next_id)) return RB_ENOMEM;
        rb_ext *const ext = sc->ext;
        rb_no_ext(ext, sc->ofirst[n - 1], sc->next_id);
        rb_pair_entry *const ptab = sc->ptab;
        const size_t psize = sc->ptab_size;
        const unsigned pshift = sc->ptab_shift;
        uint32_t *const hcnt = sc->hcnt;
        for (size_t i = 0; i < cnt_n; i++) {
            const uint32_t prefix = level[i], last = tok[i + n - 1];
            uint32_t id;
            if (hcnt[prefix] == 1) {
                id = sc->next_id++;
                ext[prefix].last = last;
                ext[prefix].id = id;
            } else {
                id = rb_pair_find(ptab, psize, pshift, prefix, last, sc->mask, 1, &sc->next_id);
            }
            level[i] = id;
            hcnt[id]++;
        }
    }
    const int built = n - 1; /* the highest order the hypothesis has */
    for (; n <= N + 1; n++) sc->ofirst[n] = sc->next_id;
    pcap = sc->ptab_size;
    const uint32_t ids = sc->next_id;
    /* the references look up extensions of every order below the first the hypothesis lacks:
     * those of the last order built are still unset */
    /* (+ 1: never empty; touched: the loop below stores at touched[nt] before it knows whether
     * the id is new, so once every id is touched it stores one past the last) */
    if (!RB_RESERVE(sc, ext, (size_t)ids) || !RB_RESERVE(sc, refmax, (size_t)ids + 1) ||
        !RB_RESERVE(sc, cnt, (size_t)ids + 1) || (nrefs > 1 && !RB_RESERVE(sc, touched, (size_t)ids + 1)))
        return RB_ENOMEM;
    if (built < N) rb_no_ext(sc->ext, sc->ofirst[built], ids);
    memset(sc->refmax, 0, ((size_t)ids + 1) * sizeof(uint32_t));
    memset(sc->cnt, 0, ((size_t)ids + 1) * sizeof(uint32_t));
    uint32_t *const cnt = sc->cnt, *const refmax = sc->refmax, *const touched = sc->touched;

    /* references: closest length (ties to the shorter), clipping counts */
    int64_t best_len = -1, best_diff = -1;
    for (size_t k = 0; k < nrefs; k++) {
        r = rb_text_tokens(sc, &refs[k], ref_base);
        if (r < 0) return r == -1 ? RB_ENOMEM : RB_ETOOLONG;
        const size_t rl = (size_t)r;
        int64_t diff = (int64_t)hl - (int64_t)rl;
        if (diff < 0) diff = -diff;
        if (best_diff == -1 || diff < best_diff || (diff == best_diff && (int64_t)rl < best_len)) {
            best_len = (int64_t)rl;
            best_diff = diff;
        }
        if (hl == 0 || rl == 0) continue;
        /* the hypothesis's id buffer is free again (the clipping needs only hcnt) */
        if (!RB_RESERVE(sc, hyp, rl)) return RB_ENOMEM;
        uint32_t *const rtok = sc->hyp, *const lvl = sc->blk_lvl, *const pos = sc->blk_pos;
        const uint32_t *const hcnt = sc->hcnt;
        const rb_ext *const ext = sc->ext;
        rb_text_ids(sc, &refs[k], rl, 0, rtok);
        /* the last reference's counts are left in cnt: the clipping takes them from there;
         * the others' go into refmax, from the list of the ids they touched */
        const int flush = k + 1 < nrefs;
        size_t nt = 0;
        /* Positions are taken RB_REF_BLOCK at a time: in pos[0..w) those whose n-gram of the
         * current order the hypothesis has, that n-gram's id in lvl[j].  An n-gram the
         * hypothesis lacks starts no longer one it has, so each order looks up only the
         * previous order's survivors, and only n-grams the hypothesis has are counted. */
        for (size_t b0 = 0; b0 < rl; b0 += RB_REF_BLOCK) {
            const size_t b1 = rl - b0 < RB_REF_BLOCK ? rl : b0 + RB_REF_BLOCK;
            size_t w = 0;
            for (size_t i = b0; i < b1; i++) {
                lvl[w] = rtok[i];
                pos[w] = (uint32_t)i;
                w += rtok[i] != RB_ABSENT;
            }
            for (size_t n = 1; w > 0;) {
                if (flush) {
                    for (size_t j = 0; j < w; j++) {
                        touched[nt] = lvl[j];
                        nt += cnt[lvl[j]]++ == 0;
                    }
                } else {
                    for (size_t j = 0; j < w; j++) cnt[lvl[j]]++;
                }
                if (++n > (size_t)N) break;
                while (w > 0 && pos[w - 1] + n > rl) w--; /* no n-gram of order n starts there */
                size_t kept = 0;
                for (size_t j = 0; j < w; j++) {
                    /* the hypothesis's rule: a unique prefix has its extension in ext */
                    const uint32_t prefix = lvl[j], i = pos[j], last = rtok[i + n - 1];
                    const uint32_t id = hcnt[prefix] == 1
                                            ? rb_select(ext[prefix].last == last, ext[prefix].id, RB_ABSENT)
                                            : rb_pair_find(sc->ptab, pcap, sc->ptab_shift, prefix, last, sc->mask,
                                                           0, &sc->next_id);
                    lvl[kept] = id;
                    pos[kept] = i;
                    kept += id != RB_ABSENT;
                }
                w = kept;
            }
        }
        for (size_t t = 0; t < nt; t++) {
            const uint32_t id = touched[t], c = cnt[id];
            if (c > refmax[id]) refmax[id] = c;
            cnt[id] = 0;
        }
    }

    /* clipped matches: each distinct hypothesis n-gram counts min(its occurrences, the most
     * any reference has) */
    row[0] = (int64_t)hl;
    row[1] = best_len;
    for (int o = 1; o <= N; o++) {
        int64_t m = 0;
        for (uint32_t id = sc->ofirst[o]; id < sc->ofirst[o + 1]; id++) {
            uint32_t h = sc->hcnt[id], b = refmax[id] > cnt[id] ? refmax[id] : cnt[id];
            m += h < b ? h : b;
        }
        row[1 + o] = m;
        row[1 + N + o] = (int64_t)rb_ngrams(hl, o);
    }
    return RB_OK;
}

/* Rows start..end-1 of a batch, stored segment by segment: the hypothesis of segment i is
 * texts[off[i]] and its references texts[off[i] + 1 .. off[i + 1]).  out is row-major
 * (rows, 2 + 2N), row i at out + i * (2 + 2N).  Returns RB_OK or the first error. */
static int rb_rows_grouped(rb_scratch *sc, const rb_text *texts, const int64_t *off, size_t start,
                           size_t end, int64_t *out) {
    const size_t cols = 2 + 2 * (size_t)sc->order;
    if (start < end && !rb_vmap_setup(sc, texts, (size_t)off[start], (size_t)off[end])) return RB_ENOMEM;
    for (size_t i = start; i < end; i++) {
        int rc = rb_segment(sc, &texts[off[i]], &texts[off[i] + 1],
                            (size_t)(off[i + 1] - off[i] - 1), out + i * cols);
        if (rc != RB_OK) return rc;
    }
    return RB_OK;
}

/* Debugging aid for the tests: the tokens of one str text, joined by single
 * spaces, into `out` (capacity >= 2 * len + 1 code points).  Returns the length written. */
static ptrdiff_t rb_debug_tokenize(rb_scratch *sc, const rb_text *t, uint32_t *out) {
    ptrdiff_t r = rb_str_spans(sc, t, 0);
    if (r < 0) return r;
    size_t w = 0;
    if (rb_cp_tokens(sc, t)) {
        for (ptrdiff_t k = 0; k < r; k++) {
            if (k) out[w++] = ' ';
            out[w++] = sc->cps[k];
        }
        return (ptrdiff_t)w;
    }
    for (ptrdiff_t k = 0; k < r; k++) {
        if (k) out[w++] = ' ';
        memcpy(out + w, sc->cps + sc->ts[k], sc->tl[k] * sizeof(uint32_t));
        w += sc->tl[k];
    }
    return (ptrdiff_t)w;
}

#endif
