/* Reference-aggregated n-gram statistics (rapidbleu._core.aggregate.aggregate_cy; the formulas and the
 * order of every float sum are rapidbleu._core.aggregate.aggregate_py's).  N-grams are runs of int64
 * units (code points, word or token ids); a table per order maps an n-gram, compared unit by
 * unit (a hash collision costs a probe, never a count), to its weighted reference count.  The
 * functions read and write only the arrays they are given and the memory they allocate. */
#ifndef RB_AGGREGATE_H
#define RB_AGGREGATE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "chrf_score.h" /* rb_chrf_add, rb_chrf_score: chrF of a row */

#define RB_AGG_OK 0
#define RB_AGG_ENOMEM 1

typedef struct {
    int64_t key; /* 1 + the n-gram's first unit's index in the reference units; 0: empty */
    int64_t last; /* the reference that last counted it */
    int64_t cnt;  /* its count in that reference */
    uint64_t h;
    double acc;   /* sum_j v_j c_j, then divided by the divisor */
} rb_agg_ref_slot;

typedef struct {
    rb_agg_ref_slot *slots;
    uint64_t mask;
    double length;
} rb_agg_table;

typedef struct {
    int64_t key; /* 1 + the position of its first occurrence in the hypothesis; 0: empty */
    int64_t cnt;
    uint64_t h;
    double a;    /* the aggregated reference count (0 if absent) */
} rb_agg_hyp_slot;

static inline uint64_t rb_agg_hash(const int64_t *u, int k) {
    uint64_t h = 0x9E3779B97F4A7C15ULL ^ (uint64_t)k;
    for (int i = 0; i < k; i++) {
        h ^= (uint64_t)u[i];
        h *= 0xFF51AFD7ED558CCDULL;
        h ^= h >> 31;
    }
    return h;
}

static inline uint64_t rb_agg_capacity(int64_t items) {
    uint64_t cap = 16;
    while (cap < 2 * (uint64_t)items + 2) cap <<= 1;
    return cap;
}

static void rb_agg_table_free(rb_agg_table *t) {
    free(t->slots);
    t->slots = NULL;
}

/* The table of order k over m references (units[off[j] .. off[j+1]]), weights v, divisor d. */
static int rb_agg_build(rb_agg_table *t, const int64_t *units, const int64_t *off, int64_t m, const double *v,
                        double d, int k) {
    int64_t total = 0, longest = 0;
    for (int64_t j = 0; j < m; j++) {
        const int64_t c = off[j + 1] - off[j] - k + 1;
        if (c > 0) total += c;
        if (c > longest) longest = c;
    }
    const uint64_t cap = rb_agg_capacity(total);
    t->mask = cap - 1;
    t->length = 0.0;
    t->slots = (rb_agg_ref_slot *)calloc(cap, sizeof(rb_agg_ref_slot));
    uint64_t *touched = (uint64_t *)malloc(sizeof(uint64_t) * (size_t)(longest > 0 ? longest : 1));
    if (!t->slots || !touched) {
        free(touched);
        rb_agg_table_free(t);
        return RB_AGG_ENOMEM;
    }
    const size_t bytes = sizeof(int64_t) * (size_t)k;
    for (int64_t j = 0; j < m; j++) {
        int64_t nt = 0;
        const int64_t c = off[j + 1] - off[j] - k + 1;
        for (int64_t i = off[j]; i < off[j] + c; i++) {
            const uint64_t h = rb_agg_hash(units + i, k);
            uint64_t idx = h & t->mask;
            for (;;) {
                rb_agg_ref_slot *s = &t->slots[idx];
                if (s->key == 0) {
                    s->key = i + 1;
                    s->h = h;
                    s->last = j;
                    s->cnt = 1;
                    s->acc = 0.0;
                    touched[nt++] = idx;
                    break;
                }
                if (s->h == h && memcmp(units + (s->key - 1), units + i, bytes) == 0) {
                    if (s->last != j) {
                        s->last = j;
                        s->cnt = 0;
                        touched[nt++] = idx;
                    }
                    s->cnt++;
                    break;
                }
                idx = (idx + 1) & t->mask;
            }
        }
        for (int64_t q = 0; q < nt; q++) {
            rb_agg_ref_slot *s = &t->slots[touched[q]];
            s->acc += v[j] * (double)s->cnt;
        }
        t->length += v[j] * (double)(c > 0 ? c : 0);
    }
    free(touched);
    for (uint64_t q = 0; q < cap; q++)
        if (t->slots[q].key) t->slots[q].acc /= d;
    t->length /= d;
    return RB_AGG_OK;
}

static inline double rb_agg_lookup(const rb_agg_table *t, const int64_t *ref_units, const int64_t *u, int k,
                                   uint64_t h) {
    uint64_t idx = h & t->mask;
    const size_t bytes = sizeof(int64_t) * (size_t)k;
    for (;;) {
        const rb_agg_ref_slot *s = &t->slots[idx];
        if (s->key == 0) return 0.0;
        if (s->h == h && memcmp(ref_units + (s->key - 1), u, bytes) == 0) return s->acc;
        idx = (idx + 1) & t->mask;
    }
}

/* The three columns of order k of rows start .. end - 1 of the (n, 3 * max_order) output,
 * against that order's table t (one table alive at a time: memory is one order's). */
static int rb_agg_rows(const rb_agg_table *t, int k, int max_order, const int64_t *ref_units, const int64_t *units,
                       const int64_t *off, int64_t start, int64_t end, double *out) {
    int64_t longest = 0;
    for (int64_t i = start; i < end; i++)
        if (off[i + 1] - off[i] > longest) longest = off[i + 1] - off[i];
    const uint64_t cap = rb_agg_capacity(longest);
    rb_agg_hyp_slot *slots = (rb_agg_hyp_slot *)malloc(sizeof(rb_agg_hyp_slot) * cap);
    uint64_t *at = (uint64_t *)malloc(sizeof(uint64_t) * (size_t)(longest > 0 ? longest : 1));
    if (!slots || !at) {
        free(slots);
        free(at);
        return RB_AGG_ENOMEM;
    }
    for (int64_t r = start; r < end; r++) {
        const int64_t *u = units + off[r];
        const int64_t len = off[r + 1] - off[r];
        double *row = out + (size_t)r * 3 * (size_t)max_order;
        {
            const int64_t c = len - k + 1;
            double match = 0.0;
            if (c > 0) {
                const uint64_t mask = rb_agg_capacity(c) - 1;
                const size_t bytes = sizeof(int64_t) * (size_t)k;
                memset(slots, 0, sizeof(rb_agg_hyp_slot) * (size_t)(mask + 1));
                for (int64_t i = 0; i < c; i++) {
                    const uint64_t h = rb_agg_hash(u + i, k);
                    uint64_t idx = h & mask;
                    for (;;) {
                        rb_agg_hyp_slot *s = &slots[idx];
                        if (s->key == 0) {
                            s->key = i + 1;
                            s->h = h;
                            s->cnt = 1;
                            s->a = rb_agg_lookup(t, ref_units, u + i, k, h);
                            break;
                        }
                        if (s->h == h && memcmp(u + (s->key - 1), u + i, bytes) == 0) {
                            s->cnt++;
                            break;
                        }
                        idx = (idx + 1) & mask;
                    }
                    at[i] = idx;
                }
                for (int64_t i = 0; i < c; i++) {
                    const rb_agg_hyp_slot *s = &slots[at[i]];
                    if (s->key == i + 1) {
                        const double cnt = (double)s->cnt;
                        match += s->a < cnt ? s->a : cnt;
                    }
                }
            }
            row[3 * (k - 1)] = (double)(c > 0 ? c : 0);
            row[3 * (k - 1) + 1] = t->length;
            row[3 * (k - 1) + 2] = match;
        }
    }
    free(slots);
    free(at);
    return RB_AGG_OK;
}

/* chrF of one aggregated row (aggregate_py.chrf_row_scores: chrf_py.f_score with the
 * hypothesis count of an order 0 where the aggregated reference has none). */
static double rb_agg_chrf_f(const double *row, int order, double factor, double one_plus, int eps_smoothing) {
    rb_chrf_sum s = {0.0, 0.0, 0.0, 0};
    for (int k = 0; k < order; k++) {
        const double r = row[3 * k + 1];
        rb_chrf_add(&s, r == 0.0 ? 0.0 : row[3 * k], r, row[3 * k + 2], factor, one_plus);
    }
    return rb_chrf_score(&s, order, factor, one_plus, eps_smoothing);
}

#endif
