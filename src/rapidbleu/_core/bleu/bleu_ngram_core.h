/* What the two per-segment kernels share (bleu_ngram.h's rb_segment and bleu_ngram_long.h's
 * rb_segment_long): the texts a batch is made of, the per-thread scratch space, turning a text
 * into tokens and tokens into exact dense ids, and the closest-reference-length rule.
 *
 * All buffers live in one rb_scratch per thread and only grow, so the loop over segments never
 * allocates once they are large enough.  Plain C: no Python API, no GIL needed.
 */
#ifndef RAPIDBLEU_NGRAM_CORE_H
#define RAPIDBLEU_NGRAM_CORE_H

#include "strtok.h"
#include "table.h"
#include "text.h"
#include "tok.h"

/* c ? a : b without a branch (compilers tend to turn a ?: into one), for choices that
 * depend on the data and would be mispredicted half the time. */
static inline uint32_t rb_select(int c, uint32_t a, uint32_t b) {
    const uint32_t m = (uint32_t)0 - (uint32_t)(c != 0);
    return (a & m) | (b & ~m);
}

enum { RB_OK = 0, RB_ENOMEM = 1, RB_ETOOLONG = 2 };

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

/* Ids of the tokens k0..k1-1 whose spans are in sc->ts/tl (insert: new ids; else RB_ABSENT). */
static void rb_intern_spans(rb_scratch *sc, size_t k0, size_t k1, int insert, uint32_t *ids) {
    for (size_t k = k0; k < k1; k++) {
        const uint32_t *s = sc->cps + sc->ts[k];
        uint64_t h = rb_hash_cps(s, sc->tl[k]) & sc->mask;
        ids[k] = rb_tok_find_str(sc->ttab, sc->ttab_size, sc->ttab_shift, sc->cps, s, sc->ts[k], sc->tl[k], h,
                                 insert, &sc->next_id);
    }
}

/* Ids of int64 tokens.  In the direct-mapped vocabulary a token is an index, so it is checked
 * against the map's range, which rb_vmap_setup measured on the same ids: a flat id stream is
 * the caller's buffer, which another thread may change during the call.  A token outside the
 * range (changed since) takes the spare slot past the end and a fresh id (insert) or is absent
 * (look-up): a wrong count for data changed mid-call, never an access outside the map. */
static void rb_intern_ints(rb_scratch *sc, const int64_t *tok, size_t ntok, int insert,
                           uint32_t *ids) {
    if (sc->vmap) {
        /* no probing, no data-dependent branch: a slot from an earlier segment is free */
        rb_vslot *const v = sc->vmap;
        const uint64_t vmin = sc->vmin, len = (uint64_t)sc->vmap_len;
        const uint32_t stamp = sc->stamp;
        if (insert) {
            uint32_t next = sc->next_id;
            for (size_t k = 0; k < ntok; k++) {
                const uint64_t slot = (uint64_t)tok[k] - vmin;
                const int inside = slot < len;
                rb_vslot *e = &v[inside ? slot : len];
                const int fresh = e->stamp != stamp || !inside;
                const uint32_t id = rb_select(fresh, next, e->id);
                e->stamp = stamp;
                e->id = id;
                next += (uint32_t)fresh;
                ids[k] = id;
            }
            sc->next_id = next;
        } else {
            for (size_t k = 0; k < ntok; k++) {
                const uint64_t slot = (uint64_t)tok[k] - vmin;
                const int inside = slot < len;
                const rb_vslot e = v[inside ? slot : len];
                ids[k] = rb_select(e.stamp == stamp && inside, e.id, RB_ABSENT);
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
    sc->vmap = (rb_vslot *)calloc((size_t)range + 1, sizeof(rb_vslot)); /* + the spare slot */
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
        rb_intern_spans(sc, k0, k1, 1, ids);
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
        rb_intern_spans(sc, 0, ntok, insert, ids);
}

/* The effective reference length (sacreBLEU's and NLTK's rule): of the references' lengths,
 * the closest to the hypothesis's, ties to the shorter.  Called once per reference, starting
 * from *best_len = *best_diff = -1. */
static inline void rb_closest(int64_t *best_len, int64_t *best_diff, size_t hl, size_t rl) {
    int64_t diff = (int64_t)hl - (int64_t)rl;
    if (diff < 0) diff = -diff;
    if (*best_diff == -1 || diff < *best_diff || (diff == *best_diff && (int64_t)rl < *best_len)) {
        *best_len = (int64_t)rl;
        *best_diff = diff;
    }
}

#endif
