"""Shared test fixtures: the backend fixture, WMT23 data locations, the line reader.

Where the WMT23 data is (one rule for every test): ``$RAPIDBLEU_WMT23_DIR``, else
``../shared/data/wmt23`` beside the repository, else the samples in ``tests/data/wmt23``.  No
test names a path of any machine.  The full data may be any selection of the WMT23 files laid
out like ``../shared/data/wmt23`` (``scores.tsv``, ``references/``, ``system-outputs/``,
``sources/``), assembled from symbolic links or not: tests find files by walking the folder
(following links) and count what is there, never the developer selection's numbers
(``tools/wmt23_selection.py`` runs them on another selection).
"""

import csv
import importlib
import os
import re
import site
import threading
from pathlib import Path

import pytest
from wmt23_data import ROOT, SAMPLE_DIR, full_candidate

from rapidbleu._core import backend as _backend

#: A four-segment corpus with a variable number of references (the last segment has one) and a
#: hypothesis that looks tokenized ("Foo bar ."), and a second system of the same segments.
TINY_HYPS = ["The dog bit the man.", "It wasn't surprising.", "The man had just bitten him.", "Foo bar ."]
TINY_REFS = [
    ["The dog bit the man.", "It was not unexpected.", "The man bit him first.", "foo bar"],
    ["The dog had bit the man.", "No one was surprised.", "The man had bitten the dog.", None],
]
TINY_OTHER = ["The dog bit a man.", "It was surprising.", "The man bit him.", "foo"]


def _full_candidate() -> Path:
    return full_candidate()


def wmt23_dir(full: bool = False) -> Path:
    """The WMT23 folder: the full selection if present (``$RAPIDBLEU_WMT23_DIR`` or
    ``../shared/data/wmt23``), else the shipped samples; ``full=True`` needs the full one (see
    :func:`full_data_dir`)."""
    if full:
        return full_data_dir()
    c = _full_candidate()
    return c if (c / "scores.tsv").is_file() else SAMPLE_DIR


def data_files(*names: str) -> list[Path] | None:
    """WMT23 files by name, all from one folder: the full selection when it holds every one of
    them (in the folder or its references/, system-outputs/ and sources/), else the samples;
    None when neither does (never a reference from one and a hypothesis from the other)."""
    for directory in dict.fromkeys((wmt23_dir(), SAMPLE_DIR)):
        paths = [_in_folder(directory, name) for name in names]
        if None not in paths:
            return paths
    return None


def _in_folder(directory: Path, name: str) -> Path | None:
    for sub in ("", "references", "system-outputs", "sources"):
        path = directory / sub / name
        if path.is_file():
            return path
    return None


def text_files(directory: Path, pattern: str = "generaltest2023.*") -> list[Path]:
    """Every file under ``directory`` whose name matches ``pattern``, sorted, following
    symbolic links to folders (``Path.rglob`` does not follow them on Python < 3.13)."""
    import fnmatch

    found = []
    for folder, _dirs, files in os.walk(directory, followlinks=True):
        found += [Path(folder) / f for f in files if fnmatch.fnmatch(f, pattern)]
    return sorted(p for p in found if p.is_file())


# ------------------------------------------------------------------------------------------
# The backend fixture (markupsafe's pattern): a test that asks for ``backend`` (or a module
# marked ``pytestmark = pytest.mark.usefixtures("backend")``) runs once per backend in one
# pytest run; every other test runs once.  With RAPIDBLEU_REQUIRE_CYTHON=1 a missing extension
# fails instead of skipping.
# ------------------------------------------------------------------------------------------
def _compiled_available() -> bool:
    try:
        for kind in _backend.TWINS:
            _backend.select("cython", kind)
        return True
    except ImportError:
        return False


HAVE_CYTHON = _compiled_available()
REQUIRE_CYTHON = os.environ.get("RAPIDBLEU_REQUIRE_CYTHON") == "1"


@pytest.fixture(params=["python", "cython"])
def backend(request, monkeypatch):
    """Run the test with every kernel (statistics, sets, scoring) of one backend."""
    if request.param == "cython" and not HAVE_CYTHON:
        if REQUIRE_CYTHON:
            pytest.fail("RAPIDBLEU_REQUIRE_CYTHON=1 but the compiled extension is not available")
        pytest.skip("compiled extension not built")
    for kind in _backend.TWINS:
        module = _backend.select(request.param, kind)
        monkeypatch.setattr(_backend, kind, module, raising=False)
    return request.param


def full_data_dir():
    """The full WMT23 selection: $RAPIDBLEU_WMT23_DIR or ../shared/data/wmt23 beside the repo.

    Tests that need it skip when it is absent, unless RAPIDBLEU_REQUIRE_WMT23=1 (set by .ci/run),
    in which case they fail: the official-table checks must not silently vanish in CI.
    """
    c = _full_candidate()
    if (c / "scores.tsv").is_file():
        return c
    if os.environ.get("RAPIDBLEU_REQUIRE_WMT23") == "1":
        pytest.fail(f"full WMT23 data not found at {c} and RAPIDBLEU_REQUIRE_WMT23=1")
    pytest.skip("full WMT23 data not available (set RAPIDBLEU_WMT23_DIR)")


def find(directory: Path, pattern: str):
    """Files matching ``pattern`` in ``directory`` or its references/ and system-outputs/ folders."""
    return sorted(directory.glob(pattern)) + sorted(directory.glob(f"*/{pattern}"))


def read(path: Path):
    """Lines as sacreBLEU's CLI reads them: UTF-8, split on \\n, right-stripped."""
    with open(path, encoding="utf-8", newline="\n") as fh:
        return [line.rstrip() for line in fh]


def systems(directory: Path):
    """(pair, system, hyp_path, [ref paths]) for every system output in ``directory``
    (``generaltest2023.<pair>.hyp.<system>.<lang>``; a system name may hold dots)."""
    out = []
    for hyp in find(directory, "generaltest2023.*.hyp.*"):
        parts = hyp.name.split(".")
        pair, system, lang = parts[1], ".".join(parts[3:-1]), parts[-1]
        refs = find(directory, f"generaltest2023.{pair}.ref.*.{lang}")
        out.append((pair, system, hyp, refs))
    return out


def score_rows(directory: Path, pairs=None) -> list[dict]:
    """The ``bleu-refA`` and ``bleu-all`` rows of ``directory/scores.tsv`` (of ``pairs`` if
    given), each with ``hyp`` and ``ref`` (refA), the paths of its files; a row whose files the
    folder lacks fails the test (the table and the files are one selection)."""
    rows = []
    with open(directory / "scores.tsv", encoding="utf-8", newline="") as fh:
        for row in csv.DictReader(fh, delimiter="\t"):
            if row["metric"] not in ("bleu-refA", "bleu-all") or (pairs is not None and row["pair"] not in pairs):
                continue
            lang = row["pair"].split("-")[1]
            row["hyp"] = _in_folder(directory, f"generaltest2023.{row['pair']}.hyp.{row['system']}.{lang}")
            row["ref"] = _in_folder(directory, f"generaltest2023.{row['pair']}.ref.refA.{lang}")
            if row["hyp"] is None or row["ref"] is None:
                pytest.fail(f"{directory / 'scores.tsv'} lists {row['pair']} {row['system']} but its files are missing")
            rows.append(row)
    return rows


#: Tokenizer of the official WMT23 table for each target (the data README explains it).
OFFICIAL_TOKENIZER = {"en-zh": "zh", "en-ja": "char"}


def clean_ids_plain(seq, pad_id, eos_ids, drop_ids):
    """The cleaning rule of ``rapidbleu.ids``, written the plain way (the tests' oracle): the
    special ids are the pad, the eos ids and the dropped ids; cut at the first eos after a
    content id; drop the other specials."""
    special = {pad_id, *eos_ids, *drop_ids} - {None}
    out = []
    for t in seq:
        if t not in special:
            out.append(t)
        elif out and t in eos_ids:
            break
    return out


# ------------------------------------------------------------------------------------------
# The start-up hook (``rapidbleu-shim.pth``) in child interpreters.
# ------------------------------------------------------------------------------------------
STARTUP_PTH = "rapidbleu-shim.pth"
#: .ci/run sets it: the hook must be the installed one, in site-packages (a non-editable install).
REQUIRE_INSTALLED_HOOK = os.environ.get("RAPIDBLEU_REQUIRE_INSTALLED_HOOK") == "1"


def differing_in_threads(compute, want, rounds: int, threads: int = 4) -> int:
    """Run ``compute()`` ``rounds`` times in each of ``threads`` threads at once (a kernel's shared
    scratch space under contention); the number of results that differ from ``want``."""
    differ = []

    def work():
        differ.extend(1 for _ in range(rounds) if compute() != want)

    crew = [threading.Thread(target=work) for _ in range(threads)]
    for t in crew:
        t.start()
    for t in crew:
        t.join()
    return len(differ)


def installed_startup_hook() -> Path | None:
    """``rapidbleu-shim.pth`` in a site-packages folder of this interpreter (where pip puts it
    with a non-editable install), or None."""
    folders = [*site.getsitepackages(), site.getusersitepackages()]
    return next((Path(f) / STARTUP_PTH for f in folders if (Path(f) / STARTUP_PTH).is_file()), None)


@pytest.fixture(scope="session")
def startup_hook_env(tmp_path_factory) -> dict[str, str]:
    """Environment additions under which child interpreters run rapidbleu's start-up hook.

    Where rapidbleu is installed from a wheel or an sdist (as in .ci/run), the hook is the one in
    site-packages: nothing to add (it must be the checkout's line, if there is a checkout).
    Elsewhere (an editable install, the source tree on PYTHONPATH) site-packages has no hook; then
    a second installation prefix is made whose site-packages folder holds a copy of the
    checkout's ``src/rapidbleu-shim.pth``, and a ``sitecustomize`` module on PYTHONPATH makes site
    add that prefix in each child (``site.PREFIXES``, ``site.addsitepackages``) as it adds a
    virtual environment's ``sys.prefix`` (twice): site's own .pth processing runs the line, and
    ``site.getsitepackages()`` lists the folder.  RAPIDBLEU_REQUIRE_INSTALLED_HOOK=1 (.ci/run) fails instead.
    """
    source = ROOT / "src" / STARTUP_PTH
    installed = installed_startup_hook()
    if installed is not None:
        if source.is_file():
            assert installed.read_bytes() == source.read_bytes(), f"{installed} is not the checkout's {source}"
        return {}
    if REQUIRE_INSTALLED_HOOK:
        pytest.fail(
            f"no {STARTUP_PTH} in site-packages but RAPIDBLEU_REQUIRE_INSTALLED_HOOK=1 ({site.getsitepackages()})"
        )
    prefix = tmp_path_factory.mktemp("hook-prefix")
    site_dir = Path(site.getsitepackages([str(prefix)])[0])
    site_dir.mkdir(parents=True)
    (site_dir / STARTUP_PTH).write_bytes(source.read_bytes())
    custom = tmp_path_factory.mktemp("hook-sitecustomize")
    # twice, as site processes a virtual environment's site-packages (in site.venv() and again in
    # site.main(): every .pth file there runs twice)
    add = f"site.addsitepackages(None, [{str(prefix)!r}])\n"
    (custom / "sitecustomize.py").write_text(
        f"import site\nsite.PREFIXES.append({str(prefix)!r})\n{add}{add}", encoding="utf-8"
    )
    return {"PYTHONPATH": os.pathsep.join(filter(None, [str(custom), os.environ.get("PYTHONPATH")]))}


# Integration tests: tests that need a package the README's test command does not install
# (torch, torchmetrics, Ray, TRL, the harnesses; CONTRIBUTING.md's integrations command installs them).
# Each is marked ``integration`` (a test, a parameter, or a whole file by ``pytestmark``) and
# skips where its package is missing, unless the package's switch is set: .ci/run runs the
# README's test command with none of them installed, then installs them and runs
# ``pytest -m integration`` with every switch set, where a missing package fails the test.
# A test that skips for want of one of these packages without the mark fails (it would run
# nowhere in CI).
# ------------------------------------------------------------------------------------------

#: Top-level module of each integration package -> the switch that makes its absence a failure.
INTEGRATIONS = {
    "torch": "RAPIDBLEU_REQUIRE_TORCH",
    "torchmetrics": "RAPIDBLEU_REQUIRE_TORCH",
    "ray": "RAPIDBLEU_REQUIRE_RAY",
    "trl": "RAPIDBLEU_REQUIRE_TRL",
    "lm_eval": "RAPIDBLEU_REQUIRE_HARNESSES",
    "sockeye": "RAPIDBLEU_REQUIRE_HARNESSES",
    "joeynmt": "RAPIDBLEU_REQUIRE_HARNESSES",
    "mbrs": "RAPIDBLEU_REQUIRE_MBRS",
}

#: A skip reason that names a missing integration package.
_MISSING_INTEGRATION = re.compile(
    rf"\b({'|'.join(INTEGRATIONS)}|lm-eval|Ray Data)\b.*(not installed|No module named)|could not import "
    rf"'({'|'.join(INTEGRATIONS)})\b",
    flags=re.IGNORECASE,
)


def integration(module: str):
    """Import ``module`` of an integration package for a test marked ``integration``; skip the
    test where it is not installed, unless the package's switch (:data:`INTEGRATIONS`) is 1,
    where the ``ImportError`` fails it."""
    switch = INTEGRATIONS[module.split(".", maxsplit=1)[0]]
    if os.environ.get(switch) == "1":
        return importlib.import_module(module)
    return pytest.importorskip(
        module, reason=f"{module} not installed (an integration package; {switch}=1 requires it)"
    )


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.skipped and item.get_closest_marker("integration") is None:
        reason = str(report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr)
        if _MISSING_INTEGRATION.search(reason):
            report.outcome = "failed"
            report.longrepr = (
                f"{item.nodeid} skips for want of an integration package ({reason}) but is not marked "
                "@pytest.mark.integration: .ci/run would run it nowhere"
            )


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector):
    """A test file skipped whole for want of an integration package must mark its tests
    (``pytestmark = pytest.mark.integration``)."""
    outcome = yield
    report = outcome.get_result()
    if report.skipped and report.nodeid.endswith(".py"):
        reason = str(report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr)
        source = (ROOT / report.nodeid).read_text(encoding="utf-8") if (ROOT / report.nodeid).is_file() else ""
        if _MISSING_INTEGRATION.search(reason) and "pytestmark = pytest.mark.integration" not in source:
            report.outcome = "failed"
            report.longrepr = (
                f"{report.nodeid} is skipped for want of an integration package ({reason}) but does not set "
                "pytestmark = pytest.mark.integration: .ci/run would run it nowhere"
            )
