/* A text the kernels read in place: a str's code points (PyUnicode kind 1, 2 or 4 and its data),
 * or, for BLEU's other input forms, int64 token ids or str tokens (rb_strref, strtok.h).  One
 * type for every kernel (bleu_ngram_core.h, chrf.h); rb_set_text (pytext.h) points one at a str.
 * Plain C: no Python API, no GIL needed.
 */
#ifndef RAPIDBLEU_TEXT_H
#define RAPIDBLEU_TEXT_H

#include <stddef.h>

#define RB_KIND_INT64 8    /* a text of int64 token ids instead of a str (kinds 1, 2, 4) */
#define RB_KIND_STRREFS 10 /* a text of str tokens read in place: rb_strref[len] (strtok.h) */

typedef struct {
    const void *data; /* PyUnicode_DATA, int64 token ids or rb_strref */
    size_t len;       /* code points (str), or tokens (ids, str refs) */
    int kind;         /* 1, 2, 4 (PyUnicode kinds), RB_KIND_INT64 or RB_KIND_STRREFS */
} rb_text;

#endif
