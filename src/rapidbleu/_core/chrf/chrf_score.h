/* The chrF score of one row of statistics (sacreBLEU's CHRF._compute_f_score, Popović 2015,
 * 2017; chrf_py.f_score is the oracle), on doubles, once for every C caller: chrf.h's
 * int64 rows (each count converted to double: below 2**53 the divisions give Python's
 * floats) and aggregate.h's aggregated float rows.  A caller adds the orders one at a time
 * (rb_chrf_add, hypothesis, reference and match counts of an order), then takes the score
 * (rb_chrf_score).  `factor` is float(beta ** 2), `one_plus` float(1 + beta ** 2), the numbers
 * Python multiplies by. */
#ifndef RAPIDBLEU_CHRF_SCORE_H
#define RAPIDBLEU_CHRF_SCORE_H

#define RB_CHRF_EPS 1e-16

typedef struct {
    double score, avg_prec, avg_rec;
    int effective;
} rb_chrf_sum;

static inline void rb_chrf_add(rb_chrf_sum *s, double h, double r, double m, double factor, double one_plus) {
    const double prec = h > 0 ? m / h : RB_CHRF_EPS;
    const double rec = r > 0 ? m / r : RB_CHRF_EPS;
    const double denom = factor * prec + rec;
    s->score += denom > 0 ? one_plus * prec * rec / denom : RB_CHRF_EPS;
    if (h > 0 && r > 0) {
        s->avg_prec += prec;
        s->avg_rec += rec;
        s->effective++;
    }
}

static inline double rb_chrf_score(const rb_chrf_sum *s, int order, double factor, double one_plus,
                                   int eps_smoothing) {
    double avg_prec = s->avg_prec, avg_rec = s->avg_rec, score;
    if (eps_smoothing) return 100.0 * s->score / (double)order;
    if (s->effective) {
        avg_prec /= (double)s->effective;
        avg_rec /= (double)s->effective;
    } else {
        avg_prec = avg_rec = 0.0;
    }
    if (avg_prec + avg_rec == 0.0) return 0.0;
    score = one_plus * avg_prec * avg_rec;
    score /= factor * avg_prec + avg_rec;
    return 100.0 * score;
}

#endif
