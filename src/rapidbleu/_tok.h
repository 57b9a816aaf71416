/* Tokenizers of the compiled core, on a buffer of Unicode code points (uint32).
 *
 * Every tokenizer here only ever *separates* characters (13a, none, and later char, zh and
 * intl insert spaces but never add or drop non-space characters after step 1 of 13a), so a
 * token is always a contiguous span of the buffer: tokenizers emit (start, length) spans and
 * no string is built.  To add a tokenizer: a new RB_TOK_* value, a span function with the
 * signature of rb_tok_13a, and one case in rb_tokenize().
 */
#ifndef RAPIDBLEU_TOK_H
#define RAPIDBLEU_TOK_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

enum { RB_TOK_NONE = 0, RB_TOK_13A = 1 };

/* ASCII classes used by 13a (bit flags). */
#define RB_C_SPACE 1u  /* Python str.isspace() */
#define RB_C_A 2u      /* 13a rule a: {|}~ [\]^_` space!"#$%& ()*+ :;<=>?@ / */
#define RB_C_DIGIT 4u  /* [0-9], ASCII only as in the regexes */
#define RB_C_P 8u      /* . and , (rules b and c) */
#define RB_C_DASH 16u  /* - (rule d) */

static const unsigned char rb_ascii_class[128] = {
    /* 0x00-0x08 */ 0, 0, 0, 0, 0, 0, 0, 0, 0,
    /* 0x09-0x0D \t \n \v \f \r */ 1, 1, 1, 1, 1,
    /* 0x0E-0x1B */ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    /* 0x1C-0x1F separators */ 1, 1, 1, 1,
    /* 0x20 space (also in class a) */ 3,
    /* ! " # $ % & */ 2, 2, 2, 2, 2, 2,
    /* ' */ 0,
    /* ( ) * + */ 2, 2, 2, 2,
    /* , */ 8,
    /* - */ 16,
    /* . */ 8,
    /* / */ 2,
    /* 0-9 */ 4, 4, 4, 4, 4, 4, 4, 4, 4, 4,
    /* : ; < = > ? @ */ 2, 2, 2, 2, 2, 2, 2,
    /* A-Z */ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    /* [ \ ] ^ _ ` */ 2, 2, 2, 2, 2, 2,
    /* a-z */ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    /* { | } ~ */ 2, 2, 2, 2,
    /* DEL */ 0,
};

/* Python's str.isspace() (the set str.split() and str.rstrip() use) above ASCII.
 * U+200B and U+FEFF are deliberately absent: Python does not split on them. */
static inline int rb_is_uspace(uint32_t c) {
    if (c < 0x85) return 0;
    return c == 0x85 || c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) ||
           c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
}

static inline int rb_is_space(uint32_t c) {
    return c < 128 ? (int)(rb_ascii_class[c] & RB_C_SPACE) : rb_is_uspace(c);
}

static inline int rb_is_digit(uint32_t c) { return c - (uint32_t)'0' < 10u; }
static inline int rb_is_p(uint32_t c) { return c == '.' || c == ','; }

/* Length of s[0..n) after Python's str.rstrip(). */
static inline size_t rb_rstrip(const uint32_t *s, size_t n) {
    while (n > 0 && rb_is_space(s[n - 1])) n--;
    return n;
}

/* One pass of str.replace(pat, rep) in place (left to right, non-overlapping); needs
 * len(rep) <= len(pat), which holds for every 13a replacement.  Returns the new length. */
static size_t rb_replace(uint32_t *s, size_t n, const uint32_t *pat, size_t pl,
                         const uint32_t *rep, size_t rl) {
    size_t r = 0, w = 0;
    while (r < n) {
        if (s[r] == pat[0] && r + pl <= n && memcmp(s + r, pat, pl * sizeof(uint32_t)) == 0) {
            for (size_t k = 0; k < rl; k++) s[w++] = rep[k];
            r += pl;
        } else {
            s[w++] = s[r++];
        }
    }
    return w;
}

static const uint32_t rb_pat_skipped[] = {'<', 's', 'k', 'i', 'p', 'p', 'e', 'd', '>'};
static const uint32_t rb_pat_hyphen_nl[] = {'-', '\n'};
static const uint32_t rb_pat_nl[] = {'\n'};
static const uint32_t rb_rep_space[] = {' '};
static const uint32_t rb_pat_quot[] = {'&', 'q', 'u', 'o', 't', ';'};
static const uint32_t rb_rep_quot[] = {'"'};
static const uint32_t rb_pat_amp[] = {'&', 'a', 'm', 'p', ';'};
static const uint32_t rb_rep_amp[] = {'&'};
static const uint32_t rb_pat_lt[] = {'&', 'l', 't', ';'};
static const uint32_t rb_rep_lt[] = {'<'};
static const uint32_t rb_pat_gt[] = {'&', 'g', 't', ';'};
static const uint32_t rb_rep_gt[] = {'>'};

/* 13a step 1, in place: delete <skipped>, join "-\n", "\n" -> " ", then (only if the line
 * has an '&') unescape &quot; &amp; &lt; &gt; in that order, one full pass each, exactly as
 * the chain of str.replace calls.  Passes a line cannot match are skipped. */
static size_t rb_13a_step1(uint32_t *s, size_t n) {
    int has_lt = 0, has_nl = 0, has_amp = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t c = s[i];
        has_lt |= (c == '<');
        has_nl |= (c == '\n');
        has_amp |= (c == '&');
    }
    if (has_lt) n = rb_replace(s, n, rb_pat_skipped, 9, NULL, 0);
    if (has_nl) {
        n = rb_replace(s, n, rb_pat_hyphen_nl, 2, NULL, 0);
        n = rb_replace(s, n, rb_pat_nl, 1, rb_rep_space, 1);
    }
    if (has_amp) {
        n = rb_replace(s, n, rb_pat_quot, 6, rb_rep_quot, 1);
        n = rb_replace(s, n, rb_pat_amp, 5, rb_rep_amp, 1);
        n = rb_replace(s, n, rb_pat_lt, 4, rb_rep_lt, 1);
        n = rb_replace(s, n, rb_pat_gt, 4, rb_rep_gt, 1);
    }
    return n;
}

/* Tokens of str.split(): maximal runs of non-space code points.  Spans are written to
 * ts/tl (offsets shifted by base); returns the number of tokens (at most (n + 1) / 2). */
static size_t rb_tok_none(const uint32_t *s, size_t n, uint32_t base, uint32_t *ts, uint32_t *tl) {
    size_t nt = 0, i = 0;
    while (i < n) {
        while (i < n && rb_is_space(s[i])) i++;
        if (i == n) break;
        size_t start = i;
        while (i < n && !rb_is_space(s[i])) i++;
        ts[nt] = base + (uint32_t)start;
        tl[nt] = (uint32_t)(i - start);
        nt++;
    }
    return nt;
}

/* 13a steps 2-3 in one pass, on a line that went through step 1 (the padding spaces are
 * implicit: the characters before s[0] and after s[n-1] count as spaces).
 *
 * The four regex passes only insert spaces, so the result is fixed by which gaps between
 * adjacent characters receive one.  Derivation (checked against the regexes by the tests):
 *  - rule a: each class-a character is a token of its own;
 *  - rule d: a '-' right after an ASCII digit is a token of its own (no earlier rule can put
 *    a space between a digit and a '-', and the matches cannot overlap);
 *  - rules b and c act on maximal runs P1..Pm of '.'/',' between x and y (x, y not in the
 *    run; a class-a neighbour counts as a space, i.e. a non-digit):
 *      m == 1: P1 is a token of its own unless both x and y are digits ("3.5", "1,000");
 *      m >= 2: x|P1 and every gap inside the run are split (rule b's greedy pairs leave
 *              one gap per pair, which rule c then splits), and Pm|y is split iff y is a
 *              non-digit, or the number of rule-b pairs makes b split it: x non-digit and m
 *              odd, or x digit and m even.
 */
static size_t rb_tok_13a(const uint32_t *s, size_t n, uint32_t base, uint32_t *ts, uint32_t *tl) {
    size_t nt = 0, i = 0;
    size_t open = (size_t)-1; /* start of the token being read, or -1 */
#define RB_CLOSE(at)                                   \
    do {                                               \
        if (open != (size_t)-1) {                      \
            ts[nt] = base + (uint32_t)open;            \
            tl[nt] = (uint32_t)((at) - open);          \
            nt++;                                      \
            open = (size_t)-1;                         \
        }                                              \
    } while (0)
#define RB_EMIT1(at)                                   \
    do {                                               \
        ts[nt] = base + (uint32_t)(at);                \
        tl[nt] = 1;                                    \
        nt++;                                          \
    } while (0)
    while (i < n) {
        uint32_t c = s[i];
        unsigned cls = c < 128 ? rb_ascii_class[c] : (rb_is_uspace(c) ? RB_C_SPACE : 0u);
        if (cls == 0 || cls == RB_C_DIGIT) { /* ordinary characters: the whole run at once */
            if (open == (size_t)-1) open = i;
            for (i++; i < n; i++) {
                c = s[i];
                if (c < 128 ? (rb_ascii_class[c] & ~RB_C_DIGIT) != 0 : rb_is_uspace(c)) break;
            }
            continue;
        }
        if (cls & RB_C_SPACE) {
            RB_CLOSE(i);
            i++;
            continue;
        }
        if (cls & RB_C_A) {
            RB_CLOSE(i);
            RB_EMIT1(i);
            i++;
            continue;
        }
        if (cls & RB_C_DASH) {
            if (i > 0 && rb_is_digit(s[i - 1])) {
                RB_CLOSE(i);
                RB_EMIT1(i);
            } else if (open == (size_t)-1) {
                open = i;
            }
            i++;
            continue;
        }
        /* a run of '.' and ',' */
        size_t j = i + 1;
        while (j < n && rb_is_p(s[j])) j++;
        size_t m = j - i;
        int xd = i > 0 && rb_is_digit(s[i - 1]);
        int yd = j < n && rb_is_digit(s[j]);
        if (m == 1) {
            if (xd && yd) { /* "3.5": stays inside the number's token */
                if (open == (size_t)-1) open = i;
            } else {
                RB_CLOSE(i);
                RB_EMIT1(i);
            }
            i = j;
            continue;
        }
        RB_CLOSE(i);
        for (size_t k = i; k + 1 < j; k++) RB_EMIT1(k);
        if (!yd || (!xd && (m & 1)) || (xd && !(m & 1)))
            RB_EMIT1(j - 1);
        else
            open = j - 1; /* Pm glued to the digit that follows */
        i = j;
    }
    RB_CLOSE(n);
#undef RB_CLOSE
#undef RB_EMIT1
    return nt;
}

/* Tokenize s[0..n) in place with the given tokenizer (after rstrip, which the caller does):
 * may shorten the buffer (13a step 1); writes spans to ts/tl; returns the token count. */
static size_t rb_tokenize(int tokenizer, uint32_t *s, size_t n, uint32_t base, uint32_t *ts,
                          uint32_t *tl) {
    switch (tokenizer) {
        case RB_TOK_13A:
            n = rb_13a_step1(s, n);
            return rb_tok_13a(s, n, base, ts, tl);
        case RB_TOK_NONE:
        default:
            return rb_tok_none(s, n, base, ts, tl);
    }
}

#endif
