"""What the package declares and ships: the license, the start-up hook that carries
``install_as_sacrebleu()`` into new processes (``.ci/run`` checks both in the wheel and the
sdist), what a build installs when it cannot compile the core, and how its modules import one
another (ARCHITECTURE.md, "The layers")."""

import ast
import importlib.util
import json
import os
import re
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
    pkg = tree / "src" / "rapidbleu" / "_core"  # (the compiled modules' packages: a folder per metric)
    modules = sorted(str(p.relative_to(pkg).with_suffix("")) for p in pkg.glob("*/*.pyx"))
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
        (built / m).parent.mkdir(parents=True, exist_ok=True)
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
    assert "rapidbleu/_core/bleu/bleu_stats_py.py" in names
    assert [n for n in names if n.endswith((".so", ".pyd"))] == []
    assert list(built.rglob(f"*{suffix}")) == []
    # in place (what an editable install builds): the old modules in the package folder go too
    setup("build_ext", "--inplace")
    assert sorted(p.name for p in pkg.rglob(f"*{suffix}")) == []


# -- the layout ----------------------------------------------------------------------------

PACKAGE = ROOT / "src" / "rapidbleu"

#: What counts as a source file of a folder (Python, Cython, stubs, C headers), and how many one
#: folder may hold directly: past that, its modules are grouped in sub-packages by what they
#: compute (the core: one folder per metric, ARCHITECTURE.md).
SOURCE_SUFFIXES = (".py", ".pyx", ".pxi", ".pxd", ".pyi", ".h")
MAX_SOURCES_PER_FOLDER = 30


def test_no_folder_holds_more_than_30_source_files_and_the_core_is_grouped_by_metric():
    """Every folder of ``src/`` holds at most 30 source files directly; the core keeps only its
    middle layer at its top, the kernels in one sub-package per metric and the shared C in
    ``c/``, each sub-package's ``__init__.py`` importing nothing."""
    if not PACKAGE.is_dir():
        pytest.skip("tests run outside the checkout (the layout is read from src/)")
    counts: dict[Path, int] = {}
    for path in (ROOT / "src").rglob("*"):
        if path.suffix in SOURCE_SUFFIXES and path.is_file() and "__pycache__" not in path.parts:
            counts[path.parent] = counts.get(path.parent, 0) + 1
    crowded = {str(folder.relative_to(ROOT)): n for folder, n in counts.items() if n > MAX_SOURCES_PER_FOLDER}
    assert not crowded, crowded
    core = PACKAGE / "_core"
    assert sorted(p.name for p in core.iterdir() if p.suffix in SOURCE_SUFFIXES) == [
        *("__init__.py", "backend.py", "bootstrap.py", "engines.py", "inputs.py", "metric.py"),
        *("sacre_methods.py", "threads.py", "validate.py"),
    ]
    folders = sorted(p.name for p in core.iterdir() if p.is_dir() and p.name != "__pycache__")
    assert folders == ["aggregate", "bleu", "c", "chrf", "ids", "nltk", "ter"]
    for folder in folders:
        init = ast.parse((core / folder / "__init__.py").read_text("utf-8"))
        assert ast.get_docstring(init), folder
        assert not [n for n in ast.walk(init) if isinstance(n, (ast.Import, ast.ImportFrom))], folder
    # the compiled modules and their stubs are in their metric's folder, none at the top
    assert not list(core.glob("*.pyx"))
    assert not list(core.glob("*.h"))
    assert all(p.with_suffix(".pyi").is_file() for p in core.glob("*/*.pyx"))


# -- the import graph ----------------------------------------------------------------------

#: The layers of the package, lowest first (ARCHITECTURE.md, "The layers", draws this table):
#: each top-level module or folder of ``src/rapidbleu/`` (a node; ``rapidbleu`` is the package's
#: ``__init__``) imports only nodes of its own layer or a lower one, and the nodes form no cycle.
#: Every node is in the table, so a new module must be placed.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("ground", ("_base",)),  # imports nothing else of the package
    ("leaves", ("tokenizers", "textio", "score", "report")),
    ("core", ("_core", "dataset")),  # the scoring core and the test sets: neither imports the other
    ("metrics", ("bleu", "chrf", "ter", "nltk_bleu", "significance", "utils")),
    ("services", ("registry", "ids", "mbr", "nltk", "torchmetrics", "compat")),
    ("doors", ("batch", "stats", "compare", "metrics")),
    ("outside", ("cli", "rewards", "spark", "dask", "ray", "shim", "sacrebleu", "__main__", "rapidbleu")),
)

#: Imports made for type annotations only (under ``if TYPE_CHECKING:``) that name a higher layer:
#: they run no code, so the layers allow them, and this table names each (``node -> node``).
TYPE_ONLY_UPWARD: frozenset[str] = frozenset()

#: Nodes that must not import each other although they share a layer.
APART = (("_core", "dataset"),)


def _module_files() -> dict[str, Path]:
    if not PACKAGE.is_dir():
        pytest.skip("tests run outside the checkout (the import graph is read from src/)")
    files = {}
    for path in sorted(PACKAGE.rglob("*")):
        if path.suffix in (".py", ".pyx", ".pxi") and path.is_file():
            parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
            files[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return files


def _absolute(module: str, path: Path, level: int, name: str | None) -> str:
    """The module a ``from`` import names, from ``module`` (at ``path``) with ``level`` dots."""
    if not level:
        return name or ""
    base = module.split(".")
    if path.stem != "__init__":
        base = base[:-1]
    return ".".join(base[: len(base) - level + 1] + ([name] if name else []))


def _type_checking_only(tree: ast.AST) -> set[int]:
    """The nodes inside ``if TYPE_CHECKING:`` blocks (imports for annotations only)."""
    skip = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", getattr(node.test, "attr", None)) == "TYPE_CHECKING":
            skip.update(id(inner) for stmt in node.body for inner in ast.walk(stmt))
    return skip


def _imports(module: str, path: Path, type_only: bool = False) -> list[tuple[str, str | None]]:
    """``(module, name)`` for each import of ``path`` (``name`` None for ``import module``),
    every import of the file (those inside functions too) but those for annotations only (with
    ``type_only``: those alone).  Cython files (``.pyx``, and the ``.pxi`` files they include)
    are read by their ``from ... import`` and ``import`` lines."""
    found: list[tuple[str, str | None]] = []
    text = path.read_text("utf-8")
    if path.suffix == ".py":
        tree = ast.parse(text)
        skip = _type_checking_only(tree)
        for node in ast.walk(tree):
            if (id(node) in skip) != type_only:
                continue
            if isinstance(node, ast.Import):
                found += [(alias.name, None) for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _absolute(module, path, node.level, node.module)
                found += [(base, alias.name) for alias in node.names]
    elif not type_only:
        for m in re.finditer(r"^[ \t]*from\s+(\.*)([\w.]*)\s+import\s+(\([^)]*\)|[^\n]+)", text, re.MULTILINE):
            base = _absolute(module, path, len(m.group(1)), m.group(2) or None)
            names = m.group(3).strip("()").replace("\n", " ").split(",")
            found += [(base, n.split(" as ")[0].strip()) for n in names if n.strip()]
        found += [(m.group(1), None) for m in re.finditer(r"^[ \t]*import\s+([\w.]+)", text, re.MULTILINE)]
    return [(base, name) for base, name in found if base == "rapidbleu" or base.startswith("rapidbleu.")]


def _import_graph(type_only: bool = False) -> tuple[dict[str, set[str]], list[str]]:
    """Each module's imports of modules of the package (with ``type_only``: those for
    annotations only), and the imports of private names."""
    files = _module_files()
    graph: dict[str, set[str]] = {m: set() for m in files}
    private = []
    for module, path in files.items():
        for base, name in _imports(module, path, type_only):
            target = f"{base}.{name}" if name and f"{base}.{name}" in files else base
            if target != module:
                graph[module].add(target)
            is_private = name and target == base and name.startswith("_") and not name.startswith("__")
            if is_private and target != module:
                private.append(f"{module} imports {name} from {base}")
    return graph, private


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles: each strongly connected component of more than one module."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(v: str) -> None:
        order[v] = low[v] = len(order)
        stack.append(v)
        for w in graph[v]:
            if w not in graph:
                continue
            if w not in order:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], order[w])
        if low[v] == order[v]:
            component = stack[stack.index(v) :]
            del stack[stack.index(v) :]
            if len(component) > 1:
                found.append(sorted(component))

    for v in graph:
        if v not in order:
            visit(v)
    return found


def _node(module: str) -> str:
    """The top-level module or folder of ``src/rapidbleu/`` that ``module`` is in."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "rapidbleu"


def _layer_of() -> dict[str, int]:
    return {node: k for k, (_, nodes) in enumerate(LAYERS) for node in nodes}


def _node_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    nodes: dict[str, set[str]] = {}
    for m, targets in graph.items():
        nodes.setdefault(_node(m), set()).update(_node(t) for t in targets if _node(t) != _node(m))
    return nodes


def _layer_violations(nodes: dict[str, set[str]]) -> list[str]:
    """Each import of a higher layer, or between nodes kept ``APART``."""
    layer = _layer_of()
    bad = [
        f"{a} ({LAYERS[layer[a]][0]}) imports {b} ({LAYERS[layer[b]][0]})"
        for a, targets in nodes.items()
        for b in targets
        if layer[b] > layer[a]
    ]
    bad += [f"{a} imports {b}" for a, b in APART if b in nodes.get(a, ())]
    bad += [f"{b} imports {a}" for a, b in APART if a in nodes.get(b, ())]
    return sorted(bad)


def test_the_layers_hold_and_no_private_names_are_imported():
    """Every top-level module and folder of the package is in ``LAYERS``; each imports only its
    own layer or a lower one (every import statement, also inside functions and in .pyx/.pxi
    files; those for annotations only are named in ``TYPE_ONLY_UPWARD``), the core and the test
    sets do not import each other, neither the modules nor the nodes form a cycle, and no module
    imports another module's private (``_underscored``) names: read from the sources, so every
    new import is checked."""
    graph, private = _import_graph()
    assert len(graph) > 50
    assert "rapidbleu._base.errors" in graph["rapidbleu.bleu"]
    nodes = _node_graph(graph)
    unplaced = sorted(set(nodes) - set(_layer_of()))
    assert not unplaced, f"not in LAYERS: {unplaced}"
    assert not _cycles(graph)
    assert not _cycles(nodes), _cycles(nodes)
    assert not private, private
    assert _layer_violations(nodes) == []
    assert not nodes["_base"], nodes["_base"]  # the ground imports nothing of the package
    typed, _ = _import_graph(type_only=True)
    layer = _layer_of()
    upward_types = {f"{a} -> {b}" for a, ts in _node_graph(typed).items() for b in ts if layer[b] > layer[a]}
    assert upward_types == TYPE_ONLY_UPWARD


def test_the_architecture_page_draws_the_layers_the_test_reads():
    """ARCHITECTURE.md's first drawing under "## The layers" is ``LAYERS``, top floor first
    (each line: the floor's name, then its nodes; a folder's ``/`` and remarks in parentheses
    are for the reader)."""
    page = ROOT / "ARCHITECTURE.md"
    if not page.is_file():
        pytest.skip("ARCHITECTURE.md is not beside this copy of the tests")
    section = page.read_text("utf-8").split("## The layers\n", 1)[1]
    drawing = re.search(r"^```\n(.*?)^```", section, flags=re.S | re.M).group(1)
    drawn = []
    for line in drawing.splitlines():
        words = re.sub(r"\([^)]*\)", " ", line).replace("|", " ").split()
        drawn.append((words[0], tuple(w.rstrip("/") for w in words[1:])))
    assert drawn[::-1] == [(name, tuple(nodes)) for name, nodes in LAYERS]


def test_the_import_graph_finds_what_it_forbids():
    """The reader of the graph above sees relative, nested and Cython imports, and the cycle
    finder finds a cycle (so the test above cannot pass by reading nothing)."""
    graph, _ = _import_graph()
    assert "rapidbleu._base.errors" in graph["rapidbleu._core.bleu.bleu_stats_cy"]  # a .pyx's relative import
    assert "rapidbleu.tokenizers" in graph["rapidbleu._core.bleu.bleu_stats_py"]  # three dots
    assert "rapidbleu.tokenizers.tokenizer_intl" in graph["rapidbleu._core.bleu.bleu_stats_intl"]  # a .pxi
    typed, _ = _import_graph(type_only=True)
    assert "rapidbleu.score" in typed["rapidbleu._core.metric"]  # under TYPE_CHECKING only
    assert "rapidbleu.score" not in graph["rapidbleu._core.metric"]
    # an import of a higher layer, and one between the core and the test sets, are seen
    assert _layer_violations({"_base": {"bleu"}, "_core": {"dataset"}, "bleu": {"_core"}}) == [
        "_base (ground) imports bleu (metrics)",
        "_core imports dataset",
    ]
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert not _cycles({"a": {"b"}, "b": set()})


# -- the extras ------------------------------------------------------------------------------


def _check_extras():
    path = ROOT / "tools" / "check_extras.py"
    if not path.is_file():
        pytest.skip("tools/check_extras.py is not beside this copy of the tests (run from the checkout)")
    spec = importlib.util.spec_from_file_location("check_extras", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_extra_has_entry_modules_and_the_installed_ones_import():
    """Each extra pyproject.toml declares has its entry modules in tools/check_extras.py (which
    .ci/run runs after every install), and every extra whose packages are installed here imports:
    a resolution that installs but does not import (dask 2026.11 with distributed 2021.4.1) fails
    here naming the extra, not as a collection error in the extra's tests."""
    tool = _check_extras()
    assert set(tool.declared_extras(ROOT)) == set(tool.ENTRY_MODULES)
    installed = [
        extra
        for extra, modules in tool.ENTRY_MODULES.items()
        if all(importlib.util.find_spec(m.split(".")[0]) is not None for m in modules)
    ]
    assert "test" in installed
    assert tool.broken(installed, pip_check=False) == []
    # and it sees a broken one: a module that is there but fails to import
    tool.ENTRY_MODULES["_broken"] = ("rapidbleu._core.no_such_module",)
    try:
        (problem,) = tool.broken(["_broken"], pip_check=False)
    finally:
        del tool.ENTRY_MODULES["_broken"]
    assert "extra '_broken'" in problem
    assert "No module named" in problem
