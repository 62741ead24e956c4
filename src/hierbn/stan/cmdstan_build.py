"""Build CmdStan offline from CmdStan's own sources and the files httpstan ships.

cmdstanpy needs a built CmdStan, which ``cmdstanpy.install_cmdstan()`` downloads. Without
network access, one can be assembled from two things already on the machine:

- CmdStan's own sources (``sources``: the CmdStan repository at a release tag -- ``makefile``,
  ``make/``, ``src/cmdstan``, ``lib/CLI11-*`` -- without its ``stan`` submodule);
- the PyPI package httpstan (installed with PyStan), which ships the matching Stan sources as
  headers (``include/stan``), Stan Math (``include/stan/math``), Eigen, Boost, the Sundials and
  TBB headers, RapidJSON, prebuilt ``libsundials_*.a`` and ``libtbb.so.2``, and the stanc3
  compiler binary (``stanc``).

What neither has are Stan Math's three build files that CmdStan's makefile includes
(``$(MATH)make/compiler_flags``, ``dependencies``, ``libraries``); the package ships its own,
written for this layout (``hierbn/stan/cmdstan_make/``). The assembled tree, inside
``<cache>/<key>/cmdstan-<version>/`` (the CmdStan home), is::

    makefile, make/, src/, lib/, examples/ ...  copied from ``sources``
    bin/stanc                                   httpstan's stanc (so make never downloads it)
    stan/src/stan/                              httpstan's include/stan without Stan Math
    stan/lib/rapidjson_1.1.0/rapidjson/         httpstan's RapidJSON
    stan/lib/stan_math/stan/math{,.hpp}         httpstan's Stan Math headers
    stan/lib/stan_math/make/                    the three hand-written make files
    stan/lib/stan_math/lib/include/             httpstan's other headers (Eigen, Boost, ...)
    stan/lib/stan_math/lib/sundials/            httpstan's libsundials_*.a
    stan/lib/stan_math/lib/tbb/                 httpstan's libtbb.so.2 (+ libtbb.so)

Everything is copied (about 200 MB before the build; CmdStan's precompiled model header adds
about 0.8 GB), so the built tree does not depend on httpstan staying installed. Then
``make -j<jobs> build`` runs in the home (output in ``<cache>/<key>/build.log``).

The key names the CmdStan version, the httpstan version and a hash of the C++ compiler's
``--version`` line (the compiler is ``$CXX`` or ``g++``, as CmdStan's makefile picks it), so a
change of any of them builds a new tree. A stamp file (``<cache>/<key>/BUILT.json``) is written
at the very end of a successful build; a call that finds it returns at once. A lock file
(``<cache>/<key>.lock``) keeps two processes from building the same tree at once; a folder
without a stamp (a failed or interrupted build) is removed and built again. Nothing here uses
the network. Stan's version in httpstan (``include/stan/version.hpp``) must equal CmdStan's
(``CMDSTAN_VERSION`` in the makefile), and stanc's must too; otherwise the build is refused.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from importlib import resources
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from hierbn.user_cache import exclusive_lock, user_cache

MAKE_FILES = ("compiler_flags", "dependencies", "libraries")
SUNDIALS_LIBRARIES = ("cvodes", "idas", "kinsol", "nvecserial")
TBB_LIBRARY = "libtbb.so.2"
STAMP = "BUILT.json"
BUILD_LOG = "build.log"
# what a CmdStan source tree must hold (besides the makefile)
CMDSTAN_FILES = ("make/program", "make/command", "make/stanc", "src/cmdstan/main.cpp")
# top-level entries of httpstan's include/ that are not copied to stan_math/lib/include
OWN_PLACE = ("stan", "rapidjson", "pybind11")


class CmdStanBuildError(RuntimeError):
    """CmdStan cannot be assembled or built from the given sources and httpstan."""


@dataclass(frozen=True)
class Httpstan:
    """An httpstan installation: its package folder and version."""

    root: Path
    version: str

    @property
    def include(self) -> Path:
        return self.root / "include"


def cmdstan_version(sources: Path) -> str:
    """``CMDSTAN_VERSION`` of a CmdStan source tree's makefile; refuses anything else."""
    makefile = sources / "makefile"
    missing = [name for name in CMDSTAN_FILES if not (sources / name).is_file()]
    if not makefile.is_file() or missing:
        raise CmdStanBuildError(
            f"{sources} is not a CmdStan source tree: it lacks "
            f"{', '.join(['makefile'] * (not makefile.is_file()) + missing)}"
        )
    found = re.search(r"^CMDSTAN_VERSION\s*:?=\s*(\S+)", makefile.read_text(), re.MULTILINE)
    if found is None:
        raise CmdStanBuildError(f"{makefile} does not set CMDSTAN_VERSION: not a CmdStan makefile")
    return found.group(1)


def find_httpstan() -> Httpstan:
    """The installed httpstan (found without importing it)."""
    spec = importlib.util.find_spec("httpstan")
    if spec is None or spec.origin is None:
        raise CmdStanBuildError(
            "httpstan is not installed (PyStan installs it: pip install pystan)"
        )
    try:
        installed = version("httpstan")
    except PackageNotFoundError:
        installed = "unknown"
    return Httpstan(Path(spec.origin).parent, installed)


def stan_version(httpstan: Httpstan) -> str:
    """Stan's version from httpstan's ``include/stan/version.hpp``."""
    header = httpstan.include / "stan" / "version.hpp"
    if not header.is_file():
        raise CmdStanBuildError(f"httpstan at {httpstan.root} has no Stan sources ({header})")
    text = header.read_text()
    parts = [re.search(rf"#define\s+STAN_{p}\s+(\d+)", text) for p in ("MAJOR", "MINOR", "PATCH")]
    if not all(parts):
        raise CmdStanBuildError(f"{header} does not define STAN_MAJOR/MINOR/PATCH")
    return ".".join(p.group(1) for p in parts if p)


def stanc_version(httpstan: Httpstan) -> str:
    """The version httpstan's stanc reports (``stanc3 v2.35.0 (Unix)`` -> ``2.35.0``)."""
    stanc = httpstan.root / "stanc"
    try:
        done = subprocess.run([str(stanc), "--version"], capture_output=True, text=True, check=True)
    except (OSError, subprocess.SubprocessError) as exc:
        raise CmdStanBuildError(f"cannot run httpstan's stanc {stanc}: {exc}") from exc
    found = re.search(r"v(\d+\.\d+\.\d+)", done.stdout)
    if found is None:
        raise CmdStanBuildError(f"{stanc} --version printed no version: {done.stdout!r}")
    return found.group(1)


def check_versions(sources: Path, httpstan: Httpstan) -> str:
    """CmdStan's version, once it is known to equal the Stan version httpstan ships."""
    cmdstan = cmdstan_version(sources)
    stan = stan_version(httpstan)
    if stan != cmdstan:
        raise CmdStanBuildError(
            f"version mismatch: CmdStan {cmdstan} (makefile in {sources}) needs Stan {cmdstan}, "
            f"but httpstan {httpstan.version} at {httpstan.root} ships Stan {stan} "
            f"({httpstan.include / 'stan' / 'version.hpp'}); use the CmdStan sources of "
            f"release {stan} or an httpstan that ships Stan {cmdstan}"
        )
    return cmdstan


def check_stanc(cmdstan: str, httpstan: Httpstan) -> None:
    """Refuse a stanc whose version is not CmdStan's."""
    stanc = stanc_version(httpstan)
    if stanc != cmdstan:
        raise CmdStanBuildError(
            f"version mismatch: CmdStan {cmdstan} but httpstan's stanc "
            f"{httpstan.root / 'stanc'} is stanc3 {stanc}"
        )


def compiler_line() -> str:
    """First line of ``$CXX --version`` (``g++`` by default, as CmdStan's makefile on Linux)."""
    cxx = os.environ.get("CXX") or "g++"
    try:
        done = subprocess.run([cxx, "--version"], capture_output=True, text=True, check=True)
    except (OSError, subprocess.SubprocessError) as exc:
        raise CmdStanBuildError(f"cannot run the C++ compiler {cxx!r}: {exc}") from exc
    return f"{cxx}: {done.stdout.splitlines()[0] if done.stdout else ''}"


def cache_key(cmdstan: str, httpstan_version: str, compiler: str) -> str:
    """The build folder's name: both versions and a short hash of the compiler line."""
    digest = hashlib.sha256(compiler.encode()).hexdigest()[:10]
    return f"cmdstan-{cmdstan}_httpstan-{httpstan_version}_cxx-{digest}"


def cmdstan_home(build_dir: Path, cmdstan: str) -> Path:
    """The CmdStan home inside a build folder (what ``cmdstanpy.set_cmdstan_path`` takes)."""
    return build_dir / f"cmdstan-{cmdstan}"


def check_httpstan_files(httpstan: Httpstan) -> None:
    """Refuse an httpstan lacking what the assembly copies."""
    needed = [
        httpstan.root / "stanc",
        httpstan.include / "stan" / "math.hpp",
        httpstan.include / "stan" / "model" / "model_header.hpp",
        httpstan.include / "rapidjson" / "rapidjson.h",
        httpstan.include / "tbb" / "task_arena.h",
        httpstan.root / "lib" / TBB_LIBRARY,
        *(httpstan.root / "lib" / f"libsundials_{name}.a" for name in SUNDIALS_LIBRARIES),
    ]
    missing = [str(path) for path in needed if not path.exists()]
    if missing:
        raise CmdStanBuildError(
            f"httpstan {httpstan.version} at {httpstan.root} lacks files the assembly needs: "
            + ", ".join(missing)
        )


def _copy_tree(source: Path, target: Path, skip: tuple[str, ...] = ()) -> None:
    """Copy a folder's entries (but ``skip``) into ``target``."""
    target.mkdir(parents=True, exist_ok=True)
    for entry in sorted(source.iterdir()):
        if entry.name in skip or entry.name == "__pycache__":
            continue
        if entry.is_dir():
            shutil.copytree(entry, target / entry.name, symlinks=False)
        else:
            shutil.copy2(entry, target / entry.name)


def assemble(sources: Path, httpstan: Httpstan, home: Path) -> None:
    """Lay out a CmdStan tree in ``home`` (see the module docstring for the layout)."""
    _copy_tree(sources, home, skip=("stan", "bin", ".git"))
    (home / "bin").mkdir()
    shutil.copy2(httpstan.root / "stanc", home / "bin" / "stanc")
    (home / "bin" / "stanc").chmod(0o755)
    include = httpstan.include
    _copy_tree(include / "stan", home / "stan" / "src" / "stan", skip=("math", "math.hpp"))
    shutil.copytree(include / "rapidjson", home / "stan" / "lib" / "rapidjson_1.1.0" / "rapidjson")
    math = home / "stan" / "lib" / "stan_math"
    shutil.copytree(include / "stan" / "math", math / "stan" / "math")
    shutil.copy2(include / "stan" / "math.hpp", math / "stan" / "math.hpp")
    _copy_tree(include, math / "lib" / "include", skip=OWN_PLACE)
    (math / "lib" / "sundials").mkdir(parents=True)
    for name in SUNDIALS_LIBRARIES:
        library = f"libsundials_{name}.a"
        shutil.copy2(httpstan.root / "lib" / library, math / "lib" / "sundials" / library)
    (math / "lib" / "tbb").mkdir()
    shutil.copy2(httpstan.root / "lib" / TBB_LIBRARY, math / "lib" / "tbb" / TBB_LIBRARY)
    (math / "lib" / "tbb" / "libtbb.so").symlink_to(TBB_LIBRARY)
    write_make_files(math / "make")


def write_make_files(target: Path) -> None:
    """The three hand-written Stan Math make files, from the package data."""
    target.mkdir(parents=True, exist_ok=True)
    package = resources.files("hierbn.stan") / "cmdstan_make"
    for name in MAKE_FILES:
        (target / name).write_text((package / name).read_text())


def run_make(home: Path, jobs: int, log: Path) -> None:
    """``make -j<jobs> build`` in the CmdStan home, its output in ``log``."""
    with log.open("w") as out:
        done = subprocess.run(
            ["make", f"-j{jobs}", "build"], cwd=home, stdout=out, stderr=subprocess.STDOUT
        )
    if done.returncode != 0:
        tail = "\n".join(log.read_text(errors="replace").splitlines()[-30:])
        raise CmdStanBuildError(
            f"`make -j{jobs} build` failed in {home} (exit {done.returncode}); "
            f"full output in {log}; its end:\n{tail}"
        )
    built = [home / "bin" / "stansummary", home / "src" / "cmdstan" / "main.o"]
    if not all(path.is_file() for path in built):
        raise CmdStanBuildError(f"`make build` in {home} left no {built[0]} or {built[1]}")


def _write_stamp(build_dir: Path, record: dict[str, object]) -> None:
    partial = build_dir / f".{STAMP}.{os.getpid()}.tmp"
    partial.write_text(json.dumps(record, indent=2) + "\n")
    os.replace(partial, build_dir / STAMP)


def _build(sources: Path, httpstan: Httpstan, build_dir: Path, home: Path, jobs: int) -> None:
    """Assemble and build in a clean ``build_dir``; the stamp is written last."""
    if build_dir.exists():
        shutil.rmtree(build_dir)  # a failed or interrupted build: start again
    build_dir.mkdir(parents=True)
    print(f"building CmdStan in {home} (log: {build_dir / BUILD_LOG})", file=sys.stderr)
    start = time.perf_counter()
    assemble(sources, httpstan, home)
    run_make(home, jobs, build_dir / BUILD_LOG)
    record = {
        "cmdstan_home": str(home),
        "sources": str(sources),
        "httpstan": str(httpstan.root),
        "httpstan_version": httpstan.version,
        "compiler": compiler_line(),
        "jobs": jobs,
        "build_seconds": round(time.perf_counter() - start, 1),
        "finished": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }
    _write_stamp(build_dir, record)


def build_cmdstan(sources: Path, cache: Path | None = None, jobs: int = 2) -> Path:
    """Assemble CmdStan from ``sources`` and httpstan, build it once, return its home.

    ``cache`` defaults to ``user_cache("cmdstan")``. Returns at once when the build folder's stamp
    exists. Raises :class:`CmdStanBuildError` when ``sources`` is not a CmdStan tree, when
    httpstan's Stan (or stanc) version differs from CmdStan's, or when the build fails.
    """
    if platform.system() != "Linux":
        raise CmdStanBuildError(f"the offline CmdStan build is for Linux, not {platform.system()}")
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, got {jobs}")
    sources = Path(sources).resolve()
    httpstan = find_httpstan()
    cmdstan = check_versions(sources, httpstan)
    check_httpstan_files(httpstan)
    check_stanc(cmdstan, httpstan)
    key = cache_key(cmdstan, httpstan.version, compiler_line())
    cache = Path(cache).expanduser().resolve() if cache is not None else user_cache("cmdstan")
    build_dir = cache / key
    home = cmdstan_home(build_dir, cmdstan)
    if (build_dir / STAMP).is_file():
        return home
    with exclusive_lock(cache / f"{key}.lock"):
        if not (build_dir / STAMP).is_file():  # another process may have built it meanwhile
            _build(sources, httpstan, build_dir, home, jobs)
    return home
