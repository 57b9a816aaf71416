/* Str tokens read in place (RB_KIND_STRREFS): a text is an array of rb_strref, each describing
 * one Python str token (its kind, its length and its bytes, read under the GIL by the packing
 * code from PyUnicode_DATA) without copying or widening it.  A token of up to 16 bytes (96% of
 * WMT23's) is held whole in two words, so the kernel hashes and compares it without reading
 * its characters again (a cache miss per token once the block is packed); a longer one keeps
 * its first 8 bytes, a hash of all its bytes (computed while packing, when they are in cache)
 * and the address of its characters, which the packing code keeps alive (a reference) while
 * the kernel runs.
 *
 * Exact str equality: CPython stores every str in its narrowest kind (1, 2 or 4 bytes per code
 * point), so two equal strs have the same length, the same kind and the same bytes, and two
 * strs with the same length, kind and bytes are equal.  Everything hashed is a function of
 * those, so equal tokens hash equally; a table hit is confirmed by comparing length, kind and
 * bytes (the two words, and for long tokens every byte), so a hash collision costs a probe,
 * never a count (see table.h).  Plain C: no Python API, no GIL needed.
 */
#ifndef RAPIDBLEU_STRTOK_H
#define RAPIDBLEU_STRTOK_H

#include "table.h"

/* Bytes a token may have to be held whole in an rb_strref. */
#define RB_STRREF_INLINE 16

static inline uint64_t rb_load64(const unsigned char *p) {
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

static inline uint64_t rb_load32(const unsigned char *p) {
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

/* Hash of n > 16 bytes: 8 bytes per multiply, the last 8 read overlapping. */
static inline uint64_t rb_hash_bytes(const unsigned char *p, size_t n) {
    uint64_t h = (uint64_t)n * RB_GOLDEN;
    for (; n > 8; n -= 8, p += 8) {
        h = (h ^ rb_load64(p)) * RB_GOLDEN;
        h ^= h >> 32;
    }
    h = (h ^ rb_load64(p + n - 8)) * RB_GOLDEN;
    return h ^ (h >> 29);
}

typedef struct {
    uint64_t w0, w1;  /* up to 16 bytes: the bytes themselves (rb_strref_set); longer: the first
                         8 bytes and rb_hash_bytes of all */
    const void *data; /* over 16 bytes: the token's characters (kind bytes each); else NULL */
    uint32_t len;     /* in code points */
    uint32_t kind;    /* 1, 2 or 4 */
} rb_strref;

/* Whether the token is held whole (16 bytes or fewer): the kernel then never reads its
 * characters, so they need not outlive the packing. */
static inline int rb_strref_short(const rb_strref *r) {
    return (size_t)r->len * r->kind <= RB_STRREF_INLINE;
}

/* Describe the token of `len` code points of `kind` bytes at `data`.  Nothing past its end is
 * read: 9..16 bytes are two overlapping 8-byte words; 4..8 two overlapping 4-byte words; 1..3
 * bytes 0, n/2 and n-1.  For n <= 16 the bytes can be read back from (n, w0, w1), so equal
 * words of equal n mean equal bytes. */
static inline void rb_strref_set(rb_strref *r, const void *data, uint32_t len, uint32_t kind) {
    const unsigned char *p = (const unsigned char *)data;
    size_t n = (size_t)len * kind;
    r->len = len;
    r->kind = kind;
    r->data = NULL;
    if (n > RB_STRREF_INLINE) {
        r->w0 = rb_load64(p);
        r->w1 = rb_hash_bytes(p, n);
        r->data = data;
    } else if (n > 8) {
        r->w0 = rb_load64(p);
        r->w1 = rb_load64(p + n - 8);
    } else {
        r->w1 = 0;
        if (n >= 4)
            r->w0 = rb_load32(p) | (rb_load32(p + n - 4) << 32);
        else if (n > 0)
            r->w0 = ((uint64_t)p[0] << 16) | ((uint64_t)p[n >> 1] << 8) | p[n - 1];
        else
            r->w0 = 0;
    }
}

/* Hash of a token: of its two words, byte count and kind (for a long token w1 already hashes
 * every byte), so the characters are never read here.  Equal tokens: equal hashes.  One
 * multiply: the table's slot (rb_slot) is the top bits of this times the golden ratio, which
 * depend on every bit (w0 holds tokens of up to 8 bytes, most of them, whole; w1 is 0 then). */
static inline uint64_t rb_hash_ref(const rb_strref *s) {
    return s->w0 ^ (s->w1 * RB_GOLDEN) ^ (((uint64_t)s->len * 4 + s->kind) << 51);
}

/* a == b as strs, given equal lengths: same kind and same words, and for tokens over 16 bytes
 * the same bytes (or the same storage).  `mask` is ANDed into the comparison of long tokens'
 * hashes (all ones; the tests set 0 so that every byte comparison runs). */
static inline int rb_same_ref(const rb_strref *a, const rb_strref *b, uint64_t mask) {
    if (a->kind != b->kind || a->w0 != b->w0) return 0;
    if (a->data == b->data) return a->w1 == b->w1; /* NULL for both: held whole; or one storage */
    if ((a->w1 ^ b->w1) & mask) return 0;            /* long tokens: different hashes */
    size_t n = (size_t)a->len * a->kind;
    const unsigned char *x = (const unsigned char *)a->data + 8, *y = (const unsigned char *)b->data + 8;
    for (n -= 8; n >= 8; n -= 8, x += 8, y += 8)
        if (rb_load64(x) != rb_load64(y)) return 0;
    for (size_t k = 0; k < n; k++)
        if (x[k] != y[k]) return 0;
    return 1;
}

/* A str token looked up among the hypothesis's tokens `keys`, which token-table entries index. */
typedef struct {
    const rb_strref *keys, *s;
    uint64_t mask;
} rb_ref_token;

static inline int rb_same_ref_entry(const void *token, const rb_tok_entry *e) {
    const rb_ref_token *t = (const rb_ref_token *)token;
    return rb_same_ref(&t->keys[e->start], t->s, t->mask);
}

/* Find the token s (hash h, mask applied by the caller) in a token table whose entries index
 * `keys` (entry.start: a position in keys, the hypothesis's tokens).  Inserts it as keys[idx]
 * with id *next_id when `insert` (s must then be &keys[idx]); otherwise returns RB_ABSENT for
 * an unknown token. */
static inline uint32_t rb_tok_find_ref(rb_tok_entry *tab, size_t cap, unsigned shift,
                                       const rb_strref *keys, const rb_strref *s, uint32_t idx,
                                       uint64_t h, uint64_t mask, int insert, uint32_t *next_id) {
    const rb_ref_token t = {keys, s, mask};
    return rb_tok_probe(tab, cap, shift, h, idx, s->len, rb_same_ref_entry, &t, insert, next_id);
}

/* Ids of tokens k0..k1-1 of a text of rb_strref (insert: the hypothesis, whose array is `keys`
 * itself; else a reference looked up among the hypothesis's `keys`). */
static inline void rb_intern_refs(rb_tok_entry *tab, size_t cap, unsigned shift, uint64_t mask,
                                  const rb_strref *keys, const rb_strref *toks, size_t k0,
                                  size_t k1, int insert, uint32_t *next_id, uint32_t *ids) {
    for (size_t k = k0; k < k1; k++) {
        uint64_t h = rb_hash_ref(&toks[k]) & mask;
        ids[k] = rb_tok_find_ref(tab, cap, shift, keys, &toks[k], (uint32_t)k, h, mask, insert, next_id);
    }
}

#endif
