"""What the package declares and ships: the license, the start-up hook that carries
``install_as_sacrebleu()`` into new processes (``.ci/run`` checks both in the wheel and the
sdist), and what a build installs when it cannot compile the core."""

import json
import os
import shutil
import site
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest
from conftest import REQUIRE_INSTALLED_HOOK, ROOT, STARTUP_PTH, installed_startup_hook


def test_license_file_is_apache_2():
    if not (ROOT / "pyproject.toml").is_file():
        pytest.skip("tests run outside the checkout (.ci/run checks LICENSE in the wheel and sdist)")
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert "Apache License" in text
    assert "Version 2.0, January 2004" in text
    assert len(text) > 10000
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'license = "Apache-2.0"' in pyproject
    assert 'license-files = ["LICENSE"]' in pyproject
    assert "LICENSE" in (ROOT / "MANIFEST.in").read_text(encoding="utf-8")


def test_startup_hook_is_one_guarded_line():
    """``src/rapidbleu-shim.pth``, which setup.py copies to the top of site-packages: one line that
    site executes (it starts with ``import``), reads the variable that ``install_as_sacrebleu()``
    sets before anything else, and imports the hook's top-level module only under that guard
    (once);
    the sdist carries it and the hook's module is a top-level module of the distribution."""
    if not (ROOT / "pyproject.toml").is_file():
        pytest.skip("tests run outside the checkout (.ci/run checks the hook in the wheel and the sdist)")
    from rapidbleu.shim import CHILDREN_ENV

    text = (ROOT / "src" / STARTUP_PTH).read_text(encoding="utf-8")
    assert text.endswith("\n")
    assert text.count("\n") == 1
    assert text.startswith("import os, sys; exec(")
    # (a virtual environment's site-packages is processed twice: the hook runs once)
    guard = f' if os.environ.get("{CHILDREN_ENV}", "") not in ("", "0") and "_rapidbleu_startup" not in sys.modules else None\n'
    assert text.endswith(guard)
    assert "import _rapidbleu_startup" in text[: -len(guard)]
    assert (ROOT / "src" / "_rapidbleu_startup.py").is_file()
    assert f"include src/{STARTUP_PTH}" in (ROOT / "MANIFEST.in").read_text(encoding="utf-8")
    assert 'py-modules = ["_rapidbleu_startup"]' in (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert f'STARTUP_PTH = "src/{STARTUP_PTH}"' in (ROOT / "setup.py").read_text(encoding="utf-8")


def test_installed_distribution_puts_the_hook_at_the_top_of_site_packages():
    """A non-editable install (wheel or sdist) lists the hook and its module in its RECORD, beside
    the ``rapidbleu`` package folder at the top of site-packages.  Skipped for an editable install
    or none, unless RAPIDBLEU_REQUIRE_INSTALLED_HOOK=1 (.ci/run)."""
    from importlib import metadata

    try:
        dist = metadata.distribution("rapidbleu")
    except metadata.PackageNotFoundError:
        dist = None
    direct_url = json.loads((dist and dist.read_text("direct_url.json")) or "{}")
    editable = bool(direct_url.get("dir_info", {}).get("editable"))
    # (an egg-info folder that a build left in src/ is found on a PYTHONPATH=src path: not an install)
    in_site = dist is not None and str(Path(dist.locate_file("")).resolve()) in {
        str(Path(f).resolve()) for f in site.getsitepackages()
    }
    if not in_site or editable:
        if REQUIRE_INSTALLED_HOOK:
            pytest.fail("rapidbleu is not installed from a wheel or an sdist but RAPIDBLEU_REQUIRE_INSTALLED_HOOK=1")
        pytest.skip("rapidbleu is not installed in site-packages, or installed editable (no start-up hook)")
    assert dist is not None
    files = {str(f): f for f in dist.files or []}
    assert STARTUP_PTH in files, sorted(files)[:20]
    assert "_rapidbleu_startup.py" in files
    top = Path(dist.locate_file(files[STARTUP_PTH])).parent
    assert (top / "rapidbleu" / "__init__.py").is_file()
    assert (top / "_rapidbleu_startup.py").is_file()
    assert installed_startup_hook() == top / STARTUP_PTH


def _build_tools():
    """setuptools and Cython (the build requirements) in this interpreter: skipped without
    them, unless ``RAPIDBLEU_REQUIRE_BUILD=1`` (``.ci/run``'s step 6 has them)."""
    if os.environ.get("RAPIDBLEU_REQUIRE_BUILD") != "1":
        pytest.importorskip("Cython", reason="Cython not installed (the build requirements; RAPIDBLEU_REQUIRE_BUILD=1)")
        pytest.importorskip("setuptools", reason="setuptools not installed (RAPIDBLEU_REQUIRE_BUILD=1 requires it)")


def test_a_failed_compile_installs_no_compiled_module_of_an_earlier_build(tmp_path):
    """Without a compiler the build falls back to pure Python, and then no compiled module is
    installed: not one left in build/ by an earlier build (the wheel is made from build/lib*),
    nor, for an in-place or editable build, one in the package folder.  Old kernels beside new
    Python sources would give wrong results or fail to import."""
    if not (ROOT / "setup.py").is_file():
        pytest.skip("tests run outside the checkout (no setup.py)")
    _build_tools()
    tree = tmp_path / "tree"
    tree.mkdir()
    for name in ("setup.py", "pyproject.toml", "README.md", "LICENSE", "MANIFEST.in"):
        shutil.copy2(ROOT / name, tree / name)
    shutil.copytree(
        ROOT / "src", tree / "src", ignore=shutil.ignore_patterns("*.so", "*.pyd", "*.c", "__pycache__", "*.html")
    )
    pkg = tree / "src" / "rapidbleu" / "_core"  # (the compiled modules' package)
    modules = sorted(p.stem for p in pkg.glob("*.pyx"))
    assert len(modules) >= 6
    env = {k: v for k, v in os.environ.items() if k not in ("CIBUILDWHEEL", "RAPIDBLEU_SANITIZE", "LD_PRELOAD")}
    env.update(CC="false", CXX="false")
    probe = "from setuptools.dist import Distribution; b = Distribution().get_command_obj('build'); b.finalize_options(); print(b.build_platlib)"
    build_lib = (
        tree
        / subprocess.run(
            [sys.executable, "-c", probe], cwd=tree, env=env, capture_output=True, text=True, check=True
        ).stdout.strip()
    )
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    built = build_lib / "rapidbleu" / "_core"
    built.mkdir(parents=True)
    for m in modules:  # an earlier build's compiled modules, in build/ and in place
        (built / f"{m}{suffix}").write_bytes(b"compiled from older sources")
        (pkg / f"{m}{suffix}").write_bytes(b"compiled from older sources")

    def setup(*args):
        res = subprocess.run(
            [sys.executable, "setup.py", *args],
            cwd=tree,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]
        said = [line for line in res.stderr.splitlines() if line.startswith("rapidbleu: could not compile ")]
        assert len(said) == 1, res.stderr[-3000:]
        assert "installing the pure-Python backend instead" in said[0]

    setup("-q", "bdist_wheel", "-d", str(tmp_path / "dist"))
    (wheel,) = (tmp_path / "dist").glob("rapidbleu-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "rapidbleu/_core/bleu_stats_py.py" in names
    assert [n for n in names if n.endswith((".so", ".pyd"))] == []
    assert list(built.glob(f"*{suffix}")) == []
    # in place (what an editable install builds): the old modules in the package folder go too
    setup("build_ext", "--inplace")
    assert sorted(p.name for p in pkg.glob(f"*{suffix}")) == []
