"""The comparison report (rapidbleu.compare, `rapidbleu ... --report`): its numbers are the API's
and the CLI's, the HTML page carries them, renders in a real browser, and fails clearly."""

import builtins
import html.parser
import json
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest
from conftest import SAMPLE_DIR, read

from rapidbleu import BLEU, CHRF, TER, cli
from rapidbleu.compare import REPORT_EXTRA, comparison_report, require_report_extra
from rapidbleu.significance import PairedTest, bootstrap_ci

try:
    require_report_extra()
    HAVE_EXTRA = True
except ImportError:
    HAVE_EXTRA = False
#: Tests of the HTML page: they need the extra (the numbers and the text summary do not).
needs_extra = pytest.mark.skipif(not HAVE_EXTRA, reason=f"matplotlib/jinja2 not installed ({REPORT_EXTRA})")

PAIR = "de-en"
REF = SAMPLE_DIR / f"generaltest2023.{PAIR}.ref.refA.en"
SYSTEM_NAMES = ("ONLINE-W", "AIRC", "GTCOM_Peter")
HYPS = [SAMPLE_DIR / f"generaltest2023.{PAIR}.hyp.{s}.en" for s in SYSTEM_NAMES]


@pytest.fixture(autouse=True)
def _default_seed(monkeypatch):
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)


@pytest.fixture(scope="module")
def data():
    return [read(h) for h in HYPS], [read(REF)]


@pytest.fixture(scope="module")
def report3(data):
    hyps, refs = data
    return comparison_report(hyps, refs, names=list(SYSTEM_NAMES))


class _Page(html.parser.HTMLParser):
    """The score table's rows (data-system -> {class: data-value}) and the embedded JSON."""

    def __init__(self, table="score-table"):
        super().__init__()
        self.table = table
        self.rows, self._row, self._in_table, self._in_json, self.json_text = {}, None, False, False, ""

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table" and a.get("id") == self.table:
            self._in_table = True
        elif tag == "tr" and self._in_table and "data-system" in a:
            self._row = self.rows.setdefault(a["data-system"], {})
        elif tag == "td" and self._row is not None:
            for cls in ("bleu", "score", "p-value"):
                if cls in (a.get("class") or "").split():
                    self._row[cls] = json.loads(a["data-value"])
            if a.get("class") == "ci":
                self._row["mean"] = json.loads(a["data-mean"])
                self._row["ci"] = json.loads(a["data-ci"])
        elif tag == "script" and a.get("id") == "rapidbleu-data":
            self._in_json = True

    def handle_endtag(self, tag):
        if tag == "table":
            self._in_table, self._row = False, None
        elif tag == "script":
            self._in_json = False

    def handle_data(self, text):
        if self._in_json:
            self.json_text += text


def parse_page(text, table="score-table"):
    p = _Page(table)
    p.feed(text)
    for row in p.rows.values():
        row.pop("score", None) if table == "score-table" else None
    return p.rows, json.loads(p.json_text)


# --------------------------------------------------------------------------------------------
# The numbers are the API's
# --------------------------------------------------------------------------------------------
def test_scores_and_p_values_equal_paired_test(report3, data):
    hyps, refs = data
    sigs, scores = PairedTest(
        list(zip(SYSTEM_NAMES, hyps, strict=False)), {"BLEU": BLEU()}, refs, test_type="bs", n_samples=1000
    )()
    assert [s.name for s in report3.systems] == list(SYSTEM_NAMES)
    for got, want in zip(report3.systems, scores["BLEU"], strict=False):
        assert (got.bleu, got.mean, got.ci, got.p_value) == (want.score, want.mean, want.ci, want.p_value)
    assert report3.signature == sigs["BLEU"].format()
    assert report3.systems[0].is_baseline
    assert report3.systems[0].p_value is None
    assert report3.test == "bs"
    assert report3.n_samples == 1000


def test_precisions_brevity_penalty_equal_corpus_score(report3, data):
    hyps, refs = data
    for got, h in zip(report3.systems, hyps, strict=False):
        want = BLEU().corpus_score(h, refs)
        assert got.bleu == want.score
        assert got.precisions == want.precisions
        assert got.bp == want.bp
        assert got.ratio == want.ratio
        assert (got.counts, got.totals, got.hyp_len, got.ref_len) == (
            want.counts,
            want.totals,
            want.sys_len,
            want.ref_len,
        )


def test_sentence_bleu_and_wins_ties_losses(report3, data):
    hyps, refs = data
    sent = np.array([BLEU(effective_order=True).sentence_scores(h, refs) for h in hyps])
    assert np.array_equal(report3.sentence_bleu, sent)
    assert [c.name for c in report3.sentences] == list(SYSTEM_NAMES[1:])
    for i, c in enumerate(report3.sentences, 1):
        d = sent[i] - sent[0]
        assert (c.wins, c.ties, c.losses) == ((d > 0).sum(), (d == 0).sum(), (d < 0).sum())
        assert c.wins + c.ties + c.losses == len(refs[0])
        assert c.mean_diff == pytest.approx(d.mean())
        assert c.median_diff == pytest.approx(np.median(d))


def test_buckets_are_corpus_bleu_of_their_segments(report3, data):
    """Each bucket's BLEU is corpus BLEU of its segments (scored again from the text here), not an
    average of sentence scores; every segment falls in exactly one bucket."""
    hyps, refs = data
    stats = [BLEU().corpus_statistics(h, refs) for h in hyps]
    sent0 = BLEU(effective_order=True).sentence_scores(hyps[0], refs)
    keys = {t.key: t for t in report3.buckets}
    assert set(keys) == {"hyp_len", "ref_len", "baseline_bleu"}
    for key, table in keys.items():
        assert sum(b.segments[0] for b in table.buckets) == len(refs[0])
        seen = np.zeros(len(refs[0]), dtype=int)
        for b in table.buckets:
            for i, h in enumerate(hyps):
                idx = [j for j in range(len(h)) if _in_bucket(key, b.label, stats[i][j], sent0[j], stats[0][j])]
                assert len(idx) == b.segments[i], (key, b.label)
                if i == 0 or key != "hyp_len":
                    seen[idx] += i == 0
                if idx:
                    want = BLEU().corpus_score([h[j] for j in idx], [[refs[0][j] for j in idx]]).score
                    assert b.bleu[i] == want, (key, b.label, i)
        assert (seen == 1).all()
    # a bucket's score is not the mean of its sentence scores
    b = keys["ref_len"].buckets[0]
    assert b.bleu[0] != pytest.approx(
        np.mean([s for s, st in zip(sent0, stats[0], strict=False) if _in_bucket("ref_len", b.label, st, 0, st)])
    )


def _in_bucket(key, label, row, bl_sentence, bl_row):
    if key == "baseline_bleu":
        lo, hi = (float(x) for x in label.strip("[)]").split(","))
        return lo <= bl_sentence and (bl_sentence < hi or hi == 100)  # a perfect match is 100.00000000000004
    v = int(row[0]) if key == "hyp_len" else int(bl_row[1])
    if label.endswith("+"):
        return v >= int(label[:-1])
    lo, _, hi = label.partition("-")
    return int(lo) <= v <= int(hi or lo)


def test_examples_differ_most_and_mark_matches(report3, data):
    hyps, _refs = data
    sent = report3.sentence_bleu
    for i, name in enumerate(SYSTEM_NAMES[1:], 1):
        d = sent[i] - sent[0]
        better = [e for e in report3.examples if e.system == name and e.direction == "better"]
        worse = [e for e in report3.examples if e.system == name and e.direction == "worse"]
        assert [e.diff for e in better] == sorted(d[d > 0], reverse=True)[:5]
        assert [e.diff for e in worse] == sorted(d[d < 0])[:5]
        for e in better + worse:
            assert e.diff == d[e.line - 1]
            assert " ".join(t.text for t in e.hypothesis) == BLEU().tokenizer(hyps[i][e.line - 1])
            assert " ".join(t.text for t in e.baseline) == BLEU().tokenizer(hyps[0][e.line - 1])
            assert e.source is None


def test_matched_ngrams_are_clipped_and_ordered():
    ref = [["the cat sat on the mat"]]
    report = comparison_report([["a cat sat on the mat"], ["the the the cat sat on a mat"]], ref, n_examples=1)
    (ex,) = report.examples
    assert ex.direction == "worse"
    assert [(t.text, t.order) for t in ex.hypothesis] == [
        ("the", 1),
        ("the", 1),
        ("the", 4),
        ("cat", 4),
        ("sat", 4),
        ("on", 4),
        ("a", 0),
        ("mat", 1),
    ]
    # in the reference: what the system's hypothesis matched
    assert [(t.text, t.order) for t in ex.references[0]] == [
        ("the", 4),
        ("cat", 4),
        ("sat", 4),
        ("on", 4),
        ("the", 1),
        ("mat", 1),
    ]
    assert [(t.text, t.order) for t in ex.baseline] == [
        ("a", 0),
        ("cat", 4),
        ("sat", 4),
        ("on", 4),
        ("the", 4),
        ("mat", 4),
    ]
    # clipping: the reference has one "the", so only one of the hypothesis' is a match
    report = comparison_report([["the cat"], ["the the the"]], [["the cat"]], n_examples=1)
    assert [(t.text, t.order) for t in report.examples[0].hypothesis] == [("the", 1), ("the", 0), ("the", 0)]


@needs_extra
def test_two_references():
    """he-en: two reference streams; scores as corpus_score, both references shown."""
    refs = [read(SAMPLE_DIR / f"generaltest2023.he-en.ref.ref{x}.en") for x in "AB"]
    hyps = [read(SAMPLE_DIR / f"generaltest2023.he-en.hyp.{s}.en") for s in ("ONLINE-B", "ONLINE-Y")]
    r = comparison_report(hyps, refs, n_samples=200, n_examples=2)
    assert [s.bleu for s in r.systems] == [BLEU().corpus_score(h, refs).score for h in hyps]
    assert "nrefs:2" in r.signature
    assert "bs:200" in r.signature
    assert r.examples
    assert all(len(e.references) == 2 for e in r.examples)
    assert "reference 2" in r.to_html()


@needs_extra
def test_tiny_and_degenerate_inputs():
    """One segment, empty hypotheses, identical systems: still a complete page."""
    r = comparison_report([["the cat"], [""], ["the cat"]], [["the cat"]], n_samples=50)
    assert [s.bleu for s in r.systems] == [
        BLEU().corpus_score(h, [["the cat"]]).score for h in (["the cat"], [""], ["the cat"])
    ]
    assert [(c.wins, c.ties, c.losses) for c in r.sentences] == [(0, 0, 1), (0, 1, 0)]
    assert all(len(t.buckets) == 1 for t in r.buckets)
    assert "<table" in r.to_html()
    assert "Signature" in r.to_text()


@needs_extra
def test_notebook_display_is_isolated(report3):
    shown = report3._repr_html_()
    assert shown.startswith("<iframe srcdoc=")
    assert "<style>" not in shown
    assert "&lt;style&gt;" in shown


@needs_extra
def test_one_system_has_no_baseline_sections(data):
    hyps, refs = data
    r = comparison_report([hyps[0]], refs, names=["only"])
    stats = BLEU().corpus_statistics(hyps[0], refs)
    _seed, mean, ci = bootstrap_ci(stats, BLEU(), 1000)
    (s,) = r.systems
    assert (s.bleu, s.mean, s.ci, s.p_value, s.is_baseline) == (
        BLEU().corpus_score(hyps[0], refs).score,
        mean,
        ci,
        None,
        False,
    )
    assert r.baseline is None
    assert r.sentences == []
    assert r.examples == []
    assert r.test is None
    assert {t.key for t in r.buckets} == {"hyp_len", "ref_len"}
    assert "bs:1000" in r.signature
    assert "seed:12345" in r.signature
    page = r.to_html()
    rows, blob = parse_page(page)
    assert rows == {"only": {"bleu": s.bleu, "mean": mean, "ci": ci}}
    assert 'id="sentences"' not in page
    assert 'id="segments"' not in page
    assert "p-value" not in page
    assert blob["baseline"] is None
    text = r.to_text()
    assert "p-value" not in text
    assert "Sentence BLEU" not in text


@needs_extra
def test_twenty_systems_approximate_randomization():
    """20 systems (the samples, with words dropped), the AR test, p-values as PairedTest's."""
    base = [read(h) for h in HYPS]
    refs = [read(REF)]
    systems = {}
    for k in range(20):
        src = base[k % 3]
        systems[f"sys{k:02d}"] = (
            [" ".join(w for j, w in enumerate(line.split()) if (j + k) % (k + 3)) for line in src] if k >= 3 else src
        )
    r = comparison_report(systems, refs, test="ar", n_samples=500, n_examples=1)
    _sigs, scores = PairedTest(
        list(systems.items()), {"BLEU": BLEU()}, refs, test_type="ar", n_samples=500, n_ar_confidence=1000
    )()
    assert [(s.bleu, s.p_value, s.mean, s.ci) for s in r.systems] == [
        (x.score, x.p_value, x.mean, x.ci) for x in scores["BLEU"]
    ]
    assert "ar:500" in r.signature
    assert "bs:1000" in r.signature
    rows, blob = parse_page(r.to_html())
    assert list(rows) == list(systems)
    assert [rows[n]["p-value"] for n in systems] == [x.p_value for x in scores["BLEU"]]
    assert len(blob["systems"]) == 20
    assert len(r.examples) <= 2 * 19


# --------------------------------------------------------------------------------------------
# Other metrics beside BLEU (metrics=[...], -m bleu chrf)
# --------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def report_chrf(data):
    hyps, refs = data
    return comparison_report(hyps, refs, names=list(SYSTEM_NAMES), metrics=["bleu", CHRF(word_order=2)], n_samples=300)


def test_chrf_beside_bleu_equals_paired_test(report_chrf, data):
    """chrF++'s scores, means, CIs, p-values and signature are PairedTest's; its sentence
    comparison is on sentence chrF++; BLEU's parts are those of a BLEU-only report."""
    hyps, refs = data
    named = list(zip(SYSTEM_NAMES, hyps, strict=False))
    sigs, scores = PairedTest(named, {"BLEU": BLEU(), "chrF": CHRF(word_order=2)}, refs, "bs", 300)()
    assert [m.name for m in report_chrf.metrics] == ["BLEU", "chrF2++"]
    for m in report_chrf.metrics:
        assert [(x.score, x.mean, x.ci, x.p_value) for x in m.scores] == [
            (r.score, r.mean, r.ci, r.p_value) for r in scores[m.name]
        ]
        assert m.signature == sigs[m.name].format()
    chrf = report_chrf.metrics[1]
    sent = np.array([CHRF(word_order=2).sentence_scores(h, refs) for h in hyps])
    assert np.array_equal(chrf.sentence_scores, sent)
    d = sent[1] - sent[0]
    assert (chrf.sentences[0].wins, chrf.sentences[0].losses) == (int((d > 0).sum()), int((d < 0).sum()))
    alone = comparison_report(hyps, refs, names=list(SYSTEM_NAMES), n_samples=300)
    assert report_chrf.systems == alone.systems
    assert report_chrf.buckets == alone.buckets
    assert report_chrf.examples == alone.examples
    assert report_chrf.signature == alone.signature
    text = report_chrf.to_text()
    for title in ("Corpus BLEU (", "Corpus chrF2++ (", "Sentence BLEU against", "Sentence chrF2++ against"):
        assert title in text
    assert "chrF2++|nrefs:1|bs:300|seed:12345|case:mixed|eff:yes|nc:6|nw:2|space:no|version:" in text
    assert json.loads(json.dumps(report_chrf.to_dict()))["metrics"][1]["name"] == "chrF2++"


@needs_extra
def test_chrf_html_carries_both_metrics(report_chrf):
    page = report_chrf.to_html()
    bleu_rows, blob = parse_page(page)
    chrf_rows, _ = parse_page(page, "score-table-chrf2pp")
    for m, rows, key in ((report_chrf.metrics[0], bleu_rows, "bleu"), (report_chrf.metrics[1], chrf_rows, "score")):
        assert list(rows) == list(SYSTEM_NAMES)
        for x in m.scores:
            assert (rows[x.name][key], rows[x.name]["mean"], rows[x.name]["ci"]) == (x.score, x.mean, x.ci)
            assert rows[x.name]["p-value"] == x.p_value
    assert blob == json.loads(json.dumps(report_chrf.to_dict()))
    assert "<h1>BLEU and chrF2++ comparison</h1>" in page
    for anchor in ("#scores", "#scores-chrf2pp", "#sentences", "#sentences-chrf2pp", "#precisions", "#segments"):
        assert f'href="{anchor}"' in page
    assert page.count("<img ") == 4 + len(report_chrf.buckets) + 3  # chrF: scores, wins/ties/losses, differences
    assert "-m bleu chrf --paired-bs" in page


@needs_extra
def test_chrf_alone_has_no_bleu_parts(data):
    hyps, refs = data
    r = comparison_report(hyps[:2], refs, metrics=["chrf"], n_samples=100, names=["a", "b"])
    assert (r.systems, r.buckets, r.examples, r.signature, r.sentence_bleu) == ([], [], [], "", None)
    assert r.names == ["a", "b"]
    assert r.baseline == "a"
    page = r.to_html()
    assert 'id="precisions"' not in page
    assert 'id="buckets"' not in page
    assert "chrF2|" in page
    assert page.count("<img ") == 3
    assert "Corpus BLEU" not in r.to_text()
    one = comparison_report(hyps[:1], refs, metrics=["chrf"], n_bootstrap=200)
    stats = CHRF().corpus_statistics(hyps[0], refs)
    _seed, mean, ci = bootstrap_ci(stats, CHRF(), 200)
    (s,) = one.metrics[0].scores
    assert (s.mean, s.ci, s.p_value) == (mean, ci, None)
    assert "<img " in one.to_html()


# TER: lower is better (wins are lower sentence TERs; tables and plots say so)
@pytest.fixture(scope="module")
def ter_data(data):
    hyps, refs = data
    return [h[:60] for h in hyps], [r[:60] for r in refs]


@pytest.fixture(scope="module")
def report_ter(ter_data):
    hyps, refs = ter_data
    return comparison_report(
        hyps, refs, names=list(SYSTEM_NAMES), metrics=["bleu", TER(normalized=True)], test="ar", n_samples=400
    )


def test_ter_beside_bleu_equals_paired_test(report_ter, ter_data):
    """TER's scores, means, CIs, p-values and signature are PairedTest's (approximate
    randomization); its wins are segments with a lower sentence TER than the baseline's."""
    hyps, refs = ter_data
    named = list(zip(SYSTEM_NAMES, hyps, strict=False))
    sigs, scores = PairedTest(named, {"BLEU": BLEU(), "TER": TER(normalized=True)}, refs, "ar", 400, 1000)()
    assert [m.name for m in report_ter.metrics] == ["BLEU", "TER"]
    assert [m.higher_is_better for m in report_ter.metrics] == [True, False]
    for m in report_ter.metrics:
        assert [(x.score, x.mean, x.ci, x.p_value) for x in m.scores] == [
            (r.score, r.mean, r.ci, r.p_value) for r in scores[m.name]
        ]
        assert m.signature == sigs[m.name].format()
    ter = report_ter.metrics[1]
    sent = np.array([TER(normalized=True).sentence_scores(h, refs) for h in hyps])
    assert np.array_equal(ter.sentence_scores, sent)
    for c, row in zip(ter.sentences, sent[1:], strict=True):
        d = row - sent[0]
        assert (c.wins, c.ties, c.losses) == (int((d < 0).sum()), int((d == 0).sum()), int((d > 0).sum()))
        assert c.mean_diff == float(d.mean())
    assert sum(c.wins for c in ter.sentences) != sum(c.losses for c in ter.sentences)  # the test can tell them apart
    text = report_ter.to_text()
    assert "Corpus TER (lower is better; paired approximate randomization" in text
    assert "Sentence TER against the baseline (60 segments; lower is better: a win is a lower TER)" in text
    assert "TER|nrefs:1|bs:1000|ar:400|seed:12345|case:lc|tok:tercom|norm:yes|punct:yes|asian:no|version:" in text
    assert json.loads(json.dumps(report_ter.to_dict()))["metrics"][1]["higher_is_better"] is False


@needs_extra
def test_ter_html_says_lower_is_better(report_ter):
    page = report_ter.to_html()
    rows, _ = parse_page(page, "score-table-ter")
    assert list(rows) == list(SYSTEM_NAMES)
    for x in report_ter.metrics[1].scores:
        assert (rows[x.name]["score"], rows[x.name]["p-value"]) == (x.score, x.p_value)
    assert '<h2>Corpus TER <span class="muted">(lower is better)</span></h2>' in page
    assert "a win is a segment where the system's sentence TER is lower than the baseline's" in page
    assert page.count("<img ") == 4 + len(report_ter.buckets) + 3
    assert "-m bleu ter --paired-ar" in page


def test_cli_report_with_ter_equals_paired_output(capsys, tmp_path):
    files = []
    for path in [REF, *HYPS]:
        head = tmp_path / path.name
        head.write_text("".join(path.read_text("utf-8").splitlines(True)[:40]), "utf-8")
        files.append(head)
    args = [files[0], "-i", *files[1:], "-m", "bleu", "ter", "-pbsn", "200", "--ter-case-sensitive"]
    code, out, _ = _cli(capsys, *args, "--paired-bs")
    assert code == 0
    want = json.loads(out)
    code, out, _ = _cli(capsys, *args, "--report", "-")
    assert code == 0
    assert out.index("Corpus BLEU (") < out.index("Corpus TER (lower is better; ")
    for w in want[1:]:
        for key in ("BLEU", "TER"):
            assert f"{w[key]['score']:.1f}" in out
            assert f"{w[key]['p_value']:.4f}" in out
    assert "case:mixed|tok:tercom" in out


def test_metrics_errors(data):
    hyps, refs = data
    with pytest.raises(ValueError, match="metric or metrics, not both"):
        comparison_report(hyps, refs, metric=BLEU(), metrics=["chrf"])
    with pytest.raises(ValueError, match="unknown metric 'meteor'"):
        comparison_report(hyps, refs, metrics=["meteor"])
    with pytest.raises(ValueError, match="two metrics score chrF2"):
        comparison_report(hyps, refs, metrics=["chrf", CHRF()])
    with pytest.raises(ValueError, match="metrics is empty"):
        comparison_report(hyps, refs, metrics=[])


def test_cli_report_with_chrf_equals_paired_output(capsys):
    code, out, _ = _cli(capsys, REF, "-i", *HYPS, "-m", "chrf", "bleu", "--paired-bs", "-pbsn", "200", "-cw", "2")
    assert code == 0
    want = json.loads(out)
    code, out, _ = _cli(capsys, REF, "-i", *HYPS, "-m", "chrf", "bleu", "--report", "-", "-pbsn", "200", "-cw", "2")
    assert code == 0
    assert out.index("Corpus BLEU (") < out.index("Corpus chrF2++ (")  # sorted, as sacreBLEU's tables
    for w in want[1:]:
        for key in ("BLEU", "chrF2++"):
            assert f"{w[key]['score']:.1f}" in out
            assert f"{w[key]['p_value']:.4f}" in out
    code, _, err = _cli(capsys, REF, "-i", *HYPS, "-m", "chrf", "--report", "-", "-cc", "-2")
    assert code == 2  # a usage error
    assert "-cc/--chrf-char-order -2: char_order must be between 0 and" in err


# --------------------------------------------------------------------------------------------
# The HTML page
# --------------------------------------------------------------------------------------------
@needs_extra
def test_html_carries_the_numbers(report3):
    page = report3.to_html()
    rows, blob = parse_page(page)
    assert list(rows) == list(SYSTEM_NAMES)
    for s in report3.systems:
        row = rows[s.name]
        assert row["bleu"] == s.bleu
        assert row["mean"] == s.mean
        assert row["ci"] == s.ci
        assert row["p-value"] == s.p_value
        assert f">{s.bleu:.1f}<" in page
    assert blob == json.loads(json.dumps(report3.to_dict()))
    assert "BLEU|" + report3.signature in page


@needs_extra
def test_html_is_self_contained(report3):
    page = report3.to_html()
    import re

    assert not re.search(r'(src|href)\s*=\s*"(https?:)?//', page)
    assert "<link" not in page
    assert "@import" not in page
    imgs = re.findall(r'<img src="([^"]*)"', page)
    assert len(imgs) == 4 + len(report3.buckets)  # one plot per bucket table
    assert all(u.startswith("data:image/svg+xml;base64,") for u in imgs)
    assert "@media print" in page


@needs_extra
def test_html_escapes_text():
    evil = '<script>alert("x")</script> & <b>bold</b>'
    refs = [["a b c d", "x y z w"]]
    r = comparison_report(
        [["a b c d", "x y z w"], [evil, "x y z w"]], refs, names=["base<1>", 'sys"&<i>'], sources=[evil, "src"]
    )
    page = r.to_html()
    assert "<script>alert" not in page
    assert "<b>bold" not in page
    assert "<i>" not in page
    assert "&lt;script&gt;alert" in page or "&lt;script&gt; alert" in page
    assert "base&lt;1&gt;" in page
    assert "sys&#34;&amp;&lt;i&gt;" in page
    assert parse_page(page)[0].keys() == {"base<1>", 'sys"&<i>'}


@needs_extra
def test_save_writes_utf8(tmp_path, report3):
    out = tmp_path / "r.html"
    report3.save(out)
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


# --------------------------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------------------------
def _cli(capsys, *argv):
    code = cli.main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


@needs_extra
def test_cli_report_equals_paired_bs_output(tmp_path, capsys):
    code, out, _ = _cli(capsys, REF, "-i", *HYPS, "--paired-bs")
    assert code == 0
    want = json.loads(out)
    html_path = tmp_path / "report.html"
    code, out, _ = _cli(capsys, REF, "-i", *HYPS, "--report", html_path)
    assert code == 0
    assert out == ""
    rows, _ = parse_page(html_path.read_text(encoding="utf-8"))
    assert list(rows) == [str(h) for h in HYPS]
    for w, (name, row) in zip(want, rows.items(), strict=False):
        assert w["system"].replace("Baseline: ", "") == name
        assert (row["bleu"], row["p-value"], row["mean"], row["ci"]) == (
            w["BLEU"]["score"],
            w["BLEU"]["p_value"],
            w["BLEU"]["mean"],
            w["BLEU"]["ci"],
        )


def test_cli_report_equals_paired_ar_output(capsys):
    code, out, _ = _cli(capsys, REF, "-i", *HYPS, "--paired-ar", "-parn", "1000")
    want = json.loads(out)
    code, out, _ = _cli(capsys, REF, "-i", *HYPS, "--report", "-", "--paired-ar", "-parn", "1000", "-w", "4")
    assert code == 0
    assert "paired approximate randomization against the baseline with 1000 trials" in out
    for w in want[1:]:
        assert f"{w['BLEU']['score']:.4f}" in out
        assert f"{w['BLEU']['p_value']:.4f}" in out


@needs_extra
def test_cli_text_summary_and_source(tmp_path, capsys):
    src = tmp_path / "src.de"
    src.write_text("".join(f"Quelle {i} <&>\n" for i in range(100)), encoding="utf-8")
    code, table, _ = _cli(capsys, REF, "-i", *HYPS, "--paired-bs", "-f", "text", "-w", "2")
    code, out, _ = _cli(capsys, REF, "-i", *HYPS, "--report", "-", "--source", src, "-w", "2", "--report-segments", "2")
    assert code == 0
    assert "ONLINE-W (baseline)" in out
    assert "wins" in out
    assert "Corpus BLEU by reference length" in out
    assert "source:     Quelle" in out
    assert out.count(" better: line ") == 4
    assert out.count(" worse: line ") == 4
    for cell in ("42.47 (42.40 ± 3.20)", "(p = 0.0010)*"):
        assert cell in table
    assert "42.47" in out
    assert "42.40 ± 3.20" in out
    assert "0.0010*" in out
    html_path = tmp_path / "r.html"
    assert _cli(capsys, REF, "-i", *HYPS, "--report", html_path, "--source", src)[0] == 0
    assert "Quelle 3 &lt;&amp;&gt;" in html_path.read_text(encoding="utf-8") or "&lt;&amp;&gt;" in html_path.read_text(
        encoding="utf-8"
    )


@needs_extra
def test_cli_one_system_equals_confidence(tmp_path, capsys):
    _code, out, _ = _cli(capsys, REF, "-i", HYPS[0], "--confidence")
    want = json.loads(out)
    html_path = tmp_path / "one.html"
    assert _cli(capsys, REF, "-i", HYPS[0], "--report", html_path)[0] == 0
    rows, blob = parse_page(html_path.read_text(encoding="utf-8"))
    (row,) = rows.values()
    assert round(row["bleu"], 1) == want["score"]
    assert (round(row["mean"], 1), round(row["ci"], 1)) == (want["confidence_mean"], want["confidence_var"])
    assert blob["signature"] == want["signature"]


@needs_extra
@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["-i", str(HYPS[0]), str(SAMPLE_DIR / "generaltest2023.cs-uk.hyp.GPT4-5shot.uk")], "has 200 lines but"),
        (["-i", *map(str, HYPS), "-sl"], "--report cannot be combined with -sl"),
        (["-i", *map(str, HYPS), "--report-segments", "-1"], "--report-segments -1: give 0 or more segments"),
        (["-i", *map(str, HYPS), "--source", str(REF) + ".missing"], "no such file"),
    ],
)
def test_cli_errors(tmp_path, capsys, extra, message):
    out = tmp_path / "r.html"
    code, _, err = _cli(capsys, REF, *extra, "--report", out)
    assert code != 0
    assert message in err
    assert err.splitlines()[-1].startswith("rapidbleu: error: ")  # after the usage line (exit 2) of a usage error
    assert code == (2 if err.startswith("usage: ") else 1)
    assert not out.exists()


def test_cli_source_line_count(tmp_path, capsys):
    src = tmp_path / "src"
    src.write_text("one\ntwo\n", encoding="utf-8")
    code, _, err = _cli(capsys, REF, "-i", *HYPS, "--report", "-", "--source", src)
    assert code == 1
    assert f"{src} has 2 lines but {REF} has 100" in err
    code, _, err = _cli(capsys, REF, "-i", *HYPS, "--source", src)
    assert code == 2  # a usage error
    assert "--source is only used by --report" in err


@needs_extra
def test_cli_unwritable_target(tmp_path, capsys):
    code, _, err = _cli(capsys, REF, "-i", *HYPS, "--report", tmp_path / "no" / "such" / "dir.html")
    assert code == 1
    assert "cannot write the report" in err


def test_api_errors(data):
    hyps, refs = data
    with pytest.raises(ValueError, match="system 'b' has 99 hypotheses but the references have 100 segments"):
        comparison_report([hyps[0], hyps[1][:99]], refs, names=["a", "b"])
    with pytest.raises(ValueError, match="used twice"):
        comparison_report([hyps[0], hyps[1]], refs, names=["a", "a"])
    with pytest.raises(ValueError, match="2 names for 3 systems"):
        comparison_report(hyps, refs, names=["a", "b"])
    with pytest.raises(ValueError, match="no system"):
        comparison_report([], refs)
    with pytest.raises(ValueError, match="test must be 'bs'"):
        comparison_report(hyps, refs, test="t")
    with pytest.raises(ValueError, match="sources have 3 lines"):
        comparison_report(hyps, refs, sources=["a", "b", "c"])
    with pytest.raises(TypeError, match="system 1 is a string"):
        comparison_report(["abc"], refs)
    with pytest.raises(TypeError, match="flat list of strings"):
        comparison_report(hyps, refs[0])
    with pytest.raises(TypeError, match=r"system 'b': hypotheses\[2\] is None"):  # BLEU's message, named
        comparison_report([hyps[0], [*hyps[0][:2], None, *hyps[0][3:]]], refs, names=["a", "b"])


def test_missing_extra_names_it(monkeypatch, tmp_path, capsys, report3):
    """matplotlib cannot be imported: simulated where the extra is installed, real where not."""
    if HAVE_EXTRA:
        real_import = builtins.__import__

        def fake_import(name, *args, **kwargs):
            if name == "matplotlib" or name.startswith("matplotlib."):
                raise ImportError(f"No module named {name!r}")
            return real_import(name, *args, **kwargs)

        monkeypatch.setattr(builtins, "__import__", fake_import)
        with pytest.raises(
            ImportError, match=r"needs matplotlib, which is not installed: pip install 'rapidbleu\[report\]'"
        ):
            require_report_extra()
    with pytest.raises(ImportError, match=r"rapidbleu\[report\]"):
        report3.to_html()
    out = tmp_path / "r.html"
    code, _, err = _cli(capsys, REF, "-i", *HYPS, "--report", out)
    assert code == 1
    assert REPORT_EXTRA in err
    assert not out.exists()
    # the text summary needs neither
    assert _cli(capsys, REF, "-i", *HYPS, "--report", "-")[0] == 0


def test_lazy_imports():
    """`import rapidbleu`, the plain CLI and the text summary never import matplotlib or jinja2."""
    code = (
        "import sys, io, contextlib\n"
        "import rapidbleu, rapidbleu.cli, rapidbleu.compare\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    rapidbleu.cli.main([{str(REF)!r}, '-i', {str(HYPS[0])!r}, {str(HYPS[1])!r}, '--paired-bs', '-q'])\n"
        f"    rapidbleu.cli.main([{str(REF)!r}, '-i', {str(HYPS[0])!r}, {str(HYPS[1])!r}, '--report', '-', '-q'])\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('matplotlib', 'jinja2'))\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


# --------------------------------------------------------------------------------------------
# A real browser
# --------------------------------------------------------------------------------------------
def _chromium():
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    if os.environ.get("RAPIDBLEU_REQUIRE_CHROMIUM") == "1":
        pytest.fail("no chromium/chromium-browser/google-chrome binary found and RAPIDBLEU_REQUIRE_CHROMIUM=1")
    pytest.skip("no chromium binary (set RAPIDBLEU_REQUIRE_CHROMIUM=1 to make this a failure)")


def test_page_renders_in_headless_chromium(tmp_path, capsys):
    browser = _chromium()
    if not HAVE_EXTRA:
        if os.environ.get("RAPIDBLEU_REQUIRE_CHROMIUM") == "1":
            pytest.fail(f"RAPIDBLEU_REQUIRE_CHROMIUM=1 but the report extra is missing ({REPORT_EXTRA})")
        pytest.skip(f"matplotlib/jinja2 not installed ({REPORT_EXTRA})")
    page = tmp_path / "report.html"
    assert _cli(capsys, REF, "-i", *HYPS, "-m", "bleu", "chrf", "--report", page)[0] == 0
    shot = tmp_path / "shot.png"
    cmd = [
        browser,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--hide-scrollbars",
        f"--user-data-dir={tmp_path / 'profile'}",
        f"--screenshot={shot}",
        "--window-size=1280,2000",
        page.resolve().as_uri(),
    ]
    proc = subprocess.run(
        cmd, capture_output=True, text=True, timeout=180, env={**os.environ, "HOME": str(tmp_path)}, check=False
    )
    assert shot.is_file(), f"no screenshot; exit {proc.returncode}: {proc.stderr[-2000:]}"
    from matplotlib.image import imread

    img = imread(str(shot))
    assert img.shape[:2] == (2000, 1280)
    pixels = (np.asarray(img)[..., :3] * 255).round().astype(np.uint8).reshape(-1, 3)
    colours = np.unique(pixels, axis=0)
    assert len(colours) > 200, f"only {len(colours)} distinct colours: blank page?"
    non_white = (pixels < 240).any(axis=1).mean()
    assert non_white > 0.02, f"only {non_white:.1%} of the pixels are not white"


def _tool(name):
    path = shutil.which(name)
    if path:
        return path
    if os.environ.get("RAPIDBLEU_REQUIRE_CHROMIUM") == "1":
        pytest.fail(f"no {name} binary found and RAPIDBLEU_REQUIRE_CHROMIUM=1 (poppler-utils has it)")
    pytest.skip(f"no {name} binary (poppler-utils)")


#: Real WMT23 system names, the longest first (it sets the width of every name column).
_NAMES = (
    "Samsung_Research_Philippines", "ONLINE-W", "AIRC", "GTCOM_Peter", "ONLINE-B", "ONLINE-Y", "ONLINE-M",
    "ONLINE-G", "ONLINE-A", "NLLB_MBR_BLEU", "NLLB_Greedy", "GPT4-5shot", "Lan-BridgeMT", "ZengHuiMT", "UvA-LTL",
    "CUNI-GA", "KYB", "SKIM", "PROMT", "Yishu",
)  # fmt: skip

#: Runs at load in the browser: what is wider than the window (a page that scrolls sideways, a
#: table cut inside its scroll box, a figure past the edge), written into the page for --dump-dom.
_OVERFLOW_PROBE = """<script>
window.addEventListener("load", () => {
  const view = document.documentElement.clientWidth;
  const wide = [...document.querySelectorAll(".scroll, table, figure, img, pre, p")]
    .filter(e => e.scrollWidth > e.clientWidth + 1 || e.getBoundingClientRect().right > view + 1)
    .map(e => e.tagName + (e.id ? "#" + e.id : "") + (e.className ? "." + e.className : ""));
  const out = document.createElement("pre");
  out.id = "overflow-probe";
  out.textContent = JSON.stringify({page: document.documentElement.scrollWidth, view: view, wide: wide});
  document.body.appendChild(out);
});
</script>
"""


@needs_extra
@pytest.mark.parametrize("k", [2, 20])
def test_report_reads_whole_printed_and_on_screen(tmp_path, k):
    """2 (BLEU and chrF) and 20 systems: printed to PDF by Chromium, every table has a whole row for every
    system (a 17-system report cut the bucket tables after 8 systems and the precision table
    after hyp_len); on a 1280-pixel screen nothing is wider than the window."""
    import re

    from rapidbleu.compare.render import display_names, fmt_p

    browser, pdftotext = _chromium(), _tool("pdftotext")
    base, refs = [read(h) for h in HYPS], [read(REF)]
    systems = {}
    for i, name in enumerate(_NAMES[:k]):
        src = base[i % 3]
        keep = (lambda j, i=i: (j + i) % (i + 2)) if i >= 3 else (lambda _j: True)
        hyps = [" ".join(w for j, w in enumerate(line.split()) if keep(j)) for line in src]
        systems[f"outputs/generaltest2023.de-en.hyp.{name}.en"] = hyps
    # (2 systems: chrF beside BLEU, whose tables must read whole too)
    metrics = ["bleu", "chrf"] if k == 2 else None
    report = comparison_report(systems, refs, n_samples=50, n_bootstrap=50, n_examples=1, metrics=metrics)
    page = tmp_path / "report.html"
    report.save(page)
    env = {**os.environ, "HOME": str(tmp_path)}
    flags = [browser, "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={tmp_path / 'profile'}"]

    pdf = tmp_path / "report.pdf"
    subprocess.run([*flags, "--no-pdf-header-footer", f"--print-to-pdf={pdf}", page.resolve().as_uri()],
                   capture_output=True, timeout=180, env=env, check=False)  # fmt: skip
    assert pdf.is_file()
    text = subprocess.run([pdftotext, "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    short = display_names(report.names)
    assert short == list(_NAMES[:k])

    def row(name, values):
        pattern = re.escape(name) + "".join(r"\s+" + re.escape(v) for v in values) + r"\s*$"
        assert re.search(pattern, text, re.M), f"no whole row {name} {' '.join(values)} in the printed report"

    w = report.width
    for name, s in zip(short, report.systems, strict=True):
        ci = [f"{s.mean:.{w}f}", "±", f"{s.ci:.{w}f}"] + ([fmt_p(s.p_value)] if s.p_value is not None else [])
        row(name + (" (baseline)" if s.is_baseline else ""), [f"{s.bleu:.{w}f}", *ci])
        row(
            name, [f"{p:.1f}" for p in s.precisions] + [f"{s.bp:.3f}", f"{s.ratio:.3f}", str(s.hyp_len), str(s.ref_len)]
        )
    for m in report.metrics[1:]:
        for name, x in zip(short, m.scores, strict=True):
            ci = [f"{x.mean:.{w}f}", "±", f"{x.ci:.{w}f}"] + ([fmt_p(x.p_value)] if x.p_value is not None else [])
            row(name + (" (baseline)" if x.is_baseline else ""), [f"{x.score:.{w}f}", *ci])
    assert len(report.buckets) == 3
    for table in report.buckets:
        for i, name in enumerate(short):
            row(name, ["–" if b.bleu[i] is None else f"{b.bleu[i]:.{w}f}" for b in table.buckets])

    probe = tmp_path / "probe.html"
    probe.write_text(page.read_text("utf-8").replace("</body>", _OVERFLOW_PROBE + "</body>"), "utf-8")
    dom = subprocess.run([*flags, "--window-size=1280,900", "--virtual-time-budget=10000", "--dump-dom",
                          probe.resolve().as_uri()], capture_output=True, text=True, timeout=180, env=env, check=False).stdout  # fmt: skip
    found = re.search(r'<pre id="overflow-probe">(.*?)</pre>', dom, re.S)
    assert found, "the probe did not run"
    import html as html_module

    result = json.loads(html_module.unescape(found.group(1)))
    assert result["page"] <= result["view"], result
    assert result["wide"] == [], result


@needs_extra
def test_cli_report_on_a_fresh_matplotlib_shows_only_rapidbleus_messages(tmp_path):
    """On a first run of matplotlib (an empty MPLCONFIGDIR: it builds its font cache), the
    command's stderr holds rapidbleu's own lines only: matplotlib's "generated new fontManager"
    came out as a rapidbleu message (the command line configured the root logger), and its
    "building the font cache" notice is matplotlib's business, not the user's."""
    config = tmp_path / "mplconfig"
    config.mkdir()
    html_path = tmp_path / "report.html"
    env = dict(os.environ, MPLCONFIGDIR=str(config), PYTHONIOENCODING="utf-8")
    r = subprocess.run(
        [sys.executable, "-m", "rapidbleu", REF, "-i", *HYPS, "--report", str(html_path)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    assert r.returncode == 0, r.stderr
    assert any(config.iterdir())  # matplotlib did build its cache there
    lines = r.stderr.splitlines()
    assert lines[-1] == f"rapidbleu: Wrote the comparison report of {len(HYPS)} system(s) to {html_path}"
    assert "fontManager" not in r.stderr
    assert "font cache" not in r.stderr
    assert all(line.startswith("rapidbleu: ") for line in lines), r.stderr
