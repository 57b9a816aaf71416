"""Published harnesses' own metric code, installed from PyPI, gives the same numbers with
``rapidbleu.install_as_sacrebleu()`` as with sacreBLEU: lm-evaluation-harness
(``lm_eval.api.metrics``), Sockeye (``sockeye.evaluate``) and Joey NMT (``joeynmt.metrics``).

Each harness runs twice in child processes on WMT23 samples, once as installed and once with the
alias installed first; the harness module's own ``sacrebleu`` global must be rapidbleu's in the
second run, and every number must be the same float.  The metric functions are the harnesses'
code, unchanged: BLEU, chrF, chrF++ and TER where the harness has them (lm-eval's ``bleu``,
``chrf``, ``chrfpp``, ``ter`` aggregations; Sockeye's ``raw_corpus_bleu``/``_chrf``/``_ter``;
Joey NMT's ``bleu`` and ``chrf``, with sacreBLEU options passed through).

lm-evaluation-harness's bootstrap standard error (``bootstrap_stderr``: a ``multiprocessing.Pool``
whose workers re-run the corpus metric on resamples) runs under ``python -m rapidbleu.shim`` with
the ``spawn`` and ``forkserver`` start methods: in the workers, lm-eval's own ``sacrebleu``
global must be rapidbleu's, and the standard errors must be the floats lm-eval computes with
sacreBLEU.

The harness packages are installed without their heavy dependencies (``pip install --no-deps
lm-eval==0.4.13 sockeye==3.1.34 joeynmt==2.3.0``: the metric modules import only numpy, torch,
PyYAML and sacreBLEU); ``.ci/run`` does that and sets RAPIDBLEU_REQUIRE_HARNESSES=1 so that
nothing here is skipped.  Elsewhere a missing harness skips its test.
"""

import importlib.util
import json
import os
import subprocess
import sys
import textwrap

import pytest
from conftest import ROOT, SAMPLE_DIR, read

pytestmark = pytest.mark.integration

REQUIRE = os.environ.get("RAPIDBLEU_REQUIRE_HARNESSES") == "1"

HYP = read(SAMPLE_DIR / "generaltest2023.he-en.hyp.ONLINE-B.en")
REF_A = read(SAMPLE_DIR / "generaltest2023.he-en.ref.refA.en")
REF_B = read(SAMPLE_DIR / "generaltest2023.he-en.ref.refB.en")


def _need(module: str) -> None:
    if importlib.util.find_spec(module) is None:
        if REQUIRE:
            pytest.fail(f"{module} is not installed but RAPIDBLEU_REQUIRE_HARNESSES=1")
        pytest.skip(f"{module} not installed (pip install --no-deps lm-eval sockeye joeynmt)")


def _run(code: str, shim: bool) -> dict:
    prelude = "import rapidbleu\nrapidbleu.install_as_sacrebleu()\n" if shim else ""
    env = dict(os.environ, PYTHONWARNINGS="ignore")
    res = subprocess.run(
        [sys.executable, "-c", prelude + textwrap.dedent(code), json.dumps([HYP, REF_A, REF_B])],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        cwd=ROOT,
        check=False,
    )
    assert res.returncode == 0, res.stderr[-3000:]
    return json.loads(res.stdout.strip().splitlines()[-1])


def _compare(code: str, expect_names: set[str]) -> dict:
    plain = _run(code, shim=False)
    shimmed = _run(code, shim=True)
    assert plain.pop("alias") is False
    assert shimmed.pop("alias") is True
    assert set(plain) == set(shimmed) == expect_names
    assert shimmed == plain  # float for float
    return shimmed


def test_lm_evaluation_harness_metrics():
    _need("lm_eval")
    fns = ["bleu", "chrf", "chrfpp", "ter"]
    code = f"""
        import json, sys
        import lm_eval.api.metrics as m
        hyp, ref_a, ref_b = json.loads(sys.argv[1])
        out = {{"alias": m.sacrebleu.BLEU.__module__.startswith("rapidbleu")}}
        for name in {fns!r}:
            fn = getattr(m, name)
            out[name] = fn(list(zip(ref_a, hyp)))                                  # one reference
            out[name + "-2refs"] = fn([([a, b], h) for h, a, b in zip(hyp, ref_a, ref_b)])  # two
            out[name + "-nested"] = fn([(a, [h]) for h, a in zip(hyp, ref_a)])   # predictions as [str]
        print(json.dumps(out))
        """
    got = _compare(code, {f"{f}{s}" for f in fns for s in ("", "-2refs", "-nested")})
    import sacrebleu

    assert got["bleu"] == sacrebleu.corpus_bleu(HYP, [REF_A]).score
    assert got["bleu-2refs"] == sacrebleu.corpus_bleu(HYP, [REF_A, REF_B]).score
    assert got["chrf"] == sacrebleu.corpus_chrf(HYP, [REF_A]).score
    assert got["chrfpp-2refs"] == sacrebleu.corpus_chrf(HYP, [REF_A, REF_B], word_order=2).score
    assert got["ter"] == sacrebleu.corpus_ter(HYP, [REF_A]).score


def test_sockeye_evaluate():
    _need("sockeye")
    fns = ["raw_corpus_bleu", "raw_corpus_chrf", "raw_corpus_ter"]
    code = f"""
        import json, sys
        import sockeye.evaluate as e
        hyp, ref_a, ref_b = json.loads(sys.argv[1])
        out = {{"alias": e.sacrebleu.BLEU.__module__.startswith("rapidbleu"), "offset": e.DEFAULT_OFFSET}}
        for name in {fns!r}:
            out[name] = getattr(e, name)(hyp, ref_a)
        out["raw_corpus_bleu-0"] = e.raw_corpus_bleu(hyp, ref_a, offset=0.0)
        print(json.dumps(out))
        """
    got = _compare(code, {*fns, "offset", "raw_corpus_bleu-0"})
    assert got["offset"] == 0.1
    import sacrebleu

    assert got["raw_corpus_bleu"] == sacrebleu.raw_corpus_bleu(HYP, [REF_A], smooth_value=0.1).score / 100.0
    assert got["raw_corpus_chrf"] == sacrebleu.corpus_chrf(HYP, [REF_A]).score
    assert got["raw_corpus_ter"] == sacrebleu.corpus_ter(HYP, [REF_A]).score


def test_joeynmt_metrics():
    _need("joeynmt")
    code = """
        import json, sys
        import joeynmt.metrics as m
        hyp, ref_a, ref_b = json.loads(sys.argv[1])
        out = {"alias": m.BLEU.__module__.startswith("rapidbleu")}
        out["bleu"] = m.bleu(hyp, ref_a)
        out["bleu-intl-lc"] = m.bleu(hyp, ref_a, tokenize="intl", lowercase=True, ignored_option=1)
        out["chrf"] = m.chrf(hyp, ref_a)
        out["chrf++-lc"] = m.chrf(hyp, ref_a, word_order=2, lowercase=True, ignored_option=1)
        print(json.dumps(out))
        """
    got = _compare(code, {"bleu", "bleu-intl-lc", "chrf", "chrf++-lc"})
    import sacrebleu

    assert got["chrf"] == sacrebleu.corpus_chrf(HYP, [REF_A]).score / 100
    assert got["chrf++-lc"] == sacrebleu.CHRF(word_order=2, lowercase=True).corpus_score(HYP, [REF_A]).score / 100


#: lm-eval's bootstrap, run as a script (spawn and forkserver import the main module by path in
#: each worker).  ``Probe`` is lm-eval's metric function, called unchanged, that first notes in a
#: file per worker process which sacreBLEU lm-eval's module holds there.
BOOTSTRAP = """
import json, multiprocessing as mp, os, sys
import lm_eval.api.metrics as m

# lm-eval's pool has mp.cpu_count() workers: two, whatever the machine
mp.cpu_count = lambda: 2
ITERS = 40  # resamples: one chunk, i.e. one task per pool

class Probe:
    def __init__(self, name, folder):
        self.name, self.folder, self.__name__ = name, folder, name

    def __call__(self, items):
        path = os.path.join(self.folder, f"{os.getpid()}-{self.name}.json")
        if not os.path.exists(path):
            with open(path, "w", encoding="utf-8") as fh:
                json.dump([mp.current_process().name, os.getpid(), self.name,
                           [getattr(m.sacrebleu, c).__module__ for c in ("BLEU", "CHRF", "TER")]], fh)
        return getattr(m, self.name)(items)

if __name__ == "__main__":
    method, folder, data = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
    mp.set_start_method(method)
    items = [tuple(pair) for pair in data]
    out = {"pid": os.getpid()}
    for name in ("bleu", "chrf", "ter"):
        out[name] = m.bootstrap_stderr(Probe(name, folder), items, iters=ITERS)
    out["bleu-evaluator"] = m.stderr_for_metric(m.bleu, ITERS)(items)  # the evaluator's own path
    print(json.dumps(out))
"""


@pytest.mark.parametrize("method", ["spawn", "forkserver"])
def test_lm_evaluation_harness_bootstrap_workers(method, tmp_path, monkeypatch, startup_hook_env):
    _need("lm_eval")
    short = [(r, h) for r, h in zip(REF_A, HYP, strict=True) if len(h.split()) < 25 and len(r.split()) < 25][:12]
    script = tmp_path / "bootstrap.py"
    script.write_text(BOOTSTRAP, encoding="utf-8")
    probes = tmp_path / "probes"
    probes.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("RAPIDBLEU_AS_SACREBLEU", "DISABLE_MULTIPROC")}
    env.update(startup_hook_env, PYTHONWARNINGS="ignore")
    res = subprocess.run(
        [sys.executable, "-m", "rapidbleu.shim", str(script), method, str(probes), json.dumps(short)],
        capture_output=True, text=True, timeout=300, env=env, cwd=tmp_path, check=False,
    )  # fmt: skip
    assert res.returncode == 0, res.stderr[-3000:]
    got = json.loads(res.stdout.strip().splitlines()[-1])
    worker = {"spawn": "SpawnPoolWorker-", "forkserver": "ForkServerPoolWorker-"}[method]
    seen = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(probes.iterdir())]
    assert sorted(s[2] for s in seen) == ["bleu", "chrf", "ter"]  # one task per pool
    for name, pid, _metric, modules in seen:
        assert name.startswith(worker), name
        assert pid != got["pid"]
        assert modules == ["rapidbleu.bleu", "rapidbleu.chrf", "rapidbleu.ter"]

    # lm-eval with sacreBLEU, in this process (its single-process path draws the same resamples)
    import lm_eval.api.metrics as m

    assert m.sacrebleu.BLEU.__module__ == "sacrebleu.metrics.bleu"
    monkeypatch.setenv("DISABLE_MULTIPROC", "1")
    items = [tuple(pair) for pair in short]
    expected = {name: m.bootstrap_stderr(getattr(m, name), items, iters=40) for name in ("bleu", "chrf", "ter")}
    expected["bleu-evaluator"] = expected["bleu"]
    assert all(v > 0 for v in expected.values())
    assert {k: got[k] for k in expected} == expected  # float for float
