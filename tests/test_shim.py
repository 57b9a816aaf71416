"""``rapidbleu.install_as_sacrebleu()``: sacreBLEU's module tree resolves to rapidbleu's, what is
not provided says so, and the internals harnesses reach for behave as sacreBLEU's.

Each check that installs the alias runs in a child process, so that this test process keeps the
real sacreBLEU the other tests compare against.  The children run rapidbleu's start-up hook
(``rapidbleu-shim.pth``) as an installed rapidbleu does: the ``startup_hook_env`` fixture of
conftest.py says how where the checkout is not installed.
"""

import json
import os
import subprocess
import sys
import textwrap

import pytest
import sacrebleu
from conftest import ROOT, SAMPLE_DIR, read

import rapidbleu
from rapidbleu.shim import CHILDREN_ENV

#: sacreBLEU's command-line printers (they take its argparse namespace): not provided, ordinary
#: missing names (rapidbleu's command line has its own).
CLI_ONLY = {"Color", "print_results_table", "print_single_results"}


def _env(extra: dict[str, str], **variables: str) -> dict[str, str]:
    """This process's environment without the alias's variable, with ``extra`` (the start-up
    hook's environment) and ``variables``; tests/ on the path (conftest's helpers)."""
    env = {k: v for k, v in os.environ.items() if k != CHILDREN_ENV}
    env.update(extra)
    env.update(variables)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "tests"), env.get("PYTHONPATH")]))
    return env


def _child(code: str, *args: str, hook: dict[str, str], **variables: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code), *args],
        capture_output=True,
        text=True,
        timeout=300,
        env=_env(hook, **variables),
        cwd=ROOT,
        check=False,
    )


def _json_child(code: str, *args: str, hook: dict[str, str], **variables: str):
    res = _child(code, *args, hook=hook, **variables)
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout.strip().splitlines()[-1])


def _sacrebleu_modules() -> list[str]:
    import pkgutil

    names = ["sacrebleu"]
    names += [
        m.name for m in pkgutil.walk_packages(sacrebleu.__path__, "sacrebleu.") if not m.name.endswith("__main__")
    ]
    return sorted(names)


def test_every_sacrebleu_module_resolves_or_says_why(startup_hook_env):
    """Each module of sacreBLEU 2.6.0's package: the rapidbleu module of the same path (the same
    object; the test-set package ``sacrebleu.dataset`` too), or ModuleNotFoundError naming both."""
    modules = _sacrebleu_modules()
    assert "sacrebleu.metrics.bleu" in modules
    assert "sacrebleu.dataset.wmt_xml" in modules
    out = _json_child(
        """
        import importlib, json, sys
        import rapidbleu
        rapidbleu.install_as_sacrebleu()
        result = {}
        for name in json.loads(sys.argv[1]):
            try:
                mod = importlib.import_module(name)
            except ModuleNotFoundError as e:
                result[name] = ["missing", str(e)]
            else:
                real = "rapidbleu" + name[len("sacrebleu"):]
                result[name] = ["alias", mod.__name__ if name != "sacrebleu" else real,
                                name == "sacrebleu" or mod is sys.modules[real]]
        print(json.dumps(result))
        """,
        json.dumps(modules),
        hook=startup_hook_env,
    )
    import importlib.util

    for name, got in out.items():
        real = "rapidbleu" + name[len("sacrebleu") :]
        if name == "sacrebleu" or importlib.util.find_spec(real) is not None:
            assert got == ["alias", real, True], (name, got)
        else:
            assert got[0] == "missing", (name, got)
            assert repr(name) in got[1]
            assert repr(real) in got[1]
    aliased = sorted(n for n, g in out.items() if g[0] == "alias")
    for must in ("sacrebleu.metrics", "sacrebleu.metrics.bleu", "sacrebleu.metrics.base", "sacrebleu.metrics.helpers",
                 "sacrebleu.metrics.chrf", "sacrebleu.metrics.ter", "sacrebleu.metrics.lib_ter",
                 "sacrebleu.compat", "sacrebleu.utils", "sacrebleu.significance", "sacrebleu.tokenizers.tokenizer_ter",
                 "sacrebleu.tokenizers.tokenizer_13a", "sacrebleu.tokenizers.tokenizer_intl",
                 "sacrebleu.dataset", "sacrebleu.dataset.base", "sacrebleu.dataset.wmt_xml",
                 "sacrebleu.dataset.fake_sgml", "sacrebleu.dataset.iwslt_xml", "sacrebleu.dataset.tsv",
                 "sacrebleu.dataset.plain_text"):  # fmt: skip
        assert must in aliased
    # the modules sacreBLEU has that rapidbleu does not (printed with -rA / -s for the record)
    print("not aliased:", sorted(n for n, g in out.items() if g[0] != "alias"))


def test_every_public_sacrebleu_name_is_provided(startup_hook_env):
    """sacreBLEU's public names (``__all__`` of each module that has one, plus the module
    attributes of ``sacrebleu.utils``) through the alias: the rapidbleu object (BLEU, chrF and TER
    names alike, the test sets' too); only the command line's printers are missing."""
    wanted = {}
    for name in _sacrebleu_modules():
        try:
            mod = __import__(name, fromlist=["_"])
        except ImportError:  # e.g. MeCab tokenizers without their extra
            continue
        public = getattr(mod, "__all__", None)
        if public is None and name == "sacrebleu.utils":
            public = [
                n for n, v in vars(mod).items() if n[0] != "_" and callable(v) and getattr(v, "__module__", "") == name
            ]
        if public:
            wanted[name] = sorted(set(public) - {"__version__"})
    out = _json_child(
        """
        import importlib, json, sys
        import rapidbleu
        rapidbleu.install_as_sacrebleu()
        result = {}
        for module, names in json.loads(sys.argv[1]).items():
            try:
                mod = importlib.import_module(module)
            except ModuleNotFoundError:
                continue
            real = importlib.import_module("rapidbleu" + module[len("sacrebleu"):])
            for n in names:
                try:
                    v = getattr(mod, n)
                    result[module + "." + n] = "same" if v is getattr(real, n) else "different"
                except AttributeError:
                    result[module + "." + n] = "missing"
        print(json.dumps(result))
        """,
        json.dumps(wanted),
        hook=startup_hook_env,
    )
    assert out["sacrebleu.BLEU"] == "same"
    assert out["sacrebleu.corpus_bleu"] == "same"
    for name in ("CHRF", "TER", "corpus_chrf", "sentence_chrf", "corpus_ter", "sentence_ter"):
        assert out[f"sacrebleu.{name}"] == "same", name
    for name in ("sacrebleu.DATASETS", "sacrebleu.get_source_file", "sacrebleu.utils.get_reference_files",
                 "sacrebleu.utils.filter_subset", "sacrebleu.utils.download_file"):  # fmt: skip
        assert out[name] == "same", name
    for qualified, got in out.items():
        leaf = qualified.rsplit(".", 1)[1]
        if got == "missing":
            assert leaf in CLI_ONLY, f"{qualified} is not provided"
        else:
            assert got == "same", (qualified, got)


def test_alias_scores_and_identity(startup_hook_env):
    """Under the alias: the module objects are rapidbleu's, ``__version__`` is the sacreBLEU API
    version (2.6.0) while signatures still name rapidbleu, and scores equal sacreBLEU's."""
    hyp = read(SAMPLE_DIR / "generaltest2023.de-en.hyp.ONLINE-W.en")
    ref = read(SAMPLE_DIR / "generaltest2023.de-en.ref.refA.en")
    out = _json_child(
        """
        import json, sys
        import rapidbleu
        rapidbleu.install_as_sacrebleu()
        import sacrebleu
        import sacrebleu.metrics.bleu
        from sacrebleu.metrics import BLEU
        hyp, ref = json.loads(sys.argv[1])
        bleu = BLEU(tokenize="intl")
        print(json.dumps({
            "version": sacrebleu.__version__,
            "same": [BLEU is rapidbleu.BLEU, sacrebleu.metrics is rapidbleu.metrics,
                     sacrebleu.metrics.bleu is rapidbleu.metrics.bleu, sacrebleu.corpus_bleu is rapidbleu.corpus_bleu],
            "corpus": sacrebleu.corpus_bleu(hyp, [ref]).score,
            "intl": bleu.corpus_score(hyp, [ref]).score,
            "sentence": sacrebleu.sentence_bleu(hyp[0], [ref[0]]).score,
            "signature": str(bleu.get_signature()),
            "dir": "corpus_bleu" in dir(sacrebleu),
        }))
        """,
        json.dumps([hyp, ref]),
        hook=startup_hook_env,
    )
    assert out["version"] == "2.6.0" == sacrebleu.__version__
    assert out["same"] == [True, True, True, True]
    assert out["corpus"] == sacrebleu.corpus_bleu(hyp, [ref]).score
    assert out["intl"] == sacrebleu.BLEU(tokenize="intl").corpus_score(hyp, [ref]).score
    assert out["sentence"] == sacrebleu.sentence_bleu(hyp[0], [ref[0]]).score
    assert f"version:rapidbleu-{rapidbleu.__version__}" in out["signature"]
    assert out["dir"]


def test_alias_chrf_and_ter(startup_hook_env):
    """chrF and TER under the alias: sacreBLEU's module paths (``metrics.chrf``, ``metrics.ter``,
    ``metrics.lib_ter``, ``tokenizers.tokenizer_ter``) and top-level functions are rapidbleu's,
    with sacreBLEU's scores, signatures' options and lib_ter/tokenizer results."""
    pairs = zip(
        read(SAMPLE_DIR / "generaltest2023.de-en.hyp.ONLINE-W.en"),
        read(SAMPLE_DIR / "generaltest2023.de-en.ref.refA.en"),
        strict=True,
    )
    # sentences, not paragraphs: sacreBLEU's TER (pure Python) takes seconds on a long paragraph
    short = [(h, r) for h, r in pairs if len(h.split()) < 30 and len(r.split()) < 30][:30]
    hyp, ref = [h for h, _ in short], [r for _, r in short]
    out = _json_child(
        """
        import json, sys
        import rapidbleu
        rapidbleu.install_as_sacrebleu()
        import sacrebleu
        import sacrebleu.metrics.chrf as chrf_mod
        import sacrebleu.metrics.ter as ter_mod
        from sacrebleu.metrics import CHRF, TER
        from sacrebleu.metrics.lib_ter import translation_edit_rate
        from sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer
        hyp, ref = json.loads(sys.argv[1])
        tok = TercomTokenizer(normalized=True, asian_support=True)
        chrfpp, ter = CHRF(word_order=2, lowercase=True), TER(normalized=True, case_sensitive=True)
        print(json.dumps({
            "same": [CHRF is rapidbleu.CHRF, TER is rapidbleu.TER, chrf_mod.CHRF is CHRF, ter_mod.TER is TER,
                     sacrebleu.corpus_chrf is rapidbleu.corpus_chrf, sacrebleu.sentence_ter is rapidbleu.sentence_ter,
                     sacrebleu.metrics.lib_ter is rapidbleu.metrics.lib_ter,
                     sacrebleu.CHRF is CHRF, sacrebleu.TER is TER],
            "chrf": sacrebleu.corpus_chrf(hyp, [ref]).score,
            "chrf++": chrfpp.corpus_score(hyp, [ref]).score,
            "sentence_chrf": sacrebleu.sentence_chrf(hyp[0], [ref[0]]).score,
            "ter": sacrebleu.corpus_ter(hyp, [ref]).score,
            "ter_normalized": ter.corpus_score(hyp, [ref]).score,
            "sentence_ter": sacrebleu.sentence_ter(hyp[1], [ref[1]]).score,
            "lib_ter": translation_edit_rate(hyp[2].split(), ref[2].split()),
            "tok": [tok(x) for x in hyp[:5]],
            "signatures": [str(chrfpp.get_signature()), str(ter.get_signature())],
        }))
        """,
        json.dumps([hyp, ref]),
        hook=startup_hook_env,
    )
    from sacrebleu.metrics.lib_ter import translation_edit_rate
    from sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer

    assert out["same"] == [True] * 9
    assert out["chrf"] == sacrebleu.corpus_chrf(hyp, [ref]).score
    assert out["chrf++"] == sacrebleu.CHRF(word_order=2, lowercase=True).corpus_score(hyp, [ref]).score
    assert out["sentence_chrf"] == sacrebleu.sentence_chrf(hyp[0], [ref[0]]).score
    assert out["ter"] == sacrebleu.corpus_ter(hyp, [ref]).score
    assert out["ter_normalized"] == sacrebleu.TER(normalized=True, case_sensitive=True).corpus_score(hyp, [ref]).score
    assert out["sentence_ter"] == sacrebleu.sentence_ter(hyp[1], [ref[1]]).score
    assert out["lib_ter"] == list(translation_edit_rate(hyp[2].split(), ref[2].split()))
    theirs = TercomTokenizer(normalized=True, asian_support=True)
    assert out["tok"] == [theirs(x) for x in hyp[:5]]
    chrf_sig, ter_sig = out["signatures"]
    chrf_theirs = sacrebleu.CHRF(word_order=2, lowercase=True)
    ter_theirs = sacrebleu.TER(normalized=True, case_sensitive=True)
    chrf_theirs.corpus_score(hyp, [ref])
    ter_theirs.corpus_score(hyp[:2], [ref[:2]])
    for ours, theirs in ((chrf_sig, chrf_theirs), (ter_sig, ter_theirs)):  # all but the version
        assert ours.rsplit("|", 1)[0] == str(theirs.get_signature()).rsplit("|", 1)[0]
        assert ours.endswith(f"|version:rapidbleu-{rapidbleu.__version__}")


def test_lighteval_corpus_translation_metrics_under_the_alias(startup_hook_env):
    """lighteval 0.13.0's corpus-level WMT metrics (``lighteval/metrics/metrics_corpus.py``,
    ``CorpusLevelTranslationMetric.compute_corpus``; too heavy a package to install for a test:
    torch, transformers, datasets, inspect-ai) call sacreBLEU as below: chrF, chrF++ and TER with
    ``references=golds``, one list per segment (``golds = [i.golds for i in items]``), BLEU with
    ``[[gold[0] for gold in golds]]``.  sacreBLEU scores the first segment alone for the first
    three; under the alias the evaluation runs to the end with the scores of the corpus
    (sacreBLEU's floats on the transposed references) and one warning for the process."""
    pairs = zip(
        read(SAMPLE_DIR / "generaltest2023.de-en.hyp.ONLINE-W.en"),
        read(SAMPLE_DIR / "generaltest2023.de-en.ref.refA.en"),
        strict=True,
    )
    short = [(h, r) for h, r in pairs if len(h.split()) < 30 and len(r.split()) < 30][:20]
    preds, refs = [h for h, _ in short], [r for _, r in short]
    out = _json_child(
        """
        import json, sys, warnings
        from dataclasses import dataclass
        import rapidbleu
        rapidbleu.install_as_sacrebleu()
        import sacrebleu

        @dataclass
        class GenerativeCorpusMetricInput:  # lighteval.metrics.sample_preparator
            golds: list
            preds: list

        def get_metric(metric_type, lang=""):  # CorpusLevelTranslationMetric.get_metric (no nltk download)
            if metric_type == "bleu":
                return sacrebleu.BLEU(trg_lang=lang)
            if metric_type == "chrf":
                return sacrebleu.CHRF()
            if metric_type == "chrf++":
                return sacrebleu.CHRF(word_order=2)
            return sacrebleu.TER(asian_support=True if lang != "" else False)

        def compute_corpus(metric_type, items):  # CorpusLevelTranslationMetric.compute_corpus
            metric = get_metric(metric_type)
            golds = [i.golds for i in items]
            preds = [i.preds[0] for i in items]
            if metric_type == "bleu":
                golds = [[gold[0] for gold in golds]]
            corpus_score = metric.corpus_score(hypotheses=preds, references=golds)
            return float(corpus_score.score)

        preds, refs = json.loads(sys.argv[1])
        items = [GenerativeCorpusMetricInput(golds=[r], preds=[p]) for p, r in zip(preds, refs)]
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            scores = {m: compute_corpus(m, items) for m in ["bleu", "chrf", "chrf++", "ter"]}
        print(json.dumps({
            "alias": sacrebleu.CHRF is rapidbleu.CHRF,
            "scores": scores,
            "warnings": [w.category.__name__ for w in caught],
        }))
        """,
        json.dumps([preds, refs]),
        hook=startup_hook_env,
    )
    assert out["alias"]
    expected = {
        "bleu": sacrebleu.BLEU().corpus_score(preds, [refs]).score,
        "chrf": sacrebleu.CHRF().corpus_score(preds, [refs]).score,
        "chrf++": sacrebleu.CHRF(word_order=2).corpus_score(preds, [refs]).score,
        "ter": sacrebleu.TER().corpus_score(preds, [refs]).score,
    }
    assert out["scores"] == expected
    assert out["warnings"] == ["SegmentMajorReferencesWarning"]
    per_segment = [[r] for r in refs]  # what sacreBLEU itself makes of lighteval's call: the first segment
    assert (
        sacrebleu.CHRF().corpus_score(preds, per_segment).score
        == sacrebleu.CHRF().corpus_score(preds[:1], [refs[:1]]).score
    )


def test_internals_harnesses_use():
    """``sacrebleu.metrics.bleu._get_tokenizer(name)()`` (HF evaluate's sari/wiki_split,
    MT-Telescope's gleu), ``_TOKENIZERS``, ``BLEU._TOKENIZER_MAP`` / ``SMOOTH_DEFAULTS`` /
    ``TOKENIZER_DEFAULT`` / ``TOKENIZERS`` (``METRICS["BLEU"]``, sockeye, mbrs), as sacreBLEU's."""
    import sacrebleu.metrics.bleu as sb

    import rapidbleu.metrics.bleu as rb

    assert list(rb._TOKENIZERS) == list(sb._TOKENIZERS)
    lines = [
        *read(SAMPLE_DIR / "generaltest2023.cs-uk.ref.refA.uk")[:40],
        "Hello, world. It's 3.5-4 &amp; (x)!",
        "「你好」，世界。",
        "",
    ]
    for name in ("13a", "intl", "zh", "char", "none"):
        ours, theirs = rb._get_tokenizer(name)(), sb._get_tokenizer(name)()
        assert [ours(x) for x in lines] == [theirs(x) for x in lines], name
        assert ours.signature() == theirs.signature()
    with pytest.raises(KeyError):
        rb._get_tokenizer("nope")
    assert rapidbleu.BLEU._TOKENIZER_MAP == sacrebleu.BLEU._TOKENIZER_MAP
    assert rapidbleu.BLEU._SIGNATURE_TYPE is rapidbleu.metrics.bleu.BLEUSignature
    assert rapidbleu.BLEU.SMOOTH_DEFAULTS == sacrebleu.BLEU.SMOOTH_DEFAULTS
    assert rapidbleu.metrics.METRICS["BLEU"].TOKENIZER_DEFAULT == sacrebleu.metrics.METRICS["BLEU"].TOKENIZER_DEFAULT
    assert list(rapidbleu.metrics.METRICS["BLEU"].TOKENIZERS) == list(sacrebleu.metrics.METRICS["BLEU"].TOKENIZERS)
    assert rb.extract_all_word_ngrams("a b a b", 1, 2) == sb.extract_all_word_ngrams("a b a b", 1, 2)
    assert rb.sum_of_lists([[1, 2], [3, 4]]) == sb.sum_of_lists([[1, 2], [3, 4]])
    assert rb.my_log(0) == sb.my_log(0)


def test_test_set_names_without_the_alias():
    """rapidbleu's own modules have sacreBLEU's test-set names too (from ``rapidbleu.dataset``,
    imported at the first look-up); other missing names stay ordinary AttributeErrors
    (``hasattr`` works)."""
    import rapidbleu.dataset

    assert rapidbleu.DATASETS is rapidbleu.dataset.DATASETS
    from rapidbleu import download_test_set

    assert download_test_set is rapidbleu.dataset.download_test_set
    assert rapidbleu.utils.get_source_file is rapidbleu.dataset.get_source_file
    assert not hasattr(rapidbleu, "no_such_name")
    assert not hasattr(rapidbleu.utils, "no_such_name")


def test_install_after_sacrebleu_uninstall_and_runner(tmp_path, startup_hook_env):
    """sacreBLEU imported first: a RuntimeWarning, later imports get rapidbleu; installing twice
    is harmless; uninstall gives the installed sacreBLEU back; ``python -m rapidbleu.shim`` runs a
    script and a module with the alias in place."""
    out = _json_child(
        """
        import json, warnings
        import sacrebleu as before
        import rapidbleu
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            rapidbleu.install_as_sacrebleu()
            rapidbleu.install_as_sacrebleu()
        import sacrebleu as during
        import sacrebleu.metrics.bleu
        rapidbleu.uninstall_as_sacrebleu()
        import sacrebleu as after
        import sacrebleu.metrics.bleu as after_bleu
        print(json.dumps({
            "restored": after is before and after_bleu.BLEU is before.BLEU,
            "warned": [str(w.message) for w in caught if w.category is RuntimeWarning],
            "before": before.__file__, "during": during.BLEU is rapidbleu.BLEU,
            "after": after.__file__, "after_real": after.BLEU is not rapidbleu.BLEU,
            "installed": rapidbleu.shim.is_installed(),
        }))
        """,
        hook=startup_hook_env,
    )
    assert len(out["warned"]) == 1
    assert out["warned"][0].startswith("sacrebleu was imported before rapidbleu.install")
    assert out["during"]
    assert out["after_real"]
    assert out["before"] == out["after"]
    assert not out["installed"]
    assert out["restored"]  # the very module objects imported before, not a second copy

    # the runner: no warning of its own (runpy's "found in sys.modules" included: -W error)
    script = tmp_path / "harness.py"
    script.write_text(
        "import sys, sacrebleu\nprint(sacrebleu.BLEU.__module__, sys.argv[1:], __name__)\n",
        encoding="utf-8",
    )
    res = subprocess.run(
        [sys.executable, "-W", "error", "-m", "rapidbleu.shim", str(script), "x", "--y"],
        capture_output=True, text=True, timeout=120, env=_env(startup_hook_env), check=False,
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    assert res.stderr == ""
    assert res.stdout.strip() == "rapidbleu.bleu ['x', '--y'] __main__"
    (tmp_path / "harness_mod.py").write_text(
        "import sacrebleu\nprint(sacrebleu.__version__, sacrebleu.BLEU.__module__)\n"
    )
    res = subprocess.run(
        [sys.executable, "-W", "error", "-m", "rapidbleu.shim", "-m", "harness_mod"],
        capture_output=True, text=True, timeout=120, cwd=tmp_path, env=_env(startup_hook_env), check=False,
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    assert res.stderr == ""
    assert res.stdout.strip() == "2.6.0 rapidbleu.bleu"
    res = subprocess.run(
        [sys.executable, "-m", "rapidbleu.shim"], capture_output=True, text=True, timeout=120, check=False
    )
    assert res.returncode == 2
    assert "usage: python -m rapidbleu.shim" in res.stderr


# ------------------------------------------------------------------------------------------
# Across processes: the start-up hook
# ------------------------------------------------------------------------------------------

#: A script that reports which sacreBLEU each kind of process started from it imports: a pool
#: worker of each start method, and a Python subprocess (the same interpreter, the environment
#: inherited), with the alias for the process tree, for this process only, and uninstalled.
PROCESS_TREE = """
import json, multiprocessing as mp, os, subprocess, sys

def probe(_=None):
    import sacrebleu
    return [mp.current_process().name, os.getppid() == PARENT, sacrebleu.BLEU.__module__]

def subprocess_probe():
    code = "import sacrebleu; print(sacrebleu.BLEU.__module__)"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()

def pool_probe(method):
    with mp.get_context(method).Pool(1) as pool:
        return pool.apply(probe)

PARENT = int(os.environ.setdefault("PROBE_PARENT", str(os.getpid())))

if __name__ == "__main__":
    import rapidbleu
    out = {}
    rapidbleu.install_as_sacrebleu()
    # the forkserver process starts here, with the first pool that needs it: after the call
    for method in ("fork", "spawn", "forkserver"):
        out[method] = pool_probe(method)
    out["subprocess"] = subprocess_probe()
    out["env"] = os.environ.get("RAPIDBLEU_AS_SACREBLEU")
    rapidbleu.install_as_sacrebleu(children=False)
    out["local"] = [pool_probe("spawn"), subprocess_probe(), "RAPIDBLEU_AS_SACREBLEU" in os.environ]
    rapidbleu.install_as_sacrebleu()
    rapidbleu.uninstall_as_sacrebleu()
    out["uninstalled"] = [pool_probe("spawn"), subprocess_probe(), "RAPIDBLEU_AS_SACREBLEU" in os.environ]
    print(json.dumps(out))
"""


def test_alias_follows_every_start_method_and_subprocess(tmp_path, startup_hook_env):
    """After ``install_as_sacrebleu()``, pool workers under ``fork``, ``spawn`` and ``forkserver``
    (whose server process starts after the call) and a Python subprocess import rapidbleu as
    sacrebleu; with ``children=False`` and after ``uninstall_as_sacrebleu()`` new processes
    import the real sacreBLEU and the variable is gone."""
    script = tmp_path / "tree.py"
    script.write_text(PROCESS_TREE, encoding="utf-8")
    res = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=300,
        env=_env(startup_hook_env), cwd=tmp_path, check=False,
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout.strip().splitlines()[-1])
    ours, theirs = "rapidbleu.bleu", "sacrebleu.metrics.bleu"
    for method, worker in (
        ("fork", "ForkPoolWorker"),
        ("spawn", "SpawnPoolWorker"),
        ("forkserver", "ForkServerPoolWorker"),
    ):
        name, child_of_parent, module = out[method]
        assert name.startswith(worker + "-"), out[method]
        assert child_of_parent == (method != "forkserver")  # forkserver's workers are the server's children
        assert module == ours, (method, out[method])
    assert out["subprocess"] == ours
    assert out["env"] == "1"
    assert out["local"] == [[out["local"][0][0], True, theirs], theirs, False]
    assert out["uninstalled"] == [[out["uninstalled"][0][0], True, theirs], theirs, False]


LOADED = """
import json, sys
before = sorted(m for m in ("_rapidbleu_startup", "rapidbleu", "numpy") if m in sys.modules)
import sacrebleu
after = sorted(m for m in ("_rapidbleu_startup", "rapidbleu", "numpy") if m in sys.modules)
print(json.dumps([before, after, sacrebleu.BLEU.__module__]))
"""


def test_startup_hook_is_off_unless_set_and_lazy(startup_hook_env):
    """Unset, empty or ``0``: the hook imports nothing and sacrebleu is sacreBLEU.  Set: at start-up
    only the hook's own module is imported (not rapidbleu, not numpy); the first ``import
    sacrebleu`` installs the alias (still without numpy); importing rapidbleu first installs it at
    once (``is_installed()``), and uninstalling then gives sacreBLEU back."""
    for value in (None, "", "0"):
        variables = {} if value is None else {CHILDREN_ENV: value}
        assert _json_child(LOADED, hook=startup_hook_env, **variables) == [[], [], "sacrebleu.metrics.bleu"], value
    for value in ("1", "yes"):
        before, after, module = _json_child(LOADED, hook=startup_hook_env, **{CHILDREN_ENV: value})
        assert before == ["_rapidbleu_startup"]
        assert after == ["_rapidbleu_startup", "rapidbleu"]
        assert module == "rapidbleu.bleu"
    out = _json_child(
        """
        import json, os, sys
        import rapidbleu
        installed = rapidbleu.shim.is_installed()
        rapidbleu.uninstall_as_sacrebleu()
        import sacrebleu
        print(json.dumps([installed, rapidbleu.shim.is_installed(), sacrebleu.BLEU.__module__,
                          os.environ.get("RAPIDBLEU_AS_SACREBLEU")]))
        """,
        hook=startup_hook_env,
        **{CHILDREN_ENV: "1"},
    )
    assert out == [True, False, "sacrebleu.metrics.bleu", None]


def test_startup_hook_failure_is_one_line_and_start_up_goes_on(tmp_path, startup_hook_env):
    """A hook that cannot run (here its module raises) prints one line and the interpreter starts:
    the program runs, without the alias."""
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "_rapidbleu_startup.py").write_text("raise RuntimeError('boom')\n", encoding="utf-8")
    env = _env(startup_hook_env, **{CHILDREN_ENV: "1"})
    env["PYTHONPATH"] = os.pathsep.join([str(broken), env["PYTHONPATH"]])
    res = subprocess.run(
        [sys.executable, "-c", "import sacrebleu; print(sacrebleu.BLEU.__module__)"],
        capture_output=True, text=True, timeout=120, env=env, cwd=tmp_path, check=False,
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "sacrebleu.metrics.bleu"
    assert res.stderr.splitlines() == [
        (
            "rapidbleu: RAPIDBLEU_AS_SACREBLEU is set but the start-up hook failed (RuntimeError: boom); "
            "this process imports sacrebleu without rapidbleu's alias"
        )
    ]


def test_install_without_startup_hook_says_children_miss_out():
    """Where no site folder holds the hook (here ``python -S``: no site-packages at all), asking
    for children warns that only fork children get the alias; ``children=False`` does not."""
    if not (ROOT / "src" / "rapidbleu").is_dir():
        pytest.skip("needs the source tree (python -S sees no installed package)")
    code = """
        import json, warnings
        import rapidbleu
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            rapidbleu.install_as_sacrebleu(children=False)
            rapidbleu.uninstall_as_sacrebleu()
            quiet = len(caught)
            rapidbleu.install_as_sacrebleu()
        print(json.dumps([quiet, [str(w.message) for w in caught]]))
        """
    env = _env({}, PYTHONPATH=str(ROOT / "src"))
    res = subprocess.run(
        [sys.executable, "-S", "-c", textwrap.dedent(code)],
        capture_output=True, text=True, timeout=120, env=env, cwd=ROOT, check=False,
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    quiet, messages = json.loads(res.stdout)
    assert quiet == 0
    assert len(messages) == 1
    assert "start-up hook rapidbleu-shim.pth is not in this interpreter's site-packages" in messages[0]
    assert "spawn or forkserver" in messages[0]


def test_sacrebleu_command_line_under_the_alias_is_rapidbleus(tmp_path, startup_hook_env):
    """A harness's subprocess that runs sacreBLEU's command line inherits the alias: ``python -m
    sacrebleu`` and the ``sacrebleu`` command's module (``sacrebleu.sacrebleu.main``) run
    rapidbleu's command line, with sacreBLEU's output (only the signature's version differs);
    without the variable, sacreBLEU's own runs."""
    ref = str(SAMPLE_DIR / "generaltest2023.de-en.ref.refA.en")
    hyp = str(SAMPLE_DIR / "generaltest2023.de-en.hyp.ONLINE-W.en")
    probe = "import sys, sacrebleu.sacrebleu as m; print(m.main.__module__, file=sys.stderr); sys.exit(m.main())"
    outputs = []
    for env in (_env(startup_hook_env, **{CHILDREN_ENV: "1"}), _env(startup_hook_env)):
        for argv in ([sys.executable, "-m", "sacrebleu", ref, "-i", hyp, "-f", "text"],
                     [sys.executable, "-c", probe, ref, "-i", hyp, "-f", "text"]):  # fmt: skip
            res = subprocess.run(argv, capture_output=True, text=True, timeout=120, env=env, check=False)
            assert res.returncode == 0, res.stderr
            outputs.append(res.stdout.replace("version:rapidbleu-" + rapidbleu.__version__, "version:2.6.0"))
            if argv[1] == "-c":
                assert res.stderr.split()[0] == ("rapidbleu.cli" if CHILDREN_ENV in env else "sacrebleu.sacrebleu")
    assert outputs[0] == outputs[1] == outputs[2] == outputs[3], outputs
    assert "BLEU|nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0 = " in outputs[0]
    # a test set that cannot be had (offline: an empty mirror folder) is one line, status 1
    offline = {CHILDREN_ENV: "1", "SACREBLEU": str(tmp_path / "cache"), "RAPIDBLEU_DOWNLOAD_MIRROR": str(tmp_path)}
    res = subprocess.run(
        [sys.executable, "-m", "sacrebleu", "-t", "wmt23", "-l", "de-en", "--echo", "ref"],
        capture_output=True, text=True, timeout=120, env=_env(startup_hook_env, **offline), check=False,
    )  # fmt: skip
    assert res.returncode == 1
    assert "wmt23" in res.stderr
    assert "Traceback" not in res.stderr
    lines = res.stderr.strip().splitlines()  # sacreBLEU's "Downloading ..." line, then the error
    assert [line for line in lines if line.startswith("rapidbleu: error: ")] == lines[-1:], res.stderr


RUNNER_HARNESS = """
import multiprocessing as mp, subprocess, sys
import sacrebleu
import sibling  # beside this script: python SCRIPT puts its folder first on sys.path

def worker_module(_=None):
    import sacrebleu
    return sacrebleu.BLEU.__module__

if __name__ == "__main__":
    child = subprocess.run([sys.executable, "-c", "import sacrebleu; print(sacrebleu.BLEU.__module__)"],
                           capture_output=True, text=True, check=True).stdout.strip()
    with mp.get_context("spawn").Pool(1) as pool:
        spawned = pool.apply(worker_module)
    print(sacrebleu.BLEU.__module__, sibling.NAME, child, spawned)
"""


def test_runner_reaches_subprocesses_and_spawned_workers(tmp_path, startup_hook_env):
    """``python -m rapidbleu.shim SCRIPT``: a ``subprocess.run`` child of the harness and a spawned
    pool worker import rapidbleu as sacrebleu too; the script's folder is first on ``sys.path``
    (run from elsewhere), and no warning is printed."""
    folder = tmp_path / "harness"
    folder.mkdir()
    (folder / "run.py").write_text(RUNNER_HARNESS, encoding="utf-8")
    (folder / "sibling.py").write_text("NAME = 'sibling'\n", encoding="utf-8")
    res = subprocess.run(
        [sys.executable, "-W", "error", "-m", "rapidbleu.shim", str(folder / "run.py")],
        capture_output=True, text=True, timeout=300, env=_env(startup_hook_env), cwd=tmp_path, check=False,
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    assert res.stderr == ""
    assert res.stdout.split() == ["rapidbleu.bleu", "sibling", "rapidbleu.bleu", "rapidbleu.bleu"]


def test_a_name_not_provided_is_missing_to_hasattr_and_getattr(startup_hook_env):
    """Under the alias, every module of sacreBLEU's tree answers ``hasattr`` with False and
    ``getattr(module, name, None)`` with None for a name rapidbleu does not provide (sacreBLEU's
    command-line printers among them: harnesses probe for them so), and a plain look-up raises
    AttributeError naming the name: a module ``__getattr__`` that raised anything else would
    break both probes."""
    out = _json_child(
        """
        import importlib, json, sys
        import rapidbleu
        rapidbleu.install_as_sacrebleu()
        result = {}
        for name in json.loads(sys.argv[1]):
            try:
                mod = importlib.import_module(name)
            except ModuleNotFoundError:
                continue
            for attr in ("no_such_name", "print_results_table", "Color"):
                try:
                    getattr(mod, attr)
                    plain = "found"
                except AttributeError as e:
                    plain = str(e)
                except Exception as e:
                    plain = f"{type(e).__name__}: {e}"
                try:
                    probes = [hasattr(mod, attr), getattr(mod, attr, None)]
                except Exception as e:
                    probes = [f"{type(e).__name__}: {e}"]
                result[f"{name}.{attr}"] = [probes, plain]
        print(json.dumps(result))
        """,
        json.dumps(_sacrebleu_modules()),
        hook=startup_hook_env,
    )
    for must in ("sacrebleu", "sacrebleu.metrics", "sacrebleu.utils", "sacrebleu.metrics.bleu", "sacrebleu.tokenizers",
                 "sacrebleu.tokenizers.tokenizer_13a", "sacrebleu.compat", "sacrebleu.dataset"):  # fmt: skip
        assert f"{must}.no_such_name" in out
    assert "sacrebleu.utils.print_results_table" in out
    for key, (probes, plain) in out.items():
        attr = key.rsplit(".", 1)[1]
        assert probes == [False, None], key
        assert plain.startswith("module "), (key, plain)
        assert plain.endswith(f" has no attribute {attr!r}"), (key, plain)
