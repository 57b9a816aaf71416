"""TER's kernels: tercom's shifts and the beamed edit distance, scores and pairwise matrices,
the pure-Python twin (``ter_py``) and the compiled one (``ter_cy`` on ``ter.h``, ``ter_bits.h``
and the tokenizer ``ter_tok.h``).  Imports nothing."""
