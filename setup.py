"""Build script: metadata lives in pyproject.toml; this file only adds the compiled core.

* ``RAPIDBLEU_DEBUG_BUILD=1``: bounds and wraparound checks on, ``-O0 -g``.
* ``RAPIDBLEU_SANITIZE=address,undefined,...`` (gcc or clang; ``1``: address, undefined and
  float-cast-overflow): the core built with those sanitizers, ``-O1 -g``, every report fatal
  (``.ci/run`` builds one in its own directory and runs the kernel tests under it, with the
  sanitizer runtime preloaded into Python: see its step 6 for the environment).
* A failed compilation installs the pure-Python package (same results, slower) with one line
  saying why (shown by ``pip install -v``: pip hides a successful build's output, so the
  package itself says it once more, in one line, when it first runs), except under
  cibuildwheel (``CIBUILDWHEEL=1``), where it must fail loudly.  No compiled module is then
  installed, not even one left in ``build/`` (or, in place, in ``src/rapidbleu``) by an
  earlier build: old kernels beside new Python sources would be wrong.
* Every build that installs (the wheel, an sdist install with or without the compiled core)
  puts the start-up hook ``src/rapidbleu-shim.pth`` at the top of the package's folder, i.e.
  of site-packages once installed, where ``site`` runs it in every new interpreter: with
  ``RAPIDBLEU_AS_SACREBLEU`` set (``install_as_sacrebleu()`` sets it) it installs the alias
  there (``src/_rapidbleu_startup.py``).  Editable installs do not carry it.
"""

import os
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

DEBUG = os.environ.get("RAPIDBLEU_DEBUG_BUILD", "") == "1"
#: ``RAPIDBLEU_SANITIZE``: gcc/clang's ``-fsanitize`` list; ``1`` is .ci/run's set.
SANITIZE = os.environ.get("RAPIDBLEU_SANITIZE", "").strip()
if SANITIZE == "1":
    SANITIZE = "address,undefined,float-cast-overflow"
STRICT = os.environ.get("CIBUILDWHEEL", "") == "1"

# The one place where the compiler directives are set.
DIRECTIVES = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "cdivision": True,
    "initializedcheck": DEBUG,
    "embedsignature": True,
}


#: Every compiled module, rapidbleu._core.<folder>.<module> built from
#: src/rapidbleu/_core/<folder>/<module>.pyx (the folder: its metric), with the files it includes or
#: cimports (rebuild dependencies), each as <folder>/<file> below src/rapidbleu/_core/ (the shared C
#: is in c/).  A new extension is one more entry here; MANIFEST.in already ships every
#: .pyx/.pxi/.pxd/.h/.pyi of the core's folders, and .ci/run checks that the wheel holds each module
#: and that it has a .pyi stub.
EXTENSIONS = {
    "bleu/bleu_stats_cy": [
        *(
            "bleu/bleu_stats_strings.pxi",
            "bleu/bleu_stats_one.pxi",
            "bleu/bleu_stats_tokens.pxi",
            "bleu/bleu_stats_flat.pxi",
        ),
        *("bleu/bleu_stats_intl.pxi", "bleu/bleu_ngram.h", "bleu/bleu_ngram_core.h", "bleu/bleu_ngram_long.h"),
        *("c/strtok.h", "c/tok.h", "c/uni.h", "c/table.h", "c/table.pxd", "c/compiler.h", "c/pyint.h"),
        *("c/pyapi.pxd", "c/text.h", "c/pytext.h", "c/text.pxd"),
    ],
    "ids/ids_cy": ["c/pyint.h", "c/pyapi.pxd"],
    "bleu/bleu_scores_cy": ["bleu/bleu_scores_cy.pxd"],
    "bleu/bleu_sets_cy": ["c/table.h", "c/compiler.h", "c/table.pxd", "bleu/bleu_scores_cy.pxd"],
    "chrf/chrf_cy": [
        *("chrf/chrf.h", "chrf/chrf_score.h", "chrf/chrf_one.pxi", "c/table.h", "c/text.h", "c/pytext.h"),
        *("c/text.pxd", "c/uni.h", "c/compiler.h", "c/pyint.h", "c/pyapi.pxd"),
    ],
    "ter/ter_cy": [
        *("ter/ter.h", "ter/ter_bits.h", "ter/ter_tok.h", "ter/ter_one.pxi", "c/tok.h", "c/uni.h", "c/compiler.h"),
        *("c/text.h", "c/pytext.h", "c/text.pxd"),
    ],
    "aggregate/aggregate_cy": ["aggregate/aggregate.h", "chrf/chrf_score.h"],
}

#: The core's folders of compiled modules and C, the include directories of every module: headers
#: are included by name wherever they are (``#include "table.h"``, ``cdef extern from "chrf.h"``).
CORE = "src/rapidbleu/_core"
INCLUDE_DIRS = sorted({f"{CORE}/{path.split('/')[0]}" for m, h in EXTENSIONS.items() for path in (m, *h)})


#: The start-up hook, a .pth file: outside every package, so build_py copies it itself.
STARTUP_PTH = "src/rapidbleu-shim.pth"


def _compile_args():
    """Optimisation, and the flags that keep every float the one Python computes: no
    contraction of a*b+c into a fused multiply-add (which rounds once instead of twice), and
    strict IEEE semantics on MSVC (its default /fp:precise may contract on some targets)."""
    if sys.platform == "win32":
        if SANITIZE:
            raise SystemExit("RAPIDBLEU_SANITIZE needs gcc or clang")
        return (["/Od", "/Zi"] if DEBUG else ["/O2"]) + ["/fp:strict"]
    if SANITIZE:
        return ["-O1", "-g", "-fno-omit-frame-pointer", *_sanitize_args(), "-ffp-contract=off"]
    return (["-O0", "-g"] if DEBUG else ["-O3"]) + ["-ffp-contract=off"]


def _sanitize_args():
    return [f"-fsanitize={SANITIZE}", "-fno-sanitize-recover=all"]


def _link_args():
    if sys.platform == "win32":
        return []
    if SANITIZE:
        return ["-g", *_sanitize_args()]
    return ["-g"] if DEBUG else []


def _extensions():
    try:
        from Cython.Build import cythonize
        from setuptools import Extension
    except ImportError as exc:  # no Cython: pure-Python install (see _core/backend.py)
        if STRICT:
            raise
        print(f"rapidbleu: Cython not available ({exc}); installing the pure-Python backend instead", file=sys.stderr)
        return []
    exts = [
        Extension(
            "rapidbleu._core." + module.replace("/", "."),
            sources=[f"{CORE}/{module}.pyx"],
            depends=[f"{CORE}/{h}" for h in headers],
            include_dirs=INCLUDE_DIRS,
            extra_compile_args=_compile_args(),
            extra_link_args=_link_args(),
        )
        for module, headers in EXTENSIONS.items()
    ]
    # Cythonize the modules in parallel where fork is the default (Cython's pool re-imports
    # setup.py under spawn, i.e. on Windows and macOS).
    nthreads = _jobs(len(exts)) if sys.platform.startswith("linux") else 0
    return cythonize(exts, compiler_directives=DIRECTIVES, language_level=3, nthreads=nthreads)


def _jobs(work: int) -> int:
    """Parallel build jobs: one per core, never more than the modules to build."""
    return max(1, min(os.cpu_count() or 1, work))


class OptionalBuildExt(build_ext):
    """Compile the core; on failure fall back to pure Python unless building wheels in CI.
    Every module is tried; one line at the end names those that failed and the first error."""

    def initialize_options(self):
        super().initialize_options()
        self.failed = []

    def finalize_options(self):
        super().finalize_options()
        if self.parallel is None:  # pip's builds: compile the modules side by side (-j overrides)
            self.parallel = _jobs(len(self.extensions or ()))

    def run(self):
        inplace = self.inplace  # (setuptools builds into build_lib, then copies in place)
        try:
            super().run()
        except Exception as exc:
            self._give_up("the C core", exc)
        if self.failed:
            removed = self._remove_compiled(inplace)
            names = ", ".join(name for name, _ in self.failed)
            print(
                f"rapidbleu: could not compile {names} ({self.failed[0][1]}); installing the pure-Python "
                "backend instead (identical results, slower"
                + (f"; {removed} compiled module files removed, so that none is installed" if removed else "")
                + "); a C compiler and Python headers give the fast core",
                file=sys.stderr,
            )

    def copy_extensions_to_source(self):
        """An in-place (or editable) build copies the compiled modules into the package folder,
        unless the build failed: then none is copied (``run`` removes those already there)."""
        if not self.failed:
            super().copy_extensions_to_source()

    def _remove_compiled(self, inplace):
        """Delete every compiled module this build would install: in ``build_lib`` (which the
        wheel is made from) and, for an in-place or editable build, in the package folder.  Left
        by an earlier build, any of them would be installed beside Python sources it was not
        compiled from, and the fallback is the pure-Python backend for every kernel (the one the
        message names).  Returns how many files were removed."""
        build_py = self.get_finalized_command("build_py")
        removed = 0
        for ext in self.extensions:
            filename = Path(self.get_ext_filename(self.get_ext_fullname(ext.name)))
            paths = [Path(self.build_lib) / filename]
            if inplace:
                package = ".".join(ext.name.split(".")[:-1])
                paths.append(Path(build_py.get_package_dir(package)) / filename.name)
            for path in paths:
                if path.exists():
                    path.unlink()
                    removed += 1
        return removed

    def build_extension(self, ext):
        try:
            super().build_extension(ext)
        except Exception as exc:
            self._give_up(ext.name, exc)

    def _give_up(self, name, exc):
        if STRICT:
            raise exc
        self.failed.append((name, " ".join(str(exc).split())))


class BuildPyWithStartupHook(build_py):
    """The Python files as usual, and STARTUP_PTH at the top of the build folder (a .pth file
    works only there, at the top of site-packages; the wheel's RECORD lists it, so that pip
    uninstall removes it).  Not in editable mode, whose wheel holds only a path entry."""

    def run(self):
        super().run()
        if not self.editable_mode:
            self.copy_file(STARTUP_PTH, self._startup_pth_target(), preserve_mode=False)

    def get_outputs(self, include_bytecode=True):
        outputs = super().get_outputs(include_bytecode)
        return outputs if self.editable_mode else [*outputs, self._startup_pth_target()]

    def _startup_pth_target(self):
        return str(Path(self.build_lib, Path(STARTUP_PTH).name))


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt, "build_py": BuildPyWithStartupHook})
