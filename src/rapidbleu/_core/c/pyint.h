/* Python ints read as int64 without a function call per id (under the GIL: Python API).
 *
 * rb_int64_of: *v = o (an exact int) and 1 if it fits int64; 0 if not (no error set).  Ints of
 * one digit (below 2**30: nearly every token id) are read in place, as Cython's own
 * conversions read them, instead of a call to PyLong_AsLongLongAndOverflow per id.
 */
#ifndef RAPIDBLEU_PYINT_H
#define RAPIDBLEU_PYINT_H

#include <Python.h>
#include <stdint.h>
#if PY_VERSION_HEX < 0x030B0000
#include "longintrepr.h" /* Python 3.10: not included by Python.h */
#endif

static inline int rb_int64_of(PyObject *o, int64_t *v) {
#if PY_VERSION_HEX >= 0x030C0000
    if (_PyLong_IsCompact((PyLongObject *)o)) {
        *v = (int64_t)_PyLong_CompactValue((PyLongObject *)o);
        return 1;
    }
#else
    const Py_ssize_t size = Py_SIZE(o);
    if (size == 0) {
        *v = 0;
        return 1;
    }
    if (size == 1 || size == -1) {
        *v = (int64_t)size * (int64_t)((PyLongObject *)o)->ob_digit[0];
        return 1;
    }
#endif
    int overflow;
    *v = (int64_t)PyLong_AsLongLongAndOverflow(o, &overflow);
    return !overflow;
}

#endif
