# The C intl tokenizer's class table (included by bleu_stats_cy.pyx): built from the installed regex
# module by ``tokenizers.tokenizer_intl``, once per process, on first use.

cdef bytes _intl_table = None  # owns the memory rb_intl_table points into (never released)


def _set_intl_table(table):
    """Hand the C intl tokenizer its class table (``tokenizer_intl.intl_class_table()``: bytes of
    length 0x110000, 0 other, 1 \\p{P}, 2 \\p{S}, 3 \\p{N}).  Set once per process; setting an
    equal table again does nothing, a different one raises ``RuntimeError`` (threads may be
    reading the first one)."""
    global _intl_table, rb_intl_table
    if type(table) is not bytes or len(<bytes> table) != RB_U_SIZE:
        raise ValueError(f"the intl table must be bytes of length {RB_U_SIZE}")
    if max(<bytes> table) > 3:
        raise ValueError("the intl table holds classes 0-3 only")
    if _intl_table is not None:
        if table != _intl_table:
            raise RuntimeError("the intl table is already set (to another table)")
        return
    _intl_table = table
    rb_intl_table = <const unsigned char *> <char *> _intl_table


cdef int _need_intl() except -1:
    """Build and set the intl table on first use (about 0.1 s: one regex sweep per class)."""
    if _intl_table is None:
        from ...tokenizers.tokenizer_intl import intl_class_table
        _set_intl_table(intl_class_table())
    return 0


def _intl_classes():
    """The C intl table: bytes of length 0x110000, 0 other, 1 \\p{P}, 2 \\p{S}, 3 \\p{N}."""
    cdef uint32_t c, size = RB_U_SIZE
    _need_intl()
    cdef bytearray out = bytearray(size)
    for c in range(size):
        out[c] = rb_u_class(c)
    return bytes(out)
