/* Open-addressing hash tables (linear probing) that give tokens and n-grams exact dense ids.
 *
 * Three tables, one rule for an empty slot (all bytes 0xFF: rb_slots_clear):
 *  - rb_tok_entry: tokens (strings by their code points or str refs, or integer ids), power-of-two
 *    size, Fibonacci hashing, load <= 1/2;
 *  - rb_pair_entry: n-grams of order n >= 2 as (prefix id, last token id), the same sizing
 *    (sized once per segment, or grown as entries arrive: rb_pair_room);
 *  - rb_ltab of rb_lpair: the long-segment path's pairs of (n-1)-gram ids (bleu_ngram_long.h), any
 *    size (range reduction), load <= 3/4, growing.
 *
 * No false matches by construction:
 *  - a token table entry keeps the token's span, and a hit on the 64-bit hash is confirmed by
 *    comparing the code points (or, for integer tokens, the key is the token id itself);
 *  - an n-gram of order n >= 2 is keyed by the exact pair (id of its first n-1 tokens, id of
 *    its last token), packed into 64 bits: equal keys mean equal n-grams.  Token ids and n-gram
 *    ids come from one counter, so a key also fixes the order.
 * A hash only chooses where probing starts; a collision costs a probe, never a count.
 * `mask` (normally all ones) is ANDed into every hash: the tests set it to 0 to force every
 * key onto one probe chain and prove that.
 */
#ifndef RAPIDBLEU_TABLE_H
#define RAPIDBLEU_TABLE_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compiler.h"

#define RB_ABSENT UINT32_MAX /* id of a reference token/n-gram that the hypothesis lacks */

typedef struct {
    uint64_t key;   /* hash of the code points, or the integer token itself */
    uint32_t id;    /* RB_ABSENT marks an empty slot */
    uint32_t start; /* span of the token in the code-point buffer (string tokens) */
    uint32_t len;
} rb_tok_entry;

typedef struct {
    uint64_t key; /* (prefix id << 32) | last token id; UINT64_MAX marks an empty slot */
    uint32_t id;
} rb_pair_entry;

#define RB_GOLDEN 0x9e3779b97f4a7c15ULL

/* Empty n slots of `size` bytes each: every table here marks an empty slot by all-ones bytes
 * (rb_tok_entry: id RB_ABSENT; rb_pair_entry: key UINT64_MAX; rb_lpair: id RB_ABSENT). */
static inline void rb_slots_clear(void *slots, size_t n, size_t size) { memset(slots, 0xFF, n * size); }

static inline void rb_tok_clear(rb_tok_entry *tab, size_t cap) { rb_slots_clear(tab, cap, sizeof(rb_tok_entry)); }

static inline void rb_pair_clear(rb_pair_entry *tab, size_t cap) {
    rb_slots_clear(tab, cap, sizeof(rb_pair_entry));
}

/* Multiplicative (Fibonacci) hashing: the slot is the top `bits` of key * golden ratio, which
 * depend on every bit of the key; one multiply per lookup. */
static inline size_t rb_slot(uint64_t h, uint64_t mask, unsigned shift) {
    return (size_t)(((h * RB_GOLDEN) & mask) >> shift);
}

/* Hash of a token's code points: three code points per multiply (21 bits each fill 63 bits,
 * so most tokens take one or two steps); multiplication carries every input bit into the top
 * bits, which rb_slot uses.  (A code point above 21 bits would only collide: hits are always
 * confirmed by comparing the code points.) */
static inline uint64_t rb_hash_cps(const uint32_t *s, uint32_t len) {
    uint64_t h = (uint64_t)len * RB_GOLDEN;
    uint32_t k = 0;
    for (; k + 2 < len; k += 3)
        h = (h ^ (s[k] | ((uint64_t)s[k + 1] << 21) | ((uint64_t)s[k + 2] << 42))) * RB_GOLDEN;
    if (k + 1 < len)
        h = (h ^ (s[k] | ((uint64_t)s[k + 1] << 21))) * RB_GOLDEN;
    else if (k < len)
        h = (h ^ s[k]) * RB_GOLDEN;
    return h ^ (h >> 29);
}

/* Power of two >= 2 * n (load factor <= 1/2), at least 16; *shift = 64 - log2(size). */
static inline size_t rb_table_size(size_t n, unsigned *shift) {
    size_t cap = 16;
    unsigned sh = 60;
    while (cap < 2 * n) {
        cap <<= 1;
        sh--;
    }
    *shift = sh;
    return cap;
}

/* a == b over len code points; inline, since tokens are short and a libc call costs more. */
static inline int rb_same_cps(const uint32_t *a, const uint32_t *b, uint32_t len) {
    for (uint32_t k = 0; k < len; k++)
        if (a[k] != b[k]) return 0;
    return 1;
}

/* Whether entry e (whose key and length equal the sought token's) holds the token `token`
 * points at: the equality of one kind of token. */
typedef int (*rb_tok_same)(const void *token, const rb_tok_entry *e);

/* The one probe loop of the token tables whose keys are hashes (string tokens, str refs): the
 * id of the entry with key h, length len and same(token, entry), or, at the first empty slot,
 * a new entry (key h, id *next_id, which is incremented, start, len) when `insert`, else
 * RB_ABSENT.  h is the token's hash with the caller's mask applied.  Always inlined, so
 * `same` is a direct (inlined) call in every caller. */
static RB_ALWAYS_INLINE uint32_t rb_tok_probe(rb_tok_entry *tab, size_t cap, unsigned shift, uint64_t h, uint32_t start,
                                       uint32_t len, rb_tok_same same, const void *token, int insert,
                                       uint32_t *next_id) {
    size_t m = cap - 1, slot = rb_slot(h, ~(uint64_t)0, shift);
    for (;;) {
        rb_tok_entry *e = &tab[slot];
        if (e->id == RB_ABSENT) {
            if (!insert) return RB_ABSENT;
            e->key = h;
            e->id = (*next_id)++;
            e->start = start;
            e->len = len;
            return e->id;
        }
        if (e->key == h && e->len == len && same(token, e)) return e->id;
        slot = (slot + 1) & m;
    }
}

/* A string token: its code points, and the buffer the table's spans point into. */
typedef struct {
    const uint32_t *cps, *s;
} rb_span_token;

static inline int rb_same_span(const void *token, const rb_tok_entry *e) {
    const rb_span_token *t = (const rb_span_token *)token;
    return rb_same_cps(t->cps + e->start, t->s, e->len);
}

/* Find the string token s[0..len) (hash h, computed by the caller with the mask applied);
 * `cps` is the buffer the stored spans point into.  Inserts it with id *next_id (and
 * increments it) when `insert`; otherwise returns RB_ABSENT for an unknown token. */
static inline uint32_t rb_tok_find_str(rb_tok_entry *tab, size_t cap, unsigned shift,
                                       const uint32_t *cps, const uint32_t *s, uint32_t start,
                                       uint32_t len, uint64_t h, int insert, uint32_t *next_id) {
    const rb_span_token t = {cps, s};
    return rb_tok_probe(tab, cap, shift, h, start, len, rb_same_span, &t, insert, next_id);
}

/* The same for integer tokens: the key is the token id itself, so equality is exact. */
static inline uint32_t rb_tok_find_int(rb_tok_entry *tab, size_t cap, unsigned shift,
                                       uint64_t key, uint64_t mask, int insert,
                                       uint32_t *next_id) {
    size_t m = cap - 1, slot = rb_slot(key, mask, shift);
    for (;;) {
        rb_tok_entry *e = &tab[slot];
        if (e->id == RB_ABSENT) {
            if (!insert) return RB_ABSENT;
            e->key = key;
            e->id = (*next_id)++;
            return e->id;
        }
        if (e->key == key) return e->id;
        slot = (slot + 1) & m;
    }
}

/* Id of the n-gram (prefix, last); RB_ABSENT if either part is absent, or if it is unknown
 * and not `insert`. */
static inline uint32_t rb_pair_find(rb_pair_entry *tab, size_t cap, unsigned shift,
                                    uint32_t prefix, uint32_t last, uint64_t mask, int insert,
                                    uint32_t *next_id) {
    if (prefix == RB_ABSENT || last == RB_ABSENT) return RB_ABSENT;
    uint64_t key = ((uint64_t)prefix << 32) | last;
    size_t m = cap - 1, slot = rb_slot(key, mask, shift);
    for (;;) {
        rb_pair_entry *e = &tab[slot];
        if (e->key == key) return e->id;
        if (e->key == UINT64_MAX) {
            if (!insert) return RB_ABSENT;
            e->key = key;
            e->id = (*next_id)++;
            return e->id;
        }
        slot = (slot + 1) & m;
    }
}

/* Move every entry of a table into a new one of `cap` slots (a power of two; slot shift
 * `shift`), freeing the old one.  Token tables: `mask` is the one their slots were computed
 * with (~0 for string tokens, whose stored key is already the masked hash; the caller's mask
 * for integer tokens).  Returns the new table, or NULL (out of memory; the old one is kept). */
static inline rb_tok_entry *rb_tok_rehash(rb_tok_entry *old, size_t old_cap, size_t cap, unsigned shift,
                                          uint64_t mask) {
    rb_tok_entry *t = (rb_tok_entry *)malloc(cap * sizeof(rb_tok_entry));
    if (!t) return NULL;
    rb_tok_clear(t, cap);
    for (size_t k = 0; k < old_cap; k++) {
        if (old[k].id == RB_ABSENT) continue;
        size_t slot = rb_slot(old[k].key, mask, shift);
        while (t[slot].id != RB_ABSENT) slot = (slot + 1) & (cap - 1);
        t[slot] = old[k];
    }
    free(old);
    return t;
}

/* Move every entry of a pair table into a new one of `cap` slots (a power of two; slot shift
 * `shift`), freeing the old one; `mask` is the one the entries were placed with.  Returns the
 * new table, or NULL (out of memory; the old one is kept). */
static inline rb_pair_entry *rb_pair_rehash(rb_pair_entry *old, size_t old_cap, size_t cap, unsigned shift,
                                            uint64_t mask) {
    rb_pair_entry *t = (rb_pair_entry *)malloc(cap * sizeof(rb_pair_entry));
    if (!t) return NULL;
    rb_pair_clear(t, cap);
    for (size_t k = 0; k < old_cap; k++) {
        if (old[k].key == UINT64_MAX) continue;
        size_t slot = rb_slot(old[k].key, mask, shift);
        while (t[slot].key != UINT64_MAX) slot = (slot + 1) & (cap - 1);
        t[slot] = old[k];
    }
    free(old);
    return t;
}

/* Room for `need` entries in the pair table *tab of *size slots in use (shift *shift; *cap
 * slots allocated, as rb_reserve keeps it) at load <= 1/2: when it has too few slots, its
 * entries move into a new table of the smallest power of two that has enough
 * (rb_pair_rehash), and *tab, *cap, *size, *shift describe that one.  For tables that grow as
 * entries arrive rather than being sized for the worst case.  Returns 0 when out of memory
 * (the table is kept). */
static inline int rb_pair_room(rb_pair_entry **tab, size_t *cap_alloc, size_t *size, unsigned *shift, size_t need,
                               uint64_t mask) {
    if (2 * need <= *size) return 1;
    size_t cap = *size;
    unsigned sh = *shift;
    while (cap < 2 * need) {
        cap *= 2;
        sh--;
    }
    rb_pair_entry *t = rb_pair_rehash(*tab, *size, cap, sh, mask);
    if (!t) return 0;
    *tab = t;
    *cap_alloc = *size = cap;
    *shift = sh;
    return 1;
}

/* Room in a token table for `need` entries at load <= 1/2, the one growth policy of every
 * kernel's token table: when it must grow, rehash it (rb_tok_rehash, `mask` as its slots were
 * computed with) into one with room for twice `need` (so a table of n distinct entries is
 * rehashed about log4(n) times), but never more than for `bound`, the most entries it can end
 * with (so it never exceeds the table sized for every token being distinct); *tab, *cap_alloc,
 * *size, *shift describe the new one.  Returns 0 when out of memory (the table is kept). */
static inline int rb_tok_room(rb_tok_entry **tab, size_t *cap_alloc, size_t *size, unsigned *shift, size_t need,
                              size_t bound, uint64_t mask) {
    if (2 * need <= *size) return 1;
    size_t target = 2 * need < bound ? 2 * need : bound;
    unsigned sh;
    size_t cap = rb_table_size(target > need ? target : need, &sh);
    rb_tok_entry *t = rb_tok_rehash(*tab, *size, cap, sh, mask);
    if (!t) return 0;
    *tab = t;
    *cap_alloc = *size = cap;
    *shift = sh;
    return 1;
}

/* floor(h * n / 2**64): a slot in [0, n) from the high bits of h, for any n. */
static inline size_t rb_range(uint64_t h, uint64_t n) {
#if defined(__SIZEOF_INT128__)
    return (size_t)(((unsigned __int128)h * n) >> 64);
#else
    uint64_t a = h >> 32, b = h & 0xFFFFFFFFu, c = n >> 32, d = n & 0xFFFFFFFFu;
    uint64_t bd = b * d, ad = a * d, bc = b * c;
    uint64_t mid = (bd >> 32) + (ad & 0xFFFFFFFFu) + (bc & 0xFFFFFFFFu);
    return (size_t)(a * c + (ad >> 32) + (bc >> 32) + (mid >> 32));
#endif
}

/* The long-segment path's table (bleu_ngram_long.h): one n-gram of the current order as the ids of
 * its two (n-1)-grams; id RB_ABSENT: empty slot.  12 bytes (rb_pair_entry is padded to 16). */
typedef struct {
    uint32_t a, b, id;
} rb_lpair;

typedef struct {
    rb_lpair *e;
    size_t cap;    /* slots (any number >= 16) */
    size_t limit;  /* entries allowed before growing: load <= 3/4 */
    uint64_t mask; /* the scratch's mask: ANDed into every hash (collision tests) */
    uint32_t next; /* next id */
} rb_ltab;

static inline size_t rb_ltab_home(const rb_ltab *t, uint32_t a, uint32_t b) {
    uint64_t key = ((uint64_t)a << 32) | b;
    return rb_range((key * RB_GOLDEN) & t->mask, t->cap);
}

/* Id of the pair (a, b); RB_ABSENT if either part is absent, or if it is unknown and not
 * `insert` (inserting: new ids from t->next). */
static inline uint32_t rb_ltab_find(rb_ltab *t, uint32_t a, uint32_t b, int insert) {
    if (a == RB_ABSENT || b == RB_ABSENT) return RB_ABSENT;
    size_t slot = rb_ltab_home(t, a, b);
    for (;;) {
        rb_lpair *e = &t->e[slot];
        if (e->id == RB_ABSENT) {
            if (!insert) return RB_ABSENT;
            e->a = a;
            e->b = b;
            e->id = t->next++;
            return e->id;
        }
        if (e->a == a && e->b == b) return e->id;
        if (++slot == t->cap) slot = 0;
    }
}

/* A table of `cap` empty slots (the old one, if any, freed first: no two are held at once). */
static inline int rb_ltab_alloc(rb_ltab *t, size_t cap) {
    free(t->e);
    if (cap < 16) cap = 16;
    t->e = (rb_lpair *)malloc(cap * sizeof(rb_lpair));
    if (!t->e) return 0;
    rb_slots_clear(t->e, cap, sizeof(rb_lpair));
    t->cap = cap;
    t->limit = cap - cap / 4;
    t->next = 0;
    return 1;
}

/* Rehash into `cap` slots (only when the estimate fell short). */
static inline int rb_ltab_grow(rb_ltab *t, size_t cap) {
    rb_ltab g = *t;
    g.e = NULL;
    if (!rb_ltab_alloc(&g, cap)) return 0;
    for (size_t k = 0; k < t->cap; k++) {
        const rb_lpair *o = &t->e[k];
        if (o->id == RB_ABSENT) continue;
        size_t slot = rb_ltab_home(&g, o->a, o->b);
        while (g.e[slot].id != RB_ABSENT)
            if (++slot == g.cap) slot = 0;
        g.e[slot] = *o;
    }
    g.next = t->next;
    free(t->e);
    *t = g;
    return 1;
}

/* Grow *p to hold at least `need` elements of `size` bytes (amortised doubling; contents
 * kept).  Returns 0 when out of memory. */
static inline int rb_reserve(void **p, size_t *cap, size_t need, size_t size) {
    if (need <= *cap) return 1;
    /* double, or exactly `need` when that is more: one very long text must not get up to
     * twice its size */
    size_t c = *cap ? 2 * *cap : 64;
    if (c < need) c = need;
    void *q = realloc(*p, c * size);
    if (!q) return 0;
    *p = q;
    *cap = c;
    return 1;
}

#endif
