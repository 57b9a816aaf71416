"""sacreBLEU's ``sacrebleu.compat`` functions (BLEU and chrF): ``corpus_bleu``,
``raw_corpus_bleu``, ``sentence_bleu``, ``corpus_chrf`` and ``sentence_chrf``, the same objects
as ``rapidbleu.corpus_bleu`` etc."""

from .bleu import corpus_bleu, raw_corpus_bleu, sentence_bleu
from .chrf import corpus_chrf, sentence_chrf

__all__ = ["corpus_bleu", "corpus_chrf", "raw_corpus_bleu", "sentence_bleu", "sentence_chrf"]
