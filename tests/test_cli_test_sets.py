"""The command line with sacreBLEU's test sets: ``-t``, ``-l``, ``--echo``, ``--list``,
``--citation``, ``--origlang``, ``--subset``, ``-d``, scoring with every metric, format, interval
and paired test, and the errors -- stdout and exit status equal to sacreBLEU 2.6.0's, each tool
on its own copy of the same cache (``SACREBLEU``), run as a user runs them (a new process each).

Two caches are laid out as sacreBLEU's downloads unpack: WMT22 (WMT XML) from the real files in
``$RAPIDBLEU_WMT22_XML_DIR`` (default ``../shared/data/wmt22-xml``; any folder holding
``wmttest2022.<pair>.all.xml`` files serves, each pair found there is used), and a small WMT19
(fake SGML) written here, whose documents carry origlang values and the docids of sacreBLEU's
subset annotations.  The archive each set would download is a placeholder: a file that is there
is used as it is, by both tools, so nothing is downloaded.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

WMT22_XML_DIR = Path(os.environ.get("RAPIDBLEU_WMT22_XML_DIR", str(ROOT.parent / "shared" / "data" / "wmt22-xml")))
VERSION_FIELDS = ("version:rapidbleu-", '"version": "rapidbleu-')


def _env(cache: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("RAPIDBLEU_AS_SACREBLEU", "PYTHONSTARTUP")}
    env["SACREBLEU"] = str(cache)
    env["RAPIDBLEU_DOWNLOAD_MIRROR"] = str(cache / "no-mirror")  # never the network
    return env


def _run(tool: str, cache: Path, args: list[str], cwd: Path) -> tuple[int, str, str]:
    module = "sacrebleu" if tool == "sacrebleu" else "rapidbleu"
    res = subprocess.run(
        [sys.executable, "-m", module, *args],
        capture_output=True,
        text=True,
        timeout=300,
        env=_env(cache),
        cwd=cwd,
        check=False,
    )
    out = res.stdout
    import rapidbleu

    for field in VERSION_FIELDS:
        out = out.replace(field + rapidbleu.__version__, field.replace("rapidbleu-", "") + "2.6.0")
    return res.returncode, out, res.stderr


def _wmt22_pairs() -> dict[str, Path]:
    found = {p.name.split(".")[1]: p for p in sorted(WMT22_XML_DIR.glob("wmttest2022.*.all.xml"))}
    if not found:
        if os.environ.get("RAPIDBLEU_REQUIRE_WMT22_XML") == "1":
            pytest.fail(f"no WMT22 XML at {WMT22_XML_DIR} and RAPIDBLEU_REQUIRE_WMT22_XML=1")
        pytest.skip(f"no WMT22 XML at {WMT22_XML_DIR} (set RAPIDBLEU_WMT22_XML_DIR)")
    return found


def _lay_wmt22(cache: Path, pairs: dict[str, Path]) -> None:
    from rapidbleu.dataset import DATASETS

    dataset = DATASETS["wmt22"]
    raw = cache / "wmt22" / "raw"
    for pair, xml in pairs.items():
        entry = dataset.langpairs[pair]
        rel = entry["path"] if isinstance(entry, dict) else entry[0]
        (raw / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(xml, raw / rel)
    for url in dataset.data:  # the archive: there, so nothing is downloaded
        (raw / f"wmt22.{url.rsplit('/', 1)[1]}").write_bytes(b"placeholder")


#: WMT19 de-en, fake SGML: documents of two original languages, with docids that sacreBLEU's
#: subset table annotates (bbc.381790 GB-politics, rt.com.91337 OTHER-politics-MK,
#: upi.176266 US-crime).
WMT19_DOCS = (
    ("bbc.381790", "de", ["Die Regierung hat am Montag beschlossen.", "Sie sprach von einem Erfolg."]),
    ("rt.com.91337", "en", ["Das Parlament stimmt zu.", "Niemand widersprach.", "Es wurde spät."]),
    ("upi.176266", "de", ["Die Polizei ermittelt.", "Ein Verdächtiger wurde gefasst."]),
)
WMT19_REFS = [
    "The government decided on Monday.",
    "She spoke of a success.",
    "Parliament agrees.",
    "Nobody objected.",
    "It got late.",
    "The police are investigating.",
    "A suspect was arrested.",
]
WMT19_HYP = [
    "The government decided Monday.",
    "She talked of success.",
    "The parliament agrees.",
    "No one objected.",
    "It was late.",
    "Police investigate.",
    "One suspect was caught.",
]


def _sgm(kind: str, lang: str, segments: list[list[str]]) -> str:
    lines = [f'<{kind} setid="newstest2019" srclang="any" trglang="{lang}">']
    k = 0
    for (docid, origlang, _), segs in zip(WMT19_DOCS, segments, strict=True):
        lines.append(f'<doc sysid="ref" docid="{docid}" genre="news" origlang="{origlang}">')
        lines.append("<p>")
        for seg in segs:
            k += 1
            lines.append(f'<seg id="{k}">{seg}</seg>')
        lines.append("</p>")
        lines.append("</doc>")
    lines.append(f"</{kind}>")
    return "\n".join(lines) + "\n"


def _lay_wmt19(cache: Path) -> None:
    from rapidbleu.dataset import DATASETS

    dataset = DATASETS["wmt19"]
    raw = cache / "wmt19" / "raw"
    src_rel, ref_rel = dataset.langpairs["de-en"][:2]
    (raw / src_rel).parent.mkdir(parents=True, exist_ok=True)
    sources = [segs for _, _, segs in WMT19_DOCS]
    refs, k = [], 0
    for segs in sources:
        refs.append(WMT19_REFS[k : k + len(segs)])
        k += len(segs)
    (raw / src_rel).write_text(_sgm("srcset", "de", sources), encoding="utf-8")
    (raw / ref_rel).write_text(_sgm("refset", "en", refs), encoding="utf-8")
    for url in dataset.data:
        (raw / f"wmt19.{url.rsplit('/', 1)[1]}").write_bytes(b"placeholder")


@pytest.fixture(scope="module")
def caches(tmp_path_factory):
    """Two caches laid out alike (one per tool), and a folder of system outputs."""
    pytest.importorskip("sacrebleu")
    base = tmp_path_factory.mktemp("test-set-caches")
    pairs = _wmt22_pairs()
    for name in ("sacrebleu", "rapidbleu"):
        _lay_wmt22(base / name, pairs)
        _lay_wmt19(base / name)
    work = base / "work"
    work.mkdir()
    (work / "wmt19.de-en.txt").write_text("\n".join(WMT19_HYP) + "\n", encoding="utf-8")
    # two WMT22 systems of the first pair found (their outputs are fields of the XML)
    pair = sorted(pairs)[0]
    for system in ("Online-A", "Online-B"):
        code, out, err = _run("sacrebleu", base / "sacrebleu", ["-t", "wmt22", "-l", pair, "--echo", system], work)
        if code != 0:  # a pair without these systems: its first one
            pytest.fail(f"sacreBLEU --echo {system} for wmt22 {pair}: {err}")
        (work / f"{system}.txt").write_text(out, encoding="utf-8")
    return {"sacrebleu": base / "sacrebleu", "rapidbleu": base / "rapidbleu", "work": work, "pair": pair}


def _same(caches, args: list[str]) -> tuple[int, str, str]:
    """Run both tools; their stdout and exit status must be equal.  Returns rapidbleu's result."""
    args = [a.replace("PAIR", caches["pair"]) for a in args]
    want = _run("sacrebleu", caches["sacrebleu"], args, caches["work"])
    got = _run("rapidbleu", caches["rapidbleu"], args, caches["work"])
    assert got[1] == want[1], f"stdout differs for {args}:\n{got[2]}"
    assert got[0] == want[0], f"exit status {got[0]} != sacreBLEU's {want[0]} for {args}: {got[2]} / {want[2]}"
    return got


# -- echo and list -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["-t", "wmt22", "-l", "PAIR", "--echo", "src"],
        ["-t", "wmt22", "-l", "PAIR", "--echo", "ref"],
        ["-t", "wmt22", "-l", "PAIR", "--echo", "src", "ref", "docid", "origlang"],
        ["-t", "wmt22", "-l", "PAIR", "--echo", "all"],
        ["-t", "wmt22", "-l", "PAIR", "--echo", "src", "--origlang", "non-en", "--subset", "news"],
        ["-t", "wmt19", "-l", "de-en", "--echo", "src", "ref"],
        ["-t", "wmt19", "-l", "de-en", "--echo", "ref", "--origlang", "de"],
        ["-t", "wmt19", "-l", "de-en", "--echo", "src", "--subset", "politics"],
        ["-t", "wmt19", "-l", "de-en", "--echo", "src", "--subset", "country:US"],
        ["-t", "wmt22,wmt22", "-l", "PAIR", "--echo", "ref"],
        ["--list"],
        ["--list", "-l", "de-en"],
        ["-t", "wmt22", "-l", "PAIR", "--list"],
        ["-t", "wmt19", "-l", "de-en", "--list"],
    ],
    ids=" ".join,
)
def test_echo_and_list_are_sacrebleus(caches, args):
    code, out, _ = _same(caches, args)
    assert code == 0
    assert out


# -- scoring against a test set ------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["-t", "wmt22", "-l", "PAIR", "-i", "Online-A.txt"],
        ["-t", "wmt22", "-l", "PAIR", "-i", "Online-A.txt", "-m", "bleu", "chrf", "ter", "-f", "text"],
        ["-t", "wmt22", "-l", "PAIR", "-i", "Online-A.txt", "-m", "chrf", "-cw", "2", "-ci", "-cin", "50"],
        ["-t", "wmt22", "-l", "PAIR", "-i", "Online-A.txt", "Online-B.txt", "-m", "bleu", "ter"],
        ["-t", "wmt22", "-l", "PAIR", "-i", "Online-A.txt", "Online-B.txt", "--paired-bs", "-pbsn", "50"],
        ["-t", "wmt22", "-l", "PAIR", "-i", "Online-A.txt", "--origlang", "non-en"],
        ["-t", "wmt22", "-l", "PAIR", "-i", "Online-A.txt", "--subset", "conversation", "-m", "bleu", "chrf"],
        ["-t", "wmt22", "-l", "PAIR", "-i", "Online-A.txt", "-d"],
        ["-t", "wmt22", "-l", "PAIR", "-i", "Online-A.txt", "-sl", "-m", "chrf"],
        ["-t", "wmt19", "-l", "de-en", "-i", "wmt19.de-en.txt", "-m", "bleu", "chrf", "ter"],
        ["-t", "wmt19", "-l", "de-en", "-i", "wmt19.de-en.txt", "--origlang", "de"],
        ["-t", "wmt19", "-l", "de-en", "-i", "wmt19.de-en.txt", "--subset", "country:GB"],
        ["-t", "wmt19", "-l", "de-en", "-i", "wmt19.de-en.txt", "-d", "-m", "bleu", "chrf"],
        ["-t", "wmt19", "-l", "de-en", "-i", "wmt19.de-en.txt", "-d", "--subset", "crime"],
    ],
    ids=" ".join,
)
def test_scores_against_a_test_set_are_sacrebleus(caches, args):
    code, out, _ = _same(caches, args)
    assert code == 0
    assert out.strip()


def test_stdin_against_a_test_set_is_sacrebleus(caches):
    hyp = (caches["work"] / "wmt19.de-en.txt").read_text(encoding="utf-8")
    outs = []
    for tool in ("sacrebleu", "rapidbleu"):
        res = subprocess.run(
            [sys.executable, "-m", tool, "-t", "wmt19", "-l", "de-en", "-f", "text", "-b"],
            input=hyp,
            capture_output=True,
            text=True,
            timeout=300,
            env=_env(caches[tool]),
            check=False,
        )
        assert res.returncode == 0, res.stderr
        outs.append(res.stdout)
    assert outs[0] == outs[1]


# -- what sacreBLEU refuses, rapidbleu refuses with the same status -----------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-t", "nosuch", "-l", "de-en", "-i", "wmt19.de-en.txt"], "unknown test set 'nosuch'"),
        (["-t", "wmt19", "-i", "wmt19.de-en.txt"], "I need a language pair (-l)"),
        (["-t", "wmt19", "-l", "xx-yy", "-i", "wmt19.de-en.txt"], "no such language pair 'xx-yy'"),
        (["-t", "wmt19", "-l", "de-en", "-i", "wmt19.de-en.txt", "--origlang", "fr"], "contains no sentence with"),
        (["-t", "wmt19", "-l", "de-en", "-i", "wmt19.de-en.txt", "-nr", "2"], "--num-refs"),
    ],
)
def test_errors_are_one_line_with_sacrebleus_status(caches, args, message):
    code, out, err = _same(caches, args)
    assert code == 1
    assert out == ""
    assert err.startswith("rapidbleu: error: ")
    assert err.count("\n") == 1, err
    assert message in err


def test_a_system_of_another_length_is_an_error_not_a_truncated_score(caches):
    """sacreBLEU filters a system of the wrong length with ``--origlang`` (zip stops at the
    shorter) and may score it; rapidbleu names both lengths (docs/test-sets.md)."""
    short = caches["work"] / "short.txt"
    short.write_text("\n".join(WMT19_HYP[:-1]) + "\n", encoding="utf-8")
    code, out, err = _run(
        "rapidbleu", caches["rapidbleu"], ["-t", "wmt19", "-l", "de-en", "-i", str(short)], caches["work"]
    )
    assert code == 1
    assert out == ""
    assert "6" in err
    assert "7" in err


def test_citation_prints_where_sacrebleu_fails(caches):
    """sacreBLEU 2.6.0's ``--citation`` ends in a ``TypeError`` (it asks ``'citation' in`` a
    Dataset); rapidbleu prints the table's citation (docs/test-sets.md)."""
    from rapidbleu.dataset import DATASETS

    code, out, _ = _run("rapidbleu", caches["rapidbleu"], ["-t", "wmt19", "--citation"], caches["work"])
    assert code == 0
    assert out == DATASETS["wmt19"].citation + "\n"
    sb = _run("sacrebleu", caches["sacrebleu"], ["-t", "wmt19", "--citation"], caches["work"])
    assert sb[0] == 1
    assert "TypeError" in sb[2]


def test_detail_with_origlang_where_sacrebleu_fails(caches):
    """``-d --origlang de``: sacreBLEU iterates the letters of the value and fails on an empty
    table; rapidbleu prints the scores of that original language."""
    args = ["-t", "wmt19", "-l", "de-en", "-i", "wmt19.de-en.txt", "-d", "--origlang", "de"]
    code, out, _ = _run("rapidbleu", caches["rapidbleu"], args, caches["work"])
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("BLEU|nrefs:1|")
    assert lines[1].startswith("origlang=de domain=ALL")
    assert "sentences=4 " in lines[1]
    sb = _run("sacrebleu", caches["sacrebleu"], args, caches["work"])
    assert sb[0] == 1
    assert "ValueError" in sb[2]


def test_the_test_sets_are_not_imported_without_a_test_set_option(caches):
    """A run with reference files imports neither ``rapidbleu.dataset`` nor an XML parser."""
    ref = caches["work"] / "ref.txt"
    ref.write_text("\n".join(WMT19_REFS) + "\n", encoding="utf-8")
    probe = (
        "import sys, runpy; sys.argv = ['rapidbleu', 'ref.txt', '-i', 'wmt19.de-en.txt', '-q'];\n"
        "try:\n    runpy.run_module('rapidbleu', run_name='__main__')\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in sys.modules if m.startswith(('rapidbleu.dataset', 'xml'))), file=sys.stderr)"
    )
    res = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        timeout=120,
        env=_env(caches["rapidbleu"]),
        cwd=caches["work"],
        check=False,
    )
    assert res.stdout.startswith("{")
    assert res.stderr.strip().splitlines()[-1] == "[]"


def test_a_raw_file_that_is_no_xml_is_one_line(tmp_path):
    """An unprocessed cache whose WMT XML is not well-formed: one line naming the file, exit
    status 1 (sacreBLEU: a traceback)."""
    pairs = _wmt22_pairs()
    _lay_wmt22(tmp_path, pairs)
    pair = sorted(pairs)[0]
    for xml in (tmp_path / "wmt22" / "raw").rglob("*.xml"):
        xml.write_text("<dataset><doc>", encoding="utf-8")
    code, out, err = _run("rapidbleu", tmp_path, ["-t", "wmt22", "-l", pair, "--echo", "src"], tmp_path)
    assert code == 1
    assert out == ""
    assert err.startswith("rapidbleu: error: a test set's raw file cannot be read: ")
    assert err.count("\n") == 1
    assert f"wmttest2022.{pair}.all.xml" in err


def test_download_of_a_cached_set_processes_it(tmp_path):
    """``--download SET -l PAIR`` with the archive already in the cache: nothing is fetched,
    the pair's text files are written, exit status 0, as sacreBLEU."""
    for tool in ("sacrebleu", "rapidbleu"):
        cache = tmp_path / tool
        _lay_wmt19(cache)
        code, out, err = _run(tool, cache, ["--download", "wmt19", "-l", "de-en"], tmp_path)
        assert code == 0, err
        assert out == ""
        assert (cache / "wmt19" / "wmt19.de-en.src").read_text(encoding="utf-8").splitlines() == [
            seg for _, _, segs in WMT19_DOCS for seg in segs
        ]


def test_download_with_a_wrong_checksum_leaves_nothing(tmp_path):
    """``--download`` from a mirror whose archive is not the one the table's MD5 names: one
    line naming both sums, exit status 1, no archive and nothing unpacked in the cache."""
    mirror = tmp_path / "mirror"
    mirror.mkdir()
    (mirror / "test.tgz").write_bytes(b"not the WMT19 archive")
    env = _env(tmp_path / "cache")
    env["RAPIDBLEU_DOWNLOAD_MIRROR"] = str(mirror)
    res = subprocess.run(
        [sys.executable, "-m", "rapidbleu", "--download", "wmt19", "-l", "de-en", "-q"],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=False,
    )
    assert res.returncode == 1
    assert res.stderr.startswith("rapidbleu: error: test set wmt19: the MD5 sum of ")
    assert res.stderr.count("\n") == 1
    raw = tmp_path / "cache" / "wmt19" / "raw"
    assert [p.name for p in raw.iterdir() if not p.name.endswith(".lock")] == []
