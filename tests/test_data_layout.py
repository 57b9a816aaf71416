"""The tests' WMT23 helpers (conftest) read any folder laid out like ../shared/data/wmt23,
assembled from symbolic links or not: what they find is what is there."""

import os

import pytest
from conftest import SAMPLE_DIR, data_files, score_rows, systems, text_files

pytestmark = pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symbolic links")


@pytest.fixture
def selection(tmp_path):
    """A selection of the samples: system-outputs/ a link to a folder elsewhere (Path.rglob does
    not follow it on Python 3.11), references/ a folder of links, a scores.tsv of its rows."""
    store = tmp_path / "elsewhere"
    store.mkdir()
    for name in ("generaltest2023.he-en.hyp.ONLINE-B.en", "generaltest2023.en-zh.hyp.HW-TSC.zh"):
        (store / name).symlink_to(SAMPLE_DIR / name)
    root = tmp_path / "wmt23"
    root.mkdir()
    (root / "system-outputs").symlink_to(store, target_is_directory=True)
    (root / "references").mkdir()
    for name in (
        "generaltest2023.he-en.ref.refA.en",
        "generaltest2023.he-en.ref.refB.en",
        "generaltest2023.en-zh.ref.refA.zh",
    ):
        (root / "references" / name).symlink_to(SAMPLE_DIR / name)
    rows = (SAMPLE_DIR / "scores.tsv").read_text("utf-8").splitlines(keepends=True)
    keep = [rows[0]] + [r for r in rows[1:] if r.startswith(("he-en\tONLINE-B\t", "en-zh\tHW-TSC\t"))]
    (root / "scores.tsv").write_text("".join(keep), "utf-8")
    return root


def test_files_are_found_through_links(selection):
    names = sorted(p.name for p in text_files(selection))
    assert names == sorted(
        [
            "generaltest2023.en-zh.hyp.HW-TSC.zh",
            "generaltest2023.en-zh.ref.refA.zh",
            "generaltest2023.he-en.hyp.ONLINE-B.en",
            "generaltest2023.he-en.ref.refA.en",
            "generaltest2023.he-en.ref.refB.en",
        ]
    )
    assert [(p, s, len(r)) for p, s, _h, r in systems(selection)] == [("en-zh", "HW-TSC", 1), ("he-en", "ONLINE-B", 2)]


def test_score_rows_are_the_selections(selection):
    rows = score_rows(selection)
    assert {(r["pair"], r["system"], r["metric"]) for r in rows} == {
        (p, s, m) for p, s in (("he-en", "ONLINE-B"), ("en-zh", "HW-TSC")) for m in ("bleu-refA", "bleu-all")
    }
    assert all(r["hyp"].is_file() and r["ref"].name.endswith(".refA." + r["pair"][-2:]) for r in rows)
    with open(selection / "scores.tsv", "a", encoding="utf-8") as fh:
        fh.write("cs-uk\tONLINE-W\t405\tFalse\tbleu-refA\t26.75\n")  # a row without its files
    with pytest.raises(pytest.fail.Exception, match="lists cs-uk ONLINE-W but its files are missing"):
        score_rows(selection)


def test_data_files_come_from_one_folder(selection, monkeypatch):
    monkeypatch.setenv("RAPIDBLEU_WMT23_DIR", str(selection))
    ref, hyp = "generaltest2023.he-en.ref.refA.en", "generaltest2023.he-en.hyp.ONLINE-B.en"
    assert [p.parent.parent for p in data_files(ref, hyp)] == [selection, selection]
    # the selection lacks this system: both from the samples, not the reference from the selection
    paths = data_files(ref, "generaltest2023.he-en.hyp.ONLINE-Y.en")
    assert [p.parent for p in paths] == [SAMPLE_DIR, SAMPLE_DIR]
