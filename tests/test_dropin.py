"""Drop-in details found by a new-user review, each checked against sacreBLEU / NLTK themselves:
``BLEU.compute_bleu``, ``BLEU.TOKENIZERS``, sacreBLEU's command-line options we do not
implement, sacreBLEU's exception types, NLTK's ``Fraction`` display, the names NLTK's
``bleu_score`` module exposes (``ngrams``, ``Counter``, ...), clean command-line errors for a
failed model download and a bad ``RAPIDBLEU_BACKEND``."""

import argparse
import collections
import inspect
import os
import random
import subprocess
import sys
import urllib.error
import urllib.request

import numpy as np
import pytest
import sacrebleu
from nltk.translate import bleu_score as nltk_bleu
from nltk.util import ngrams as nltk_ngrams
from sacrebleu.metrics import BLEU as SacreBLEU

import rapidbleu
from rapidbleu import cli
from rapidbleu import nltk as rnltk
from rapidbleu._stats import SMOOTH_DEFAULTS
from conftest import SAMPLE_DIR, systems


# -- 4. sacreBLEU's exception types ----------------------------------------------------------
@pytest.mark.parametrize("call", [
    lambda m: m.corpus_bleu([None], [["a"]]),
    lambda m: m.sentence_bleu(None, ["a"]),
    lambda m: m.BLEU().sentence_score(None, ["a"]),
], ids=["corpus_bleu", "sentence_bleu", "sentence_score"])
def test_none_hypothesis_is_a_type_error_too(call):
    with pytest.raises(TypeError):
        call(sacrebleu)
    for exc in (TypeError, ValueError):
        with pytest.raises(exc, match="is None"):
            call(rapidbleu)


def test_unknown_smooth_method_is_an_assertion_error_too():
    with pytest.raises(AssertionError):
        sacrebleu.BLEU(smooth_method="bogus")
    for exc in (AssertionError, ValueError):
        with pytest.raises(exc, match="unknown smooth_method 'bogus'"):
            rapidbleu.BLEU(smooth_method="bogus")


def test_unknown_tokenizer_is_a_key_error_too():
    with pytest.raises(KeyError):
        sacrebleu.BLEU(tokenize="bogus")
    for exc in (KeyError, ValueError):
        with pytest.raises(exc) as info:
            rapidbleu.BLEU(tokenize="bogus")
    assert str(info.value).startswith("unknown tokenizer 'bogus'")  # not quoted like a KeyError
