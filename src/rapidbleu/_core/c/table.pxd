# The exact n-gram hash tables of table.h, declared once for every compiled module
# (header-like, as preshed declares its maps).  See table.h for why a hash collision can
# cost a probe but never a count.
from libc.stdint cimport uint32_t, uint64_t

cdef extern from "table.h" nogil:
    ctypedef struct rb_tok_entry:
        uint64_t key
        uint32_t id
    ctypedef struct rb_pair_entry:
        uint64_t key
        uint32_t id
    uint32_t RB_ABSENT
    size_t rb_table_size(size_t n, unsigned *shift)
    void rb_tok_clear(rb_tok_entry *tab, size_t cap)
    void rb_pair_clear(rb_pair_entry *tab, size_t cap)
    uint32_t rb_tok_find_int(rb_tok_entry *tab, size_t cap, unsigned shift, uint64_t key,
                             uint64_t mask, int insert, uint32_t *next_id)
    uint32_t rb_pair_find(rb_pair_entry *tab, size_t cap, unsigned shift, uint32_t prefix,
                          uint32_t last, uint64_t mask, int insert, uint32_t *next_id)
    int rb_reserve(void **p, size_t *cap, size_t need, size_t size)
