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

#include "text.h"
#include "tok.h"

enum { RB_TERCOM_NORMALIZED = 1, RB_TERCOM_NO_PUNCT = 2, RB_TERCOM_ASIAN = 4 };

#define RB_TERTOK_OK 0
#define RB_TERTOK_ENOMEM 1
#define RB_TERTOK_EKIND 2     /* a text of another kind than a str's: cannot happen */
#define RB_TERTOK_TOOLONG 3   /* more words than the limit: the caller names the text */

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
 * rule).  A text can be lowercased with it iff rb_tercom_lowers_in_c: a text of kind 1 (no such
 * code point below 0x100), or of kind 2 without such a code point; texts of kind 4 are left to
 * str.lower.  The table leaves a lowercased text as it is (every code point of a lowercase is its
 * own lowercase: tests/test_ter.py), so a text the caller lowercased may pass through it again. */
static inline int rb_tercom_lowers_in_c(const rb_text *t, const int32_t *lower) {
    size_t i;
    if (t->kind == 1)
        return 1;
    if (t->kind != 2)
        return 0;
    {
        const uint16_t *p = (const uint16_t *)t->data;
        for (i = 0; i < t->len; i++)
            if (lower[p[i]] < 0)
                return 0;
    }
    return 1;
}

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

/* The table: open addressing over 8-byte slots (a tag of the word's hash and its id), at most
 * half full, so that a corpus's vocabulary stays in the cache; the words' code points end to
 * end in id order (word id k is chars[start[k] .. start[k + 1]]). */
typedef struct {
    uint32_t tag; /* the high half of the word's hash */
    int32_t id;   /* -1: empty slot */
} rb_ter_slot;

typedef struct {
    rb_ter_slot *slots;
    size_t cap, count; /* cap: a power of two */
    uint32_t *chars;   /* the distinct words, end to end */
    size_t nchars, chars_cap;
    int64_t *start;    /* count + 1: where each word starts in chars */
    size_t start_cap;
} rb_ter_vocab;

static inline void rb_ter_vocab_init(rb_ter_vocab *v) { memset(v, 0, sizeof(*v)); }

static inline void rb_ter_vocab_free(rb_ter_vocab *v) {
    free(v->slots);
    free(v->chars);
    free(v->start);
    memset(v, 0, sizeof(*v));
}

/* FNV-1a over the code points, then a finalizer (MurmurHash3's) that spreads every bit. */
static inline uint64_t rb_ter_hash(const uint32_t *s, size_t n) {
    uint64_t h = 0xCBF29CE484222325ull ^ (uint64_t)n;
    size_t i;
    for (i = 0; i < n; i++)
        h = (h ^ s[i]) * 0x100000001B3ull;
    h ^= h >> 33;
    h *= 0xFF51AFD7ED558CCDull;
    h ^= h >> 33;
    h *= 0xC4CEB9FE1A85EC53ull;
    return h ^ (h >> 33);
}

/* The slot of a hash in a table of cap slots (its low bits), and its tag (its high half). */
static inline size_t rb_ter_home(uint64_t h, size_t cap) { return (size_t)h & (cap - 1); }
static inline uint32_t rb_ter_tag(uint64_t h) { return (uint32_t)(h >> 32); }

static int rb_ter_vocab_grow(rb_ter_vocab *v) {
    size_t cap = v->cap ? 2 * v->cap : 1024, i;
    rb_ter_slot *s = (rb_ter_slot *)malloc(cap * sizeof(rb_ter_slot));
    if (s == NULL)
        return RB_TERTOK_ENOMEM;
    for (i = 0; i < cap; i++)
        s[i].id = -1;
    for (i = 0; i < v->cap; i++) {
        int32_t id = v->slots[i].id;
        if (id >= 0) {
            uint64_t h = rb_ter_hash(v->chars + v->start[id], (size_t)(v->start[id + 1] - v->start[id]));
            size_t k = rb_ter_home(h, cap);
            while (s[k].id >= 0)
                k = (k + 1) & (cap - 1);
            s[k] = v->slots[i];
        }
    }
    free(v->slots);
    v->slots = s;
    v->cap = cap;
    return RB_TERTOK_OK;
}

/* The id of word s[0..n) (a new one, count, if unseen), into *id. */
static int rb_ter_intern(rb_ter_vocab *v, const uint32_t *s, size_t n, int32_t *id) {
    uint64_t h = rb_ter_hash(s, n);
    uint32_t tag = rb_ter_tag(h);
    size_t k;
    if (2 * (v->count + 1) > v->cap) {
        int rc = rb_ter_vocab_grow(v);
        if (rc != RB_TERTOK_OK)
            return rc;
    }
    if (v->count + 2 > v->start_cap) {
        size_t cap = 2 * v->start_cap + 1024;
        int64_t *p = (int64_t *)realloc(v->start, cap * sizeof(int64_t));
        if (p == NULL)
            return RB_TERTOK_ENOMEM;
        v->start = p;
        v->start_cap = cap;
        if (v->count == 0)
            v->start[0] = 0;
    }
    k = rb_ter_home(h, v->cap);
    while (v->slots[k].id >= 0) {
        const rb_ter_slot *e = &v->slots[k];
        if (e->tag == tag) {
            int64_t a = v->start[e->id];
            if ((size_t)(v->start[e->id + 1] - a) == n && memcmp(v->chars + a, s, n * 4) == 0) {
                *id = e->id;
                return RB_TERTOK_OK;
            }
        }
        k = (k + 1) & (v->cap - 1);
    }
    if (v->nchars + n > v->chars_cap) {
        size_t cap = 2 * (v->nchars + n) + 256;
        uint32_t *c = (uint32_t *)realloc(v->chars, cap * 4);
        if (c == NULL)
            return RB_TERTOK_ENOMEM;
        v->chars = c;
        v->chars_cap = cap;
    }
    memcpy(v->chars + v->nchars, s, n * 4);
    v->nchars += n;
    v->slots[k].tag = tag;
    v->slots[k].id = (int32_t)v->count;
    v->start[v->count + 1] = (int64_t)v->nchars;
    *id = (int32_t)v->count++;
    return RB_TERTOK_OK;
}

/* A growing array of word ids. */
typedef struct {
    int32_t *ids;
    int64_t len, cap;
} rb_ter_ids;

static inline int rb_ter_ids_push(rb_ter_ids *a, int32_t id) {
    if (a->len == a->cap) {
        int64_t cap = a->cap ? 2 * a->cap : 4096;
        int32_t *p = (int32_t *)realloc(a->ids, (size_t)cap * 4);
        if (p == NULL)
            return RB_TERTOK_ENOMEM;
        a->ids = p;
        a->cap = cap;
    }
    a->ids[a->len++] = id;
    return RB_TERTOK_OK;
}

/* The words of s[0..n) (str.split()) interned and appended to a; their number into *count. */
static int rb_ter_split_intern(rb_ter_vocab *v, const uint32_t *s, size_t n, rb_ter_ids *a, int64_t *count) {
    size_t i = 0;
    int64_t c = 0;
    while (i < n) {
        size_t start;
        int32_t id;
        int rc;
        while (i < n && rb_is_space(s[i]))
            i++;
        if (i == n)
            break;
        start = i;
        while (i < n && !rb_is_space(s[i]))
            i++;
        if ((rc = rb_ter_intern(v, s + start, i - start, &id)) != RB_TERTOK_OK ||
            (rc = rb_ter_ids_push(a, id)) != RB_TERTOK_OK)
            return rc;
        c++;
    }
    *count = c;
    return RB_TERTOK_OK;
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

/* Texts[0..n) tokenized (lowercased with the table `lower` unless it is NULL, right-stripped,
 * tercom's normalizer with opts, twice where twice[k]), their words interned into v and appended
 * to a; off[k] .. off[k + 1] are text k's ids (off: n + 1).  With `lower`, a text for which
 * rb_tercom_lowers_in_c is false must be lowercased already (str.lower).  A text of more than
 * max_words words stops the work: RB_TERTOK_TOOLONG, its index in *where. */
static int rb_ter_tokenize_texts(rb_ter_vocab *v, rb_tercom_buf *b, rb_ter_ids *a, const rb_text *texts, size_t n,
                                 int opts, const int32_t *lower, const uint8_t *twice, int64_t max_words,
                                 int64_t *off, int64_t *where) {
    size_t k;
    int rc;
    off[0] = a->len;
    for (k = 0; k < n; k++) {
        const rb_text *t = &texts[k];
        size_t len = t->len, i;
        const uint32_t *res;
        int64_t count;
        int pass;
        if ((rc = rb_tercom_reserve(b, len + 8)) != RB_TERTOK_OK)
            return rc;
        if (t->kind == 1 && lower != NULL) {
            const uint8_t *p = (const uint8_t *)t->data;
            for (i = 0; i < len; i++)
                b->a[i] = (uint32_t)lower[p[i]];
        } else if (t->kind == 1) {
            const uint8_t *p = (const uint8_t *)t->data;
            for (i = 0; i < len; i++)
                b->a[i] = p[i];
        } else if (t->kind == 2 && lower != NULL) {
            const uint16_t *p = (const uint16_t *)t->data;
            for (i = 0; i < len; i++) {
                int32_t c = lower[p[i]];
                b->a[i] = c >= 0 ? (uint32_t)c : p[i]; /* -1: the caller lowercased the text */
            }
        } else if (t->kind == 2) {
            const uint16_t *p = (const uint16_t *)t->data;
            for (i = 0; i < len; i++)
                b->a[i] = p[i];
        } else if (t->kind == 4) {
            memcpy(b->a, t->data, len * 4); /* lowercased by the caller (str.lower) if at all */
        } else {
            return RB_TERTOK_EKIND;
        }
        len = rb_rstrip(b->a, len);
        for (pass = 0;; pass++) {
            if ((rc = rb_tercom(b, len, opts, &res, &len)) != RB_TERTOK_OK)
                return rc;
            if (pass == 1 || !twice[k] || !(opts & (RB_TERCOM_NORMALIZED | RB_TERCOM_NO_PUNCT)))
                break;
            /* the second time: the words joined by single spaces, into b->a */
            if (res == b->a) {
                len = rb_ter_join_words(res, len, b->b);
                memcpy(b->a, b->b, len * 4);
            } else {
                len = rb_ter_join_words(res, len, b->a);
            }
        }
        if ((rc = rb_ter_split_intern(v, res, len, a, &count)) != RB_TERTOK_OK)
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
