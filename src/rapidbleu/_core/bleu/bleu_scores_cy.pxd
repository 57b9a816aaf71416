# C interface of the compiled scorers, for the other compiled modules (cimport, preshed style).
from libc.stdint cimport int64_t

cdef enum:
    # The largest maximum n-gram order, the bound of the scorers' per-row arrays: the C side of
    # validate.MAX_ORDER_LIMIT (checked equal when bleu_scores_cy is imported).
    MAX_N = 64

cdef double sacre_row(const int64_t *row, int N, int method, double sv, bint eff) noexcept nogil
cdef int method_code(smooth_method) except -1
cdef double smooth_value_of(smooth_method, smooth_value) except? -1.0
