/* tercom's normalizer (TER's tokenizer) and the interning of its words, in C, without the GIL.
 *
 * The rules are those of rapidbleu.tokenizers.tokenizer_ter (whose module documentation numbers
 * the steps, each one pass of Python's re.sub or str.replace, left to right, non-overlapping);
 * rb_tercom follows it pass for pass on a buffer of code points:
 *   step 1 (lowercasing)  str.lower, exactly Python's: by the caller for a text with a code
 *                         point whose lowercase is not one code point of its own (below), in
 *                         the copy of rb_ter_tokenize_texts for every other text (a table of the
 *                         running interpreter's single-code-point lowercases, built by the caller)
 *   step 2a               rb_replace (tok.h), the six replacements in order
 *   step 2b               rb_tercom_western, then the five context rules, one pass each
 *   step 2c + 3           rb_tercom_last: every later pass acts on one character at a time (pad
 *                         it with spaces, delete it) whatever its neighbours, so they run in one
 *                         pass with the same tokens.  (The kana-only rule pads a segment that
 *                         starts with kana; under `normalized` the segment starts with the
 *                         space of step 2b, so it never applies, and it changes no token.)
 *   step 4                rb_tercom_split: str.split() (rb_is_space, tok.h)
 * A reference is tokenized twice (the words joined by single spaces, then again), as sacreBLEU
 * does; lowercasing twice changes nothing (tests/test_ter.py checks every code point).
 *
 * Words are interned into ids (rb_ter_vocab: an open-addressing table over a copy of each
 * distinct word's code points).  Everything here runs on memory the caller owns (the texts, held
 * alive) or that the structures below own (freed by their _free functions).
 */
#ifndef RAPIDBLEU_TER_TOK_H
#define RAPIDBLEU_TER_TOK_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compiler.h"
#include "text.h"
#include "tok.h"

enum { RB_TERCOM_NORMALIZED = 1, RB_TERCOM_NO_PUNCT = 2, RB_TERCOM_ASIAN = 4 };

#define RB_TERTOK_OK 0
#define RB_TERTOK_ENOMEM 1
#define RB_TERTOK_EKIND 2     /* a text of another kind than a str's: cannot happen */
#define RB_TERTOK_TOOLONG 3   /* more words than the limit: the caller names the text */
#define RB_TERTOK_LOWER 4     /* a text the table cannot lowercase: the caller lowercases it */

/* Step 2b's class a: {|}~ [\]^_` space!"#$%& ()*+ :;<=>?@ / (13a's, RB_C_A of tok.h). */
static inline int rb_tercom_is_western(uint32_t c) { return c < 128 && (rb_ascii_class[c] & RB_C_A); }
static inline int rb_tercom_is_pc(uint32_t c) { return c == '.' || c == ','; }

static const uint32_t rb_pat_nl_hyphen[] = {'\n', '-'};

/* Step 2c: the CJK ranges of the four passes (one character padded by any of them). */
static inline int rb_tercom_is_cjk(uint32_t c) {
    return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) || (c >= 0x31C0 && c <= 0x31EF) ||
           (c >= 0x2E80 && c <= 0x2EFF) || (c >= 0x3300 && c <= 0x33FF) || (c >= 0xF900 && c <= 0xFAFF) ||
           (c >= 0xFE30 && c <= 0xFE4F) || (c >= 0x3200 && c <= 0x3F22);
}

/* TercomTokenizer.ASIAN_PUNCT and FULL_WIDTH_PUNCT. */
static inline int rb_tercom_is_asian_punct(uint32_t c) {
    return c == 0x3001 || c == 0x3002 || (c >= 0x3008 && c <= 0x3011) || (c >= 0x3014 && c <= 0x301F) ||
           (c >= 0xFF61 && c <= 0xFF65) || c == 0x30FB || c == 0xFF0E || c == 0xFF0C || c == 0xFF1F || c == 0xFF1A ||
           c == 0xFF1B || c == 0xFF01 || c == 0xFF02 || c == 0xFF08 || c == 0xFF09;
}

/* Step 3's ASCII punctuation: . , ? : ; ! " ( ) */
static inline int rb_tercom_is_punct(uint32_t c) {
    return c == '.' || c == ',' || c == '?' || c == ':' || c == ';' || c == '!' || c == '"' || c == '(' || c == ')';
}

/* Step 1's table: lower[c] for every code point c < 0x10000 is the code point of chr(c).lower(),
 * or -1 where that is not one code point that depends on c alone (U+0130, whose lowercase is two
 * code points, and U+03A3, whose lowercase depends on its neighbours: Python's final-sigma
 * rule).  A text of kind 1 (none such below 0x100) or of kind 2 without such a code point is
 * lowercased with it; any other is lowercased by the caller (str.lower) when the tokenizer
 * returns RB_TERTOK_LOWER for it, and tokenized again.  A lowercased text holds no code point of
 * -1 (every code point of a lowercase is its own lowercase: tests/test_ter.py).  The entry of a
 * space (str.isspace, the same code points as rb_is_space) carries RB_TER_LOWER_SPACE, so that
 * one look-up lowercases and classifies. */
#define RB_TER_LOWER_SPACE 0x40000000

/* Two buffers the passes write into in turn, grown as needed. */
typedef struct {
    uint32_t *a, *b;
    size_t cap;
} rb_tercom_buf;

static inline void rb_tercom_buf_init(rb_tercom_buf *b) { memset(b, 0, sizeof(*b)); }

static inline void rb_tercom_buf_free(rb_tercom_buf *b) {
    free(b->a);
    free(b->b);
    memset(b, 0, sizeof(*b));
}

/* Both buffers of at least `need` code points (their contents kept). */
static int rb_tercom_reserve(rb_tercom_buf *b, size_t need) {
    if (need <= b->cap)
        return RB_TERTOK_OK;
    if (need < 2 * b->cap)
        need = 2 * b->cap;
    if (need < 256)
        need = 256;
    {
        uint32_t *x = (uint32_t *)realloc(b->a, need * 4), *y;
        if (x == NULL)
            return RB_TERTOK_ENOMEM;
        b->a = x;
        y = (uint32_t *)realloc(b->b, need * 4);
        if (y == NULL)
            return RB_TERTOK_ENOMEM;
        b->b = y;
    }
    b->cap = need;
    return RB_TERTOK_OK;
}

/* Step 2b's first pass: " " + s + " " with every class-a character (the two spaces included)
 * padded, from s into d (3 * n + 6 code points). */
static size_t rb_tercom_western(const uint32_t *s, size_t n, uint32_t *d) {
    size_t w = 0, i;
    d[w++] = ' ';
    d[w++] = ' ';
    d[w++] = ' ';
    for (i = 0; i < n; i++) {
        uint32_t c = s[i];
        if (rb_tercom_is_western(c)) {
            d[w++] = ' ';
            d[w++] = c;
            d[w++] = ' ';
        } else {
            d[w++] = c;
        }
    }
    d[w++] = ' ';
    d[w++] = ' ';
    d[w++] = ' ';
    return w;
}

/* The rules of two characters (x)(y) -> pre x mid y post of step 2b, one pass each. */
enum { RB_TR_AFTER_NON_DIGIT = 0, RB_TR_BEFORE_NON_DIGIT = 1, RB_TR_DASH = 2 };

static size_t rb_tercom_pairs(int rule, const uint32_t *s, size_t n, uint32_t *d) {
    size_t w = 0, i = 0;
    while (i < n) {
        if (i + 1 < n) {
            uint32_t x = s[i], y = s[i + 1];
            int hit = rule == RB_TR_AFTER_NON_DIGIT    ? (!rb_is_digit(x) && rb_tercom_is_pc(y))
                      : rule == RB_TR_BEFORE_NON_DIGIT ? (rb_tercom_is_pc(x) && !rb_is_digit(y))
                                                       : (rb_is_digit(x) && y == '-');
            if (hit) {
                if (rule == RB_TR_BEFORE_NON_DIGIT) { /* " \1 \2" */
                    d[w++] = ' ';
                    d[w++] = x;
                    d[w++] = ' ';
                    d[w++] = y;
                } else { /* "\1 \2 " */
                    d[w++] = x;
                    d[w++] = ' ';
                    d[w++] = y;
                    d[w++] = ' ';
                }
                i += 2;
                continue;
            }
        }
        d[w++] = s[i++];
    }
    return w;
}

/* "'s " -> " 's " (one pass), then "'s$" -> " 's" ($: the end, or before a final newline),
 * from s into d (4 * n / 3 + 2 code points). */
static size_t rb_tercom_possessive(const uint32_t *s, size_t n, uint32_t *d) {
    size_t w = 0, i = 0, end;
    while (i < n) {
        if (s[i] == '\'' && i + 2 < n && s[i + 1] == 's' && s[i + 2] == ' ') {
            d[w++] = ' ';
            d[w++] = '\'';
            d[w++] = 's';
            d[w++] = ' ';
            i += 3;
        } else {
            d[w++] = s[i++];
        }
    }
    /* the end rule: re.sub with "'s$" meets at most one match (the first of "'s" at the end and
     * "'s" before a final "\n"; both cannot be) */
    end = w > 0 && d[w - 1] == '\n' ? w - 1 : w;
    if (end >= 2 && d[end - 2] == '\'' && d[end - 1] == 's') {
        size_t k;
        for (k = w; k > end - 2; k--) /* shift "'s" (and the newline) right by one */
            d[k] = d[k - 1];
        d[end - 2] = ' ';
        w++;
    }
    return w;
}

/* Steps 2c and 3 in one pass (see the head of the file), from s into d (3 * n code points). */
static size_t rb_tercom_last(const uint32_t *s, size_t n, uint32_t *d, int opts) {
    int pad_asian = (opts & RB_TERCOM_NORMALIZED) && (opts & RB_TERCOM_ASIAN);
    int del = opts & RB_TERCOM_NO_PUNCT, del_asian = del && (opts & RB_TERCOM_ASIAN);
    size_t w = 0, i;
    for (i = 0; i < n; i++) {
        uint32_t c = s[i];
        int padded = pad_asian && (rb_tercom_is_cjk(c) || rb_tercom_is_asian_punct(c));
        int deleted = del && (rb_tercom_is_punct(c) || (del_asian && rb_tercom_is_asian_punct(c)));
        if (deleted) {
            if (padded)
                d[w++] = ' ';
        } else if (padded) {
            d[w++] = ' ';
            d[w++] = c;
            d[w++] = ' ';
        } else {
            d[w++] = c;
        }
    }
    return w;
}

/* s[0..n) through tercom's normalizer (steps 2-3; s already lowercased unless case-sensitive),
 * in b: *out points at the result (in b->a or b->b), its length returned; s may be b->a. */
static int rb_tercom(rb_tercom_buf *b, size_t n, int opts, const uint32_t **out, size_t *len) {
    /* the text is in b->a; each pass writes the other buffer */
    uint32_t *s = b->a, *d = b->b;
    int rc;
    if (n == 0 || !(opts & (RB_TERCOM_NORMALIZED | RB_TERCOM_NO_PUNCT))) {
        *out = s;
        *len = n;
        return RB_TERTOK_OK;
    }
    if (opts & RB_TERCOM_NORMALIZED) {
        n = rb_replace(s, n, rb_pat_nl_hyphen, 2, NULL, 0);
        n = rb_replace(s, n, rb_pat_nl, 1, rb_rep_space, 1);
        n = rb_replace(s, n, rb_pat_quot, 6, rb_rep_quot, 1);
        n = rb_replace(s, n, rb_pat_amp, 5, rb_rep_amp, 1);
        n = rb_replace(s, n, rb_pat_lt, 4, rb_rep_lt, 1);
        n = rb_replace(s, n, rb_pat_gt, 4, rb_rep_gt, 1);
        /* each pass below at most doubles the text (the first triples it, plus 6) */
        if ((rc = rb_tercom_reserve(b, 3 * n + 6)) != RB_TERTOK_OK)
            return rc;
        s = b->a;
        d = b->b;
        n = rb_tercom_western(s, n, d);
        if ((rc = rb_tercom_reserve(b, 2 * n + 2)) != RB_TERTOK_OK)
            return rc;
        s = b->b; /* (the buffers may have moved: the text is in b->b now) */
        d = b->a;
        n = rb_tercom_possessive(s, n, d);
        if ((rc = rb_tercom_reserve(b, 2 * n + 2)) != RB_TERTOK_OK)
            return rc;
        s = b->a;
        d = b->b;
        n = rb_tercom_pairs(RB_TR_AFTER_NON_DIGIT, s, n, d);
        if ((rc = rb_tercom_reserve(b, 2 * n + 2)) != RB_TERTOK_OK)
            return rc;
        s = b->b;
        d = b->a;
        n = rb_tercom_pairs(RB_TR_BEFORE_NON_DIGIT, s, n, d);
        if ((rc = rb_tercom_reserve(b, 2 * n + 2)) != RB_TERTOK_OK)
            return rc;
        s = b->a;
        d = b->b;
        n = rb_tercom_pairs(RB_TR_DASH, s, n, d);
        /* the text is in b->b */
        if ((rc = rb_tercom_reserve(b, 3 * n + 2)) != RB_TERTOK_OK)
            return rc;
        s = b->b;
        d = b->a;
    } else {
        if ((rc = rb_tercom_reserve(b, 3 * n + 2)) != RB_TERTOK_OK)
            return rc;
        s = b->a;
        d = b->b;
    }
    *len = rb_tercom_last(s, n, d, opts);
    *out = d;
    return RB_TERTOK_OK;
}

/* ---------------------------------------------------------------------------------------------
 * Interning */

/* The table: open addressing over 8-byte slots (the low half of the word's hash and its id),
 * at most half full, so that a corpus's vocabulary stays in the cache; the words' code points
 * end to end in id order (word id k is chars[start[k] .. start[k + 1]]). */
typedef struct {
    uint32_t tag; /* the low half of the word's hash: its home slot, and a filter before comparing */
    int32_t id;   /* -1: empty slot */
} rb_ter_slot;

typedef struct {
    rb_ter_slot *slots;
    size_t cap, count; /* cap: a power of two */
    uint32_t *chars;   /* the distinct words, end to end */
    size_t nchars, chars_cap;
    int64_t *start;    /* count + 1: where each word starts in chars */
    size_t *slot_of;   /* count: each word's slot (so that rb_ter_vocab_reset visits only those) */
    size_t start_cap;
} rb_ter_vocab;

static inline void rb_ter_vocab_init(rb_ter_vocab *v) { memset(v, 0, sizeof(*v)); }

static inline void rb_ter_vocab_free(rb_ter_vocab *v) {
    free(v->slots);
    free(v->chars);
    free(v->start);
    free(v->slot_of);
    memset(v, 0, sizeof(*v));
}

/* The table emptied, its memory kept (a segment's words interned apart from the others': ids
 * only need to be equal for equal words within a segment, and a small table stays in the
 * cache). */
static inline void rb_ter_vocab_reset(rb_ter_vocab *v) {
    size_t i;
    for (i = 0; i < v->count; i++)
        v->slots[v->slot_of[i]].id = -1;
    v->count = 0;
    v->nchars = 0;
}

/* The hash of a word: its code points folded in by a rotation and an exclusive or (two cycles
 * a code point: no multiplication in the chain; rb_ter_hash_step from RB_TER_HASH0), then its
 * length and a finalizer (one multiplication by 2**64 over the golden ratio, its high half
 * folded into the low half, which the tag and the home slot take: rb_ter_hash_end).  Only the
 * table's speed depends on it: equal tags are compared word for word. */
#define RB_TER_HASH0 0xCBF29CE484222325ull

static RB_ALWAYS_INLINE uint64_t rb_ter_hash_step(uint64_t h, uint32_t c) { return ((h << 7) | (h >> 57)) ^ c; }

static inline uint64_t rb_ter_hash_end(uint64_t h, size_t n) {
    h = (h ^ (uint64_t)n) * 0x9E3779B97F4A7C15ull;
    return h ^ (h >> 32);
}


/* The tag of a hash, and the home slot of a tag in a table of cap slots. */
static inline uint32_t rb_ter_tag(uint64_t h) { return (uint32_t)h; }
static inline size_t rb_ter_home(uint32_t tag, size_t cap) { return (size_t)tag & (cap - 1); }

/* Whether two words of n code points are equal (short words compared in line). */
static RB_ALWAYS_INLINE int rb_ter_same(const uint32_t *x, const uint32_t *y, size_t n) {
    size_t i;
    if (n > 16)
        return memcmp(x, y, n * 4) == 0;
    for (i = 0; i < n; i++)
        if (x[i] != y[i])
            return 0;
    return 1;
}

static int rb_ter_vocab_grow(rb_ter_vocab *v) {
    size_t cap = v->cap ? 2 * v->cap : 1024, i;
    rb_ter_slot *s = (rb_ter_slot *)malloc(cap * sizeof(rb_ter_slot));
    if (s == NULL)
        return RB_TERTOK_ENOMEM;
    for (i = 0; i < cap; i++)
        s[i].id = -1;
    for (i = 0; i < v->cap; i++) {
        if (v->slots[i].id >= 0) {
            size_t k = rb_ter_home(v->slots[i].tag, cap);
            while (s[k].id >= 0)
                k = (k + 1) & (cap - 1);
            s[k] = v->slots[i];
            v->slot_of[s[k].id] = k;
        }
    }
    free(v->slots);
    v->slots = s;
    v->cap = cap;
    return RB_TERTOK_OK;
}

/* Room in the table for `words` more words of `chars` code points in all (rb_ter_intern then
 * needs no check of its own). */
static int rb_ter_vocab_reserve(rb_ter_vocab *v, size_t words, size_t chars) {
    while (2 * (v->count + words) > v->cap) {
        int rc = rb_ter_vocab_grow(v);
        if (rc != RB_TERTOK_OK)
            return rc;
    }
    if (v->count + words + 2 > v->start_cap) {
        size_t cap = 2 * (v->count + words) + 1024;
        int64_t *p = (int64_t *)realloc(v->start, cap * sizeof(int64_t));
        size_t *q;
        if (p == NULL)
            return RB_TERTOK_ENOMEM;
        v->start = p;
        q = (size_t *)realloc(v->slot_of, cap * sizeof(size_t));
        if (q == NULL)
            return RB_TERTOK_ENOMEM;
        v->slot_of = q;
        v->start_cap = cap;
    }
    if (v->nchars + chars > v->chars_cap) {
        size_t cap = 2 * (v->nchars + chars) + 256;
        uint32_t *c = (uint32_t *)realloc(v->chars, cap * 4);
        if (c == NULL)
            return RB_TERTOK_ENOMEM;
        v->chars = c;
        v->chars_cap = cap;
    }
    v->start[v->count] = (int64_t)v->nchars; /* (start[0] = 0 for an empty table) */
    return RB_TERTOK_OK;
}

/* The id of word s[0..n) of hash h (rb_ter_hash_end) (a new one, count, if unseen), in room
 * that rb_ter_vocab_reserve made. */
static RB_ALWAYS_INLINE int32_t rb_ter_intern(rb_ter_vocab *v, const uint32_t *s, size_t n, uint64_t h) {
    uint32_t tag = rb_ter_tag(h);
    size_t k = rb_ter_home(tag, v->cap), i;
    uint32_t *d;
    while (v->slots[k].id >= 0) {
        const rb_ter_slot *e = &v->slots[k];
        if (e->tag == tag) {
            int64_t a = v->start[e->id];
            if ((size_t)(v->start[e->id + 1] - a) == n && rb_ter_same(v->chars + a, s, n))
                return e->id;
        }
        k = (k + 1) & (v->cap - 1);
    }
    d = v->chars + v->nchars;
    for (i = 0; i < n; i++)
        d[i] = s[i];
    v->nchars += n;
    v->slots[k].tag = tag;
    v->slots[k].id = (int32_t)v->count;
    v->slot_of[v->count] = k;
    v->start[v->count + 1] = (int64_t)v->nchars;
    return (int32_t)v->count++;
}

/* A growing array of word ids. */
typedef struct {
    int32_t *ids;
    int64_t len, cap;
} rb_ter_ids;

/* Room for `more` ids. */
static inline int rb_ter_ids_reserve(rb_ter_ids *a, int64_t more) {
    if (a->len + more > a->cap) {
        int64_t cap = 2 * (a->len + more) + 4096;
        int32_t *p = (int32_t *)realloc(a->ids, (size_t)cap * 4);
        if (p == NULL)
            return RB_TERTOK_ENOMEM;
        a->ids = p;
        a->cap = cap;
    }
    return RB_TERTOK_OK;
}

/* Code point i of a text's data of the given kind (1, 2, 4), as step 1's table has it where
 * `lower` is not NULL and the kind is 1 or 2 (the lowercase with RB_TER_LOWER_SPACE, or -1);
 * else the code point itself (a text of kind 4 reaches here lowercased by the caller). */
static RB_ALWAYS_INLINE int32_t rb_ter_entry(int kind, const void *data, size_t i, const int32_t *lower) {
    uint32_t c = kind == 1   ? ((const uint8_t *)data)[i]
                 : kind == 2 ? ((const uint16_t *)data)[i]
                             : ((const uint32_t *)data)[i];
    return lower != NULL && kind != 4 ? lower[c] : (int32_t)c;
}

/* The code point of an entry of rb_ter_entry (>= 0). */
static RB_ALWAYS_INLINE uint32_t rb_ter_entry_cp(int32_t e) { return (uint32_t)e & ~(uint32_t)RB_TER_LOWER_SPACE; }

/* The words (str.split()) of the code points s[0..n), or, where s is NULL, of the text data of
 * `kind` (n code points, lowercased with `lower` unless NULL; each word copied into `word`),
 * interned and appended to a; their number into *count.  Each word is hashed as it is read.
 * (A text of n code points has at most (n + 1) / 2 words: room for them is made first.) */
static RB_ALWAYS_INLINE int rb_ter_split_body(rb_ter_vocab *v, rb_ter_ids *a, const uint32_t *s, int kind,
                                              const void *data, size_t n, const int32_t *lower, uint32_t *word,
                                              int64_t *count) {
    size_t i = 0, wl;
    int32_t *out;
    int rc;
    if ((rc = rb_ter_vocab_reserve(v, (n + 1) / 2, n)) != RB_TERTOK_OK ||
        (rc = rb_ter_ids_reserve(a, (int64_t)(n + 1) / 2)) != RB_TERTOK_OK)
        return rc;
    out = a->ids + a->len;
    if (s == NULL && kind != 4 && lower != NULL) {
        /* one look-up lowercases and classifies: a space's entry, and -1, have the space bit */
        while (i < n) {
            int32_t e = rb_ter_entry(kind, data, i, lower);
            uint64_t h = RB_TER_HASH0;
            if (e & RB_TER_LOWER_SPACE) {
                if (e < 0) { /* the caller lowercases the text and tokenizes it again: stop here */
                    *count = out - (a->ids + a->len);
                    return RB_TERTOK_LOWER;
                }
                i++;
                continue;
            }
            wl = 0;
            do { /* e: a lowercased code point, not a space */
                word[wl++] = (uint32_t)e;
                h = rb_ter_hash_step(h, (uint32_t)e);
                if (++i == n)
                    break;
                e = rb_ter_entry(kind, data, i, lower);
            } while (!(e & RB_TER_LOWER_SPACE));
            *out++ = rb_ter_intern(v, word, wl, rb_ter_hash_end(h, wl));
        }
    } else {
        while (i < n) {
            uint32_t ch = s != NULL ? s[i] : (uint32_t)rb_ter_entry(kind, data, i, NULL);
            uint64_t h = RB_TER_HASH0;
            size_t from = i;
            if (rb_is_space(ch)) {
                i++;
                continue;
            }
            wl = 0;
            do {
                if (s == NULL)
                    word[wl] = ch;
                wl++;
                h = rb_ter_hash_step(h, ch);
                if (++i == n)
                    break;
                ch = s != NULL ? s[i] : (uint32_t)rb_ter_entry(kind, data, i, NULL);
            } while (!rb_is_space(ch));
            *out++ = rb_ter_intern(v, s != NULL ? s + from : word, wl, rb_ter_hash_end(h, wl));
        }
    }
    *count = out - (a->ids + a->len);
    a->len += *count;
    return RB_TERTOK_OK;
}

/* The words of s[0..n) (str.split()) interned and appended to a; their number into *count. */
static int rb_ter_split_intern(rb_ter_vocab *v, const uint32_t *s, size_t n, rb_ter_ids *a, int64_t *count) {
    return rb_ter_split_body(v, a, s, 4, NULL, n, NULL, NULL, count);
}

/* The words of text t (lowercased with `lower` unless NULL) straight from its data: tercom's
 * normalizer without `normalized` and `no_punct` is the identity (rb_tercom); `word` holds
 * t->len code points. */
static int rb_ter_split_text(rb_ter_vocab *v, const rb_text *t, const int32_t *lower, rb_ter_ids *a, uint32_t *word,
                             int64_t *count) {
    if (t->kind == 1)
        return rb_ter_split_body(v, a, NULL, 1, t->data, t->len, lower, word, count);
    if (t->kind == 2)
        return rb_ter_split_body(v, a, NULL, 2, t->data, t->len, lower, word, count);
    return rb_ter_split_body(v, a, NULL, 4, t->data, t->len, lower, word, count);
}

/* The words of s[0..n) joined by single spaces into d (at most n code points); the length. */
static size_t rb_ter_join_words(const uint32_t *s, size_t n, uint32_t *d) {
    size_t i = 0, w = 0;
    while (i < n) {
        while (i < n && rb_is_space(s[i]))
            i++;
        if (i == n)
            break;
        if (w > 0)
            d[w++] = ' ';
        while (i < n && !rb_is_space(s[i]))
            d[w++] = s[i++];
    }
    return w;
}

/* Texts[start..n) tokenized (lowercased with the table `lower` unless it is NULL, right-stripped,
 * tercom's normalizer with opts, twice where twice[k]), their words interned into v and appended
 * to a; off[k] .. off[k + 1] are text k's ids (off: n + 1; off[start] = a->len).  A text the
 * table cannot lowercase (kind 4, or a code point of -1), unless lowered[k] says the caller
 * lowercased it, stops the work: RB_TERTOK_LOWER, its index in *where (the caller lowercases
 * it, sets a->len back to off[k] and calls again from k); so does a text of more than max_words
 * words: RB_TERTOK_TOOLONG.  Where `fresh` is not NULL, the vocabulary starts again at each
 * text k with fresh[k] (ids are then equal for equal words from such a text to the next). */
static int rb_ter_tokenize_texts(rb_ter_vocab *v, rb_tercom_buf *b, rb_ter_ids *a, const rb_text *texts, size_t start,
                                 size_t n, int opts, const int32_t *lower, const uint8_t *lowered,
                                 const uint8_t *twice, const uint8_t *fresh, int64_t max_words, int64_t *off,
                                 int64_t *where) {
    size_t k;
    int rc;
    off[start] = a->len;
    for (k = start; k < n; k++) {
        const rb_text *t = &texts[k];
        size_t len = t->len, i;
        const uint32_t *res;
        int64_t count;
        int pass;
        if ((rc = rb_tercom_reserve(b, len + 8)) != RB_TERTOK_OK)
            return rc;
        const int32_t *low = lower != NULL && !lowered[k] ? lower : NULL; /* this text's table */
        if (t->kind != 1 && t->kind != 2 && t->kind != 4)
            return RB_TERTOK_EKIND;
        if (fresh != NULL && fresh[k])
            rb_ter_vocab_reset(v);
        if (low != NULL && t->kind == 4) {
            *where = (int64_t)k;
            return RB_TERTOK_LOWER;
        }
        if (!(opts & (RB_TERCOM_NORMALIZED | RB_TERCOM_NO_PUNCT))) { /* lowercase and split, in one pass */
            rc = rb_ter_split_text(v, t, low, a, b->a, &count);
        } else {
            if (t->kind == 4) {
                memcpy(b->a, t->data, len * 4); /* lowercased by the caller (str.lower) if at all */
            } else {
                for (i = 0; i < len; i++) {
                    int32_t e = t->kind == 1 ? rb_ter_entry(1, t->data, i, low) : rb_ter_entry(2, t->data, i, low);
                    if (e < 0) {
                        *where = (int64_t)k;
                        return RB_TERTOK_LOWER;
                    }
                    b->a[i] = rb_ter_entry_cp(e);
                }
            }
            len = rb_rstrip(b->a, len);
            for (pass = 0;; pass++) {
                if ((rc = rb_tercom(b, len, opts, &res, &len)) != RB_TERTOK_OK)
                    return rc;
                if (pass == 1 || !twice[k])
                    break;
                /* the second time: the words joined by single spaces, into b->a */
                if (res == b->a) {
                    len = rb_ter_join_words(res, len, b->b);
                    memcpy(b->a, b->b, len * 4);
                } else {
                    len = rb_ter_join_words(res, len, b->a);
                }
            }
            rc = rb_ter_split_intern(v, res, len, a, &count);
        }
        if (rc == RB_TERTOK_LOWER)
            *where = (int64_t)k;
        if (rc != RB_TERTOK_OK)
            return rc;
        if (count > max_words) {
            *where = (int64_t)k;
            return RB_TERTOK_TOOLONG;
        }
        off[k + 1] = a->len;
    }
    return RB_TERTOK_OK;
}

#endif /* RAPIDBLEU_TER_TOK_H */
