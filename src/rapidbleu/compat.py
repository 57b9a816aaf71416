"""sacreBLEU's ``sacrebleu.compat`` functions (BLEU only): ``corpus_bleu``, ``raw_corpus_bleu``
and ``sentence_bleu``, the same objects as ``rapidbleu.corpus_bleu`` etc."""

from .bleu import corpus_bleu, raw_corpus_bleu, sentence_bleu

__all__ = ["corpus_bleu", "raw_corpus_bleu", "sentence_bleu"]
