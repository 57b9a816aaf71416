"""Reference-aggregated n-gram statistics of int64 units for MBR decoding, chrF's and BLEU's
alike: the pure-Python twin (``aggregate_py``) and the compiled one (``aggregate_cy`` on
``aggregate.h``).  Imports nothing."""
