/* Tokenizers of the compiled core, on a buffer of Unicode code points (uint32).
 *
 * Every tokenizer here only ever *separates* characters (13a, none, char, zh and intl
 * insert spaces but never add or drop non-space characters after step 1 of 13a), so a
 * token is always a contiguous span of the buffer: tokenizers emit (start, length) spans and
 * no string is built.  To add a tokenizer: a new RB_TOK_* value, a span function with the
 * signature of rb_tok_13a, and one case in rb_tokenize().
 */
#ifndef RAPIDBLEU_TOK_H
#define RAPIDBLEU_TOK_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "compiler.h"
#include "uni.h"

enum { RB_TOK_NONE = 0, RB_TOK_13A = 1, RB_TOK_CHAR = 2, RB_TOK_ZH = 3, RB_TOK_INTL = 4 };

/* ASCII classes used by 13a (bit flags). */
#define RB_C_SPACE 1u  /* Python str.isspace() */
#define RB_C_A 2u      /* 13a rule a: {|}~ [\]^_` space!"#$%& ()*+ :;<=>?@ / */
#define RB_C_DIGIT 4u  /* [0-9], ASCII only as in the regexes */
#define RB_C_P 8u      /* . and , (rules b and c) */
#define RB_C_DASH 16u  /* - (rule d) */
/* zh's CJK characters and intl's symbols are split off one by one, like class a: RB_C_A. */

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

/* rb_is_space, rb_is_uspace: Python's str.isspace() (uni.h, generated from Python). */

static inline int rb_is_digit(uint32_t c) { return c - (uint32_t)'0' < 10u; }

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

/* Which of '<', '\n', '&' (the only characters step 1 can act on) occur in s[0..n). */
enum { RB_HAS_LT = 1, RB_HAS_NL = 2, RB_HAS_AMP = 4 };

static inline int rb_step1_flags(const uint32_t *s, size_t n) {
    int has_lt = 0, has_nl = 0, has_amp = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t c = s[i];
        has_lt |= (c == '<');
        has_nl |= (c == '\n');
        has_amp |= (c == '&');
    }
    return (has_lt ? RB_HAS_LT : 0) | (has_nl ? RB_HAS_NL : 0) | (has_amp ? RB_HAS_AMP : 0);
}

/* The same flags from the 1-byte (PyUnicode kind 1) source, with memchr, which is much faster
 * than a scan of the decoded buffer; a superset of the decoded prefix's flags is fine (a pass
 * that finds nothing changes nothing). */
static inline int rb_step1_flags_ucs1(const uint8_t *d, size_t n) {
    return (memchr(d, '<', n) ? RB_HAS_LT : 0) | (memchr(d, '\n', n) ? RB_HAS_NL : 0) |
           (memchr(d, '&', n) ? RB_HAS_AMP : 0);
}

/* 13a step 1, in place: delete <skipped>, join "-\n", "\n" -> " ", then (only if the line
 * has an '&') unescape &quot; &amp; &lt; &gt; in that order, one full pass each, exactly as
 * the chain of str.replace calls.  Passes a line cannot match (per `flags`, RB_HAS_*; -1:
 * scan for them here) are skipped. */
static size_t rb_13a_step1(uint32_t *s, size_t n, int flags) {
    if (flags < 0) flags = rb_step1_flags(s, n);
    int has_lt = flags & RB_HAS_LT, has_nl = flags & RB_HAS_NL, has_amp = flags & RB_HAS_AMP;
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

/* Tokens of sacreBLEU's char: every non-space code point is a token ("c h a r".split()). */
static size_t rb_tok_char(const uint32_t *s, size_t n, uint32_t base, uint32_t *ts, uint32_t *tl) {
    size_t nt = 0;
    for (size_t i = 0; i < n; i++) {
        if (rb_is_space(s[i])) continue;
        ts[nt] = base + (uint32_t)i;
        tl[nt] = 1;
        nt++;
    }
    return nt;
}

/* True if sacreBLEU's zh surrounds c with spaces (its range table, generated into uni.h). */
static inline int rb_is_zh(uint32_t c) {
    if (c < RB_ZH_MIN || c > RB_ZH_MAX) return 0;
    for (int k = 0; k < RB_ZH_NRANGES; k++)
        if (c >= rb_zh_ranges[k][0] && c <= rb_zh_ranges[k][1]) return 1;
    return 0;
}

/* Class bits (RB_C_*) of c in each rule set.  "Digit" is what the period/comma rules call
 * a number: ASCII [0-9] for 13a and zh, \p{N} for intl. */
static inline unsigned rb_cls_13a(uint32_t c) {
    return c < 128 ? rb_ascii_class[c] : (rb_is_uspace(c) ? RB_C_SPACE : 0u);
}

static inline unsigned rb_cls_zh(uint32_t c) {
    if (c < 128) return rb_ascii_class[c];
    if (rb_is_uspace(c)) return RB_C_SPACE; /* U+3000 etc. are in the zh ranges: spaces win */
    return rb_is_zh(c) ? RB_C_A : 0u;
}

/* intl classes of every code point, one byte each (0 other, 1 \p{P}, 2 \p{S}, 3 \p{N}):
 * they follow the *installed* regex module, as sacreBLEU's intl does, so they are built at run
 * time (tokenizer_intl.intl_class_table) and set here once by bleu_stats_cy, under the GIL and
 * before any intl tokenization; afterwards only read.  NULL until then. */
enum { RB_U_OTHER = 0, RB_U_P = 1, RB_U_S = 2, RB_U_N = 3 };
#define RB_U_SIZE 0x110000u
static const uint8_t *rb_intl_table = NULL;

static inline unsigned rb_u_class(uint32_t c) {
    return c < RB_U_SIZE ? rb_intl_table[c] : RB_U_OTHER;
}

/* intl: \p{P} is the run class (RB_C_P), \p{S} is split off (RB_C_A), \p{N} is the digit. */
static const unsigned char rb_u_to_cls[4] = {0u, RB_C_P, RB_C_A, RB_C_DIGIT};

static inline unsigned rb_cls_intl(uint32_t c) {
    if (rb_is_space(c)) return RB_C_SPACE;
    return rb_u_to_cls[rb_u_class(c) & 3u];
}

enum { RB_RULES_13A, RB_RULES_ZH, RB_RULES_INTL };

static inline unsigned rb_cls(int rules, uint32_t c) {
    return rules == RB_RULES_13A ? rb_cls_13a(c) : rules == RB_RULES_ZH ? rb_cls_zh(c) : rb_cls_intl(c);
}

/* The regex steps of 13a (2-3), zh and intl in one pass: they share one shape.
 *
 *   13a   pad with spaces; a: class-a chars split off; b: ([^0-9])([.,]) -> "\1 \2 ";
 *         c: ([.,])([^0-9]) -> " \1 \2"; d: ([0-9])(-) -> "\1 \2 "
 *   zh    strip; CJK chars and class-a chars split off; b, c, d as in 13a; no padding
 *   intl  (\P{N})(\p{P}) -> "\1 \2 "; (\p{P})(\P{N}) -> " \1 \2"; (\p{S}) -> " \1 "; no
 *         padding, no strip (the caller's rstrip only)
 *
 * i.e. rules b and c with "digit" D and run class P ([.,] or \p{P}), plus characters that
 * are always split off (class a, CJK, \p{S}); intl's symbol rule comes last, but symbols
 * are non-digits for b and c either way and get spaces on both sides, so the order does not
 * change the result.  Each pass only inserts spaces, so the result is fixed by which gaps
 * between adjacent characters receive one.  Derivation (checked against the regexes by the
 * tests):
 *  - an always-split character is a token of its own;
 *  - rule d (13a, zh): a '-' right after an ASCII digit is a token of its own (no earlier
 *    rule can put a space between a digit and a '-', and the matches cannot overlap);
 *  - rules b and c act on maximal runs P1..Pm of P between x and y (x, y not in the run):
 *      m == 1: P1 is a token of its own unless both x and y are digits ("3.5", "1,000");
 *      m >= 2: x|P1 and every gap inside the run are split (rule b's greedy pairs leave
 *              one gap per pair, which rule c then splits), and Pm|y is split iff y is a
 *              non-digit, or the number of rule-b pairs makes b split it: x non-digit and m
 *              odd, or x digit and m even.
 *    At the ends of the line, x or y is absent.  With 13a's padding it is a space (a
 *    non-digit).  Without padding (zh, intl) b cannot match an absent x and c cannot match
 *    an absent y, exactly as if they were digits, so they count as digits (zh's strip makes
 *    the first non-space character the start of the line).
 */
/* inlined into one copy per rule set, so `rules` is a constant in each */
static RB_ALWAYS_INLINE size_t rb_tok_rules(int rules, const uint32_t *s, size_t n, uint32_t base,
                                  uint32_t *ts, uint32_t *tl) {
    size_t nt = 0, i = 0;
    size_t open = (size_t)-1; /* start of the token being read, or -1 */
    const int edge_digit = rules != RB_RULES_13A;
    if (rules == RB_RULES_ZH) { /* str.strip(): the line starts at its first non-space */
        while (i < n && rb_is_space(s[i])) i++;
        s += i;
        base += (uint32_t)i;
        n -= i;
        i = 0;
    }
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
        unsigned cls = rb_cls(rules, c);
        if (cls == 0 || cls == RB_C_DIGIT) { /* ordinary characters: the whole run at once */
            if (open == (size_t)-1) open = i;
            for (i++; i < n; i++) {
                unsigned k = rb_cls(rules, s[i]);
                if (k != 0 && k != RB_C_DIGIT) break;
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
        if (cls & RB_C_DASH) { /* 13a and zh only: intl's '-' is \p{P} */
            if (i > 0 && rb_is_digit(s[i - 1])) {
                RB_CLOSE(i);
                RB_EMIT1(i);
            } else if (open == (size_t)-1) {
                open = i;
            }
            i++;
            continue;
        }
        /* a run of P */
        size_t j = i + 1;
        while (j < n && rb_cls(rules, s[j]) == RB_C_P) j++;
        size_t m = j - i;
        int xd = i > 0 ? rb_cls(rules, s[i - 1]) == RB_C_DIGIT : edge_digit;
        int yd = j < n ? rb_cls(rules, s[j]) == RB_C_DIGIT : edge_digit;
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

static size_t rb_tok_13a(const uint32_t *s, size_t n, uint32_t base, uint32_t *ts, uint32_t *tl) {
    return rb_tok_rules(RB_RULES_13A, s, n, base, ts, tl);
}

static size_t rb_tok_zh(const uint32_t *s, size_t n, uint32_t base, uint32_t *ts, uint32_t *tl) {
    return rb_tok_rules(RB_RULES_ZH, s, n, base, ts, tl);
}

static size_t rb_tok_intl(const uint32_t *s, size_t n, uint32_t base, uint32_t *ts, uint32_t *tl) {
    return rb_tok_rules(RB_RULES_INTL, s, n, base, ts, tl);
}

/* Tokenize s[0..n) in place with the given tokenizer (after rstrip, which the caller does):
 * may shorten the buffer (13a step 1, given its RB_HAS_* flags or -1); writes spans to ts/tl;
 * returns the token count. */
static size_t rb_tokenize(int tokenizer, uint32_t *s, size_t n, uint32_t base, uint32_t *ts,
                          uint32_t *tl, int step1_flags) {
    switch (tokenizer) {
        case RB_TOK_13A:
            n = rb_13a_step1(s, n, step1_flags);
            return rb_tok_13a(s, n, base, ts, tl);
        case RB_TOK_CHAR:
            return rb_tok_char(s, n, base, ts, tl);
        case RB_TOK_ZH:
            return rb_tok_zh(s, n, base, ts, tl);
        case RB_TOK_INTL:
            return rb_tok_intl(s, n, base, ts, tl);
        case RB_TOK_NONE:
        default:
            return rb_tok_none(s, n, base, ts, tl);
    }
}

#endif
