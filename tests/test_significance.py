"""Bootstrap CIs and paired significance tests equal sacreBLEU 2.x's, number for number.

Data: the WMT23 de-en systems (conftest.data_files: all from the full selection, or all from
the samples); small numbers of
resamples/trials keep this file fast.
"""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import TINY_HYPS, TINY_OTHER, TINY_REFS, data_files, read

import rapidbleu
from rapidbleu import significance as S
from rapidbleu._core import bootstrap as B

sacrebleu = pytest.importorskip("sacrebleu")
from sacrebleu.metrics import BLEU as SacreBLEU  # noqa: E402
from sacrebleu.metrics import CHRF as SacreCHRF  # noqa: E402
from sacrebleu.metrics import TER as SacreTER  # noqa: E402
from sacrebleu.significance import PairedTest as SacrePairedTest  # noqa: E402
from sacrebleu.significance import _bootstrap_resample  # noqa: E402

# Every test here runs once per backend (conftest.backend).
pytestmark = pytest.mark.usefixtures("backend")

HERE = Path(__file__).resolve().parent
NAMES = ["ONLINE-W", "GTCOM_Peter", "AIRC"]


_read = read

_PATHS = data_files("generaltest2023.de-en.ref.refA.en", *(f"generaltest2023.de-en.hyp.{n}.en" for n in NAMES))
REF_PATH, HYP_PATHS = (_PATHS[0], _PATHS[1:]) if _PATHS else (None, [None])
needs_data = pytest.mark.skipif(_PATHS is None, reason="WMT23 de-en files not found")


@pytest.fixture(scope="module")
def data():
    ref = _read(REF_PATH)
    hyps = [_read(p) for p in HYP_PATHS]
    return ref, hyps


@pytest.fixture
def seed(monkeypatch, request):
    monkeypatch.setenv("SACREBLEU_SEED", request.param)
    return request.param


def _sig(sig):
    return str(sig).replace(f"version:rapidbleu-{rapidbleu.__version__}", f"version:{sacrebleu.__version__}")


# ------------------------------------------------------------------------------------------
def _random_rows(rng, m, n):
    hyp = rng.integers(0, 60, m)
    ref = rng.integers(0, 60, m)
    tot = np.stack([np.maximum(0, hyp - i) for i in range(n)], 1)
    cor = (tot * rng.random((m, n)) * (rng.random((m, n)) > 0.3)).astype(np.int64)
    return np.hstack([hyp[:, None], ref[:, None], cor, tot]).astype(np.int64)


@pytest.mark.parametrize(
    ("method", "value"),
    [("exp", None), ("floor", None), ("floor", 0.3), ("add-k", None), ("add-k", 0.5), ("none", None)],
)
@pytest.mark.parametrize("eff", [False, True])
@pytest.mark.parametrize("dtype", [np.float32, np.int64])
def test_vectorised_bleu_equals_sacrebleu(method, value, eff, dtype):
    """float32 rows (bootstrap resamples) and int64 rows (AR trials) give sacreBLEU's floats."""
    rng = np.random.default_rng(7)
    rows = _random_rows(rng, 600, 4)
    ours = rapidbleu.BLEU(smooth_method=method, smooth_value=value, effective_order=eff)
    theirs = SacreBLEU(smooth_method=method, smooth_value=value, effective_order=eff)
    got = S.bleu_scores(rows, ours, dtype)
    want = np.array([theirs._compute_score_from_stats(r.astype(dtype)).score for r in rows])
    assert got.tolist() == want.tolist()


def test_float32_rounding_of_large_sums_is_reproduced():
    """Resample sums above 2**24 are rounded by sacreBLEU's float32 sum; so are ours."""
    rng = np.random.default_rng(3)
    m = 41
    hyp = rng.integers(1, 2_000_001, m)
    ref = rng.integers(1, 2_000_001, m)
    tot = np.stack([np.maximum(0, hyp - i) for i in range(4)], 1)
    cor = (tot * rng.random((m, 4))).astype(np.int64)
    rows = np.hstack([hyp[:, None], ref[:, None], cor, tot])
    _, theirs = _bootstrap_resample(rows.tolist(), SacreBLEU(), 120)
    (sums,) = B.bootstrap_sums(np.random.default_rng(12345), [rows], 120)
    assert S.bleu_scores(sums, rapidbleu.BLEU(), np.float32).tolist() == [x.score for x in theirs]


# ------------------------------------------------------------------------------------------
@needs_data
@pytest.mark.parametrize("seed", ["12345", "42", "0"], indirect=True)
def test_bootstrap_ci_equals_sacrebleu(data, seed):
    ref, hyps = data
    theirs = SacreBLEU()
    a = theirs.corpus_score(hyps[1], [ref], n_bootstrap=200)
    ours = rapidbleu.BLEU()
    b = ours.corpus_score(hyps[1], [ref], n_bootstrap=200)
    assert (b.score, b._mean, b._ci) == (a.score, a._mean, a._ci)
    assert ours.seed == theirs.seed == seed
    assert _sig(ours.get_signature()) == str(theirs.get_signature())
    assert b.format(2, signature="x") == a.format(2, signature="x")


@needs_data
@pytest.mark.parametrize("seed", ["none", "None"], indirect=True)
def test_seed_none_uses_os_entropy(data, seed):
    ref, hyps = data
    ours = rapidbleu.BLEU()
    s = ours.corpus_statistics(hyps[0], [ref])
    runs = {S.bootstrap_ci(s, ours, 100) for _ in range(3)}
    assert {r[0] for r in runs} == {"none"}
    assert len(runs) > 1  # different draws each time
    for _, mean, ci in runs:
        assert 40 < mean < 60
        assert 0 < ci < 5


#: metric kind -> (rapidbleu class, sacreBLEU class, options, score name)
METRIC_KINDS = {
    "BLEU": (rapidbleu.BLEU, SacreBLEU, {}, "BLEU"),
    "chrF": (rapidbleu.CHRF, SacreCHRF, {}, "chrF2"),
    "chrF++": (rapidbleu.CHRF, SacreCHRF, {"word_order": 2}, "chrF2++"),
    "TER": (rapidbleu.TER, SacreTER, {}, "TER"),
}
#: sacreBLEU's results, computed once for both backends (its time dominates these tests)
_THEIRS: dict = {}


def _as_floats(result):
    """A paired-test ``Result`` as plain floats (sacreBLEU's chrF means and CIs are numpy
    float32 values, ours are Python floats of the same values)."""
    return {k: None if v is None else float(v) for k, v in result.__dict__.items()}


def _compare_paired(data, test_type, n, n_conf=-1, kind="BLEU"):
    ref, hyps = data
    ours_cls, theirs_cls, opts, name = METRIC_KINDS[kind]
    named = list(zip(NAMES, hyps, strict=False))
    key = (kind, test_type, n, n_conf, os.environ.get("SACREBLEU_SEED"), len(ref))
    if key not in _THEIRS:
        _THEIRS[key] = SacrePairedTest(
            named, {kind: theirs_cls(references=[ref], **opts)}, None, test_type, n, n_conf
        )()
    tsig, tres = _THEIRS[key]
    osig, ores = S.PairedTest(named, {kind: ours_cls(references=[ref], **opts)}, None, test_type, n, n_conf)()
    assert ores["System"] == tres["System"]
    assert [_as_floats(r) for r in ores[name]] == [_as_floats(r) for r in tres[name]]
    assert _sig(osig[name]) == str(tsig[name])
    return ores[name], tres[name]


#: chrF's tests take the first segments of the systems (sacreBLEU's chrF is slow in Python)
CHRF_SEGMENTS = 250


@pytest.fixture(scope="module")
def chrf_data(data):
    ref, hyps = data
    return ref[:CHRF_SEGMENTS], [h[:CHRF_SEGMENTS] for h in hyps]


@needs_data
@pytest.mark.parametrize(("kind", "seed"), [("chrF", "12345"), ("chrF++", "7")], indirect=["seed"])
def test_chrf_bootstrap_ci_equals_sacrebleu(chrf_data, seed, kind):
    """chrF's resampled scores are float32 in sacreBLEU, and so are its mean and half-width."""
    ref, hyps = chrf_data
    ours_cls, theirs_cls, opts, _ = METRIC_KINDS[kind]
    key = ("ci", kind, seed, len(ref))
    if key not in _THEIRS:
        _THEIRS[key] = theirs_cls(**opts).corpus_score(hyps[2], [ref], n_bootstrap=250)
    a, b = ours_cls(**opts).corpus_score(hyps[2], [ref], n_bootstrap=250), _THEIRS[key]
    assert type(b._mean) is np.float32  # what the hook reproduces
    assert (a.score, a._mean, a._ci) == (b.score, float(b._mean), float(b._ci))
    assert a.format(4, signature="x") == b.format(4, signature="x")


@needs_data
@pytest.mark.parametrize(
    ("kind", "test_type", "n", "n_conf"),
    [("chrF", "bs", 150, -1), ("chrF++", "ar", 400, 120), ("chrF++", "bs", 90, -1)],
)
@pytest.mark.parametrize("seed", ["12345"], indirect=True)
def test_chrf_paired_tests_equal_sacrebleu(chrf_data, seed, kind, test_type, n, n_conf):
    """Means, half-widths and p-values in float32 where sacreBLEU's are (the paired bootstrap's
    score differences too: its p-value compares float32 differences with the observed one)."""
    ours, theirs = _compare_paired(chrf_data, test_type, n, n_conf, kind)
    assert all(r.mean is not None for r in ours)
    assert type(theirs[1].mean) is np.float32


#: TER's tests take the first segments of at most 30 words (sacreBLEU's TER and rapidbleu's
#: pure-Python twin are slow; sacreBLEU's edit counts are memoized by tests/ter_reference.py,
#: the rest of its code runs as it is)
TER_SEGMENTS = 30


@needs_data
@pytest.mark.parametrize(
    ("opts", "refs", "test_type", "n", "n_conf"),
    [
        ({}, 1, "bs", 200, -1),
        ({"normalized": True, "case_sensitive": True}, 2, "ar", 300, 150),
        ({"no_punct": True}, 3, "bs", 120, -1),
    ],
)
@pytest.mark.parametrize("seed", ["12345"], indirect=True)
def test_ter_paired_tests_equal_sacrebleu(data, seed, opts, refs, test_type, n, n_conf):
    """TER (lower is better; float statistics) in sacreBLEU's PairedTest: scores, bootstrap
    means and half-widths (float32 in sacreBLEU), p-values and signatures, with one reference,
    two (lengths in halves) and three (thirds: float sums in sacreBLEU's order); the tests are
    symmetric in the difference, so the direction of the metric changes nothing."""
    import ter_reference

    ref, hyps = data
    short = [i for i, seg in enumerate(zip(ref, *hyps, strict=True)) if max(len(x.split()) for x in seg) <= 30][
        :TER_SEGMENTS
    ]
    ref, hyps = [ref[i] for i in short], [[h[i] for i in short] for h in hyps]
    streams = [ref, hyps[2], [" ".join(r.split()[1:]) for r in ref]][:refs]
    named = list(zip(NAMES[:2], hyps[:2], strict=True))
    key = ("ter", test_type, n, n_conf, refs, tuple(sorted(opts.items())))
    if key not in _THEIRS:
        with ter_reference.memoized():
            _THEIRS[key] = SacrePairedTest(named, {"TER": SacreTER(**opts)}, streams, test_type, n, n_conf)()
    tsig, tres = _THEIRS[key]
    osig, ores = S.PairedTest(named, {"TER": rapidbleu.TER(**opts)}, streams, test_type, n, n_conf)()
    assert [_as_floats(r) for r in ores["TER"]] == [_as_floats(r) for r in tres["TER"]]
    assert _sig(osig["TER"]) == str(tsig["TER"])
    assert type(tres["TER"][1].mean) is np.float32


@pytest.mark.parametrize("kind", list(METRIC_KINDS))
def test_resample_scores_have_sacrebleus_score_type(kind):
    """``scores_from_stats(sums, np.float32)`` is float32 exactly where sacreBLEU's ``.score``
    of a float32 row is (chrF), float64 where it is a Python float (BLEU)."""
    ours_cls, theirs_cls, opts, _ = METRIC_KINDS[kind]
    ours, theirs = ours_cls(**opts), theirs_cls(**opts)
    hyps, refs = ["a cat sat on the mat", "the dog", "zz top"], [["a cat sat on a mat", "dogs", "top"]]
    (sums,) = B.bootstrap_sums(np.random.default_rng(1), [ours.corpus_statistics(hyps, refs)], 20)
    got = ours.scores_from_stats(sums, np.float32)
    want = [theirs._compute_score_from_stats(row).score for row in sums.astype(np.float32)]
    assert got.dtype == np.dtype(np.float32 if kind != "BLEU" else np.float64)
    assert {type(w) for w in want} == {np.float32 if kind != "BLEU" else float}
    assert got.tolist() == [float(w) for w in want]
    assert ours.scores_from_stats(sums, np.int64).dtype == np.float64


#: Tiny corpora whose resamples often hold only a segment without a match (chrF: sacreBLEU's
#: Python 0.0) or without reference words (TER: its Python 100.0 or 0.0)
_DEGENERATE = {
    "chrF": (["abc def", "xyz"], ["abe def", "xyq"], [["abc def", "qqq"]]),
    "chrF++": (["abc def", "xyz"], ["abe def", "xyq"], [["abc def", "qqq"]]),
    "TER": (["a b c", "x y"], ["a b d e", "x"], [["a b c", ""]]),
}


@pytest.mark.parametrize("kind", sorted(_DEGENERATE))
@pytest.mark.parametrize("seed", ["12345"], indirect=True)
def test_resamples_scored_as_python_floats_keep_sacrebleus_array_type(backend, kind, seed):
    """Where a resample's sacreBLEU score is a Python float among numpy float32 ones,
    ``numpy.array`` of its scores is float64, and its paired bootstrap summarizes in float64:
    ``scores_from_stats(sums, np.float32)`` has that type (it was float32 throughout) and the
    paired bootstrap's means, half-widths and p-values are sacreBLEU's."""
    ours_cls, theirs_cls, opts, name = METRIC_KINDS[kind]
    ours, theirs = ours_cls(**opts), theirs_cls(**opts)
    base, other, refs = _DEGENERATE[kind]
    (sums,) = B.bootstrap_sums(np.random.default_rng(3), [ours.corpus_statistics(base, refs)], 40)
    want = np.array([theirs._compute_score_from_stats(row).score for row in sums.astype(np.float32)])
    got = ours.scores_from_stats(sums, np.float32)
    assert want.dtype == np.float64
    assert got.dtype == want.dtype
    assert got.tolist() == want.tolist()
    named = [("base", base), ("other", other)]
    _, tres = SacrePairedTest(named, {kind: theirs_cls(**opts)}, refs, "bs", 200)()
    _, ores = S.PairedTest(named, {kind: ours_cls(**opts)}, refs, "bs", 200)()
    assert [_as_floats(r) for r in ores[name]] == [_as_floats(r) for r in tres[name]]


@needs_data
@pytest.mark.parametrize("seed", ["12345", "42"], indirect=True)
def test_paired_bootstrap_equals_sacrebleu(data, seed):
    ours, _ = _compare_paired(data, "bs", 150)
    assert ours[0].p_value is None
    assert all(r.p_value is not None for r in ours[1:])


@needs_data
@pytest.mark.parametrize("seed", ["12345", "42"], indirect=True)
def test_paired_ar_equals_sacrebleu(data, seed):
    ours, _ = _compare_paired(data, "ar", 500)
    assert all(r.mean is None for r in ours)


@needs_data
@pytest.mark.parametrize("seed", ["12345"], indirect=True)
def test_paired_ar_with_confidence_equals_sacrebleu(data, seed):
    _compare_paired(data, "ar", 300, 100)


@needs_data
@pytest.mark.parametrize("seed", ["12345"], indirect=True)
def test_chunked_draws_equal_one_draw(data, seed, monkeypatch):
    """Tiny chunks (many chunk boundaries, bool draws split at 32-bit boundaries) change nothing."""
    monkeypatch.setattr(B, "_CHUNK_ELEMS", 1000)
    monkeypatch.setattr(B, "_MIN_CHUNK_ROWS", 1)
    _compare_paired(data, "ar", 97, 45)
    _compare_paired(data, "bs", 45)


@needs_data
@pytest.mark.parametrize("seed", ["0"], indirect=True)
def test_seed_zero_quirk(data, seed):
    """sacreBLEU seeds the baseline CI with 0 but the comparisons with OS entropy (``if seed``)."""
    ref, hyps = data
    named = list(zip(NAMES, hyps, strict=False))
    _, tres = SacrePairedTest(named, {"BLEU": SacreBLEU(references=[ref])}, None, "bs", 100)()
    sigs, ores = S.PairedTest(named, {"BLEU": rapidbleu.BLEU(references=[ref])}, None, "bs", 100)()
    assert ores["BLEU"][0].__dict__ == tres["BLEU"][0].__dict__
    assert "seed:0" in str(sigs["BLEU"])


def test_api_errors():
    m = rapidbleu.BLEU()
    a = np.ones((5, 10), dtype=np.int64)
    with pytest.raises(ValueError):  # noqa: PT011 -- checks the type only
        S.paired_bs(a, [np.ones((4, 10), dtype=np.int64)], m, 10)
    with pytest.raises(ValueError):  # noqa: PT011 -- checks the type only
        S.bootstrap_ci(np.ones((0, 10)), m, 10)
    with pytest.raises(ValueError):  # noqa: PT011 -- checks the type only
        S.bootstrap_ci(a, m, 0)
    with pytest.raises(AssertionError):
        S.PairedTest([("a", ["x"]), ("b", ["y"])], {"BLEU": m}, [["x"]], "xx")


# ------------------------------------------------------------------------------------------
def _run(tool, *args):
    env = dict(os.environ, NO_COLOR="", PYTHONIOENCODING="utf-8", SACREBLEU_SEED="12345")
    env.pop("SACREBLEU_FORMAT", None)
    return subprocess.run(
        [sys.executable, "-m", tool, *map(str, args)], capture_output=True, env=env, timeout=300, check=False
    )


@needs_data
@pytest.mark.parametrize(
    "options",
    [
        ["-pbs", "-pbsn", "120", "-f", "text"],
        ["-par", "-parn", "400", "-f", "text", "-w", "3"],
        ["-pbs", "-pbsn", "120"],  # JSON
        ["-par", "-parn", "400", "-f", "latex"],
        ["-ci", "-cin", "150", "-f", "text"],  # single system
    ],
)
def test_cli_output_equals_sacrebleu(options):
    inputs = [str(p) for p in HYP_PATHS] if "-ci" not in options else [str(HYP_PATHS[1])]
    args = [str(REF_PATH), "-i", *inputs, *options]
    ours, theirs = _run("rapidbleu", *args), _run("sacrebleu", *args)
    assert theirs.returncode == 0, theirs.stderr
    assert ours.returncode == 0, ours.stderr
    text = ours.stdout.decode().replace(f"rapidbleu-{rapidbleu.__version__}", sacrebleu.__version__)
    assert text == theirs.stdout.decode()
    assert "\x1b[" not in text  # piped output: no colors, as colorama strips them
    assert b"\r" not in ours.stderr  # no progress bar when stderr is not a terminal


@needs_data
def test_cli_errors():
    r = _run("rapidbleu", str(REF_PATH), "-i", str(HYP_PATHS[0]), "-pbs")
    assert r.returncode == 1
    assert b"Paired tests require multiple input systems" in r.stderr
    r = _run("rapidbleu", str(REF_PATH), "-i", str(HYP_PATHS[0]), str(HYP_PATHS[1]), "-ci")
    assert r.returncode == 1
    assert b"Use paired tests" in r.stderr
    r = _run("rapidbleu", str(REF_PATH), "-i", str(HYP_PATHS[0]), "-pbs", "-par")
    assert r.returncode == 2  # mutually exclusive, as sacreBLEU


@pytest.mark.parametrize("value", ["abc", "-1", "1.5"])
def test_bad_seed_variable_names_it(monkeypatch, value):
    monkeypatch.setenv("SACREBLEU_SEED", value)
    with pytest.raises(ValueError, match=f"SACREBLEU_SEED='{value}': give a non-negative integer or 'none'"):
        S.seed_from_env()


# ------------------------------------------------------------------------------------------
# Seed 0 and identical systems (where rapidbleu deliberately differs from sacreBLEU)
def _stats(hyps):
    return rapidbleu.BLEU().corpus_statistics(hyps, TINY_REFS)


@pytest.mark.parametrize("test", [S.paired_bs, S.paired_ar])
def test_seed_zero_fixes_the_draws(test):
    runs = [test(_stats(TINY_HYPS), [_stats(TINY_OTHER)], rapidbleu.BLEU(), 200, seed=0) for _ in range(2)]
    assert [(r.p_value, r.mean, r.ci) for r in runs[0]] == [(r.p_value, r.mean, r.ci) for r in runs[1]]


@pytest.mark.parametrize("test_type", ["bs", "ar"])
def test_sacrebleu_seed_zero_env_is_reproducible(test_type, monkeypatch):
    monkeypatch.setenv("SACREBLEU_SEED", "0")
    systems = [("base", TINY_HYPS), ("other", TINY_OTHER)]
    runs = [S.PairedTest(systems, {"BLEU": rapidbleu.BLEU()}, TINY_REFS, test_type, n_samples=200)() for _ in range(2)]
    assert [r.p_value for r in runs[0][1]["BLEU"]] == [r.p_value for r in runs[1][1]["BLEU"]]
    assert "seed:0" in str(runs[0][0]["BLEU"])
    assert S.seed_from_env() == ("0", 0)


@pytest.mark.parametrize("test_type", ["bs", "ar"])
def test_identical_systems_are_not_significant(test_type, monkeypatch):
    monkeypatch.setenv("SACREBLEU_SEED", "12345")
    systems = [("base", TINY_HYPS), ("same", list(TINY_HYPS))]
    _, ours = S.PairedTest(systems, {"BLEU": rapidbleu.BLEU()}, TINY_REFS, test_type, n_samples=100)()
    _, theirs = SacrePairedTest(systems, {"BLEU": SacreBLEU()}, TINY_REFS, test_type, n_samples=100)()
    assert ours["BLEU"][1].p_value == 1.0
    assert theirs["BLEU"][1].p_value == 1 / 101  # sacreBLEU: "significant"


def test_other_p_values_stay_sacrebleus(monkeypatch):
    monkeypatch.setenv("SACREBLEU_SEED", "12345")
    systems = [("base", TINY_HYPS), ("other", TINY_OTHER)]
    for test_type in ("bs", "ar"):
        _, ours = S.PairedTest(systems, {"BLEU": rapidbleu.BLEU()}, TINY_REFS, test_type, n_samples=150)()
        _, theirs = SacrePairedTest(systems, {"BLEU": SacreBLEU()}, TINY_REFS, test_type, n_samples=150)()
        assert ours["BLEU"][1].p_value == theirs["BLEU"][1].p_value
