"""``BaseTokenizer`` under sacreBLEU's module name (``sacrebleu.tokenizers.tokenizer_base``).

Code written against sacreBLEU (``from sacrebleu.tokenizers.tokenizer_base import
BaseTokenizer``) works with ``rapidbleu`` in its place; the class itself lives in ``base``.
"""

from .base import BaseTokenizer

__all__ = ["BaseTokenizer"]
