"""sacreBLEU's ``sacrebleu.compat`` functions (BLEU, chrF and TER): ``corpus_bleu``,
``raw_corpus_bleu``, ``sentence_bleu``, ``corpus_chrf``, ``sentence_chrf``, ``corpus_ter`` and
``sentence_ter``, the same objects as ``rapidbleu.corpus_bleu`` etc."""

from .bleu import corpus_bleu, raw_corpus_bleu, sentence_bleu
from .chrf import corpus_chrf, sentence_chrf
from .ter import corpus_ter, sentence_ter

__all__ = [
    "corpus_bleu",
    "corpus_chrf",
    "corpus_ter",
    "raw_corpus_bleu",
    "sentence_bleu",
    "sentence_chrf",
    "sentence_ter",
]
