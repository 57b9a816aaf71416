/* BLEU sufficient statistics of one segment at a time, without the GIL.
 *
 * Per segment: the hypothesis is tokenized and its tokens and n-grams get exact dense ids
 * (inserted into the tables); each reference is then only *looked up*, since an n-gram that
 * is not in the hypothesis cannot match (an unknown prefix ends the extension early).  With
 * dense ids, clipping is plain arrays: refmax[id] (the maximum count over references) and a
 * counter per id.  Segments with more than RB_TAB_CHUNK hypothesis n-grams go to
 * rb_segment_long (bleu_ngram_long.h); both build on bleu_ngram_core.h.
 */
#ifndef RAPIDBLEU_NGRAM_H
#define RAPIDBLEU_NGRAM_H

#include "bleu_ngram_core.h"
#include "bleu_ngram_long.h"


/* One row [hyp_len, ref_len, matches_1..N, totals_1..N] into `row`.  Returns RB_OK or an
 * error code. */
static int rb_segment(rb_scratch *sc, const rb_text *hyp, const rb_text *refs, size_t nrefs,
                      int64_t *row) {
    const int N = sc->order;
    ptrdiff_t r = rb_text_tokens(sc, hyp, 0);
    if (r < 0) return r == -1 ? RB_ENOMEM : RB_ETOOLONG;
    const size_t hl = (size_t)r;
    /* references go after the hypothesis's code points, which string tokens' table entries
     * point into; integer-keyed tokens need them no more, so references overwrite them */
    const int int_keyed = hyp->kind == RB_KIND_INT64 || rb_cp_tokens(sc, hyp);
    const size_t ref_base = int_keyed ? 0 : sc->text_end;
    /* int64 tokens in the direct-mapped vocabulary (a segment's texts are of one kind): a new
     * stamp frees every slot */
    const int direct = hyp->kind == RB_KIND_INT64 && sc->vmap != NULL;
    if (direct && ++sc->stamp == 0) {
        memset(sc->vmap, 0, (sc->vmap_len + 1) * sizeof(rb_vslot));
        sc->stamp = 1;
    }

    /* hypothesis: the token ids in hyp[0..hl); each order's n-gram ids are then computed in
     * place in hyp[hl..2hl) from the previous order's (n-gram i of order n = (n-gram i of order
     * n-1, token i+n-1)), and hcnt[id] counts each id's occurrences.  Ids are given order by
     * order, so the ids of order n are ofirst[n]..ofirst[n+1]-1: the clipping needs only
     * hcnt, not every n-gram's id (8 bytes per token instead of 4 x order). */
    size_t total = 0;
    for (int n = 1; n <= N; n++) total += rb_ngrams(hl, n);
    /* a long line: one order at a time, memory bounded by the largest order (bleu_ngram_long.h) */
    if (total > RB_TAB_CHUNK) return rb_segment_long(sc, hyp, refs, nrefs, row, hl);
    /* From here on the segment has at most RB_TAB_CHUNK n-grams: tables sized for every token /
     * n-gram that can need one being distinct (see `pbound` below), so one allocation and no
     * growth check.  Only the part in use is cleared, so small segments stay cheap. */
    size_t tcap = direct ? 0 : rb_table_size(hl, &sc->ttab_shift);
    if (!RB_RESERVE(sc, hyp, 2 * hl + 1) || !RB_RESERVE(sc, ofirst, (size_t)N + 2) ||
        !rb_reserve((void **)&sc->ttab, &sc->ttab_cap, tcap, sizeof(rb_tok_entry)))
        return RB_ENOMEM;
    if (tcap) rb_tok_clear(sc->ttab, tcap);
    sc->ttab_size = tcap; /* probing stays within the cleared prefix */
    sc->next_id = 0;

    uint32_t *const tok = sc->hyp, *const level = sc->hyp + hl;
    if (!rb_hcnt_fresh(sc, total)) return RB_ENOMEM; /* every id this segment can create */
    sc->ofirst[1] = 0;
    rb_text_ids_range(sc, hyp, 0, hl, tok);
    for (size_t k = 0; k < hl; k++) sc->hcnt[tok[k]]++;
    const uint32_t n_tok_ids = sc->next_id;

    /* An n-gram whose prefix (its first n-1 tokens) occurs once in the hypothesis occurs once
     * too, and is that prefix's only extension: it gets its id without the n-gram table, and
     * the prefix keeps (last token, id) in ext[prefix] for the references' look-ups (random
     * token ids make nearly every prefix unique).  Only n-grams with a repeated prefix go
     * into the table, and a repeated prefix starts with a repeated token: at most `repeated`
     * (positions whose token is repeated) table entries per order. */
    size_t repeated = hl;
    for (uint32_t id = 0; id < n_tok_ids; id++) repeated -= sc->hcnt[id] == 1;
    const size_t pbound = (size_t)(N - 1) * repeated < total - hl ? (size_t)(N - 1) * repeated : total - hl;
    size_t pcap = rb_table_size(pbound, &sc->ptab_shift);
    if (!rb_reserve((void **)&sc->ptab, &sc->ptab_cap, pcap, sizeof(rb_pair_entry))) return RB_ENOMEM;
    rb_pair_clear(sc->ptab, pcap);
    sc->ptab_size = pcap;

    if (N >= 2 && hl >= 2) memcpy(level, tok, hl * sizeof(uint32_t));
    int n = 2;
    for (; n <= N && rb_ngrams(hl, n) > 0; n++) {
        size_t cnt_n = rb_ngrams(hl, n);
        sc->ofirst[n] = sc->next_id;
        /* the prefixes of this order are the ids of the previous one: no extension yet */
        if (!RB_RESERVE(sc, ext, (size_t)sc->next_id)) return RB_ENOMEM;
        rb_ext *const ext = sc->ext;
        rb_no_ext(ext, sc->ofirst[n - 1], sc->next_id);
        rb_pair_entry *const ptab = sc->ptab;
        const size_t psize = sc->ptab_size;
        const unsigned pshift = sc->ptab_shift;
        uint32_t *const hcnt = sc->hcnt;
        for (size_t i = 0; i < cnt_n; i++) {
            const uint32_t prefix = level[i], last = tok[i + n - 1];
            uint32_t id;
            if (hcnt[prefix] == 1) {
                id = sc->next_id++;
                ext[prefix].last = last;
                ext[prefix].id = id;
            } else {
                id = rb_pair_find(ptab, psize, pshift, prefix, last, sc->mask, 1, &sc->next_id);
            }
            level[i] = id;
            hcnt[id]++;
        }
    }
    const int built = n - 1; /* the highest order the hypothesis has */
    for (; n <= N + 1; n++) sc->ofirst[n] = sc->next_id;
    pcap = sc->ptab_size;
    const uint32_t ids = sc->next_id;
    /* the references look up extensions of every order below the first the hypothesis lacks:
     * those of the last order built are still unset */
    /* (+ 1: never empty; touched: the loop below stores at touched[nt] before it knows whether
     * the id is new, so once every id is touched it stores one past the last) */
    if (!RB_RESERVE(sc, ext, (size_t)ids) || !RB_RESERVE(sc, refmax, (size_t)ids + 1) ||
        !RB_RESERVE(sc, cnt, (size_t)ids + 1) || (nrefs > 1 && !RB_RESERVE(sc, touched, (size_t)ids + 1)))
        return RB_ENOMEM;
    if (built < N) rb_no_ext(sc->ext, sc->ofirst[built], ids);
    memset(sc->refmax, 0, ((size_t)ids + 1) * sizeof(uint32_t));
    memset(sc->cnt, 0, ((size_t)ids + 1) * sizeof(uint32_t));
    uint32_t *const cnt = sc->cnt, *const refmax = sc->refmax, *const touched = sc->touched;

    /* references: closest length, clipping counts */
    int64_t best_len = -1, best_diff = -1;
    for (size_t k = 0; k < nrefs; k++) {
        r = rb_text_tokens(sc, &refs[k], ref_base);
        if (r < 0) return r == -1 ? RB_ENOMEM : RB_ETOOLONG;
        const size_t rl = (size_t)r;
        rb_closest(&best_len, &best_diff, hl, rl);
        if (hl == 0 || rl == 0) continue;
        /* the hypothesis's id buffer is free again (the clipping needs only hcnt) */
        if (!RB_RESERVE(sc, hyp, rl)) return RB_ENOMEM;
        uint32_t *const rtok = sc->hyp, *const lvl = sc->blk_lvl, *const pos = sc->blk_pos;
        const uint32_t *const hcnt = sc->hcnt;
        const rb_ext *const ext = sc->ext;
        rb_text_ids(sc, &refs[k], rl, 0, rtok);
        /* the last reference's counts are left in cnt: the clipping takes them from there;
         * the others' go into refmax, from the list of the ids they touched */
        const int flush = k + 1 < nrefs;
        size_t nt = 0;
        /* Positions are taken RB_REF_BLOCK at a time: in pos[0..w) those whose n-gram of the
         * current order the hypothesis has, that n-gram's id in lvl[j].  An n-gram the
         * hypothesis lacks starts no longer one it has, so each order looks up only the
         * previous order's survivors, and only n-grams the hypothesis has are counted. */
        for (size_t b0 = 0; b0 < rl; b0 += RB_REF_BLOCK) {
            const size_t b1 = rl - b0 < RB_REF_BLOCK ? rl : b0 + RB_REF_BLOCK;
            size_t w = 0;
            for (size_t i = b0; i < b1; i++) {
                lvl[w] = rtok[i];
                pos[w] = (uint32_t)i;
                w += rtok[i] != RB_ABSENT;
            }
            for (size_t n = 1; w > 0;) {
                if (flush) {
                    for (size_t j = 0; j < w; j++) {
                        touched[nt] = lvl[j];
                        nt += cnt[lvl[j]]++ == 0;
                    }
                } else {
                    for (size_t j = 0; j < w; j++) cnt[lvl[j]]++;
                }
                if (++n > (size_t)N) break;
                while (w > 0 && pos[w - 1] + n > rl) w--; /* no n-gram of order n starts there */
                size_t kept = 0;
                for (size_t j = 0; j < w; j++) {
                    /* the hypothesis's rule: a unique prefix has its extension in ext */
                    const uint32_t prefix = lvl[j], i = pos[j], last = rtok[i + n - 1];
                    const uint32_t id = hcnt[prefix] == 1
                                            ? rb_select(ext[prefix].last == last, ext[prefix].id, RB_ABSENT)
                                            : rb_pair_find(sc->ptab, pcap, sc->ptab_shift, prefix, last, sc->mask,
                                                           0, &sc->next_id);
                    lvl[kept] = id;
                    pos[kept] = i;
                    kept += id != RB_ABSENT;
                }
                w = kept;
            }
        }
        for (size_t t = 0; t < nt; t++) {
            const uint32_t id = touched[t], c = cnt[id];
            if (c > refmax[id]) refmax[id] = c;
            cnt[id] = 0;
        }
    }

    /* clipped matches: each distinct hypothesis n-gram counts min(its occurrences, the most
     * any reference has) */
    row[0] = (int64_t)hl;
    row[1] = best_len;
    for (int o = 1; o <= N; o++) {
        int64_t m = 0;
        for (uint32_t id = sc->ofirst[o]; id < sc->ofirst[o + 1]; id++) {
            uint32_t h = sc->hcnt[id], b = refmax[id] > cnt[id] ? refmax[id] : cnt[id];
            m += h < b ? h : b;
        }
        row[1 + o] = m;
        row[1 + N + o] = (int64_t)rb_ngrams(hl, o);
    }
    return RB_OK;
}

/* Rows start..end-1 of a batch, stored segment by segment: the hypothesis of segment i is
 * texts[off[i]] and its references texts[off[i] + 1 .. off[i + 1]).  out is row-major
 * (rows, 2 + 2N), row i at out + i * (2 + 2N).  Returns RB_OK or the first error. */
static int rb_rows_grouped(rb_scratch *sc, const rb_text *texts, const int64_t *off, size_t start,
                           size_t end, int64_t *out) {
    const size_t cols = 2 + 2 * (size_t)sc->order;
    if (start < end && !rb_vmap_setup(sc, texts, (size_t)off[start], (size_t)off[end])) return RB_ENOMEM;
    for (size_t i = start; i < end; i++) {
        int rc = rb_segment(sc, &texts[off[i]], &texts[off[i] + 1],
                            (size_t)(off[i + 1] - off[i] - 1), out + i * cols);
        if (rc != RB_OK) return rc;
    }
    return RB_OK;
}

/* Debugging aid for the tests: the tokens of one str text, joined by single
 * spaces, into `out` (capacity >= 2 * len + 1 code points).  Returns the length written. */
static ptrdiff_t rb_debug_tokenize(rb_scratch *sc, const rb_text *t, uint32_t *out) {
    ptrdiff_t r = rb_str_spans(sc, t, 0);
    if (r < 0) return r;
    size_t w = 0;
    if (rb_cp_tokens(sc, t)) {
        for (ptrdiff_t k = 0; k < r; k++) {
            if (k) out[w++] = ' ';
            out[w++] = sc->cps[k];
        }
        return (ptrdiff_t)w;
    }
    for (ptrdiff_t k = 0; k < r; k++) {
        if (k) out[w++] = ' ';
        memcpy(out + w, sc->cps + sc->ts[k], sc->tl[k] * sizeof(uint32_t));
        w += sc->tl[k];
    }
    return (ptrdiff_t)w;
}

#endif
