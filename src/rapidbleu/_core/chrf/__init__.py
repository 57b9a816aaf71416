"""chrF's and chrF++'s kernels: statistics, scores and pairwise matrices, the pure-Python
twin (``chrf_py``) and the compiled one (``chrf_cy`` on ``chrf.h``, a row's score in
``chrf_score.h``).  Imports nothing."""
