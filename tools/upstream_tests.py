#!/usr/bin/env python3
"""Run sacreBLEU 2.6.0's and NLTK's own BLEU tests, and sacreBLEU's chrF and TER tests, against rapidbleu.

Downloads the two source distributions with pip (sacreBLEU 2.6.0; NLTK at the installed
version), extracts their BLEU tests (and sacreBLEU's TER tests) into a temporary directory, adds
``tools/upstream/conftest.py`` (which only renames modules: ``sacrebleu`` -> ``rapidbleu``,
``nltk.translate.bleu_score`` -> ``rapidbleu.nltk``, ...) and runs pytest there with the
interpreter running this script.  ``tools/upstream/deselect.txt`` lists, with reasons, the
upstream tests of things rapidbleu deliberately does not do (test-set downloads, NLTK data).

Prints the pass/fail counts and exits non-zero if any selected test fails or errors, or if
fewer pass than ``expect-passed`` in ``deselect.txt`` says pass today.

Usage: python tools/upstream_tests.py [--cache DIR] [-- extra pytest args]
    --cache DIR: keep (and reuse) the downloaded sdists in DIR instead of a temporary folder.
The extracted tests are never stored in this repository.
"""

import argparse
import configparser
import os
import subprocess
import sys
import tarfile
import tempfile
import xml.etree.ElementTree as ET
from importlib.metadata import version
from pathlib import Path

HERE = Path(__file__).resolve().parent
SACREBLEU_VERSION = "2.6.0"

#: sacreBLEU's BLEU, chrF and TER tests (its test/ folder); test_significance.py reads the pickle.
SACREBLEU_FILES = (
    "test_bleu.py",
    "test_chrf.py",
    "test_sentence_bleu.py",
    "test_significance.py",
    "test_ter.py",
    "test_tokenizer_ter.py",
    "test_api.py",
    "wmt17_en_de_systems.pkl.bz2",
)
#: NLTK's BLEU tests: the unit tests and the doctest file (paths inside the nltk package).
NLTK_FILES = ("test/unit/translate/test_bleu.py", "test/bleu.doctest")


def download(spec: str, dest: Path) -> Path:
    """``pip download`` the sdist of ``spec`` into ``dest`` (reused when already there)."""
    name, ver = spec.split("==")
    found = sorted(dest.glob(f"{name}-{ver}.tar.gz"))
    if not found:
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "-q",
                "--no-deps",
                "--no-binary",
                ":all:",
                "--disable-pip-version-check",
                spec,
                "-d",
                str(dest),
            ],
            check=True,
        )
        found = sorted(dest.glob(f"{name}-{ver}.tar.gz"))
    if not found:
        sys.exit(f"upstream_tests: pip did not download the sdist {name}-{ver}.tar.gz into {dest}")
    return found[0]


def extract(sdist: Path, inner: str, names, out: Path) -> None:
    """Copy ``<top>/<inner>/<name>`` of each name from the sdist to ``out/<basename>``."""
    out.mkdir(parents=True, exist_ok=True)
    with tarfile.open(sdist) as tar:
        top = tar.getnames()[0].split("/")[0]
        for name in names:
            member = tar.getmember(f"{top}/{inner}/{name}")
            data = tar.extractfile(member)
            if data is None:
                sys.exit(f"upstream_tests: {member.name} is not a file in {sdist.name}")
            (out / Path(name).name).write_bytes(data.read())


def nltk_doctest_flags(sdist: Path) -> str:
    """NLTK's own ``doctest_optionflags`` (from its test/pytest.ini), so the doctests run as
    NLTK runs them."""
    with tarfile.open(sdist) as tar:
        top = tar.getnames()[0].split("/")[0]
        data = tar.extractfile(f"{top}/nltk/test/pytest.ini")
        ini = configparser.ConfigParser()
        ini.read_string(data.read().decode("utf-8") if data else "")
    return ini.get("pytest", "doctest_optionflags", fallback="ELLIPSIS NORMALIZE_WHITESPACE")


def read_selection(path: Path):
    """``(ignored files, deselected node ids, expected passes)`` from deselect.txt."""
    ignore, deselect, expect = [], [], 0
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        kind, _, value = line.partition(" ")
        value = value.strip()
        if kind == "ignore":
            ignore.append(value)
        elif kind == "deselect":
            deselect.append(value)
        elif kind == "expect-passed":
            expect = int(value)
        else:
            sys.exit(f"upstream_tests: {path.name}: unknown line {raw!r}")
    return ignore, deselect, expect


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cache", help="folder for the downloaded sdists (default: a temporary one)")
    ap.add_argument("pytest_args", nargs="*", help="extra pytest arguments (after --)")
    opts = ap.parse_args()

    with tempfile.TemporaryDirectory(prefix="rapidbleu-upstream-") as tmp_name:
        tmp = Path(tmp_name)
        cache = Path(opts.cache) if opts.cache else tmp / "sdists"
        cache.mkdir(parents=True, exist_ok=True)
        sacre = download(f"sacrebleu=={SACREBLEU_VERSION}", cache)
        nltk_sdist = download(f"nltk=={version('nltk')}", cache)

        run = tmp / "run"
        extract(sacre, "test", SACREBLEU_FILES, run / "sacrebleu")
        extract(nltk_sdist, "nltk", NLTK_FILES, run / "nltk")
        # test_significance.py opens ./test/wmt17_en_de_systems.pkl.bz2 relative to the cwd
        (run / "test").mkdir()
        (run / "sacrebleu" / "wmt17_en_de_systems.pkl.bz2").rename(run / "test" / "wmt17_en_de_systems.pkl.bz2")
        (run / "conftest.py").write_bytes((HERE / "upstream" / "conftest.py").read_bytes())
        (run / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")

        ignore, deselect, expect = read_selection(HERE / "upstream" / "deselect.txt")
        junit = tmp / "junit.xml"
        cmd = [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "--import-mode=importlib",
            "--rootdir",
            str(run),
            "-c",
            str(run / "pytest.ini"),
            "--junitxml",
            str(junit),
            "--doctest-glob",
            "*.doctest",
            "-o",
            f"doctest_optionflags={nltk_doctest_flags(nltk_sdist)}",
        ]
        cmd += [f"--ignore={run / p}" for p in ignore]
        cmd += [f"--deselect={p}" for p in deselect]
        cmd += ["sacrebleu", "nltk", *opts.pytest_args]
        env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
        env.pop("SACREBLEU_SEED", None)  # the upstream tests set what they need
        rc = subprocess.run(cmd, cwd=run, env=env, check=False).returncode

        counts = {"passed": 0, "failed": 0, "errors": 0, "skipped": 0}
        per_file: dict[str, dict[str, int]] = {}
        if junit.exists():
            for case in ET.parse(junit).iter("testcase"):
                tags = {child.tag for child in case}
                outcome = (
                    "failed"
                    if "failure" in tags
                    else "errors"
                    if "error" in tags
                    else "skipped"
                    if "skipped" in tags
                    else "passed"
                )
                counts[outcome] += 1
                # classname: "sacrebleu.test_chrf", "sacrebleu.test_chrf.TestX", "nltk.bleu.doctest"...
                parts = case.get("classname", "").split(".")
                name = "/".join(parts[:2]) if parts[:1] != ["nltk"] or "test_bleu" in parts else "nltk/bleu.doctest"
                per_file.setdefault(name, dict.fromkeys(counts, 0))[outcome] += 1
        for name, c in sorted(per_file.items()):
            print(f"  {name}: " + ", ".join(f"{v} {k}" for k, v in c.items() if v))
        print(
            f"upstream BLEU, chrF and TER tests (sacreBLEU {SACREBLEU_VERSION}, NLTK {version('nltk')}) against rapidbleu: "
            f"{counts['passed']} passed, {counts['failed']} failed, {counts['errors']} errors, "
            f"{counts['skipped']} skipped; {len(ignore)} file(s) and {len(deselect)} test(s) deselected "
            "(tools/upstream/deselect.txt)"
        )
        if rc != 0 or counts["failed"] or counts["errors"]:
            print("upstream_tests: FAILED (see the pytest output above)", file=sys.stderr)
            return 1
        if counts["passed"] < expect:
            print(f"upstream_tests: FAILED: {counts['passed']} passed, expected at least {expect}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
