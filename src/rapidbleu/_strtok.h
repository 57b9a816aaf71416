/* Str tokens read in place (RB_KIND_STRREFS): a text is an array of rb_strref, each pointing at
 * the characters of one Python str token (PyUnicode_DATA, its kind and length, taken under the
 * GIL by the packing code) with its first bytes in one word: no copy, no widening, and a token
 * of up to 8 bytes (most of them) is hashed and compared without reading its characters again,
 * which would cost a cache miss per token once the block is packed.  The packing code holds a
 * reference to every longer token while the kernel runs.
 *
 * Exact str equality: CPython stores every str in its narrowest kind (1, 2 or 4 bytes per code
 * point), so two equal strs have the same length, the same kind and the same bytes, and two
 * strs with the same length, kind and bytes are equal.  The hash reads the bytes (length in
 * code points, kind and bytes fixed by the string), so equal tokens hash equally; a table hit
 * is confirmed by comparing length, kind and bytes, so a hash collision costs a probe, never a
 * count (see _table.h).  Plain C: no Python API, no GIL needed.
 */
#ifndef RAPIDBLEU_STRTOK_H
#define RAPIDBLEU_STRTOK_H

#include "_table.h"

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

/* The first bytes of a string of n bytes in one word, without reading past its end: 8 bytes
 * and more, the first 8; 4..7, two overlapping 4-byte words; 1..3, bytes 0, n/2 and n-1.  For
 * n <= 8 the bytes can be read back from (n, head): equal heads of equal n mean equal bytes. */
static inline uint64_t rb_head(const unsigned char *p, size_t n) {
    if (n >= 8) return rb_load64(p);
    if (n >= 4) return rb_load32(p) | (rb_load32(p + n - 4) << 32);
    if (n > 0) return ((uint64_t)p[0] << 16) | ((uint64_t)p[n >> 1] << 8) | p[n - 1];
    return 0;
}

typedef struct {
    uint64_t head;    /* rb_head of its bytes: the whole token when it has 8 bytes or fewer */
    const void *data; /* the token's characters, kind bytes each (read only when over 8 bytes) */
    uint32_t len;     /* in code points */
    uint32_t kind;    /* 1, 2 or 4 */
} rb_strref;

/* Whether the token fits its head (8 bytes or fewer): the kernel then never reads its
 * characters, so they need not outlive the packing. */
static inline int rb_strref_short(const rb_strref *r) { return (size_t)r->len * r->kind <= 8; }

static inline void rb_strref_set(rb_strref *r, const void *data, uint32_t len, uint32_t kind) {
    r->data = data;
    r->len = len;
    r->kind = kind;
    r->head = rb_head((const unsigned char *)data, (size_t)len * kind);
}

/* Hash of a token: of its head, byte count and kind when it has 8 bytes or fewer (most tokens:
 * the characters are not read again), else of every byte (8 per multiply).  Equal tokens have
 * equal bytes, so equal hashes. */
static inline uint64_t rb_hash_ref(const rb_strref *s) {
    size_t n = (size_t)s->len * s->kind;
    uint64_t h = ((uint64_t)n * 4 + s->kind) * RB_GOLDEN;
    if (n <= 8) {
        h = (h ^ s->head) * RB_GOLDEN;
        return h ^ (h >> 29);
    }
    const unsigned char *p = (const unsigned char *)s->data;
    for (; n > 8; n -= 8, p += 8) {
        h = (h ^ rb_load64(p)) * RB_GOLDEN;
        h ^= h >> 32;
    }
    h = (h ^ rb_load64(p + n - 8)) * RB_GOLDEN; /* the last 8 bytes (overlapping) */
    return h ^ (h >> 29);
}

/* a == b as strs, given equal lengths: same kind and same head, and for tokens over 8 bytes
 * the same bytes after the head (or the same storage). */
static inline int rb_same_ref(const rb_strref *a, const rb_strref *b) {
    if (a->kind != b->kind || a->head != b->head) return 0;
    size_t n = (size_t)a->len * a->kind;
    if (n <= 8 || a->data == b->data) return 1;
    const unsigned char *x = (const unsigned char *)a->data + 8, *y = (const unsigned char *)b->data + 8;
    for (n -= 8; n >= 8; n -= 8, x += 8, y += 8)
        if (rb_load64(x) != rb_load64(y)) return 0;
    for (size_t k = 0; k < n; k++)
        if (x[k] != y[k]) return 0;
    return 1;
}

/* Find the token s (hash h, mask applied by the caller) in a token table whose entries index
 * `keys` (entry.start: a position in keys, the hypothesis's tokens).  Inserts it as keys[idx]
 * with id *next_id when `insert` (s must then be &keys[idx]); otherwise returns RB_ABSENT for
 * an unknown token. */
static inline uint32_t rb_tok_find_ref(rb_tok_entry *tab, size_t cap, unsigned shift,
                                       const rb_strref *keys, const rb_strref *s, uint32_t idx,
                                       uint64_t h, int insert, uint32_t *next_id) {
    size_t m = cap - 1, slot = rb_slot(h, ~(uint64_t)0, shift);
    for (;;) {
        rb_tok_entry *e = &tab[slot];
        if (e->id == RB_ABSENT) {
            if (!insert) return RB_ABSENT;
            e->key = h;
            e->id = (*next_id)++;
            e->start = idx;
            e->len = s->len;
            return e->id;
        }
        if (e->key == h && e->len == s->len && rb_same_ref(&keys[e->start], s))
            return e->id;
        slot = (slot + 1) & m;
    }
}

/* Ids of tokens k0..k1-1 of a text of rb_strref (insert: the hypothesis, whose array is `keys`
 * itself; else a reference looked up among the hypothesis's `keys`). */
static inline void rb_intern_refs(rb_tok_entry *tab, size_t cap, unsigned shift, uint64_t mask,
                                  const rb_strref *keys, const rb_strref *toks, size_t k0,
                                  size_t k1, int insert, uint32_t *next_id, uint32_t *ids) {
    for (size_t k = k0; k < k1; k++) {
        uint64_t h = rb_hash_ref(&toks[k]) & mask;
        ids[k] = rb_tok_find_ref(tab, cap, shift, keys, &toks[k], (uint32_t)k, h, insert, next_id);
    }
}

#endif
