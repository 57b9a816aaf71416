# The text type every kernel reads (text.h) and the function that points one at a str
# (pytext.h), declared once for the compiled modules that read strings (cimported by bleu_stats_cy
# and chrf_cy).
from cpython.object cimport PyObject

cdef extern from "text.h" nogil:
    ctypedef struct rb_text:
        const void *data
        size_t len
        int kind

cdef extern from "pytext.h":
    int rb_set_text(rb_text *t, PyObject *s)
