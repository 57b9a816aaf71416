/* Pointing an rb_text (text.h) at a str's code points, read in place (under the GIL: Python
 * API).  The caller keeps the str alive while the text is used.
 */
#ifndef RAPIDBLEU_PYTEXT_H
#define RAPIDBLEU_PYTEXT_H

#include <Python.h>

#include "text.h"

/* Point t at the code points of str s (subclasses included, their data is the str's own).
 * Returns 0, -1 if s is not a str, -2 with a Python error set. */
static inline int rb_set_text(rb_text *t, PyObject *s) {
    if (!PyUnicode_Check(s)) return -1;
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(s) < 0) return -2; /* legacy strings, before Python 3.12 */
#endif
    t->data = PyUnicode_DATA(s);
    t->len = (size_t)PyUnicode_GET_LENGTH(s);
    t->kind = (int)PyUnicode_KIND(s);
    return 0;
}

#endif
