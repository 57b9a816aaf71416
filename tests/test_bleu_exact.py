"""rapidbleu's BLEU equals sacreBLEU's, float for float, on real WMT23 data and random input."""

import csv
import logging

import pytest
import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st

import rapidbleu
from conftest import OFFICIAL_TOKENIZER, SAMPLE_DIR, full_data_dir, read, systems

# Every test here runs once per backend (conftest.backend).
pytestmark = pytest.mark.usefixtures("backend")



@pytest.fixture(autouse=True)
def _quiet_loggers():
    """Silence both tools' advisory warnings here, without changing levels for other tests."""
    saved = {name: logging.getLogger(name).level for name in ("sacrebleu", "rapidbleu")}
    for name in saved:
        logging.getLogger(name).setLevel(logging.ERROR)
    yield
    for name, level in saved.items():
        logging.getLogger(name).setLevel(level)

SIG_VERSION = f"version:rapidbleu-{rapidbleu.__version__}"


def assert_same(ours, theirs):
    """Every field of the result, and the printed text, equal."""
    assert ours.score == theirs.score
    assert list(ours.counts) == list(theirs.counts)
    assert list(ours.totals) == list(theirs.totals)
    assert ours.precisions == theirs.precisions
    assert ours.bp == theirs.bp
    assert (ours.sys_len, ours.ref_len) == (theirs.sys_len, theirs.ref_len)
    assert ours.ratio == theirs.ratio
    assert str(ours) == str(theirs)
    for width in (1, 2, 4):
        assert ours.format(width=width) == theirs.format(width=width)


def sig(metric):
    return metric.get_signature().format().replace(SIG_VERSION, f"version:{sacrebleu.__version__}")


# -- the official WMT23 table ----------------------------------------------------------------
def test_official_13a_rows_reproduced():
    data = full_data_dir()
    rows = list(csv.DictReader(open(data / "scores.tsv", encoding="utf-8"), delimiter="\t"))
    checked = 0
    for row in rows:
        pair, system = row["pair"], row["system"]
        if pair in OFFICIAL_TOKENIZER:
            continue  # zh / char tokenizers: covered with the tokenizer tests
        lang = pair.split("-")[1]
        hyps = read(data / "system-outputs" / f"generaltest2023.{pair}.hyp.{system}.{lang}")
        refs = read(data / "references" / f"generaltest2023.{pair}.ref.refA.{lang}")
        score = rapidbleu.BLEU().corpus_score(hyps, [refs]).score
        assert score == float(row["score"]), (pair, system, row["metric"])
        checked += 1
    assert checked == 30  # 15 systems x (bleu-refA, bleu-all)


@pytest.mark.parametrize("where", ["sample", "full"])
def test_every_13a_system_equals_sacrebleu(where):
    data = SAMPLE_DIR if where == "sample" else full_data_dir()
    n = 0
    for pair, system, hyp_path, ref_paths in systems(data):
        if pair in OFFICIAL_TOKENIZER:
            continue
        hyps = read(hyp_path)
        refs = [read(p) for p in ref_paths]
        for ref_set in ([refs[0]], refs) if len(refs) > 1 else ([refs[0]],):
            ours, theirs = rapidbleu.BLEU(), sacrebleu.BLEU()
            assert_same(ours.corpus_score(hyps, ref_set), theirs.corpus_score(hyps, ref_set))
            assert sig(ours) == theirs.get_signature().format()
            n += 1
    assert n == 18  # 15 systems, and the 3 he-en ones again with both references


@pytest.mark.parametrize("kwargs", [
    dict(lowercase=True),
    dict(tokenize="none"),
    dict(smooth_method="floor"),
    dict(smooth_method="floor", smooth_value=0.3),
    dict(smooth_method="add-k"),
    dict(smooth_method="add-k", smooth_value=2.5),
    dict(smooth_method="none"),
    dict(effective_order=True),
    dict(max_ngram_order=2),
    dict(max_ngram_order=6, smooth_method="none"),
])
def test_options_on_sample_equal_sacrebleu(kwargs):
    for pair, system, hyp_path, ref_paths in systems(SAMPLE_DIR):
        if pair not in ("de-en", "he-en", "cs-uk"):
            continue
        hyps, refs = read(hyp_path), [read(p) for p in ref_paths]
        ours, theirs = rapidbleu.BLEU(**kwargs), sacrebleu.BLEU(**kwargs)
        assert_same(ours.corpus_score(hyps, refs), theirs.corpus_score(hyps, refs))
        assert sig(ours) == theirs.get_signature().format()
        assert ours.get_signature().format(short=True).replace(
            f"v:rapidbleu-{rapidbleu.__version__}", f"v:{sacrebleu.__version__}"
        ) == theirs.get_signature().format(short=True)


def test_sentence_scores_of_sample_equal_sacrebleu():
    pair_files = [s for s in systems(SAMPLE_DIR) if s[0] == "he-en"][0]
    hyps, refs = read(pair_files[2]), [read(p) for p in pair_files[3]]
    ours = rapidbleu.BLEU(effective_order=True)
    theirs = sacrebleu.BLEU(effective_order=True)
    batch = ours.sentence_scores(hyps, refs)
    for i, hyp in enumerate(hyps):
        seg_refs = [r[i] for r in refs]
        expected = theirs.sentence_score(hyp, seg_refs)
        assert_same(ours.sentence_score(hyp, seg_refs), expected)
        assert batch[i] == expected.score


# -- worked examples from the literature -----------------------------------------------------
def test_papineni_style_examples():
    s = rapidbleu.corpus_bleu(["the cat is on mat"], [["the cat is on the mat"]])
    assert f"{s.score:.3f}" == "57.893"
    assert s.score == sacrebleu.corpus_bleu(["the cat is on mat"], [["the cat is on the mat"]]).score
    two = rapidbleu.corpus_bleu(["The cat sat on mat"], [["The cat sat on the mat"], ["The cat was sitting on the mat"]])
    assert two.score == sacrebleu.corpus_bleu(["The cat sat on mat"], [["The cat sat on the mat"], ["The cat was sitting on the mat"]]).score
    assert f"{two.score:.3f}" == "57.893"
    clipped = rapidbleu.corpus_bleu(["the the the the the the the"],
                                    [["The cat is on the mat."], ["There is a cat on the mat."]], lowercase=True)
    assert clipped.counts[0] == 2 and clipped.totals[0] == 7  # unigram precision 2/7
    assert clipped.precisions[0] == 100.0 * 2 / 7


def test_perfect_match_is_sacrebleus_float():
    s = rapidbleu.corpus_bleu(["a b c d e"], [["a b c d e"]])
    assert s.score == 100.00000000000004
    assert s.score == sacrebleu.corpus_bleu(["a b c d e"], [["a b c d e"]]).score


def test_function_defaults_match_sacrebleu():
    hyp, refs = "the cat sat", ["the cat sat on the mat"]
    assert_same(rapidbleu.sentence_bleu(hyp, refs), sacrebleu.sentence_bleu(hyp, refs))
    assert_same(rapidbleu.raw_corpus_bleu([hyp], [refs[:1]]), sacrebleu.raw_corpus_bleu([hyp], [refs[:1]]))
    assert_same(rapidbleu.corpus_bleu([hyp], [refs[:1]]), sacrebleu.corpus_bleu([hyp], [refs[:1]]))


def test_variable_number_of_references_signature():
    hyps = ["a b c", "d e f"]
    refs = [["a b c", "d e"], ["a b", None]]
    ours, theirs = rapidbleu.BLEU(), sacrebleu.BLEU()
    assert_same(ours.corpus_score(hyps, refs), theirs.corpus_score(hyps, refs))
    assert "nrefs:var" in ours.get_signature().format()
    assert sig(ours) == theirs.get_signature().format()


def test_cached_references_equal_explicit():
    hyps = ["a b c", "d e f"]
    refs = [["a b c", "d e"]]
    cached = rapidbleu.BLEU(references=refs)
    assert_same(cached.corpus_score(hyps, None), sacrebleu.BLEU(references=refs).corpus_score(hyps, None))


# -- random input, property-based ------------------------------------------------------------
WORDS = ["a", "b", "the", "cat", "A", "The", ".", ",", "3", "3.5", "x-y", "&amp;", "é", "İ", "猫", "a.", "(b)"]
sentence = st.lists(st.sampled_from(WORDS), min_size=0, max_size=12).map(" ".join)
smoothing = st.sampled_from([("exp", None), ("floor", None), ("floor", 0.5), ("add-k", None),
                             ("add-k", 3), ("none", None)])


@settings(max_examples=150, deadline=None)
@given(
    data=st.integers(min_value=1, max_value=4).flatmap(
        lambda k: st.lists(st.tuples(sentence, st.lists(st.one_of(sentence, st.none()), min_size=k, max_size=k)),
                           min_size=1, max_size=5)),
    smooth=smoothing,
    effective_order=st.booleans(),
    lowercase=st.booleans(),
    order=st.integers(min_value=1, max_value=5),
    tokenize=st.sampled_from(["13a", "none"]),
)
def test_random_corpora_equal_sacrebleu(data, smooth, effective_order, lowercase, order, tokenize):
    hyps = [h for h, _ in data]
    k = len(data[0][1])
    streams = [[refs[j] for _, refs in data] for j in range(k)]
    # a segment whose references are all None is rejected by rapidbleu (sacreBLEU mis-scores it)
    for i in range(len(hyps)):
        if all(s[i] is None for s in streams):
            streams[0][i] = ""
    kw = dict(smooth_method=smooth[0], smooth_value=smooth[1], effective_order=effective_order,
              lowercase=lowercase, max_ngram_order=order, tokenize=tokenize)
    ours, theirs = rapidbleu.BLEU(**kw), sacrebleu.BLEU(**kw)
    assert_same(ours.corpus_score(hyps, streams), theirs.corpus_score(hyps, streams))
    assert sig(ours) == theirs.get_signature().format()
    for i, hyp in enumerate(hyps):
        seg = [s[i] for s in streams]
        assert_same(ours.sentence_score(hyp, seg), theirs.sentence_score(hyp, seg))
