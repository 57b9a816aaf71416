"""``rapidbleu.install_as_sacrebleu()``: sacreBLEU's module tree resolves to rapidbleu's, what is
not provided says so, and the internals harnesses reach for behave as sacreBLEU's.

Each check that installs the alias runs in a child process, so that this test process keeps the
real sacreBLEU the other tests compare against.
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

#: sacreBLEU's command-line printers (they take its argparse namespace): not provided, ordinary
#: missing names (rapidbleu's command line has its own).
CLI_ONLY = {"Color", "print_results_table", "print_single_results"}


def _child(code: str, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "tests"), env.get("PYTHONPATH")]))
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code), *args],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        cwd=ROOT,
        check=False,
    )


def _json_child(code: str, *args: str):
    res = _child(code, *args)
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout.strip().splitlines()[-1])


def _sacrebleu_modules() -> list[str]:
    import pkgutil

    names = ["sacrebleu"]
    names += [
        m.name for m in pkgutil.walk_packages(sacrebleu.__path__, "sacrebleu.") if not m.name.endswith("__main__")
    ]
    return sorted(names)


def test_every_sacrebleu_module_resolves_or_says_why():
    """Each module of sacreBLEU 2.6.0's package: the rapidbleu module of the same path (the same
    object), NotProvidedError for the test-set package, or ModuleNotFoundError naming both."""
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
            except rapidbleu.NotProvidedError as e:
                result[name] = ["not-provided", str(e)]
            except ModuleNotFoundError as e:
                result[name] = ["missing", str(e)]
            else:
                real = "rapidbleu" + name[len("sacrebleu"):]
                result[name] = ["alias", mod.__name__ if name != "sacrebleu" else real,
                                name == "sacrebleu" or mod is sys.modules[real]]
        print(json.dumps(result))
        """,
        json.dumps(modules),
    )
    import importlib.util

    for name, got in out.items():
        real = "rapidbleu" + name[len("sacrebleu") :]
        if name.startswith("sacrebleu.dataset"):
            assert got[0] == "not-provided", (name, got)
            assert "test sets" in got[1]
            assert "sacrebleu -t" in got[1]
        elif name == "sacrebleu" or importlib.util.find_spec(real) is not None:
            assert got == ["alias", real, True], (name, got)
        else:
            assert got[0] == "missing", (name, got)
            assert repr(name) in got[1]
            assert repr(real) in got[1]
    aliased = sorted(n for n, g in out.items() if g[0] == "alias")
    for must in ("sacrebleu.metrics", "sacrebleu.metrics.bleu", "sacrebleu.metrics.base", "sacrebleu.metrics.helpers",
                 "sacrebleu.metrics.chrf", "sacrebleu.metrics.ter", "sacrebleu.metrics.lib_ter",
                 "sacrebleu.compat", "sacrebleu.utils", "sacrebleu.significance", "sacrebleu.tokenizers.tokenizer_ter",
                 "sacrebleu.tokenizers.tokenizer_13a", "sacrebleu.tokenizers.tokenizer_intl"):  # fmt: skip
        assert must in aliased
    # the modules sacreBLEU has that rapidbleu does not (printed with -rA / -s for the record)
    print("not aliased:", sorted(n for n, g in out.items() if g[0] != "alias"))


def test_every_public_sacrebleu_name_is_provided_or_not_provided():
    """sacreBLEU's public names (``__all__`` of each module that has one, plus the module
    attributes of ``sacrebleu.utils``) through the alias: the rapidbleu object (BLEU, chrF and TER
    names alike), or NotProvidedError for test-set functions; only the command line's printers
    are missing."""
    wanted = {}
    for name in _sacrebleu_modules():
        if name.startswith("sacrebleu.dataset"):
            continue
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
                except rapidbleu.NotProvidedError:
                    result[module + "." + n] = "not-provided"
                except AttributeError:
                    result[module + "." + n] = "missing"
        print(json.dumps(result))
        """,
        json.dumps(wanted),
    )
    assert out["sacrebleu.BLEU"] == "same"
    assert out["sacrebleu.corpus_bleu"] == "same"
    for name in ("CHRF", "TER", "corpus_chrf", "sentence_chrf", "corpus_ter", "sentence_ter"):
        assert out[f"sacrebleu.{name}"] == "same", name
    assert out["sacrebleu.DATASETS"] == "not-provided"
    assert out["sacrebleu.utils.get_reference_files"] == "not-provided"
    for qualified, got in out.items():
        leaf = qualified.rsplit(".", 1)[1]
        if got == "missing":
            assert leaf in CLI_ONLY, f"{qualified} is neither provided nor reported as not provided"
        else:
            assert got in ("same", "not-provided"), (qualified, got)


def test_alias_scores_and_identity():
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
    )
    assert out["version"] == "2.6.0" == sacrebleu.__version__
    assert out["same"] == [True, True, True, True]
    assert out["corpus"] == sacrebleu.corpus_bleu(hyp, [ref]).score
    assert out["intl"] == sacrebleu.BLEU(tokenize="intl").corpus_score(hyp, [ref]).score
    assert out["sentence"] == sacrebleu.sentence_bleu(hyp[0], [ref[0]]).score
    assert f"version:rapidbleu-{rapidbleu.__version__}" in out["signature"]
    assert out["dir"]


def test_alias_chrf_and_ter():
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


def test_not_provided_without_the_alias():
    """rapidbleu's own modules say the same for sacreBLEU's test-set names; other missing names
    stay ordinary AttributeErrors (``hasattr`` works)."""
    with pytest.raises(rapidbleu.NotProvidedError, match="test sets"):
        rapidbleu.DATASETS  # noqa: B018
    with pytest.raises(ImportError, match=r"sacrebleu\.download_test_set: .*test sets"):
        from rapidbleu import download_test_set  # noqa: F401
    with pytest.raises(rapidbleu.NotProvidedError, match=r"sacrebleu\.utils\.get_source_file"):
        rapidbleu.utils.get_source_file("wmt23", "de-en")
    assert not hasattr(rapidbleu, "no_such_name")
    assert not hasattr(rapidbleu.utils, "no_such_name")


def test_install_after_sacrebleu_uninstall_and_runner(tmp_path):
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
        """
    )
    assert len(out["warned"]) == 1
    assert out["warned"][0].startswith("sacrebleu was imported before rapidbleu.install")
    assert out["during"]
    assert out["after_real"]
    assert out["before"] == out["after"]
    assert not out["installed"]
    assert out["restored"]  # the very module objects imported before, not a second copy

    script = tmp_path / "harness.py"
    script.write_text(
        "import sys, sacrebleu\nprint(sacrebleu.BLEU.__module__, sys.argv[1:], __name__)\n",
        encoding="utf-8",
    )
    res = subprocess.run(
        [sys.executable, "-m", "rapidbleu.shim", str(script), "x", "--y"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "rapidbleu.bleu ['x', '--y'] __main__"
    (tmp_path / "harness_mod.py").write_text(
        "import sacrebleu\nprint(sacrebleu.__version__, sacrebleu.BLEU.__module__)\n"
    )
    res = subprocess.run(
        [sys.executable, "-m", "rapidbleu.shim", "-m", "harness_mod"],
        capture_output=True, text=True, timeout=120, cwd=tmp_path, check=False,
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "2.6.0 rapidbleu.bleu"
    res = subprocess.run(
        [sys.executable, "-m", "rapidbleu.shim"], capture_output=True, text=True, timeout=120, check=False
    )
    assert res.returncode == 2
    assert "usage: python -m rapidbleu.shim" in res.stderr
