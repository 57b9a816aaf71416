"""The streaming command line: inputs read in lockstep in small chunks (RAPIDBLEU_CHUNK_LINES)
give sacreBLEU's output byte for byte, and errors still name the file and line."""

import contextlib
import gzip
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from conftest import SAMPLE_DIR, systems
from test_cli import run, same_output

SIG = "Signature"


@pytest.fixture(autouse=True)
def tiny_chunks(monkeypatch):
    # 7 lines per chunk: every sample file spans many chunks, the last one partial
    monkeypatch.setenv("RAPIDBLEU_CHUNK_LINES", "7")


def _de_en():
    sample = [s for s in systems(SAMPLE_DIR) if s[0] == "de-en"]
    return [s[2] for s in sample], sample[0][3]


@pytest.mark.parametrize(
    "options", [[], ["-f", "text"], ["-sl"], ["-sl", "-b"], ["-ci", "-cin", "100"], ["-lc", "-tok", "intl"]]
)
def test_chunked_single_system(options):
    hyps, refs = _de_en()
    same_output(refs[0], "-i", hyps[0], *options)


@pytest.mark.parametrize("options", [["-f", "text"], ["-pbs", "-pbsn", "50"], ["-par", "-parn", "64", "-f", "text"]])
def test_chunked_several_systems(options):
    hyps, refs = _de_en()
    same_output(refs[0], "-i", *hyps, *options)


def test_chunked_stdin_gzip_and_num_refs(tmp_path):
    hyps, refs = _de_en()
    lines = [h.read_text("utf-8").splitlines() for h in hyps[:2]]
    tsv_stdin = "\n".join(f"{a}\t{b}" for a, b in zip(*lines, strict=False)).encode()
    same_output(refs[0], "-f", "text", stdin=tsv_stdin)  # two systems on stdin
    same_output(refs[0], stdin=hyps[0].read_bytes().replace(b"\n", b"\r\n"))  # universal newlines
    gz = tmp_path / "hyp.gz"
    gz.write_bytes(gzip.compress(hyps[0].read_bytes()))
    same_output(refs[0], "-i", gz, "-sl")
    r = refs[0].read_text("utf-8").splitlines()
    tsv = tmp_path / "refs.tsv"
    tsv.write_text("".join(f"{x}\t{y}\n" for x, y in zip(r, r[::-1], strict=False)), "utf-8")
    assert "nrefs:2" in same_output(tsv, "-nr", "2", "-i", hyps[0], "-f", "text")


def test_mismatch_after_several_chunks_names_files_and_lengths(tmp_path):
    ref = tmp_path / "ref.txt"
    ref.write_text("".join(f"line {i}\n" for i in range(40)), "utf-8")
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("".join(f"line {i}\n" for i in range(33)), "utf-8")
    r = run("rapidbleu", ref, "-i", hyp)
    assert r.returncode == 1
    assert r.stdout == b""
    assert f"{hyp} has 33 lines but {ref} has 40".encode() in r.stderr
    r = run("rapidbleu", hyp, "-i", ref)
    assert f"{ref} has 40 lines but {hyp} has 33".encode() in r.stderr


def test_undecodable_bytes_in_a_later_chunk(tmp_path):
    good = tmp_path / "good.txt"
    good.write_text("".join(f"ok {i}\n" for i in range(30)), "utf-8")
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"".join(b"ok %d\n" % i for i in range(25)) + b"bad \xff\n" + b"ok\n" * 4)
    r = run("rapidbleu", good, "-i", bad)
    assert r.returncode == 1
    assert f"{bad}: line 26: cannot decode".encode() in r.stderr
    # an error in a reference comes first, as when files were read whole
    late = tmp_path / "late.txt"
    late.write_bytes(b"ok\n" * 28 + b"\xfe\n" + b"ok\n")
    r = run("rapidbleu", late, "-i", bad)
    assert f"{late}: line 29: cannot decode".encode() in r.stderr


def test_field_count_error_in_a_later_chunk(tmp_path):
    tsv = tmp_path / "refs.tsv"
    tsv.write_text("a\tb\n" * 20 + "c\n", "utf-8")
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("a\n" * 21, "utf-8")
    r = run("rapidbleu", tsv, "-nr", "2", "-i", hyp)
    assert r.returncode == 17
    assert b"line 21: expected 2 tab-separated references, found 1" in r.stderr
    r = run("rapidbleu", tsv, stdin=b"a\tb\n" * 12 + b"a\n")
    assert r.returncode == 17
    assert b"standard input: line 13: 1 tab-separated fields" in r.stderr


def _on_terminal(args, **variables):
    """Run the CLI with stderr on a pseudo-terminal (and ``variables`` in its environment);
    return what it wrote there."""
    import fcntl
    import pty
    import struct
    import termios

    master, slave = pty.openpty()
    # a terminal 80 columns wide (a new pseudo-terminal has 0, and tqdm then draws nothing)
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = dict(os.environ, RAPIDBLEU_PROGRESS_DELAY="0", **variables)
    proc = subprocess.Popen(
        [sys.executable, "-m", "rapidbleu", *map(str, args)], stdout=subprocess.PIPE, stderr=slave, env=env
    )
    os.close(slave)
    out = b""
    while True:
        try:
            data = os.read(master, 4096)
        except OSError:
            break
        if not data:
            break
        out += data
    proc.wait(timeout=120)
    os.close(master)
    return proc.returncode, out


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_progress_bar_only_on_a_terminal_and_not_quiet():
    hyps, refs = _de_en()
    code, err = _on_terminal([refs[0], "-i", hyps[0]])
    assert code == 0
    assert b"lines" in err
    assert b"/s" in err
    code, err = _on_terminal([refs[0], "-i", hyps[0], "-q"])
    assert code == 0
    assert b"lines" not in err
    r = run("rapidbleu", refs[0], "-i", hyps[0])  # stderr is a pipe: no bar
    assert b"lines/s" not in r.stderr
    assert b"lines" not in r.stderr


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
@pytest.mark.parametrize(
    ("option", "bar", "total"),
    [
        ("--paired-bs", "paired bootstrap", 1000),
        ("--paired-ar", "approximate randomization", 10000),
        ("--confidence", "bootstrap", 1000),
    ],
)
def test_paired_tests_and_bootstrap_show_progress_on_a_terminal(option, bar, total):
    """sacreBLEU logs a line per system of a paired test; rapidbleu draws a bar of resamples or
    trials on a terminal that counts to the end (``TQDM_MININTERVAL=0``: every update drawn), for
    ``--confidence`` too, and nothing of it with -q or on a pipe (where stderr stays as it was)."""
    hyps, refs = _de_en()
    args = [refs[0], "-i", *(hyps if option.startswith("--paired") else hyps[:1]), option]
    code, err = _on_terminal(args, TQDM_MININTERVAL="0")
    assert code == 0
    assert f"{bar}: 100%".encode() in err
    assert f" {total}/{total} ".encode() in err
    code, err = _on_terminal([*args, "-q"], TQDM_MININTERVAL="0")
    assert code == 0
    assert b"sample" not in err
    r = run("rapidbleu", *args)
    assert r.returncode == 0
    assert b"sample" not in r.stderr


def test_mismatch_with_tab_separated_inputs(tmp_path):
    """Fields of one file (-nr, systems on stdin) are counted once, without keeping the lines."""
    tsv = tmp_path / "refs.tsv"
    tsv.write_text("".join(f"a{i}\tb{i}\n" for i in range(30)), "utf-8")
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("".join(f"a{i}\n" for i in range(19)), "utf-8")
    r = run("rapidbleu", tsv, "-nr", "2", "-i", hyp)
    assert f"{hyp} has 19 lines but {tsv} (reference field 1) has 30".encode() in r.stderr
    r = run("rapidbleu", hyp, stdin=b"x\ty\n" * 25)
    assert f"System 1 has 25 lines but {hyp} has 19".encode() in r.stderr


@pytest.mark.parametrize("gz", [False, True])
def test_sentence_level_prints_nothing_when_line_counts_differ(tmp_path, gz):
    """-sl writes scores chunk by chunk; files whose line counts differ print no score at all
    (as sacreBLEU), only the usual error."""
    open_ = gzip.open if gz else open
    ref, hyp = tmp_path / ("r.gz" if gz else "r"), tmp_path / "h"
    with open_(ref, "wt", encoding="utf-8") as fh:
        fh.write("".join(f"the cat {i} sat\n" for i in range(40)))
    hyp.write_text("".join(f"the cat {i} sat\n" for i in range(39)), "utf-8")
    r = run("rapidbleu", ref, "-i", hyp, "-sl")
    assert r.returncode == 1
    assert r.stdout == b""
    assert f"{hyp} has 39 lines but {ref} has 40".encode() in r.stderr


# -- pipes: FIFOs, process substitution, /dev/stdin ----------------------------------------


@contextlib.contextmanager
def _fifos(folder, contents):
    """FIFOs ``folder/name`` fed ``contents[name]`` (bytes) by writer threads; a FIFO the
    command never opened is drained at the end, so that no writer is left blocked."""
    folder.mkdir()
    threads = []
    for name, data in contents.items():
        path = folder / name
        os.mkfifo(path)

        def write(path=path, data=data):
            try:
                with open(path, "wb") as fh:
                    fh.write(data)
            except BrokenPipeError:
                pass

        thread = threading.Thread(target=write, daemon=True)
        thread.start()
        threads.append((path, thread))
    try:
        yield folder
    finally:
        for path, thread in threads:
            while thread.is_alive():
                fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
                thread.join(timeout=0.2)
                os.close(fd)


def _files(folder, contents):
    folder.mkdir()
    for name, data in contents.items():
        (folder / name).write_bytes(data)
    return folder


_PIPE_MODES = {
    "json": (["ref"], ["h1"], []),
    "sentence-level": (["ref"], ["h1"], ["-sl"]),
    "two references, text": (["ref", "h2"], ["h1"], ["-f", "text", "-b"]),
    "table": (["ref"], ["h1", "h2", "h3"], ["-f", "text"]),
    "confidence": (["ref"], ["h1"], ["-ci", "-cin", "40"]),
    "paired bootstrap": (["ref"], ["h1", "h2"], ["-pbs", "-pbsn", "40"]),
    "paired AR": (["ref"], ["h1", "h2", "h3"], ["-par", "-parn", "40", "-f", "text"]),
    "tab-separated references": (["tsv"], ["h1"], ["-nr", "2"]),
    "report": (["ref"], ["h1", "h2"], ["--report", "-", "-pbsn", "30", "--source", "src"]),
}


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
@pytest.mark.parametrize("mode", list(_PIPE_MODES))
def test_every_mode_reads_fifos_as_files(tmp_path, mode):
    """Every input a FIFO: the same output as with regular files (names aside).  The lines were
    counted first with -sl, which emptied the pipes ("is empty")."""
    hyps, refs = _de_en()
    ref_lines = refs[0].read_text("utf-8").splitlines()
    contents = {
        "ref": refs[0].read_bytes(),
        "h1": hyps[0].read_bytes(),
        "h2": hyps[1].read_bytes(),
        "h3": hyps[2].read_bytes(),
        "tsv": "".join(f"{a}\t{b}\n" for a, b in zip(ref_lines, reversed(ref_lines), strict=True)).encode(),
        "src": b"source line\n" * len(ref_lines),
    }
    ref_names, sys_names, options = _PIPE_MODES[mode]
    used = {name: contents[name] for name in [*ref_names, *sys_names, *(["src"] if "--source" in options else [])]}

    def command(folder):
        opts = [str(folder / o) if o == "src" else o for o in options]
        return [*(folder / r for r in ref_names), "-i", *(folder / s for s in sys_names), *opts]

    regular = _files(tmp_path / "files", used)
    want = run("rapidbleu", *command(regular))
    assert want.returncode == 0, want.stderr
    with _fifos(tmp_path / "fifos", used) as folder:
        got = run("rapidbleu", *command(folder))
    assert got.returncode == 0, got.stderr
    assert got.stdout.replace(b"/fifos/", b"/files/") == want.stdout


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_fifo_length_mismatch_names_both_lengths(tmp_path):
    ref = tmp_path / "ref.txt"
    ref.write_text("".join(f"the cat {i} sat\n" for i in range(40)), "utf-8")
    with _fifos(tmp_path / "fifos", {"hyp": b"".join(b"the cat %d sat\n" % i for i in range(33))}) as folder:
        r = run("rapidbleu", ref, "-i", folder / "hyp", "-sl")
    assert r.returncode == 1
    assert f"{folder / 'hyp'} has 33 lines but {ref} has 40".encode() in r.stderr


@pytest.mark.skipif(sys.platform == "win32" or not Path("/bin/bash").exists(), reason="needs bash")
def test_process_substitution_and_dev_stdin():
    """``rapidbleu <(...) -i <(...) -sl`` as a shell user writes it, and ``-i /dev/stdin``."""
    hyps, refs = _de_en()
    want = run("rapidbleu", refs[0], "-i", hyps[0], "-sl")
    assert want.returncode == 0
    env = dict(os.environ, NO_COLOR="", PYTHONIOENCODING="utf-8")
    script = f'"{sys.executable}" -m rapidbleu <(cat "{refs[0]}") -i <(cat "{hyps[0]}") -sl'
    got = subprocess.run(["/bin/bash", "-c", script], capture_output=True, env=env, timeout=300, check=False)
    assert got.returncode == 0, got.stderr
    assert got.stdout == want.stdout
    got = run("rapidbleu", refs[0], "-i", "/dev/stdin", "-sl", stdin=hyps[0].read_bytes())
    assert got.returncode == 0, got.stderr
    assert got.stdout == want.stdout


def test_utf16_without_byte_order_mark_names_the_input(tmp_path):
    """``-e utf-16`` on input without a BOM (sacreBLEU's reading refuses it): one line naming
    the file, or standard input, instead of the decoder's bare message."""
    ref = tmp_path / "ref.txt"
    ref.write_bytes("a b c\n".encode("utf-16"))
    hyp = tmp_path / "hyp.txt"
    hyp.write_bytes("a b c\n".encode("utf-16-le"))
    r = run("rapidbleu", ref, "-i", hyp, "-e", "utf-16")
    assert r.returncode == 1
    assert r.stderr.decode().startswith(f"rapidbleu: error: {hyp}: line 1: cannot decode as utf-16 (UTF-16 stream")
    r = run("rapidbleu", ref, "-e", "utf-16", stdin="a b c\n".encode("utf-16-le"))
    assert r.returncode == 1
    assert r.stderr.decode().startswith(
        "rapidbleu: error: standard input: line 1: cannot decode input as utf-16 (UTF-16"
    )


# -- chrF (any metric of the protocol) streams the same way ----------------------------------------
@pytest.mark.parametrize(
    ("several", "options"),
    [
        (False, ["-m", "chrf", "bleu", "-cw", "2", "-f", "text"]),
        (False, ["-m", "chrf", "-sl", "--chrf-whitespace"]),
        (True, ["-m", "bleu", "chrf", "-pbs", "-pbsn", "50", "-f", "text"]),
    ],
)
def test_chunked_chrf(several, options):
    hyps, refs = _de_en()
    same_output(refs[0], "-i", *(hyps if several else hyps[:1]), *options)


# -- TER: float statistics, summed left to right across chunks as in one call -------------------
@pytest.mark.parametrize(
    ("several", "options"),
    [
        (False, ["-m", "ter", "-f", "text", "-w", "6"]),
        (False, ["-m", "ter", "bleu", "--ter-normalized", "-ci", "-cin", "60", "-f", "text"]),
        (False, ["-m", "ter", "-sl", "--ter-case-sensitive", "-w", "4"]),
        (True, ["-m", "ter", "chrf", "--ter-no-punct", "-pbs", "-pbsn", "50", "-f", "text"]),
        (True, ["-m", "bleu", "ter", "-par", "-parn", "64", "-f", "text"]),
    ],
)
def test_chunked_ter(several, options):
    """TER over 7-line chunks with three references (he-en's two and a third system's output,
    so reference lengths are thirds: float sums that depend on their order) equals sacreBLEU's
    one pass, byte for byte."""
    sample = [s for s in systems(SAMPLE_DIR) if s[0] == "he-en"]
    hyps, refs = [s[2] for s in sample], [*sample[0][3], sample[-1][2]]
    same_output(*refs, "-i", *(hyps[:2] if several else hyps[:1]), *options)


_PEAK = r"""
import sys
import numpy  # imported before measuring: the scoring imports it
from rapidbleu import cli
from rapidbleu._core import backend
backend.chrf  # the kernel module loaded before measuring
def status(field):
    with open("/proc/self/status") as fh:
        return next(int(line.split()[1]) * 1024 for line in fh if line.startswith(field))
with open("/proc/self/clear_refs", "w") as fh:
    fh.write("5")
before = status("VmRSS:")
cli.main(sys.argv[1:])
sys.stdout.flush()
print(status("VmHWM:") - before, file=sys.stderr)
"""


@pytest.mark.skipif(not Path("/proc/self/clear_refs").exists(), reason="needs Linux's /proc/self/clear_refs")
def test_long_chrf_input_streams_in_bounded_memory(tmp_path, monkeypatch):
    """chrF++ of a long input read in chunks of 1,000 lines equals one API call on the whole
    corpus, and the command's peak memory does not grow with the input: 4x the lines (about
    24 MB more text, which a whole read would hold twice over as str objects) add < 2 MB.  The
    smaller input is 40,000 lines because the allocator's arenas settle in the first tens of
    thousands of lines (about 2.5 MB between 10,000 and 40,000 lines in a fresh environment,
    then flat to 320,000)."""
    import rapidbleu

    monkeypatch.setenv("RAPIDBLEU_CHUNK_LINES", "1000")
    hyps, refs = _de_en()
    hyp_lines = hyps[0].read_text("utf-8").splitlines()
    ref_lines = refs[0].read_text("utf-8").splitlines()
    growth, outputs = {}, {}
    for n in (40_000, 160_000):
        h = [hyp_lines[i % len(hyp_lines)] + f" {i}" for i in range(n)]
        r = [ref_lines[i % len(ref_lines)] + f" {i % 97}" for i in range(n)]
        hyp_file, ref_file = tmp_path / f"h{n}", tmp_path / f"r{n}"
        hyp_file.write_text("\n".join(h) + "\n", "utf-8")
        ref_file.write_text("\n".join(r) + "\n", "utf-8")
        args = [str(ref_file), "-i", str(hyp_file), "-m", "chrf", "-cw", "2", "-b", "-w", "6", "-q"]
        proc = subprocess.run([sys.executable, "-c", _PEAK, *args], capture_output=True, text=True, check=True)
        growth[n] = int(proc.stderr.split()[-1])
        outputs[n] = proc.stdout.strip()
    assert outputs[160_000] == f"{rapidbleu.CHRF(word_order=2).corpus_score(h, [r]).score:.6f}"
    assert growth[160_000] - growth[40_000] < 2 << 20, growth
