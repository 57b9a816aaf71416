"""sacreBLEU's ``sacrebleu.metrics.bleu`` import path (the classes live in ``rapidbleu.bleu``
and ``rapidbleu.score``), with the module-level helpers that code written for sacreBLEU imports
from it: ``_get_tokenizer(name)`` (the tokenizer class; Hugging Face evaluate's ``sari`` and
``wiki_split`` metrics and MT-Telescope call it), ``_TOKENIZERS``, ``extract_all_word_ngrams``,
``my_log``, ``sum_of_lists``."""

from .._core.bleu.bleu_row import MAX_NGRAM_ORDER
from ..bleu import BLEU, BLEUSignature
from ..score import BLEUScore, Score, Signature
from ..tokenizers import tokenizer_class as _get_tokenizer
from ..tokenizers import tokenizer_paths
from ..utils import my_log, sum_of_lists
from .helpers import extract_all_word_ngrams

#: Tokenizer name -> ``"module.Class"`` under ``rapidbleu.tokenizers`` (sacreBLEU's
#: ``_TOKENIZERS`` shape; the class names are rapidbleu's).
_TOKENIZERS = tokenizer_paths()

__all__ = [
    "BLEU",
    "MAX_NGRAM_ORDER",
    "BLEUScore",
    "BLEUSignature",
    "Score",
    "Signature",
    "_get_tokenizer",
    "extract_all_word_ngrams",
    "my_log",
    "sum_of_lists",
]
