"""The command line prints what sacreBLEU's prints (apart from the signature's version)."""

import argparse
import gzip
import json
import os
import subprocess
import sys
from typing import Any

import pytest
from conftest import HAVE_CYTHON, OFFICIAL_TOKENIZER, ROOT, SAMPLE_DIR, full_data_dir, systems

import rapidbleu
from rapidbleu import cli
from rapidbleu._core import backend as _backend

OURS = f"version:rapidbleu-{rapidbleu.__version__}"
OURS_SHORT = f"v:rapidbleu-{rapidbleu.__version__}"


def run(tool, *args, stdin=None):
    env = dict(os.environ, NO_COLOR="", PYTHONIOENCODING="utf-8")
    env.pop("SACREBLEU_FORMAT", None)
    return subprocess.run(
        [sys.executable, "-m", tool, *map(str, args)],
        input=stdin,
        capture_output=True,
        env=env,
        timeout=300,
        check=False,
    )


def same_output(*args, stdin=None):
    ours, theirs = run("rapidbleu", *args, stdin=stdin), run("sacrebleu", *args, stdin=stdin)
    assert theirs.returncode == 0, theirs.stderr
    assert ours.returncode == 0, ours.stderr
    import sacrebleu

    v = sacrebleu.__version__
    text = (
        ours.stdout.decode()
        .replace(OURS, f"version:{v}")
        .replace(OURS_SHORT, f"v:{v}")
        .replace(f'"version": "rapidbleu-{rapidbleu.__version__}"', f'"version": "{v}"')
    )
    assert text == theirs.stdout.decode()
    return text


def thirteen_a(directory):
    return [s for s in systems(directory) if s[0] not in OFFICIAL_TOKENIZER]


@pytest.mark.parametrize("fmt", ["json", "text"])
def test_every_13a_system_full_data(fmt):
    found = thirteen_a(full_data_dir())
    if not found:
        pytest.skip("no system output of a 13a pair in the WMT23 folder")
    for _pair, _system, hyp, refs in found:
        same_output(refs[0], "-i", hyp, "-f", fmt)


@pytest.mark.parametrize(
    "options",
    [
        [],
        ["-f", "text"],
        ["-b"],
        ["-f", "text", "-b"],
        ["-w", "4"],
        ["-f", "text", "--short"],
        ["-lc"],
        ["-tok", "none"],
        ["-s", "floor", "-sv", "0.2"],
        ["-s", "add-k"],
        ["-s", "none"],
        ["--force"],
    ],
)
def test_options_on_sample(options):
    _pair, _system, hyp, refs = next(s for s in systems(SAMPLE_DIR) if s[0] == "he-en")
    same_output(*refs, "-i", hyp, *options)


def test_sentence_level():
    _pair, _system, hyp, refs = next(s for s in systems(SAMPLE_DIR) if s[0] == "cs-uk")
    same_output(refs[0], "-i", hyp, "-sl")
    same_output(refs[0], "-i", hyp, "-sl", "-b", "-w", "3")


def test_multi_system_table_json_and_latex():
    sample = [s for s in systems(SAMPLE_DIR) if s[0] == "de-en"]
    hyps = [s[2] for s in sample]
    for fmt in ("text", "json", "latex"):
        same_output(sample[0][3][0], "-i", *hyps, "-f", fmt)


def test_stdin_and_gzip_and_num_refs(tmp_path):
    _pair, _system, hyp, refs = next(s for s in systems(SAMPLE_DIR) if s[0] == "he-en")
    same_output(refs[0], stdin=hyp.read_bytes())
    gz = tmp_path / "ref.gz"
    gz.write_bytes(gzip.compress(refs[0].read_bytes()))
    same_output(gz, "-i", hyp)
    a, b = refs[0].read_text("utf-8").splitlines(), refs[1].read_text("utf-8").splitlines()
    tsv = tmp_path / "refs.tsv"
    tsv.write_text("".join(f"{x}\t{y}\n" for x, y in zip(a, b, strict=False)), "utf-8")
    assert "nrefs:2" in same_output(tsv, "-nr", "2", "-i", hyp)


def test_bom_is_kept_like_sacrebleu():
    _pair, _system, hyp, refs = next(s for s in systems(SAMPLE_DIR) if s[1] == "AIRC" and s[0] == "en-de")
    assert hyp.read_bytes().startswith(b"\xef\xbb\xbf")
    same_output(refs[0], "-i", hyp, "-f", "text")


# -- errors: non-zero exit, one line naming the file and line --------------------------------
def test_missing_file(tmp_path):
    _pair, _system, hyp, refs = systems(SAMPLE_DIR)[0]
    r = run("rapidbleu", tmp_path / "nope.txt", "-i", hyp)
    assert r.returncode != 0
    assert b"nope.txt: no such file" in r.stderr
    r = run("rapidbleu", refs[0], "-i", tmp_path / "gone.txt")
    assert r.returncode != 0
    assert b"gone.txt: no such file" in r.stderr


def test_line_count_mismatch(tmp_path):
    short = tmp_path / "short.txt"
    short.write_text("a\nb\n", "utf-8")
    ref = tmp_path / "ref.txt"
    ref.write_text("a\nb\nc\n", "utf-8")
    r = run("rapidbleu", ref, "-i", short)
    assert r.returncode == 1
    assert f"{short} has 2 lines but {ref} has 3".encode() in r.stderr
    short.write_text("a\n", "utf-8")  # one line: singular
    r = run("rapidbleu", ref, "-i", short)
    assert f"{short} has 1 line but {ref} has 3 lines:".encode() in r.stderr


def test_undecodable_bytes_name_the_line(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"ok\nstill ok\nbad \xff byte\n")
    r = run("rapidbleu", bad, "-i", bad)
    assert r.returncode == 1
    assert f"{bad}: line 3: cannot decode".encode() in r.stderr


def test_empty_hypothesis_file(tmp_path):
    empty = tmp_path / "empty.txt"
    empty.write_text("", "utf-8")
    r = run("rapidbleu", empty, "-i", empty)
    assert r.returncode == 1
    assert b"is empty" in r.stderr


def test_empty_standard_input_is_named_as_such(tmp_path):
    ref = tmp_path / "ref.txt"
    ref.write_text("a b c\n", "utf-8")
    r = run("rapidbleu", ref, stdin=b"")
    assert r.returncode == 1
    assert r.stderr == (
        b"rapidbleu: error: standard input: is empty (give the system output on standard input or with -i)\n"
    )


def test_num_refs_field_mismatch(tmp_path):
    tsv = tmp_path / "refs.tsv"
    tsv.write_text("a\tb\nc\n", "utf-8")
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("a\nc\n", "utf-8")
    r = run("rapidbleu", tsv, "-nr", "2", "-i", hyp)
    assert r.returncode == 17
    assert b"line 2: expected 2 tab-separated references, found 1" in r.stderr


def test_num_refs_extra_fields_are_refused(tmp_path):
    """A third field with -nr 2 used to be glued onto the second reference (score inflated)."""
    tsv = tmp_path / "refs.tsv"
    tsv.write_text("a b c\td e f\tx\nfoo bar\tbaz\n", "utf-8")
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("a b c\nfoo bar\n", "utf-8")
    r = run("rapidbleu", tsv, "-nr", "2", "-i", hyp)
    assert r.returncode == 17
    assert r.stdout == b""
    assert f"{tsv}: line 1: expected 2 tab-separated references, found 3".encode() in r.stderr


def test_undecodable_stdin_names_the_line(tmp_path):
    ref = tmp_path / "ref.txt"
    ref.write_text("a b c\nd e\nf\n", "utf-8")
    r = run("rapidbleu", ref, stdin=b"a b c\nd \xff\xfe e\nf\n")
    assert r.returncode == 1
    assert r.stdout == b""
    assert (
        r.stderr == b"rapidbleu: error: standard input: line 2: cannot decode byte(s) b'\\xff\\xfe' as utf-8; "
        b"use -e/--encoding to give the input's encoding\n"
    )


def test_version_flag_matches_metadata():
    from importlib.metadata import PackageNotFoundError, version

    r = run("rapidbleu", "--version")
    assert r.stdout.decode().strip() == f"rapidbleu {rapidbleu.__version__}"
    try:
        assert version("rapidbleu") == rapidbleu.__version__
    except PackageNotFoundError:
        pytest.skip("rapidbleu not installed (running from the source tree)")


# -- command-line options of sacreBLEU that rapidbleu lacks --------------------------------
def _sacrebleu_parser(monkeypatch):
    """sacreBLEU's own ArgumentParser, caught as it parses."""
    from sacrebleu import sacrebleu as sacre_main

    caught = []

    def grab(self, *args, **kwargs):
        caught.append(self)
        raise SystemExit(0)

    monkeypatch.setattr(argparse.ArgumentParser, "parse_args", grab)
    with pytest.raises(SystemExit):
        sacre_main.parse_args()
    monkeypatch.undo()
    return caught[0]


def _option_strings(parser):
    return {s for action in parser._actions for s in action.option_strings}


def test_every_sacrebleu_option_is_known(monkeypatch):
    """Same option names, hence the same abbreviations: `-t` is --test-set, not a prefix of -tok."""
    theirs = _sacrebleu_parser(monkeypatch)
    ours = cli.build_parser()
    assert _option_strings(theirs) <= _option_strings(ours)
    assert ours.allow_abbrev == theirs.allow_abbrev
    # and each takes the same number of values, so the rest of the line parses the same
    ours_by_flag = {s: a for a in ours._actions for s in a.option_strings}
    for action in theirs._actions:
        for flag in action.option_strings:
            assert ours_by_flag[flag].nargs == action.nargs, flag


def test_metric_option_groups_are_sacrebleus(monkeypatch):
    """Every option of a metric's group (``Metric.cli_options`` of each command-line metric of
    the registry, BLEU's included) has sacreBLEU's dest, default, type and action, and a dest
    the metric's constructor takes (``<metric_id>_<argument>``)."""
    import inspect

    from rapidbleu import registry

    theirs = {a.dest: a for a in _sacrebleu_parser(monkeypatch)._actions}
    ours = {a.dest: a for a in cli.build_parser()._actions}
    checked = 0
    for metric_id in registry.metric_ids(command_line=True):
        params = inspect.signature(registry.get(metric_id)).parameters
        for flags, _kwargs in registry.get(metric_id).cli_options:
            mine = next(a for a in ours.values() if flags[0] in a.option_strings)
            want = theirs[mine.dest]
            assert (mine.option_strings, mine.default, mine.type, type(mine)) == (
                want.option_strings,
                want.default,
                want.type,
                type(want),
            )
            assert mine.dest.removeprefix(f"{metric_id}_") in params, mine.dest
            checked += 1
    assert checked >= 15  # BLEU's 5, chrF's 6, TER's 4


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["-cc", "-1"], "-cc/--chrf-char-order -1: char_order must be between 0 and"),
        (["-cc", "0", "-cw", "0"], "-cc/--chrf-char-order 0: char_order and word_order are both 0"),
        (["--chrf-beta", "-1"], "--chrf-beta -1: beta must be a finite number >= 0"),
        (["-cw", "65"], "-cw/--chrf-word-order 65: word_order must be between 0 and 64"),
    ],
)
def test_bad_chrf_options_are_usage_errors_before_reading(options, message, capsys, tmp_path):
    """A chrF option out of range is a usage error (exit status 2, argparse's usage line and one
    error line) before any input is read (the system file here is undecodable: reading it
    would be another error)."""
    _pair, _system, _hyp, refs = systems(SAMPLE_DIR)[0]
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"\xff\xfe\x00 x\n" * 100)
    code = cli.main([str(refs[0]), "-i", str(bad), "-m", "bleu", "chrf", "-q", *options])
    err = capsys.readouterr().err
    assert code == 2
    usage, error = err.splitlines()[0], err.splitlines()[-1]
    assert usage.startswith("usage: rapidbleu ")
    assert error.startswith(f"rapidbleu: error: {message}")


@pytest.mark.parametrize(
    "options",
    [
        ["-m", "chrf", "--chrf-beta", "0", "-cw", "2"],  # character (and word) precision
        ["-m", "chrf", "--chrf-beta", "1", "-cc", "0", "-cw", "2"],
        ["-m", "chrf", "--chrf-beta", "3", "-cc", "1", "--chrf-whitespace", "--chrf-lowercase"],
        ["-m", "chrf", "--chrf-beta", "0", "--chrf-eps-smoothing", "-sl"],
        ["-m", "chrf", "bleu", "--chrf-beta", "0", "-ci", "-cin", "2"],
        ["-s", "floor", "-sv", "0"],
        ["-s", "add-k", "-sv", "2.5", "-w", "0"],
        ["-s", "none", "-lc", "-tok", "intl", "-w", "6"],
        ["-m", "ter", "--ter-normalized", "--ter-asian-support", "--ter-no-punct", "--ter-case-sensitive"],
    ],
    ids=" ".join,
)
def test_option_values_sacrebleu_scores_on_the_command_line(options):
    """Option values sacreBLEU's command line scores print its output (``--chrf-beta`` is an
    int there: 0 is character precision)."""
    same_output(SAMPLE_REF, "-i", SAMPLE_HYP, "-f", "text", *options)


def _compare_cli() -> Any:
    """``tools/compare_cli.py`` as a module; skips where tools/ is not beside this copy of the
    tests (.ci/run's wheel step runs a copy of tests/ outside the checkout)."""
    if not (ROOT / "tools" / "compare_cli.py").is_file():
        pytest.skip("tools/compare_cli.py is not beside this copy of the tests (run from the checkout)")
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import compare_cli
    finally:
        sys.path.pop(0)
    return compare_cli


def test_compare_cli_slice_with_chrf():
    """A slice of ``tools/compare_cli.py``'s matrix (the full one ran over every WMT23 system,
    README): chrF beside BLEU in paired tests (command-line order), chrF++ and every --chrf-*
    option, LaTeX, JSON, two references (he-en), and -sl; sacreBLEU's standard output byte for
    byte."""
    compare_cli = _compare_cli()
    common = ["--a", f"{sys.executable} -m sacrebleu", "--b", f"{sys.executable} -m rapidbleu", "--stdout-only"]
    common += ["--data", str(SAMPLE_DIR), "--pairs", "he-en"]
    assert compare_cli.main([*common, "-m", "chrf", "bleu", "--match=--paired-bs", "--match=--chrf-eps-smoothing"]) == 0
    assert compare_cli.main([*common, "-m", "chrf", "--match=-sl"]) == 0


def test_compare_cli_slice_with_ter():
    """A slice of ``tools/compare_cli.py``'s TER matrix (the whole matrix ran on the first 30
    lines of every WMT23 system, README): TER beside BLEU in paired tests (command-line order),
    every --ter-* option, LaTeX, two and three references (he-en; the third is another system's
    output), and -sl; sacreBLEU's standard output byte for byte, on the first 12 lines."""
    compare_cli = _compare_cli()
    common = ["--a", f"{sys.executable} -m sacrebleu", "--b", f"{sys.executable} -m rapidbleu", "--stdout-only"]
    common += ["--data", str(SAMPLE_DIR), "--pairs", "he-en", "--head", "12"]
    assert compare_cli.main([*common, "-m", "ter", "bleu", "--match=--paired-bs", "--match=--ter-no-punct"]) == 0
    assert compare_cli.main([*common, "-m", "ter", "--match=-sl", "--match=--paired-ar"]) == 0


def test_ter_paired_bootstrap_prints_json(tmp_path):
    """``-m ter --paired-bs`` in JSON (the default format): the bootstrap means and intervals
    are float32 values, which sacreBLEU's JSON writer refuses (it fails with a traceback);
    rapidbleu prints them as numbers, the same values as the text table."""
    _pair, _system, _hyp, refs = systems(SAMPLE_DIR)[0]
    hyps = [s[2] for s in systems(SAMPLE_DIR) if s[3] == refs]
    heads = []
    for k, path in enumerate([*refs[:1], *hyps]):
        head = tmp_path / f"{k}.txt"
        head.write_text("".join(path.read_text("utf-8").splitlines(True)[:25]), "utf-8")
        heads.append(head)
    args = [heads[0], "-i", *heads[1:], "-m", "ter", "-pbs", "-pbsn", "40", "-q"]
    got = run("rapidbleu", *args)
    assert got.returncode == 0, got.stderr
    rows = json.loads(got.stdout)
    assert [sorted(r) for r in rows] == [["TER", "system"]] * len(hyps)
    text = run("rapidbleu", *args, "-f", "text", "-w", "4").stdout.decode()
    for row in rows:
        r = row["TER"]
        assert f"{r['score']:.4f} ({r['mean']:.4f} ± {r['ci']:.4f})" in text
    assert run("sacrebleu", *args).returncode != 0


def test_abbreviations_resolve_as_in_sacrebleu(monkeypatch):
    """Every prefix of a sacreBLEU long option that sacreBLEU resolves to one option resolves
    to that option here too (our extra options, e.g. --workers, must not make it ambiguous)."""
    theirs = _sacrebleu_parser(monkeypatch)
    ours = cli.build_parser()

    def resolve(parser, prefix):
        by_flag = {s: a for a in parser._actions for s in a.option_strings}
        if prefix in by_flag:
            return by_flag[prefix]
        hits = {id(a): a for s, a in by_flag.items() if s.startswith(prefix)}
        return next(iter(hits.values())) if len(hits) == 1 else None

    checked = 0
    for flag in sorted(_option_strings(theirs)):
        if not flag.startswith("--"):
            continue
        for k in range(3, len(flag) + 1):
            want = resolve(theirs, flag[:k])
            if want is None:
                continue
            got = resolve(ours, flag[:k])
            assert got is not None, flag[:k]
            assert set(want.option_strings) <= set(got.option_strings), flag[:k]
            checked += 1
    assert checked > 100


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["-t", "wmt14"], "I need exactly one of (a) a predefined test set (-t) or (b) a list of references"),
        (["-t", "13a"], "-t/--test-set: unknown test set '13a'; run with --list"),  # not -tok 13a
        (["--echo", "src"], "--echo requires a test set (-t) and a language pair (-l)"),
        (["-ol", "en"], "--origlang and --subset need a test set (-t)"),
        (["--subset", "sport"], "--origlang and --subset need a test set (-t)"),
        (["--citation"], "--citation: I need a test set (-t)."),
    ],
)
def test_test_set_options_out_of_place_are_one_line_errors(argv, message, capsys):
    """sacreBLEU's rules for the test-set options, each one line and exit status 1 (sacreBLEU's
    status), before anything is read or downloaded."""
    _pair, _system, hyp, refs = systems(SAMPLE_DIR)[0]
    code = cli.main([str(refs[0]), *argv, "-i", str(hyp)])
    err = capsys.readouterr().err
    assert code == 1
    assert err.startswith("rapidbleu: error: ")
    assert message in err
    assert err.count("\n") == 1


def test_detail_without_a_test_set_says_there_is_no_subset_information(capsys):
    """``-d`` without ``-t``: the score (text, as sacreBLEU turns JSON into text with ``-d``),
    then sacreBLEU's line saying there is no subset information."""
    _pair, _system, hyp, refs = systems(SAMPLE_DIR)[0]
    assert cli.main([str(refs[0]), "-i", str(hyp), "-d", "-q"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("BLEU|nrefs:1|")
    assert out[1] == "No subset information found. Consider using --origlang argument."


def test_a_test_set_offline_is_a_one_line_error(tmp_path):
    """``-t`` with nothing cached and no network (a mirror folder without the file): one line
    naming the set's URL and the cache, exit status 1, no traceback, nothing left in the cache
    that a later run would trust."""
    mirror = tmp_path / "mirror"
    mirror.mkdir()
    env = dict(os.environ, SACREBLEU=str(tmp_path / "cache"), RAPIDBLEU_DOWNLOAD_MIRROR=str(mirror))
    r = subprocess.run(
        [sys.executable, "-m", "rapidbleu", "-t", "wmt14", "-l", "de-en", "-q"],
        input="x\n",
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=False,
    )
    assert r.returncode == 1
    assert "Traceback" not in r.stderr
    assert r.stderr.startswith("rapidbleu: error: "), r.stderr
    assert r.stderr.count("\n") == 1, r.stderr
    for part in ("wmt14", "test-filtered.tgz", str(tmp_path / "cache")):
        assert part in r.stderr
    raw = tmp_path / "cache" / "wmt14" / "raw"
    assert [p.name for p in raw.iterdir() if not p.name.endswith(".lock")] == []


# -- clean command-line errors ----------------------------------------------------------------
def test_failed_model_download_is_a_one_line_error(tmp_path, monkeypatch, capsys):
    pytest.importorskip("sentencepiece")
    from local_server import closed_port_url

    monkeypatch.setenv("SACREBLEU", str(tmp_path / "sacrebleu"))  # no cached model there
    for var in ("RAPIDBLEU_FLORES101_MODEL", "RAPIDBLEU_FLORES200_MODEL"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("RAPIDBLEU_DOWNLOAD_MIRROR", closed_port_url("/models"))  # offline
    monkeypatch.setenv("RAPIDBLEU_DOWNLOAD_RETRIES", "1")
    _pair, _system, hyp, refs = systems(SAMPLE_DIR)[0]
    for tok in ("flores101", "flores200", "spm"):
        code = cli.main([str(refs[0]), "-i", str(hyp), "-tok", tok, "-q"])
        err = capsys.readouterr().err
        assert code == 1, tok
        assert err.startswith("rapidbleu: error: "), err
        assert err.count("\n") == 1, err
        assert "Connection refused" in err
        assert "SentencePiece model" in err
    left = [p.name for p in (tmp_path / "sacrebleu" / "models").iterdir()]
    assert all(name.endswith(".lock") for name in left), left  # no partial model left


def _run_with_backend(value, *command):
    env = dict(os.environ, RAPIDBLEU_BACKEND=value)
    return subprocess.run([sys.executable, *command], capture_output=True, text=True, env=env, timeout=120, check=False)


def test_bad_backend_variable_is_a_one_line_error(tmp_path):
    _pair, _system, hyp, refs = systems(SAMPLE_DIR)[0]
    args = [str(refs[0]), "-i", str(hyp)]
    # the console script: a file named rapidbleu, like the one pip writes
    script = tmp_path / "rapidbleu"
    script.write_text("import sys\nfrom rapidbleu.cli import main\nsys.exit(main())\n", "utf-8")
    for command in (["-m", "rapidbleu", *args], [str(script), *args]):
        r = _run_with_backend("bogus", *command)
        assert r.returncode == 1, r.stderr
        assert r.stdout == ""
        assert r.stderr == "rapidbleu: error: RAPIDBLEU_BACKEND='bogus': choose one of auto, cython, python\n"
        assert _run_with_backend("python", *command).returncode == 0


def test_bad_backend_variable_still_raises_in_a_library():
    # chosen on first use: importing succeeds, the first score (or rapidbleu.backend) raises
    assert _run_with_backend("bogus", "-c", "import rapidbleu").returncode == 0
    r = _run_with_backend("bogus", "-c", "import rapidbleu; rapidbleu.corpus_bleu(['a'], [['a']])")
    assert r.returncode == 1
    assert "Traceback" in r.stderr
    assert "BackendChoiceError" in r.stderr
    r = _run_with_backend(
        "bogus", "-c", "import rapidbleu\ntry:\n rapidbleu.backend\nexcept ValueError:\n print('caught')"
    )
    assert r.stdout == "caught\n", r.stderr


# A pure-Python install (no compiler at install time) seen from the outside: the compiled
# modules made unimportable, as when they were never built.
_NOT_BUILT = (
    "import sys\n"
    f"for m in {tuple(compiled for compiled, _twin, _docs in _backend.TWINS.values())!r}:\n"
    "    sys.modules['rapidbleu._core.' + m] = None\n"
)


def test_pure_python_install_says_so_once_in_one_line(tmp_path):
    """The CLI prints the fallback as one line (it printed Python's warning with a source line
    of rapidbleu's code, once per kernel kind), none with -q; a library gets one warning that
    points at the caller's own line."""
    _pair, _system, hyp, refs = systems(SAMPLE_DIR)[0]
    args = [str(refs[0]), "-i", str(hyp), "-sl"]
    cli = _NOT_BUILT + f"from rapidbleu.cli import main\nsys.exit(main({args!r} + sys.argv[1:]))\n"
    r = _run_with_backend("auto", "-c", cli)
    assert r.returncode == 0, r.stderr
    assert r.stdout == _run_with_backend("python", "-c", cli).stdout
    lines = r.stderr.splitlines()
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith(
        "rapidbleu: compiled core not available (rapidbleu._core.bleu.bleu_stats_cy was not compiled at install"
    )
    assert lines[0].endswith(
        "using the pure-Python backend (same results, slower). Set RAPIDBLEU_BACKEND=python to silence this warning."
    )
    assert _run_with_backend("auto", "-c", cli, "-q").stderr == ""
    user = tmp_path / "user_script.py"
    user.write_text(
        _NOT_BUILT + "import rapidbleu\nfrom rapidbleu.batch import self_bleu\n"
        "rapidbleu.corpus_bleu(['a b'], [['a b']])\nself_bleu(['a b', 'a c'])\n",
        "utf-8",
    )
    r = _run_with_backend("auto", str(user))
    assert r.returncode == 0, r.stderr
    assert r.stderr.count("compiled core not available") == 1, r.stderr
    assert r.stderr.startswith(f"{user}:6: BackendFallbackWarning: rapidbleu: compiled core not available"), r.stderr


# Start-up: a corpus score (one system or a table of systems) needs only column sums, which
# the compiled core returns without numpy; importing numpy alone costs more than the rest of
# such a run (bench/bench_startup.py).  Run with numpy made unimportable, the output must be
# the normal one.
_NO_NUMPY = "import sys; sys.modules['numpy'] = None; from rapidbleu.cli import main; sys.exit(main())"


@pytest.mark.skipif(not HAVE_CYTHON, reason="the compiled core is not built")
@pytest.mark.parametrize("options", [[], ["-f", "text", "-b"], ["-lc", "--tokenize", "char"], ["-tok", "none"]])
def test_corpus_scores_do_not_import_numpy(options):
    sample = [s for s in systems(SAMPLE_DIR) if s[0] == "de-en"]
    for hyps in ([sample[0][2]], [s[2] for s in sample]):
        args = [*sample[0][3], "-i", *hyps, *options]
        env = dict(os.environ, NO_COLOR="", PYTHONIOENCODING="utf-8", RAPIDBLEU_BACKEND="cython")
        blocked = subprocess.run(
            [sys.executable, "-c", _NO_NUMPY, *map(str, args)], capture_output=True, env=env, timeout=300, check=False
        )
        assert blocked.returncode == 0, blocked.stderr.decode()
        assert blocked.stdout == run("rapidbleu", *args).stdout
        same_output(*args)


#: Modules a plain corpus score (one system, BLEU, the default output) does not need, each a
#: measurable part of the command's start-up (bench/bench_startup.py): imported where the work
#: that needs them is (dataclasses brings inspect, statistics random; concurrent.futures for a
#: second thread, gzip for a .gz file, inspect for a refused option, logging for a first message;
#: sacreBLEU's layout of the package at its first look-up).
_NOT_AT_START = (
    "dataclasses",
    "inspect",
    "statistics",
    "random",
    "concurrent.futures",
    "gzip",
    "logging",
    "rapidbleu.metrics",
    "rapidbleu.compat",
)


@pytest.mark.skipif(not HAVE_CYTHON, reason="the compiled core is not built")
def test_a_plain_corpus_score_imports_only_what_it_needs():
    _pair, _system, hyp, refs = systems(SAMPLE_DIR)[0]
    probe = (
        "import sys\nfrom rapidbleu.cli import main\ncode = main(sys.argv[1:])\n"
        f"print(sorted(m for m in {_NOT_AT_START!r} if m in sys.modules), file=sys.stderr)\nsys.exit(code)\n"
    )
    env = dict(os.environ, RAPIDBLEU_BACKEND="cython", PYTHONIOENCODING="utf-8")
    r = subprocess.run(
        [sys.executable, "-c", probe, str(refs[0]), "-i", str(hyp)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout == run("rapidbleu", refs[0], "-i", hyp).stdout.decode()
    assert r.stderr.splitlines()[-1] == "[]", r.stderr


# -- option values sacreBLEU accepts and then misuses ------------------------------------------
SAMPLE_REF = str(SAMPLE_DIR / "generaltest2023.de-en.ref.refA.en")
SAMPLE_HYP = str(SAMPLE_DIR / "generaltest2023.de-en.hyp.ONLINE-W.en")
SAMPLE_HYP2 = str(SAMPLE_DIR / "generaltest2023.de-en.hyp.AIRC.en")


#: Command lines rapidbleu refuses as usage errors although sacreBLEU takes them, with what
#: sacreBLEU does instead (its exit status) -- the reason for each refusal.
REFUSED_USAGE = [
    # sacreBLEU reads the part after the dash as the target language: an IndexError (1) for
    # enzh, Chinese tokenized with 13a (0) for en-zh written without the dash as "en-"
    (["-l", "enzh"], "-l/--language-pair 'enzh': expected SRC-TRG with a dash", 1),
    (["-l", "en-"], "-l/--language-pair 'en-': expected SRC-TRG with a dash", 0),
    (["-w", "-1"], "-w/--width -1: the number of decimals must be >= 0", 1),  # a format-string crash
    # sacreBLEU runs its defaults (1000 / 10000) for 0 or less and prints the number given;
    # with -cin 1 it prints no interval
    (["-i", SAMPLE_HYP, SAMPLE_HYP2, "-pbs", "-pbsn", "0"], "-pbsn/--paired-bs-n 0: give at least 2 bootstrap", 0),
    (["-i", SAMPLE_HYP, SAMPLE_HYP2, "-pbs", "-pbsn", "-5"], "-pbsn/--paired-bs-n -5: give at least 2 bootstrap", 0),
    (["-i", SAMPLE_HYP, SAMPLE_HYP2, "-pbs", "-pbsn", "1"], "-pbsn/--paired-bs-n 1: give at least 2 bootstrap", 0),
    (["-i", SAMPLE_HYP, SAMPLE_HYP2, "-par", "-parn", "0"], "-parn/--paired-ar-n 0: give at least 1 approximate", 0),
    (["-ci", "-cin", "1"], "-cin/--confidence-n 1: give at least 2 bootstrap resamples", 0),
    (["-ci", "-cin", "0"], "-cin/--confidence-n 0: give at least 2 bootstrap resamples", 0),
    (["-nr", "0"], "-nr/--num-refs 0: give at least 1 reference per line", 17),  # "expected 0 fields"
    (["-e", "no-such-codec"], "-e/--encoding no-such-codec: unknown encoding", 1),  # a LookupError
    (["-i"], "-i/--input needs at least one file", 0),  # "Found 0 systems" and an empty table
    # a smoothing value that is nan, inf or negative: sacreBLEU scores nan, inf or (here, where
    # no order lacks matches) ignores it
    (["-s", "floor", "-sv", "nan"], "-sv/--smooth-value nan: smooth_value must be a finite number >= 0", 0),
    (["-s", "floor", "-sv", "-0.5"], "-sv/--smooth-value -0.5: smooth_value must be a finite number >= 0", 0),
    (["-s", "add-k", "-sv", "inf"], "-sv/--smooth-value inf: smooth_value must be a finite number >= 0", 0),
    # chrF: sacreBLEU fails (both orders 0, an order below 0: IndexError) or names the score chrF-1
    (["-m", "chrf", "-cc", "0", "-cw", "0"], "-cc/--chrf-char-order 0: char_order and word_order are both 0", 1),
    (["-m", "chrf", "-cc", "-1"], "-cc/--chrf-char-order -1: char_order must be between 0 and 64", 1),
    (["-m", "chrf", "--chrf-beta", "-1"], "--chrf-beta -1: beta must be a finite number >= 0", 0),
]


def _usage_error(argv: list[str]) -> tuple[int, str]:
    """``(exit status, last line of stderr)`` of rapidbleu with ``argv``, which must print
    argparse's usage line first."""
    r = run("rapidbleu", SAMPLE_REF, "-i", SAMPLE_HYP, "-q", *argv)
    lines = r.stderr.decode().splitlines()
    assert r.stdout == b""
    assert lines[0].startswith("usage: rapidbleu "), lines
    return r.returncode, lines[-1]


@pytest.mark.parametrize(
    ("options", "message", "sacre_code"), REFUSED_USAGE, ids=lambda x: " ".join(x) if isinstance(x, list) else None
)
def test_refused_values_are_usage_errors(options, message, sacre_code, capsys):
    """Values sacreBLEU misuses (its exit status is checked: it crashes or scores something
    else) are usage errors here: argparse's usage line, one error line, exit status 2."""
    assert cli.main([SAMPLE_REF, "-i", SAMPLE_HYP, "-q", *options]) == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: rapidbleu ")
    assert err.splitlines()[-1].startswith(f"rapidbleu: error: {message}")
    assert run("sacrebleu", SAMPLE_REF, "-i", SAMPLE_HYP, "-q", *options).returncode == sacre_code


#: sacreBLEU's own usage errors (argparse's: exit status 2), with the words both print.
SACRE_USAGE = [
    (["-m", "meteor"], "argument --metrics/-m: invalid choice: 'meteor' (choose from 'bleu', 'chrf', 'ter')"),
    (["-m", "nltk"], "argument --metrics/-m: invalid choice: 'nltk' (choose from 'bleu', 'chrf', 'ter')"),
    (["-m"], "argument --metrics/-m: expected at least one argument"),
    (["-tok", "13b"], "argument --tokenize/-tok: invalid choice: '13b'"),
    (["-s", "exponential"], "argument --smooth-method/-s: invalid choice: 'exponential'"),
    (["-f", "csv"], "argument --format/-f: invalid choice: 'csv'"),
    (["-cc", "x"], "argument --chrf-char-order/-cc: invalid int value: 'x'"),
    (["--chrf-beta", "0.5"], "argument --chrf-beta: invalid int value: '0.5'"),
    (["-sv", "x"], "argument --smooth-value/-sv: invalid float value: 'x'"),
    (["-w", "1.5"], "invalid int value: '1.5'"),  # (ours also lists --w, spelled out: see build_parser)
    (["-pbs", "-par"], "argument --paired-ar/-par: not allowed with argument --paired-bs/-pbs"),
    (["--no-such-option"], "unrecognized arguments: --no-such-option"),
]


@pytest.mark.parametrize(("options", "words"), SACRE_USAGE, ids=lambda x: " ".join(x) if isinstance(x, list) else None)
def test_usage_errors_exit_2_as_sacrebleus(options, words):
    code, error = _usage_error(options)
    theirs = run("sacrebleu", SAMPLE_REF, "-i", SAMPLE_HYP, "-q", *options)
    assert code == theirs.returncode == 2
    assert error.startswith("rapidbleu: error: ")
    assert words in error
    assert words in theirs.stderr.decode().splitlines()[-1]


@pytest.mark.usefixtures("backend")
@pytest.mark.parametrize("options", [["-l", "de-en"], ["-m", "bleu"], ["-w", "0"], ["-s", "floor", "-sv", "0"]])
def test_cli_valid_values_still_score(options, capsys):
    assert cli.main([SAMPLE_REF, "-i", SAMPLE_HYP, "-b", *options]) == 0
    assert float(capsys.readouterr().out) > 0


class _UnigramF1(rapidbleu.registry.Metric):
    """A metric of the test's own: unigram F1 (clipped matches against the first reference,
    statistics [matches, hyp words, ref words]) with one option, ``--uf1-lowercase``, and a
    corpus watch that logs the number of empty hypotheses."""

    metric_id = "uf1"
    cli_title = "Unigram F1 arguments"
    cli_options = ((("--uf1-lowercase",), {"action": "store_true", "default": False, "help": "Lowercase."}),)

    def __init__(self, lowercase: bool = False, workers: int = 1) -> None:
        if not isinstance(lowercase, bool):
            raise TypeError(f"lowercase must be a bool, got {lowercase!r}")
        self.lowercase, self.workers, self.num_refs = lowercase, workers, -1

    @classmethod
    def command_line_watch(cls, values, context):  # noqa: ARG003 -- the hook's signature
        return _EmptyLines()

    @property
    def stats_columns(self):
        return ("matches", "hyp_len", "ref_len")

    def corpus_statistics(self, hypotheses, references=None):
        import collections

        import numpy as np

        def words(text):
            return (text.lower() if self.lowercase else text).split()

        self.num_refs = len(references)
        rows = []
        for hyp, ref in zip(hypotheses, references[0], strict=True):
            h, r = collections.Counter(words(hyp)), collections.Counter(words(ref))
            rows.append([sum((h & r).values()), sum(h.values()), sum(r.values())])
        return np.array(rows, dtype=np.int64).reshape(-1, 3)

    def score_from_stats(self, stats):
        matches, hyp_len, ref_len = (int(v) for v in stats)
        return rapidbleu.score.Score("UF1", 200.0 * matches / max(hyp_len + ref_len, 1))

    def scores_from_stats(self, sums, dtype=None):  # noqa: ARG002 -- Python floats whatever the rows
        import numpy as np

        return np.array([self.score_from_stats(row).score for row in sums], dtype=np.float64)

    def config(self):
        return {"lowercase": self.lowercase, "num_refs": self.num_refs}

    @classmethod
    def from_config(cls, config):
        metric = cls(config["lowercase"])
        metric.num_refs = config["num_refs"]
        return metric

    def get_signature(self):
        signature = rapidbleu.score.Signature({"num_refs": self.num_refs})
        signature.update("case", "lc" if self.lowercase else "mixed")
        return signature


class _EmptyLines(rapidbleu.registry.CorpusWatch):
    def __init__(self):
        self.count = 0

    def see(self, hypotheses):
        self.count += sum(not h.strip() for h in hypotheses)

    def done(self):
        rapidbleu._base.log.logger.warning("%d empty hypotheses", self.count)


@pytest.fixture
def unigram_f1():
    rapidbleu.registry.register(_UnigramF1)
    yield _UnigramF1
    rapidbleu.registry.unregister("uf1")


def test_a_registered_metric_reaches_the_command_line_with_its_own_options(unigram_f1, tmp_path, capsys, caplog):
    """One ``registry.register`` line puts a metric of the test's own on ``-m``, with its
    option group in ``--help``, its options passed to its constructor, its corpus watch run
    over the chunks (``RAPIDBLEU_CHUNK_LINES=2``), and every mode: a score, ``-ci``, tables,
    paired tests, beside BLEU."""
    ref, hyp, other = tmp_path / "ref", tmp_path / "hyp", tmp_path / "other"
    ref.write_text("The cat sat\non the mat\nhello there\n", "utf-8")
    hyp.write_text("the cat sat\n\nhello There you\n", "utf-8")
    other.write_text("a cat\non a mat\nhello\n", "utf-8")
    assert cli.main(["--help"]) == 0
    assert "Unigram F1 arguments:\n  --uf1-lowercase" in capsys.readouterr().out
    os.environ["RAPIDBLEU_CHUNK_LINES"] = "2"
    try:
        assert cli.main([str(ref), "-i", str(hyp), "-m", "uf1", "--uf1-lowercase", "-f", "text", "-w", "2"]) == 0
        out = capsys.readouterr().out
        # matches 3 + 0 + 2 over 3+3, 0+3, 3+2 words: 200 * 5 / 14
        assert out.startswith("UF1|nrefs:1|case:lc|version:"), out
        assert out.endswith(f" = {200 * 5 / 14:.2f}\n"), out
        assert caplog.messages == ["1 empty hypotheses"]  # once, over both chunks
        assert cli.main([str(ref), "-i", str(hyp), "-m", "uf1", "-b", "-w", "2"]) == 0
        assert capsys.readouterr().out == f"{200 * 3 / 14:.2f}\n"  # (case kept: 'the', 'There' miss)
        assert cli.main([str(ref), "-i", str(hyp), "-m", "uf1", "bleu", "-ci", "-cin", "20", "-q"]) == 0
        got = json.loads(capsys.readouterr().out)
        assert [g["name"] for g in got] == ["BLEU", "UF1"]
        assert "μ = " in got[1]["confidence"]
        for extra in ([], ["--paired-bs", "-pbsn", "20"], ["--paired-ar", "-parn", "20"]):
            assert cli.main([str(ref), "-i", str(hyp), str(other), "-m", "bleu", "uf1", "-q", *extra]) == 0
            assert "UF1" in capsys.readouterr().out
    finally:
        del os.environ["RAPIDBLEU_CHUNK_LINES"]
    assert cli.main([str(ref), "-i", str(hyp), "-m", "nope"]) == 2
    assert "invalid choice: 'nope' (choose from 'bleu', 'chrf', 'ter', " in (err := capsys.readouterr().err)
    assert "'uf1')" in err  # (and the metrics other test modules register)


def test_registering_checks_the_metric(unigram_f1):
    """``registry.register`` refuses a class that is not a metric, a second class under a
    taken id, and an option whose ``dest`` is not ``<metric_id>_...``; ``get`` names the ids."""
    from rapidbleu import registry

    assert registry.register(unigram_f1) is unigram_f1  # (again: nothing happens)
    with pytest.raises(TypeError, match=r"subclass of rapidbleu\.registry\.Metric"):
        registry.register(dict)
    with pytest.raises(ValueError, match="'uf1' is already registered"):
        registry.register(type("Other", (unigram_f1,), {}))
    with pytest.raises(ValueError, match="stores 'lowercase'; give it dest='uf2_<constructor argument>'"):
        registry.register(type("Bad", (unigram_f1,), {"metric_id": "uf2", "cli_options": ((("--lowercase",), {}),)}))
    with pytest.raises(ValueError, match=r"unknown metric 'uf2'; known: bleu, chrf, ter, nltk, .*uf1$"):
        registry.get("uf2")
