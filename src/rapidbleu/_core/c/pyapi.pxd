# The CPython API the compiled modules read Python lists and ints with, declared once (cimported
# by bleu_stats_cy and ids_cy).  All of it runs under the GIL, on borrowed pointers: no reference
# counting around these calls.
from libc.stdint cimport int64_t
from cpython.object cimport PyObject

cdef extern from "Python.h":
    long long _as_ll "PyLong_AsLongLongAndOverflow"(PyObject *o, int *overflow)
    bint _is_int "PyLong_CheckExact"(PyObject *o)
    bint _is_str "PyUnicode_CheckExact"(PyObject *o)
    Py_ssize_t PySequence_Fast_GET_SIZE(object o)
    object PySequence_GetItem(object o, Py_ssize_t i)
    PyObject **PySequence_Fast_ITEMS(object o)

cdef extern from "pyint.h":
    bint rb_int64_of(PyObject *o, int64_t *v) noexcept
