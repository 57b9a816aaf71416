"""Run sacreBLEU's and NLTK's own BLEU (and sacreBLEU's chrF and TER) tests against rapidbleu: module
renames, nothing else.

``tools/upstream_tests.py`` copies this file next to the upstream test files it extracts from
the sdists.  Before any test module is imported, sacreBLEU's and NLTK's BLEU module paths are
pointed at rapidbleu's modules of the same name, so ``import sacrebleu``,
``from sacrebleu.metrics import BLEU`` and ``from nltk.translate.bleu_score import ...`` get
rapidbleu.  No stand-ins: a name rapidbleu lacks fails the test that uses it.
"""

import importlib
import sys

#: upstream module -> rapidbleu module
RENAMES = {
    "sacrebleu": "rapidbleu",
    "sacrebleu.compat": "rapidbleu.compat",
    "sacrebleu.utils": "rapidbleu.utils",
    "sacrebleu.significance": "rapidbleu.significance",
    "sacrebleu.metrics": "rapidbleu.metrics",
    "sacrebleu.metrics.base": "rapidbleu.metrics.base",
    "sacrebleu.metrics.bleu": "rapidbleu.metrics.bleu",
    "sacrebleu.metrics.chrf": "rapidbleu.metrics.chrf",
    "sacrebleu.metrics.helpers": "rapidbleu.metrics.helpers",
    "sacrebleu.metrics.ter": "rapidbleu.metrics.ter",
    "sacrebleu.metrics.lib_ter": "rapidbleu.metrics.lib_ter",
    "sacrebleu.tokenizers": "rapidbleu.tokenizers",
    **{
        f"sacrebleu.tokenizers.{m}": f"rapidbleu.tokenizers.{m}"
        for m in (
            "tokenizer_base",
            "tokenizer_none",
            "tokenizer_re",
            "tokenizer_13a",
            "tokenizer_intl",
            "tokenizer_zh",
            "tokenizer_char",
            "tokenizer_ter",
        )
    },
    "nltk.translate.bleu_score": "rapidbleu.nltk",
}

for upstream, ours in RENAMES.items():
    sys.modules[upstream] = importlib.import_module(ours)

# NLTK's package itself is NLTK's; its ``translate`` package re-exports ``bleu_score``'s
# ``sentence_bleu`` as ``bleu``, which now resolves to rapidbleu's.
import nltk.translate  # noqa: E402

import rapidbleu.nltk  # noqa: E402

nltk.translate.bleu_score = rapidbleu.nltk
assert nltk.translate.bleu is rapidbleu.nltk.sentence_bleu, "nltk.translate.bleu is not rapidbleu's"
assert sys.modules["sacrebleu"].__name__ == "rapidbleu"
