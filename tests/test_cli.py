"""The command line prints what sacreBLEU's prints (apart from the signature's version)."""

import gzip
import os
import subprocess
import sys

import pytest

import rapidbleu
from conftest import OFFICIAL_TOKENIZER, SAMPLE_DIR, full_data_dir, systems

OURS = f"version:rapidbleu-{rapidbleu.__version__}"
OURS_SHORT = f"v:rapidbleu-{rapidbleu.__version__}"


def run(tool, *args, stdin=None):
    env = dict(os.environ, NO_COLOR="", PYTHONIOENCODING="utf-8")
    env.pop("SACREBLEU_FORMAT", None)
    return subprocess.run([sys.executable, "-m", tool, *map(str, args)], input=stdin, capture_output=True,
                          env=env, timeout=300)


def same_output(*args, stdin=None):
    ours, theirs = run("rapidbleu", *args, stdin=stdin), run("sacrebleu", *args, stdin=stdin)
    assert theirs.returncode == 0, theirs.stderr
    assert ours.returncode == 0, ours.stderr
    import sacrebleu

    v = sacrebleu.__version__
    text = (ours.stdout.decode().replace(OURS, f"version:{v}").replace(OURS_SHORT, f"v:{v}")
            .replace(f'"version": "rapidbleu-{rapidbleu.__version__}"', f'"version": "{v}"'))
    assert text == theirs.stdout.decode()
    return text


def thirteen_a(directory):
    return [s for s in systems(directory) if s[0] not in OFFICIAL_TOKENIZER]


@pytest.mark.parametrize("fmt", ["json", "text"])
def test_every_13a_system_full_data(fmt):
    for pair, system, hyp, refs in thirteen_a(full_data_dir()):
        same_output(refs[0], "-i", hyp, "-f", fmt)


@pytest.mark.parametrize("options", [
    [], ["-f", "text"], ["-b"], ["-f", "text", "-b"], ["-w", "4"], ["-f", "text", "--short"], ["-lc"],
    ["-tok", "none"], ["-s", "floor", "-sv", "0.2"], ["-s", "add-k"], ["-s", "none"], ["--force"],
])
def test_options_on_sample(options):
    pair, system, hyp, refs = [s for s in systems(SAMPLE_DIR) if s[0] == "he-en"][0]
    same_output(*refs, "-i", hyp, *options)


def test_sentence_level():
    pair, system, hyp, refs = [s for s in systems(SAMPLE_DIR) if s[0] == "cs-uk"][0]
    same_output(refs[0], "-i", hyp, "-sl")
    same_output(refs[0], "-i", hyp, "-sl", "-b", "-w", "3")


def test_multi_system_table_json_and_latex():
    sample = [s for s in systems(SAMPLE_DIR) if s[0] == "de-en"]
    hyps = [s[2] for s in sample]
    for fmt in ("text", "json", "latex"):
        same_output(sample[0][3][0], "-i", *hyps, "-f", fmt)


def test_stdin_and_gzip_and_num_refs(tmp_path):
    pair, system, hyp, refs = [s for s in systems(SAMPLE_DIR) if s[0] == "he-en"][0]
    same_output(refs[0], stdin=hyp.read_bytes())
    gz = tmp_path / "ref.gz"
    gz.write_bytes(gzip.compress(refs[0].read_bytes()))
    same_output(gz, "-i", hyp)
    a, b = refs[0].read_text("utf-8").splitlines(), refs[1].read_text("utf-8").splitlines()
    tsv = tmp_path / "refs.tsv"
    tsv.write_text("".join(f"{x}\t{y}\n" for x, y in zip(a, b)), "utf-8")
    assert "nrefs:2" in same_output(tsv, "-nr", "2", "-i", hyp)


def test_bom_is_kept_like_sacrebleu():
    pair, system, hyp, refs = [s for s in systems(SAMPLE_DIR) if s[1] == "AIRC" and s[0] == "en-de"][0]
    assert hyp.read_bytes().startswith(b"\xef\xbb\xbf")
    same_output(refs[0], "-i", hyp, "-f", "text")


# -- errors: non-zero exit, one line naming the file and line --------------------------------
def test_missing_file(tmp_path):
    pair, system, hyp, refs = systems(SAMPLE_DIR)[0]
    r = run("rapidbleu", tmp_path / "nope.txt", "-i", hyp)
    assert r.returncode != 0 and b"nope.txt: no such file" in r.stderr
    r = run("rapidbleu", refs[0], "-i", tmp_path / "gone.txt")
    assert r.returncode != 0 and b"gone.txt: no such file" in r.stderr


def test_line_count_mismatch(tmp_path):
    short = tmp_path / "short.txt"
    short.write_text("a\nb\n", "utf-8")
    ref = tmp_path / "ref.txt"
    ref.write_text("a\nb\nc\n", "utf-8")
    r = run("rapidbleu", ref, "-i", short)
    assert r.returncode == 1
    assert f"{short} has 2 lines but {ref} has 3".encode() in r.stderr


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
    assert r.returncode == 1 and b"is empty" in r.stderr


def test_num_refs_field_mismatch(tmp_path):
    tsv = tmp_path / "refs.tsv"
    tsv.write_text("a\tb\nc\n", "utf-8")
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("a\nc\n", "utf-8")
    r = run("rapidbleu", tsv, "-nr", "2", "-i", hyp)
    assert r.returncode == 17 and b"line 2: expected 2 tab-separated references, found 1" in r.stderr


def test_version_flag_matches_metadata():
    from importlib.metadata import PackageNotFoundError, version

    r = run("rapidbleu", "--version")
    assert r.stdout.decode().strip() == f"rapidbleu {rapidbleu.__version__}"
    try:
        assert version("rapidbleu") == rapidbleu.__version__
    except PackageNotFoundError:
        pytest.skip("rapidbleu not installed (running from the source tree)")
