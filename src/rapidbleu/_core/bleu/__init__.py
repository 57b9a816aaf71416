"""BLEU's kernels: per-segment statistics of strings, token sequences and id streams
(``bleu_stats``), self-BLEU and pairwise statistics of one set (``bleu_sets``), sacreBLEU's and
NLTK's formulas from statistics (``bleu_scores``), each a pure-Python twin and a compiled one, the
row layout (``bleu_row``) and the n-gram counting C (``bleu_ngram*.h``).  Imports nothing."""
