"""rapidbleu.dataset against sacreBLEU 2.6.0's test sets: the table, the text files each reader
writes (byte for byte, on fixtures of every format and on the real WMT22 XML), the listing and
filtering functions, the shared cache, atomic processing, and the errors.

Each comparison gives the two tools two separate caches holding the same raw files: sacreBLEU
computes its cache folder when it is imported (``sacrebleu.utils.SACREBLEU_DIR``, copied into
``sacrebleu.dataset.base`` and into each of its ``DATASETS``' ``_outdir``/``_rawdir``), so the
tests point those at one cache, and ``$SACREBLEU`` (which rapidbleu reads at each call) at the
other.  No test downloads: the fixtures' datasets have no URL, and where a real table entry is
used its archive is a placeholder file (both tools take a non-empty file as downloaded) and
``RAPIDBLEU_DOWNLOAD_MIRROR`` names a folder that does not exist.

The real WMT22 XML is read from ``$RAPIDBLEU_WMT22_XML_DIR`` (default ``../shared/data/wmt22-xml``
beside the repository; every ``wmttest2022.<pair>.all.xml`` there is used); the test skips
without it unless ``RAPIDBLEU_REQUIRE_WMT22_XML=1``.
"""

from __future__ import annotations

import gzip
import importlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sacrebleu = pytest.importorskip("sacrebleu")
if sacrebleu.__version__ != "2.6.0":  # pragma: no cover - the test extra pins it
    pytest.skip(f"these tests compare with sacreBLEU 2.6.0, found {sacrebleu.__version__}", allow_module_level=True)

import sacrebleu.dataset as sacre_dataset  # noqa: E402 -- after the version check
import sacrebleu.dataset.base as sacre_base  # noqa: E402
import sacrebleu.utils as sacre_utils  # noqa: E402

import rapidbleu.dataset as rapid_dataset  # noqa: E402
from rapidbleu._base.errors import TestSetError  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
WMT22_XML_DIR = Path(os.environ.get("RAPIDBLEU_WMT22_XML_DIR", str(ROOT.parent / "shared" / "data" / "wmt22-xml")))


# -- helpers -------------------------------------------------------------------------------------


@pytest.fixture
def caches(tmp_path, monkeypatch):
    """Two empty caches, ``(sacre, rapid)``: sacreBLEU's module globals point at the first,
    ``$SACREBLEU`` at the second; downloads can only fail."""
    sacre, rapid = tmp_path / "sacre", tmp_path / "rapid"
    sacre.mkdir()
    rapid.mkdir()
    monkeypatch.setattr(sacre_base, "SACREBLEU_DIR", str(sacre))
    monkeypatch.setattr(sacre_utils, "SACREBLEU_DIR", str(sacre))
    monkeypatch.setenv("SACREBLEU", str(rapid))
    monkeypatch.setenv("RAPIDBLEU_DOWNLOAD_MIRROR", str(tmp_path / "no-mirror"))
    monkeypatch.setenv("RAPIDBLEU_DOWNLOAD_RETRIES", "1")
    return sacre, rapid


def place(cache: Path, name: str, files: dict[str, bytes]) -> None:
    """Write ``files`` (path inside ``raw/`` -> bytes) into ``cache/<name>/raw/``."""
    for rel, data in files.items():
        path = cache / name / "raw" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(gzip.compress(data, mtime=0) if rel.endswith(".gz") else data)


def tree(cache: Path, skip_raw: bool = True) -> dict[str, bytes]:
    """Every file under ``cache`` (relative path -> bytes), the raw folders left out."""
    out = {}
    for path in sorted(cache.rglob("*")):
        rel = path.relative_to(cache).as_posix()
        if path.is_file() and not (skip_raw and "/raw/" in f"/{rel}"):
            out[rel] = path.read_bytes()
    return out


def rel(paths, cache: Path):
    if isinstance(paths, str):
        return Path(paths).relative_to(cache).as_posix()
    return [rel(p, cache) for p in paths]


def both(module: str, cls: str, name: str, langpairs: dict, **kwargs):
    """sacreBLEU's and rapidbleu's reader ``cls`` of ``module`` for the same arguments (no URL)."""
    sacre = getattr(importlib.import_module(f"sacrebleu.dataset.{module}"), cls)(
        name, data=[], langpairs=langpairs, **kwargs
    )
    rapid = getattr(importlib.import_module(f"rapidbleu.dataset.{module}"), cls)(
        name, data=[], langpairs=langpairs, **kwargs
    )
    return sacre, rapid


def assert_same_processing(caches, module, cls, name, langpairs, files, process_all=False, **kwargs):
    """Both tools process the same raw files (``process_all``: every pair by
    ``process_to_text()`` first, else each pair by ``get_files``): the same fields, paths, text
    files (bytes) and iterators, for every language pair."""
    sacre_cache, rapid_cache = caches
    place(sacre_cache, name, files)
    place(rapid_cache, name, files)
    sacre, rapid = both(module, cls, name, langpairs, **kwargs)
    if process_all:
        sacre.process_to_text()
        rapid.process_to_text()
    for pair in langpairs:
        assert rapid.fieldnames(pair) == sacre.fieldnames(pair)
        assert rel(rapid.get_files(pair), rapid_cache) == rel(sacre.get_files(pair), sacre_cache)
        assert rel(rapid.get_source_file(pair), rapid_cache) == rel(sacre.get_source_file(pair), sacre_cache)
        assert rel(rapid.get_reference_files(pair), rapid_cache) == rel(sacre.get_reference_files(pair), sacre_cache)
        assert list(rapid.source(pair)) == list(sacre.source(pair))
        assert list(rapid.references(pair)) == list(sacre.references(pair))
        assert list(rapid.__iter__(pair)) == list(sacre.__iter__(pair))
    written = tree(rapid_cache)
    assert written == tree(sacre_cache)
    assert written  # something was compared
    return sacre, rapid


# -- awkward text ----------------------------------------------------------------------------------

BOM = "\ufeff"
#: Whitespace that is not ASCII (NBSP, LINE SEPARATOR, IDEOGRAPHIC SPACE, NEL, EM SPACE) and CR.
ODD = "a\u00a0b\u2028c\u3000d\u0085e\u2003f\rg\x1fh"
#: The same without U+001F, which XML does not allow (both tools refuse the file).
ODD_XML = ODD.replace("\x1f", "")

WMT_XML = f"""{BOM}<?xml version='1.0' encoding='utf-8'?>
<!DOCTYPE dataset [<!ENTITY co "Comp &amp; any">]>
<dataset id="fixture">
  <collection id="general">
    <doc origlang="de" id="doc-1" domain="news">
      <src lang="de">
        <p>
          <seg id="2">zwei &amp; &lt;drei&gt;\tTab   {ODD_XML}</seg>
          <seg id="1">  eins &#x2028;&#13;&#133; ende  </seg>
          <seg id="10">zehn\r\nzeile</seg><seg id="3">ohne Referenz</seg>
          <seg id="4">nur B</seg>
          <seg id="5"><![CDATA[<cdata> & co]]> nach</seg>
        </p>
      </src>
      <ref lang="fr" translator="A">
        <p><seg id="1">un</seg><seg id="2">deux <!-- note --> après</seg><seg id="10">dix&#9;tab</seg>
          <seg id="3"></seg><seg id="5">cinq <?pi x?> fin</seg></p>
      </ref>
      <ref lang="fr" translator="B">
        <p><seg id="1">un B</seg><seg id="2"/><seg id="10">   </seg><seg id="4">quatre B</seg><seg id="5">cinq B &co;<b>bold</b> tail</seg></p>
      </ref>
      <hyp system="sys-1" language="fr">
        <p><seg id="1">h1</seg><seg id="2">h2 {ODD_XML}</seg><seg id="3">h3</seg><seg id="4"></seg><seg id="5">h5</seg><seg id="10">h10</seg></p>
      </hyp>
      <hyp system="sys:2" language="fr">
        <p><seg id="1">g1</seg><seg id="2">g2</seg><seg id="3">g3</seg><seg id="4">g4</seg><seg id="5">g5</seg><seg id="10">g10</seg></p>
      </hyp>
    </doc>
    <doc id="suite-1" origlang="en" testsuite="yes">
      <src lang="de"><p><seg id="1">Testsuite</seg></p></src>
      <ref lang="fr" translator="A"><p><seg id="1">suite</seg></p></ref>
    </doc>
    <doc origlang="fr" id="doc-2" domain="social">
      <src lang="de"><p><seg id="1">zweites Dokument</seg><seg id="2">x\u00a0 y</seg></p></src>
      <ref lang="fr" translator="A"><p><seg id="1">deuxième</seg><seg id="2">x y</seg></p></ref>
      <hyp system="sys-1" language="fr"><p><seg id="1">a</seg><seg id="2">b</seg></p></hyp>
      <hyp system="sys:2" language="fr"><p><seg id="1">c</seg><seg id="2">d</seg></p></hyp>
    </doc>
    <doc origlang="de" id="doc-3" domain="news">
      <src lang="de"><p><seg id="7">sieben</seg></p></src>
      <ref lang="fr" translator="B"><p><seg id="7">sept</seg></p></ref>
      <hyp system="sys-1" language="fr"><p><seg id="7">s</seg></p></hyp>
      <hyp system="sys:2" language="fr"><p><seg id="7">t</seg></p></hyp>
    </doc>
  </collection>
</dataset>
"""

#: The last document kept has no domain: sacreBLEU writes no domain field then.  References
#: without a translator are the field ``ref``.
WMT_XML_NO_DOMAIN = """<dataset id="fixture">
  <collection id="general">
    <doc origlang="en" id="a" domain="news">
      <src lang="en"><p><seg id="1">one</seg></p></src>
      <ref lang="liv"><p><seg id="1">üks</seg></p></ref>
    </doc>
    <doc origlang="liv" id="b">
      <src lang="en"><p><seg id="1">two  words</seg></p></src>
      <ref lang="liv"><p><seg id="1">kaks</seg></p></ref>
    </doc>
  </collection>
</dataset>
"""

WMT_XML_NO_ORIGLANG = """<dataset id="fixture">
  <collection id="general">
    <doc id="a">
      <src lang="en"><p><seg id="1">one</seg></p></src>
      <ref lang="de" translator="A"><p><seg id="1">eins</seg></p></ref>
    </doc>
  </collection>
</dataset>
"""


def sgm(kind: str, lang: str, segments: list[str], docs: tuple[str, ...] = ("doc-1", "doc-2")) -> bytes:
    """A fake-SGML file: two documents, awkward lines around the segments."""
    lines = [f'{BOM}<{kind} setid="fx" srclang="any" trglang="{lang}">']
    lines.append(f'<doc sysid="ref" docid="{docs[0]}" genre="news" origlang="de">')
    lines.append("<p>")
    half = len(segments) // 2
    lines += segments[:half]
    lines.append("</p>")
    lines.append("</doc>")
    lines.append(f'<doc docid="{docs[1]}" genre="">')  # no origlang: the previous value stays
    lines += segments[half:]
    lines.append("</doc>")
    lines.append(f"</{kind}>")
    return ("\n".join(lines) + "\r\n").encode("utf-8")


SGM_SEGMENTS = [
    '<seg id="1">Hallo &amp; Welt\t mit   Tab</seg>',
    '<seg id="2">eins</seg> <seg id="3">zwei auf einer Zeile</seg>',
    '<seg id="4"></seg>',
    f'<seg id="5">{ODD} </seg>',
    "<seg id=6>ohne Ende",
    '<seg id="7">x</seg>danach </p>',
    '<seg id="8">crlf</seg>\r',
    ' <seg id="9">Leerzeichen davor: kein Segment</seg>',
    f'{BOM}<seg id="10">BOM davor: kein Segment</seg>',
    '<seg id=">">spitze</seg>',
    '<seg id="11">a</seg>b</seg>c',
]


# -- the table ---------------------------------------------------------------------------------------


def test_the_table_is_sacrebleus():
    """Every test set, in sacreBLEU's order, with its reader, URLs, MD5 sums, description,
    citation, language pairs and keyword arguments; SUBSETS, COUNTRIES and DOMAINS."""
    assert list(rapid_dataset.DATASETS) == list(sacre_dataset.DATASETS)
    assert len(rapid_dataset.DATASETS) == 67
    for name, sacre in sacre_dataset.DATASETS.items():
        rapid = rapid_dataset.DATASETS[name]
        assert type(rapid).__name__ == type(sacre).__name__, name
        assert type(rapid).__module__.rsplit(".", 1)[-1] == type(sacre).__module__.rsplit(".", 1)[-1], name
        for attr in ("name", "data", "description", "citation", "md5", "langpairs", "kwargs"):
            assert getattr(rapid, attr) == getattr(sacre, attr), (name, attr)
        assert rapid_dataset.DATASETS[name] is rapid  # built once
    assert rapid_dataset.SUBSETS == sacre_dataset.SUBSETS
    assert rapid_dataset.COUNTRIES == sacre_dataset.COUNTRIES
    assert rapid_dataset.DOMAINS == sacre_dataset.DOMAINS


def test_the_generated_table_is_up_to_date():
    """tools/gen_test_sets.py would write sets.json as it is."""
    run = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "gen_test_sets.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr


def test_the_table_is_read_only_and_lazy():
    """DATASETS is a mapping that cannot be written, and an unknown name is a TestSetError (a
    KeyError, as sacreBLEU's dict raises) naming close matches."""
    with pytest.raises(TypeError):
        rapid_dataset.DATASETS["mine"] = rapid_dataset.DATASETS["wmt22"]  # type: ignore[index]
    with pytest.raises(KeyError, match=r"no test set 'wmt2' .*did you mean"):
        rapid_dataset.DATASETS["wmt2"]
    assert "wmt22" in rapid_dataset.DATASETS
    assert 22 not in rapid_dataset.DATASETS
    assert rapid_dataset.DATASETS.get("nope") is None


def test_dump_is_sacrebleus():
    """``python -m rapidbleu.dataset --dump`` prints sacreBLEU's Markdown table."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    ours = subprocess.run(
        [sys.executable, "-m", "rapidbleu.dataset", "--dump"], capture_output=True, env=env, check=True
    )
    theirs = subprocess.run([sys.executable, "-m", "sacrebleu.dataset", "--dump"], capture_output=True, check=True)
    assert ours.stdout == theirs.stdout
    usage = subprocess.run([sys.executable, "-m", "rapidbleu.dataset"], capture_output=True, env=env, check=False)
    assert usage.returncode == 1
    assert b"--dump" in usage.stdout


def test_listing_functions_are_sacrebleus():
    """get_available_testsets, get_langpairs_for_testset, get_available_testsets_for_langpair."""
    assert rapid_dataset.get_available_testsets() == sacre_utils.get_available_testsets()
    for name in [*sacre_dataset.DATASETS, "nope"]:
        assert rapid_dataset.get_langpairs_for_testset(name) == sacre_utils.get_langpairs_for_testset(name)
    pairs = {p for d in sacre_dataset.DATASETS.values() for p in d.langpairs} | {"xx-yy", "en-de-x"}
    for pair in sorted(pairs):
        assert rapid_dataset.get_available_testsets_for_langpair(pair) == (
            sacre_utils.get_available_testsets_for_langpair(pair)
        ), pair
    with pytest.raises(TestSetError, match="SRC-TRG"):
        rapid_dataset.get_available_testsets_for_langpair("ende")


# -- every reader on awkward fixtures ------------------------------------------------------------------


def test_clean_is_sacrebleus_on_every_code_point():
    """Whitespace runs collapse and the ends are stripped exactly where sacreBLEU's regular
    expression does it, for every code point."""
    from rapidbleu.dataset.base import clean

    text = "".join(chr(c) for c in range(0x3100) if not 0xD800 <= c < 0xE000)
    text = "x".join(text[i : i + 3] for i in range(0, len(text), 3))
    assert clean(text) == sacre_base.Dataset._clean(text)
    for c in range(0x110000):
        s = f" {chr(c)}a{chr(c)}{chr(c)}b{chr(c)}"
        if 0xD800 <= c < 0xE000:
            continue
        assert clean(s) == sacre_base.Dataset._clean(s), hex(c)


def test_wmt_xml_is_sacrebleus(caches):
    """WMT XML: two translators (one missing segments), systems as fields (one named with a
    colon), a testsuite document, segments without any reference, entities, CDATA, comments and
    processing instructions inside segments, CR, tabs and Unicode spaces, a BOM; per-pair and
    default ``refs``; a file whose last document has no domain, references without translator."""
    langpairs = {
        "de-fr": ["xml/fixture.de-fr.all.xml"],
        "fr-de": {"path": "xml/fixture.de-fr.all.xml", "refs": ["B"]},
        "en-liv": ["xml/fixture.en-liv.all.xml"],
    }
    files = {
        "xml/fixture.de-fr.all.xml": WMT_XML.encode("utf-8"),
        "xml/fixture.en-liv.all.xml": WMT_XML_NO_DOMAIN.encode("utf-8"),
    }
    _, rapid = assert_same_processing(
        caches, "wmt_xml", "WMTXMLDataset", "fx/xml", langpairs, files, process_all=True, refs=["A"]
    )
    fields = rapid.fieldnames("de-fr")
    assert set(fields) == {"src", "ref:A", "ref:B", "docid", "origlang", "sys-1", "sys:2", "domain"}
    assert rapid.fieldnames("en-liv") == ["src", "ref", "docid", "origlang"]
    assert len(rapid.get_reference_files("fr-de")) == 1
    assert rapid.get_reference_files("fr-de")[0].endswith("fx_xml.fr-de.ref-B")
    assert rapid.get_reference_files("en-liv") == []  # sacreBLEU: refs=["A"], no translator A


def test_wmt_xml_that_is_not_well_formed_names_the_file(caches):
    from xml.etree.ElementTree import ParseError

    place(caches[1], "fx/broken", {"x.xml": b'<dataset><seg id="1">x &nbsp; y</seg></dataset>'})
    rapid = rapid_dataset.WMTXMLDataset("fx/broken", data=[], langpairs={"en-de": ["x.xml"]})
    with pytest.raises(ParseError, match=r"x\.xml: not well-formed XML \(undefined entity"):
        rapid.get_files("en-de")


def test_wmt_xml_document_without_origlang_fails_in_both(caches):
    """A document without ``origlang``: sacreBLEU raises KeyError; rapidbleu a TestSetError (a
    KeyError too) naming the file."""
    files = {"x.xml": WMT_XML_NO_ORIGLANG.encode("utf-8")}
    place(caches[0], "fx/bad", files)
    place(caches[1], "fx/bad", files)
    sacre, rapid = both("wmt_xml", "WMTXMLDataset", "fx/bad", {"en-de": ["x.xml"]})
    with pytest.raises(KeyError):
        sacre.get_files("en-de")
    with pytest.raises(TestSetError, match=r"x\.xml.*origlang"):
        rapid.get_files("en-de")
    assert tree(caches[1]) == {}


@pytest.mark.parametrize("name", ["fx/sgm", "wmt08fx"])
def test_fake_sgml_is_sacrebleus(caches, name):
    """Fake SGML: one and two references, metadata fields (none for wmt08*), two segments on a
    line, a line without ``</seg>``, text after ``</seg>``, CRLF, a BOM, Unicode spaces."""
    langpairs = {
        "de-en": ["sgm/src.de.sgm", "sgm/ref.en.sgm"],
        "en-de": ["sgm/src.en.sgm", "sgm/ref.de.sgm", "sgm/ref2.de.sgm"],
    }
    files = {
        "sgm/src.de.sgm": sgm("srcset", "de", SGM_SEGMENTS),
        "sgm/ref.en.sgm": sgm("refset", "en", SGM_SEGMENTS[::-1]),
        "sgm/src.en.sgm": sgm("srcset", "en", SGM_SEGMENTS[2:], docs=("d1", "d2")),
        "sgm/ref.de.sgm": sgm("refset", "de", SGM_SEGMENTS[3:]),
        "sgm/ref2.de.sgm": sgm("refset", "de", SGM_SEGMENTS[:5]),
    }
    assert_same_processing(caches, "fake_sgml", "FakeSGMLDataset", name, langpairs, files, process_all=True)


def test_iwslt_xml_is_sacrebleus(caches):
    langpairs = {"en-fr": ["en-fr/IWSLT17.TED.tst2017.en-fr.en.xml", "en-fr/IWSLT17.TED.tst2017.en-fr.fr.xml"]}
    files = {
        "en-fr/IWSLT17.TED.tst2017.en-fr.en.xml": sgm("srcset", "en", SGM_SEGMENTS),
        "en-fr/IWSLT17.TED.tst2017.en-fr.fr.xml": sgm("refset", "fr", SGM_SEGMENTS[1:]),
    }
    assert_same_processing(caches, "iwslt_xml", "IWSLTXMLDataset", "fx/iwslt", langpairs, files)


def test_wmt_additions_are_sacrebleus(caches):
    """An additional reference as plain text (right-stripped lines) beside the SGML ones."""
    plain = f"{BOM}first  \r\nsecond\t\n  third {ODD}\u2028\n\nlast without newline \u3000".encode()
    langpairs = {"zh-en": ["src.zh.sgm", "ref.en.sgm", "Human/Reference-HT.txt", "ref.gz"]}
    files = {
        "src.zh.sgm": sgm("srcset", "zh", SGM_SEGMENTS),
        "ref.en.sgm": sgm("refset", "en", SGM_SEGMENTS),
        "Human/Reference-HT.txt": plain,
        "ref.gz": plain,
    }
    assert_same_processing(caches, "fake_sgml", "WMTAdditionDataset", "fx/ms", langpairs, files)


def test_tsv_is_sacrebleus(caches):
    """TSV: explicit columns, the default columns, empty cells, CRLF lines (the CR stays),
    Unicode spaces inside cells."""
    tsv = f"{BOM}1\t2\tsource one\ttarget one\r\n3\t4\t\t\n5\t6\t{ODD} \tend {ODD}\n7\t8\ta\u2028b\tc\u0085d".encode()
    two = b"src a\tref a\n\tref b\nsrc c\t\n"
    langpairs = {"en-fr": ["2:MTNT/en-fr.tsv", "3:MTNT/en-fr.tsv"], "fr-en": ["MTNT/fr-en.tsv", "MTNT/fr-en.tsv"]}
    files = {"MTNT/en-fr.tsv": tsv, "MTNT/fr-en.tsv": two}
    assert_same_processing(caches, "tsv", "TSVDataset", "fx/tsv", langpairs, files)


def test_plain_text_is_sacrebleus(caches):
    """Plain text: right-stripped lines, gzipped files, CR inside a line, a BOM, an empty line."""
    src = f"{BOM}one \r\ntwo\r{ODD}  \n\n\u3000four\u2028\nfive".encode()
    ref = "uno\n dos\t\ntres\u00a0\n\ncinco\n".encode()
    langpairs = {"en-es": ["test.en", "test.es.gz"], "es-en": ["test.es.gz", "test.en", "unused"]}
    assert_same_processing(
        caches, "plain_text", "PlainTextDataset", "fx/plain", langpairs, {"test.en": src, "test.es.gz": ref}
    )


# -- the real WMT22 XML -------------------------------------------------------------------------------------


def wmt22_pairs() -> dict[str, Path]:
    """The WMT22 XML files present (pair -> file), or a skip (a failure when required)."""
    found = {}
    if WMT22_XML_DIR.is_dir():
        for path in sorted(WMT22_XML_DIR.glob("wmttest2022.*.all.xml")):
            pair = path.name.split(".")[1]
            if pair in sacre_dataset.DATASETS["wmt22"].langpairs:
                found[pair] = path
    if not found:
        if os.environ.get("RAPIDBLEU_REQUIRE_WMT22_XML") == "1":
            pytest.fail(f"no WMT22 XML at {WMT22_XML_DIR} and RAPIDBLEU_REQUIRE_WMT22_XML=1")
        pytest.skip(f"no WMT22 XML at {WMT22_XML_DIR} (set RAPIDBLEU_WMT22_XML_DIR)")
    return found


def wmt22_cache(cache: Path, pairs: dict[str, Path]) -> None:
    """``cache/wmt22/raw`` as sacreBLEU leaves it after downloading: the placeholder archive and
    the XML files at the paths the table names."""
    dataset = sacre_dataset.DATASETS["wmt22"]
    raw = cache / "wmt22" / "raw"
    raw.mkdir(parents=True)
    for url in dataset.data:
        (raw / ("wmt22." + url.rsplit("/", 1)[-1])).write_bytes(b"placeholder: not downloaded")
    for pair, path in pairs.items():
        entry = dataset.langpairs[pair]
        target = raw / (entry["path"] if isinstance(entry, dict) else entry[0])
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)


@pytest.fixture
def sacre_wmt22(caches, monkeypatch):
    """sacreBLEU's wmt22 entry pointed at the first cache."""
    dataset = sacre_dataset.DATASETS["wmt22"]
    monkeypatch.setattr(dataset, "_outdir", str(caches[0] / "wmt22"))
    monkeypatch.setattr(dataset, "_rawdir", str(caches[0] / "wmt22" / "raw"))
    return dataset


def test_real_wmt22_xml_is_sacrebleus(caches, sacre_wmt22):
    """Every field of every WMT22 pair present, byte for byte, and the listing functions."""
    pairs = wmt22_pairs()
    for cache in caches:
        wmt22_cache(cache, pairs)
    rapid = rapid_dataset.DATASETS["wmt22"]
    for pair in pairs:
        assert rapid.fieldnames(pair) == sacre_wmt22.fieldnames(pair)
        assert rel(rapid.get_files(pair), caches[1]) == rel(sacre_wmt22.get_files(pair), caches[0])
        assert rel(rapid_dataset.get_reference_files("wmt22", pair), caches[1]) == rel(
            sacre_utils.get_reference_files("wmt22", pair), caches[0]
        )
        assert rapid_dataset.get_available_origlangs("wmt22", pair) == sacre_utils.get_available_origlangs(
            "wmt22", pair
        )
        assert rapid_dataset.get_available_subsets("wmt22", pair) == sacre_utils.get_available_subsets("wmt22", pair)
        src = list(rapid.source(pair))
        for origlang in [None, *sacre_utils.get_available_origlangs("wmt22", pair), "non-en"]:
            for subset in [None, "news", "^(conversation|social)$"]:
                args = ("wmt22", pair, origlang, subset)
                assert rapid_dataset.filter_subset([src], *args) == sacre_utils.filter_subset([src], *args)
    written = tree(caches[1])
    assert len(written) >= 4 * len(pairs)
    assert written == tree(caches[0])


# -- origlang, subsets and --echo on fixture caches -----------------------------------------------------------


@pytest.fixture
def fixture_caches(caches, monkeypatch):
    """wmt22's de-fr (the WMT XML fixture) and wmt19's de-en (SGML with wmt19's annotated
    document ids) in both caches, sacreBLEU's entries pointed at the first."""
    wmt19 = sacre_dataset.DATASETS["wmt19"]
    src, ref = wmt19.langpairs["de-en"]
    annotated = list(sacre_dataset.SUBSETS["wmt19"])
    for cache in caches:
        place(
            cache,
            "wmt22",
            {"wmt22.v1.1.tar.gz": b"x", "wmt22-news-systems-1.1/xml/wmttest2022.de-fr.all.xml": WMT_XML.encode()},
        )
        place(
            cache,
            "wmt19",
            {
                "wmt19.test.tgz": b"x",
                src: sgm("srcset", "de", SGM_SEGMENTS, docs=(annotated[0], annotated[5])),
                ref: sgm("refset", "en", SGM_SEGMENTS),
            },
        )
    for name in ("wmt22", "wmt19"):
        dataset = sacre_dataset.DATASETS[name]
        monkeypatch.setattr(dataset, "_outdir", str(caches[0] / name))
        monkeypatch.setattr(dataset, "_rawdir", str(caches[0] / name / "raw"))
    return caches


def test_origlangs_subsets_and_filters_are_sacrebleus(fixture_caches):
    """get_available_origlangs, get_available_subsets and filter_subset on WMT XML and SGML."""
    for test_set, pair in (("wmt22", "de-fr"), ("wmt19", "de-en")):
        assert rapid_dataset.get_available_origlangs(test_set, pair) == sacre_utils.get_available_origlangs(
            test_set, pair
        )
        assert rapid_dataset.get_available_subsets(test_set, pair) == sacre_utils.get_available_subsets(test_set, pair)
        lines = list(rapid_dataset.DATASETS[test_set].source(pair))
        assert lines == list(sacre_dataset.DATASETS[test_set].source(pair))
        subsets = [None, *sacre_utils.get_available_subsets(test_set, pair), "country:US", "n.ws"]
        for origlang in (None, "de", "non-de", "fr", "xx"):
            for subset in subsets:
                args = (test_set, pair, origlang, subset)
                assert rapid_dataset.filter_subset([lines, lines], *args) == sacre_utils.filter_subset(
                    [lines, lines], *args
                )
    assert rapid_dataset.get_available_origlangs(None, "de-en") == []
    assert rapid_dataset.get_available_subsets(None, "de-en") == []
    assert rapid_dataset.filter_subset([["a"]], None, None, None, None) == [["a"]]
    with pytest.raises(ValueError, match="needs a test"):
        rapid_dataset.filter_subset([["a"]], None, "de-en", "de")


@pytest.mark.parametrize(
    ("test_set", "pair", "fields", "origlang", "subset"),
    [
        ("wmt22", "de-fr", ["all"], None, None),
        ("wmt22", "de-fr", ["src", "ref"], "de", None),
        ("wmt22", "de-fr", ["ref:B", "docid", "domain"], "non-fr", "news"),
        ("wmt19", "de-en", ["src", "ref", "docid", "origlang"], None, None),
        ("wmt19", "de-en", ["all"], "de", "country:GB"),
    ],
)
def test_echo_is_sacrebleus(fixture_caches, capsys, test_set, pair, fields, origlang, subset):
    """print_test_set writes what sacreBLEU's ``--echo`` writes."""
    sacre_utils.print_test_set(test_set, pair, fields, origlang, subset)
    theirs = capsys.readouterr().out
    rapid_dataset.print_test_set(test_set, pair, fields, origlang, subset)
    assert capsys.readouterr().out == theirs
    assert theirs


def test_echo_errors(fixture_caches):
    with pytest.raises(TestSetError, match=r"no field 'hyp'.*wmt22.*de-fr.*src, ref:"):
        rapid_dataset.print_test_set("wmt22", "de-fr", ["hyp"])
    with pytest.raises(TestSetError, match="all"):
        rapid_dataset.print_test_set("wmt22", "de-fr", ["all", "src"])
    with pytest.raises(TestSetError, match="language pair"):
        rapid_dataset.print_test_set("wmt22", None, ["src"])  # type: ignore[arg-type]


# -- one cache for both tools ---------------------------------------------------------------------------------


def stamps(cache: Path) -> dict[str, int]:
    """Each file's modification time, but rapidbleu's list of a WMT XML pair's fields
    (``raw/.<set>.<pair>.fields``, written once so that later processes parse no XML)."""
    return {
        p.relative_to(cache).as_posix(): p.stat().st_mtime_ns
        for p in cache.rglob("*")
        if p.is_file() and not p.name.endswith(".fields")
    }


def test_a_cache_sacrebleu_processed_serves_rapidbleu(fixture_caches, sacre_wmt22, monkeypatch):
    """sacreBLEU processes; rapidbleu, pointed at the same cache, downloads nothing and writes
    nothing but its list of a WMT XML pair's fields (the SGML set even with its raw files gone),
    and reads the same files."""
    sacre_cache = fixture_caches[0]
    sacre_files = {name: sacre_utils.get_files(name, pair) for name, pair in (("wmt22", "de-fr"), ("wmt19", "de-en"))}
    for path in (sacre_cache / "wmt19" / "raw").rglob("*.sgm"):
        path.unlink()
    before = stamps(sacre_cache)
    monkeypatch.setenv("SACREBLEU", str(sacre_cache))
    for name, files in sacre_files.items():
        pair = "de-fr" if name == "wmt22" else "de-en"
        assert rapid_dataset.get_files(name, pair) == files
        assert rapid_dataset.get_reference_files(name, pair) == sacre_utils.get_reference_files(name, pair)
    assert stamps(sacre_cache) == before


def test_a_cache_rapidbleu_processed_serves_sacrebleu(fixture_caches, sacre_wmt22, monkeypatch):
    rapid_cache = fixture_caches[1]
    rapid_files = rapid_dataset.get_files("wmt19", "de-en")
    before = stamps(rapid_cache)
    wmt19 = sacre_dataset.DATASETS["wmt19"]
    monkeypatch.setattr(wmt19, "_outdir", str(rapid_cache / "wmt19"))
    monkeypatch.setattr(wmt19, "_rawdir", str(rapid_cache / "wmt19" / "raw"))
    for path in (rapid_cache / "wmt19" / "raw").rglob("*.sgm"):
        path.unlink()
    assert sacre_utils.get_files("wmt19", "de-en") == rapid_files
    assert stamps(rapid_cache) == {k: v for k, v in before.items() if not k.endswith(".sgm")}


# -- atomic processing ---------------------------------------------------------------------------------------


def test_an_interrupted_processing_leaves_no_partial_file(caches):
    """A reader that fails in the middle of the second field: the first field's file is
    complete, the second's absent, no temporary file remains; the next run completes it."""
    from rapidbleu.dataset.plain_text import PlainTextDataset

    class Failing(PlainTextDataset):
        def read_fields(self, langpair):
            fields = super().read_fields(langpair)

            def broken():
                yield fields["ref"][0]
                raise OSError("disk gone")

            return {"src": fields["src"], "ref": broken()}

    files = {"a.txt": b"one\ntwo\n", "b.txt": b"uno\ndos\n"}
    place(caches[1], "fx/atomic", files)
    failing = Failing("fx/atomic", data=[], langpairs={"en-es": ["a.txt", "b.txt"]})
    with pytest.raises(OSError, match="disk gone"):
        failing.get_files("en-es")
    assert tree(caches[1]) == {"fx/atomic/fx_atomic.en-es.src": b"one\ntwo\n"}
    good = PlainTextDataset("fx/atomic", data=[], langpairs={"en-es": ["a.txt", "b.txt"]})
    assert [Path(f).read_bytes() for f in good.get_files("en-es")] == [b"one\ntwo\n", b"uno\ndos\n"]


def test_an_existing_text_file_is_used_as_it_is(caches):
    """A non-empty text file is not rewritten (as sacreBLEU); an empty one is."""
    from rapidbleu.dataset.plain_text import PlainTextDataset

    place(caches[1], "fx/keep", {"a.txt": b"one\n", "b.txt": b"uno\n"})
    out = caches[1] / "fx" / "keep"
    (out / "fx_keep.en-es.src").write_bytes(b"kept\n")
    (out / "fx_keep.en-es.ref").write_bytes(b"")
    dataset = PlainTextDataset("fx/keep", data=[], langpairs={"en-es": ["a.txt", "b.txt"]})
    assert [Path(f).read_bytes() for f in dataset.get_files("en-es")] == [b"kept\n", b"uno\n"]


# -- errors and imports ----------------------------------------------------------------------------------------


def test_unknown_names_are_test_set_errors(caches):
    for call in (
        lambda: rapid_dataset.get_files("wmt99", "de-en"),
        lambda: rapid_dataset.get_source_file("wmt99", "de-en"),
        lambda: rapid_dataset.get_reference_files("wmt99", "de-en"),
        lambda: rapid_dataset.download_test_set("wmt99"),
        lambda: rapid_dataset.print_test_set("wmt99", "de-en", ["src"]),
    ):
        with pytest.raises(TestSetError, match=r"no test set 'wmt99'.*did you mean"):
            call()
    with pytest.raises(TestSetError, match=r"test set wmt22 has no language pair 'xx-yy'; it has: cs-en, "):
        rapid_dataset.get_files("wmt22", "xx-yy")
    with pytest.raises(KeyError):
        rapid_dataset.get_available_origlangs("wmt22", "xx-yy")


def test_a_failed_download_names_the_url_and_the_cache(caches):
    from rapidbleu._base.errors import DownloadError

    with pytest.raises(DownloadError, match=re.escape(str(caches[1] / "wmt22" / "raw" / "wmt22.v1.1.tar.gz"))):
        rapid_dataset.get_files("wmt22", "de-fr")
    assert not any(p.is_file() and not p.name.endswith(".lock") for p in caches[1].rglob("*"))


def test_import_rapidbleu_imports_neither_the_test_sets_nor_lxml():
    code = "import sys, rapidbleu; print(sorted(m for m in sys.modules if m.startswith(('rapidbleu.dataset', 'lxml'))))"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert run.stdout.strip() == "[]"
    code = "import sys, rapidbleu.dataset; print('lxml' in sys.modules, 'xml.etree.ElementTree' in sys.modules)"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert run.stdout.strip() == "False False"


def test_a_processed_wmt_xml_pair_is_not_parsed_again(caches, monkeypatch):
    """Once a process has listed a WMT XML pair's fields, a later one reads the list beside the
    raw file and parses no XML (here the raw file is overwritten with bytes that are no XML,
    its size and time kept, and the memo of parsed files emptied: a parse would fail); a text
    file gone makes it parse again."""
    import rapidbleu.dataset.wmt_xml as wmt_xml

    ours = caches[1]
    rel = "wmt22-news-systems-1.1/xml/wmttest2022.de-fr.all.xml"
    place(ours, "wmt22", {rel: WMT_XML.encode("utf-8")})
    dataset = rapid_dataset.WMTXMLDataset("wmt22", data=[], langpairs={"de-fr": [rel]}, refs=["A"])
    monkeypatch.setenv("SACREBLEU", str(ours))
    files = dataset.get_files("de-fr")
    names = dataset.fieldnames("de-fr")
    raw = ours / "wmt22" / "raw" / rel
    st = raw.stat()
    raw.write_bytes(b"x" * st.st_size)
    os.utime(raw, ns=(st.st_atime_ns, st.st_mtime_ns))
    wmt_xml._MEMO.clear()
    assert dataset.fieldnames("de-fr") == names
    assert dataset.get_files("de-fr") == files
    assert dataset.get_reference_files("de-fr") == [files[names.index("ref:A")]]
    Path(files[0]).unlink()  # a text file gone: the list is not trusted, the XML is read again
    from xml.etree.ElementTree import ParseError

    with pytest.raises(ParseError, match=r"not well-formed"):
        dataset.fieldnames("de-fr")
