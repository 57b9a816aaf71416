# The text type every kernel reads (_text.h) and the function that points one at a str
# (_pytext.h), declared once for the compiled modules that read strings (cimported by _stats_cy
# and _chrf_cy).
from cpython.object cimport PyObject

cdef extern from "_text.h" nogil:
    ctypedef struct rb_text:
        const void *data
        size_t len
        int kind

cdef extern from "_pytext.h":
    int rb_set_text(rb_text *t, PyObject *s)
