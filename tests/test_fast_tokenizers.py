"""The compiled ``char``, ``zh``, ``intl`` and tercom (TER's) tokenizers against the Python ones, token for token.

* their character tables: zh's ranges and intl's \\p{P}/\\p{S}/\\p{N} classes (built at run time
  from the installed ``regex``) over every code point, and the generated header ``uni.h`` up
  to date with its generator;
* every distinct WMT23 line (the repository sample and, when present, the full selection in
  ``$RAPIDBLEU_WMT23_DIR`` or ``../shared/data/wmt23`` beside the repository) through the C
  hook ``_tokenize`` and the Python tokenizer;
* property tests on random Unicode (astral, combining marks, whitespace, the zh range edges,
  punctuation/symbol/number runs);
* the statistics matrix of ``bleu_stats_cy.string_stats`` equal to ``bleu_stats_py.string_stats`` for
  each tokenizer (the Python tokenizers are sacreBLEU's, see ``test_tokenizers.py``).
"""

import importlib.util
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from conftest import SAMPLE_DIR, text_files, wmt23_dir
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rapidbleu._core.bleu import bleu_stats_py as py
from rapidbleu.tokenizers import get_tokenizer
from rapidbleu.tokenizers.tokenizer_char import tokenize_char
from rapidbleu.tokenizers.tokenizer_intl import tokenize_intl
from rapidbleu.tokenizers.tokenizer_zh import is_chinese_char, tokenize_zh

try:
    from rapidbleu._core.bleu import bleu_stats_cy as cy
except ImportError as exc:  # pure-Python install
    pytest.skip(f"rapidbleu._core.bleu.bleu_stats_cy is not built ({exc})", allow_module_level=True)

regex = pytest.importorskip("regex")

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
FAST = ["char", "zh", "intl"]

#: What the core must produce: the Python tokenizer on the right-stripped line, split.
PY_TOK = {
    "char": lambda line: " ".join(tokenize_char(line.rstrip()).split()),
    "zh": lambda line: tokenize_zh(line.rstrip()),
    "intl": lambda line: tokenize_intl(line.rstrip()),
}


@pytest.mark.parametrize("name", FAST)
def test_fast_path_is_set(name):
    assert get_tokenizer(name).fast_path == name
    assert name in cy._C_TOKENIZERS


# -- tables ---------------------------------------------------------------------------------


def test_zh_table_equals_python_for_every_code_point():
    ours = set(cy._zh_chars())
    diff = [hex(c) for c in range(0x110000) if (c in ours) != is_chinese_char(chr(c))]
    assert not diff, diff[:20]


def _gen():
    spec = importlib.util.spec_from_file_location("gen_unicode_tables", ROOT / "tools" / "gen_unicode_tables.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_intl_table_equals_regex_for_every_code_point():
    """The C table against the very classes tokenizer_intl's rules use (the regex module's
    Unicode database, not unicodedata's)."""
    table = cy._intl_classes()
    pats = [(1, regex.compile(r"\p{P}")), (2, regex.compile(r"\p{S}")), (3, regex.compile(r"\p{N}"))]
    diff = []
    for c in range(0x110000):
        ch = chr(c)
        want = next((code for code, pat in pats if pat.match(ch)), 0)
        if table[c] != want:
            diff.append(hex(c))
    assert not diff, f"{len(diff)} code points differ (regex {regex.__version__}): {diff[:20]}"


def _regex_class(c):
    ch = chr(c)
    for code, pat in ((1, r"\p{P}"), (2, r"\p{S}"), (3, r"\p{N}")):
        if regex.match(pat, ch):
            return code
    return 0


def test_intl_class_table_follows_installed_regex():
    """The runtime-built table (one finditer per class) against regex.match on single code
    points: edges (plane and block boundaries, surrogates, the last code point) and random."""
    import random

    from rapidbleu.tokenizers.tokenizer_intl import _all_code_points, intl_class_table

    table = intl_class_table()
    assert len(table) == 0x110000
    assert table is intl_class_table()
    rng = random.Random(15)
    points = {
        0,
        0x7F,
        0x80,
        0xFF,
        0x100,
        0xD7FF,
        0xD800,
        0xDBFF,
        0xDC00,
        0xDFFF,
        0xE000,
        0xFFFD,
        0xFFFF,
        0x10000,
        0x1F600,
        0xE0001,
        0x10FFFF,
    }
    points |= {b + d for b in range(0, 0x110000, 0x10000) for d in (-1, 0, 1) if 0 <= b + d < 0x110000}
    points |= set(rng.sample(range(0x110000), 5000))
    diff = [hex(c) for c in sorted(points) if table[c] != _regex_class(c)]
    assert not diff, f"regex {regex.__version__}: {diff[:20]}"
    text = _all_code_points()
    assert len(text) == 0x110000
    assert all(ord(text[c]) == c for c in points)


def test_intl_all_code_points_is_every_code_point_in_order():
    """The swept string (built in Python only: one implementation, whichever backend runs) is
    every code point once, in order, lone surrogates included."""
    from rapidbleu.tokenizers import tokenizer_intl

    assert tokenizer_intl._all_code_points() == "".join(map(chr, range(0x110000)))


def test_set_intl_table_checks_its_argument():
    from rapidbleu.tokenizers.tokenizer_intl import intl_class_table

    table = intl_class_table()
    cy._set_intl_table(table)  # the same table again: nothing happens
    cy._set_intl_table(bytes(table))
    with pytest.raises(ValueError):  # noqa: PT011 -- checks the type only
        cy._set_intl_table(table[:-1])
    with pytest.raises(ValueError):  # noqa: PT011 -- checks the type only
        cy._set_intl_table(b"\x04" * 0x110000)
    with pytest.raises(RuntimeError):
        cy._set_intl_table(bytes(0x110000))
    assert cy._intl_classes() == table


def test_generated_header_is_current():
    gen = _gen()
    assert gen.HEADER.read_text(encoding="utf-8") == gen.render(), "rerun python tools/gen_unicode_tables.py"


# -- WMT23: every line ----------------------------------------------------------------------


@cache
def wmt23_lines():
    seen = {}
    for folder in dict.fromkeys((SAMPLE_DIR, wmt23_dir())):
        if not folder.is_dir():
            continue
        for path in text_files(folder):
            with open(path, encoding="utf-8", newline="") as f:
                for line in f.read().split("\n"):
                    seen[line] = None
    return list(seen)


@pytest.mark.parametrize("name", FAST)
def test_wmt23_every_line(name):
    lines = wmt23_lines()
    assert lines, "no WMT23 data (tests/data/wmt23)"
    ref = PY_TOK[name]
    bad = [line for line in lines if cy._tokenize(line, name) != ref(line)]
    assert not bad, f"{name}: {len(bad)} of {len(lines)} lines differ, first: {bad[0]!r}"
    low = [line.lower() for line in lines[:5000]]
    assert [cy._tokenize(x, name) for x in low] == [ref(x) for x in low]


# -- random Unicode -------------------------------------------------------------------------

_EDGE = [
    *list(
        "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~0123456789aZ"
        "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u200a\u200b\u2028\u2029\u202f\u205f\u3000\ufeff"
        "́̈⃝゙〪��"
        "⩭⩮⾀⾁⾡⾢\u2fdf\u2fe0\u2fef⿰〿\u3040㏿㐀䶵䶶"
        "䷿一龥龦龻龼\uf8ff豈鶴郞侮頻恵並龎\ufada"
        "\ufaff️︐\ufe1f︠︯︰﹏﹐\ueffe\uff00！０\uffef\ufff0"
        "\u2e7f⺀\u2eff⼀ヿ\u3100ㄯ\u3130㆟ㆠ㇯ㇰㇿ㈀◿☀➿⟀"
        "𠀀𪛖丽𪘀😀𝟎𐍈\U000e0001\U0010ffff"
        "²½Ⅷ٠०〇§¶—…“”«»、。，"
        "©€°ˆ←∑֊־᐀⸺゠﹘－"
    ),
    "&amp;",
    "<skipped>",
    "-\n",
    "..",
    "...",
    ",.",
    "1,000",
    "3.14",
    "2-3",
    "3--",
    ".5",
    "5.",
    "²,",
    "Ⅻ.",
    "a.b",
    "!?",
    "é",
    "中文",
    "。」",
    "$5",
    "5%",
]

unicode_text = st.lists(
    st.one_of(
        st.characters(codec=None, exclude_categories=()),  # anything, astral and Cs included
        st.characters(categories=("P", "S", "N", "M", "Z")),
        st.characters(min_codepoint=0x1FF0, max_codepoint=0x33FF),  # the zh slip's neighbourhood
        st.sampled_from(_EDGE),
    ),
    max_size=40,
).map("".join)

_SETTINGS = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("name", FAST)
@_SETTINGS
@given(text=unicode_text)
def test_random_unicode(name, text):
    assert cy._tokenize(text, name) == PY_TOK[name](text)


@pytest.mark.parametrize("name", FAST)
def test_every_code_point_in_context(name):
    """Each code point alone and between digits, letters and punctuation (one long line per
    batch, so also every neighbour pair of the batch)."""
    cps = [chr(c) for c in range(0x110000)]
    for ctx in ("1{}a", "a{}1", ".{}1", "1{}.", "-{}-"):
        for start in range(0, len(cps), 1 << 14):
            chunk = " ".join(ctx.format(c) for c in cps[start : start + (1 << 14)])
            assert cy._tokenize(chunk, name) == PY_TOK[name](chunk), (name, ctx, hex(start))
    cat = "".join(cps[0x20:0x3400])  # no separators at all: every adjacent pair of the BMP start
    assert cy._tokenize(cat, name) == PY_TOK[name](cat)


# -- the statistics matrix ------------------------------------------------------------------


def _streams(per_segment):
    k_max = max(len(r) for r in per_segment)
    return [[r[k] if k < len(r) else None for r in per_segment] for k in range(k_max)]


@pytest.mark.parametrize("name", FAST)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    batch=st.lists(st.tuples(unicode_text, st.lists(unicode_text, min_size=1, max_size=4)), min_size=1, max_size=6),
    lowercase=st.booleans(),
    order=st.integers(1, 6),
)
def test_string_stats_equal_oracle(name, batch, lowercase, order):
    hyps = [h for h, _ in batch]
    refs = _streams([r for _, r in batch])
    expected = py.string_stats(hyps, refs, order, name, lowercase)
    np.testing.assert_array_equal(cy.string_stats(hyps, refs, order, name, lowercase), expected)


@pytest.mark.parametrize("name", FAST)
def test_string_stats_wmt23_sample(name):
    """Real segments: each WMT23 sample system against its references, both backends."""
    folder = HERE / "data" / "wmt23"
    for hyp in sorted(str(p) for p in folder.glob("generaltest2023.*.hyp.*")):
        _, pair, _, _system, lang = Path(hyp).name.split(".")
        refs = [PY_LINES(p) for p in sorted(folder.glob(f"generaltest2023.{pair}.ref.*.{lang}"))]
        hyps = PY_LINES(hyp)
        for low in (False, True):
            expected = py.string_stats(hyps, refs, 4, name, low)
            np.testing.assert_array_equal(cy.string_stats(hyps, refs, 4, name, low), expected)
            np.testing.assert_array_equal(cy._string_stats_masked(hyps, refs, 4, name, low, 2, 0), expected)


def PY_LINES(path):
    with open(path, encoding="utf-8", newline="\n") as fh:
        return [line.rstrip() for line in fh]


# -- through BLEU: the compiled fast path against sacreBLEU --------------------------------


@pytest.mark.parametrize("name", FAST)
def test_bleu_fast_path_equals_sacrebleu(name, monkeypatch):
    """BLEU(tokenize=name) on the compiled backend (raw strings go to C), every WMT23 sample
    system with all its references, cased and lowercased, against sacreBLEU."""
    import logging

    sacrebleu = pytest.importorskip("sacrebleu")
    from rapidbleu import BLEU
    from rapidbleu._core import backend as _backend

    monkeypatch.setattr(_backend, "bleu_stats", cy)
    logging.getLogger("sacrebleu").setLevel(logging.ERROR)
    folder = HERE / "data" / "wmt23"
    checked = 0
    for hyp in sorted(str(p) for p in folder.glob("generaltest2023.*.hyp.*")):
        _, pair, _, _system, lang = Path(hyp).name.split(".")
        refs = [PY_LINES(p) for p in sorted(folder.glob(f"generaltest2023.{pair}.ref.*.{lang}"))]
        hyps = PY_LINES(hyp)
        for low in (False, True):
            ours = BLEU(tokenize=name, lowercase=low, force=True).corpus_score(hyps, refs)
            theirs = sacrebleu.BLEU(tokenize=name, lowercase=low, force=True).corpus_score(hyps, refs)
            assert (ours.score, ours.counts, ours.totals, ours.sys_len, ours.ref_len) == (
                theirs.score,
                theirs.counts,
                theirs.totals,
                theirs.sys_len,
                theirs.ref_len,
            ), (name, hyp, low)
            checked += 1
    assert checked


def test_intl_fast_path_with_any_regex_version(monkeypatch):
    """sacreBLEU follows the installed regex module's Unicode data; so does the C table, built
    from that module at run time: the fast path does not depend on the version string."""
    from rapidbleu.tokenizers import get_tokenizer, tokenizer_intl

    assert get_tokenizer("intl").fast_path == "intl"
    monkeypatch.setattr(tokenizer_intl._regex, "__version__", "0.0.0-other")
    assert get_tokenizer("intl").fast_path == "intl"


# -- tercom (TER's tokenizer): ter_cy's C normalizer against tokenizer_ter -------------------

from rapidbleu.tokenizers.tokenizer_ter import tercom_words  # noqa: E402 -- the section's own oracle

try:
    from rapidbleu._core.ter import ter_cy
except ImportError:  # pragma: no cover -- built together with bleu_stats_cy
    ter_cy = None

#: (normalized, no_punct, asian_support, case_sensitive): all 16.
TERCOM_OPTIONS = [tuple(bool(b >> k & 1) for k in range(4)) for b in range(16)]


def _tercom_py(text, options, reference):
    """What ``ter_stats`` tokenizes: the right-stripped segment, once (a hypothesis) or, for a
    reference, its words joined by single spaces and tokenized again (sacreBLEU's two passes)."""
    words = tercom_words(text.rstrip(), *options)
    return tercom_words(" ".join(words), *options) if reference else words


def _tercom_check(texts, options, forms=(False, True)):
    for reference in forms:
        got = ter_cy._tokenize(texts, *options, reference=reference)
        want = [_tercom_py(t, options, reference) for t in texts]
        bad = [(t, g, w) for t, g, w in zip(texts, got, want, strict=True) if g != w]
        assert not bad, (options, reference, len(bad), bad[0][0][:200])


@pytest.mark.parametrize(
    "options",
    [(False, False, False, False), (True, False, True, True), (False, True, True, True), (True, True, True, False)],
)
def test_tercom_every_code_point(options):
    """Every code point as a word of its own (a space, split off, deleted or kept, under
    options that pad, delete, both, and lowercase), and between a digit and a letter and before
    a period (``1{c}a{c}.``: a period, comma, dash or digit it is taken for shows), in batches
    under TER's word limit; as a hypothesis (the second pass of references is tested below)."""
    alone = " ".join(map(chr, range(0x110000)))
    texts = [alone[i : i + (1 << 18)] for i in range(0, len(alone), 1 << 18)]
    for start in range(0, 0x110000, 1 << 15):
        texts.append(" ".join(f"1{chr(c)}a{chr(c)}." for c in range(start, min(0x110000, start + (1 << 15)))))
    _tercom_check(texts, options, forms=(False,))


def test_tercom_code_points_in_context():
    """The context rules (possessive, period/comma beside a non-digit, dash after a digit,
    ``&...;`` entities, newlines) act on ASCII; every ASCII character and every pair of them in
    the contexts, and 20,000 random code points beyond ASCII (their only roles there: a
    non-digit, a space, a CJK or punctuation character), under all 16 option sets."""
    import random

    ascii_chars = [chr(c) for c in range(128)]
    rng = random.Random(29)
    others = [chr(c) for c in rng.sample(range(128, 0x110000), 20000)]
    contexts = ("1{}.", ".{}1", "{}'s ", "a{}-", "5{}-5", "{}\n-x", "&amp{};", "'s{}", ",{}")
    texts = [" ".join(ctx.format(c) for c in ascii_chars + others) for ctx in contexts]
    texts += ["".join(a + b for a in ascii_chars for b in ascii_chars)]
    for options in TERCOM_OPTIONS:
        _tercom_check(texts, options)


def test_tercom_wmt23_sample_lines():
    lines = []
    for path in text_files(SAMPLE_DIR):
        with open(path, encoding="utf-8", newline="") as f:
            lines += f.read().split("\n")
    lines = list(dict.fromkeys(lines))
    assert lines, "no WMT23 data (tests/data/wmt23)"
    for options in TERCOM_OPTIONS:
        _tercom_check(lines, options)


_TERCOM_EDGE = [
    *_EDGE,
    *"'s\n-&;.,?:;!\"()一龥㐀ㇰ⺀㌀豈︰㈀ア　、。〈】〔〟｡･・．，？：；！＂（）ΣσςİI",
    "&quot;",
    "&lt;",
    "&gt;",
    "\n-",
    "'s ",
    "'s",
    "'s\n",
]


@pytest.mark.skipif(ter_cy is None, reason="compiled extension not built")
@pytest.mark.parametrize("options", TERCOM_OPTIONS)
def test_tercom_texts_the_c_table_cannot_lowercase(options):
    """Texts holding U+03A3 (final sigma: its lowercase depends on its neighbours), U+0130 (two
    code points) or a code point beyond U+FFFF are lowercased by ``str.lower`` and tokenized
    again, alone, first, last and among texts the C table lowercases."""
    texts = ["\u03a3", "\u0391\u03a3 x", "x \u03a3 \u0130 y", "a\u0130", "\U0001f600 \u03a3 A", "\u041f\u0440\u0438 B"]
    _tercom_check(texts, options)
    _tercom_check(texts[::-1], options)


@_SETTINGS
@given(
    text=st.lists(st.one_of(st.sampled_from(_TERCOM_EDGE), st.characters(codec=None)), max_size=40).map("".join),
    options=st.sampled_from(TERCOM_OPTIONS),
)
def test_tercom_random_text(text, options):
    _tercom_check([text], options)
