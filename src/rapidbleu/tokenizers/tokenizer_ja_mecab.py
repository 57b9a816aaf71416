"""The ``ja-mecab`` tokenizer: Japanese word segmentation with MeCab and the IPA dictionary.

Same packages and settings as sacreBLEU's ``ja-mecab``: ``mecab-python3`` with the ``ipadic``
package's dictionary, wakati output, no user dictionary.  The signature embeds the MeCab
version, e.g. ``ja-mecab-0.996-IPA``.  Install with ``pip install rapidbleu[ja]``.
"""

from ._mecab import MecabTokenizer


class TokenizerJaMecab(MecabTokenizer):
    """MeCab + IPAdic segmentation, identical to sacreBLEU's ``ja-mecab``.

    Raises:
        ImportError: ``mecab-python3`` or ``ipadic`` is not installed.
        RuntimeError: MeCab loaded another dictionary or a user dictionary.
    """

    _SIG_PREFIX = "ja-mecab-"
    _SIG_SUFFIX = "-IPA"
    _DICT_SIZE = 392126
    _DICT_NAME = "IPA (ipadic)"

    _TAGGER_MODULE = "MeCab"
    _DICT_MODULE = "ipadic"
    _INSTALL = (
        "the 'ja-mecab' tokenizer needs MeCab and the IPA dictionary (mecab-python3, ipadic); "
        "install them with: pip install rapidbleu[ja]"
    )
