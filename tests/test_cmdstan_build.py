"""The offline CmdStan assembly (hierbn.stan.cmdstan_build) on fake trees: refusals, the cache
key, stamp reuse and the retry after a failed build. Nothing here runs make or a compiler."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from hierbn.cli import build_parser
from hierbn.stan import cmdstan_build as cb


def fake_sources(root: Path, version: str = "2.35.0") -> Path:
    """A CmdStan source tree as small as the checks allow."""
    root.mkdir(parents=True)
    (root / "makefile").write_text(f"STAN ?= stan/\nCMDSTAN_VERSION := {version}\n")
    for name in cb.CMDSTAN_FILES:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("# fake\n")
    return root


def fake_httpstan(root: Path, stan: str = "2.35.0", stanc: str | None = None) -> cb.Httpstan:
    """An httpstan folder with the files the assembly copies; stanc is a shell script."""
    major, minor, patch = stan.split(".")
    include = root / "include"
    files = {
        "stan/version.hpp": (
            f"#define STAN_MAJOR {major}\n#define STAN_MINOR {minor}\n#define STAN_PATCH {patch}\n"
        ),
        "stan/math.hpp": "",
        "stan/math/version.hpp": "",
        "stan/model/model_header.hpp": "",
        "rapidjson/rapidjson.h": "",
        "tbb/task_arena.h": "",
        "Eigen/Dense": "",
        "pybind11/pybind11.h": "",
    }
    for name, text in files.items():
        (include / name).parent.mkdir(parents=True, exist_ok=True)
        (include / name).write_text(text)
    (root / "lib").mkdir()
    for name in (cb.TBB_LIBRARY, *(f"libsundials_{s}.a" for s in cb.SUNDIALS_LIBRARIES)):
        (root / "lib" / name).write_bytes(b"")
    (root / "stanc").write_text(f"#!/bin/sh\necho 'stanc3 v{stanc or stan} (Unix)'\n")
    (root / "stanc").chmod(0o755)
    return cb.Httpstan(root, "4.13.0")


@pytest.fixture()
def trees(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, cb.Httpstan, Path]:
    """Matching fake sources and httpstan, a fixed compiler line, and a cache folder."""
    tmp_path = tmp_path.resolve()
    httpstan = fake_httpstan(tmp_path / "httpstan")
    monkeypatch.setattr(cb, "find_httpstan", lambda: httpstan)
    monkeypatch.setattr(cb, "compiler_line", lambda: "g++: g++ (Fake) 12.2.0")
    return fake_sources(tmp_path / "cmdstan-2.35.0"), httpstan, tmp_path / "cache"


def _no_make(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """Record every subprocess command; running make fails the test."""
    commands: list[list[str]] = []
    real_run = subprocess.run

    def run(command, *args, **kwargs):
        commands.append([str(c) for c in command])
        assert Path(str(command[0])).name != "make", f"make ran: {command}"
        return real_run(command, *args, **kwargs)

    monkeypatch.setattr(cb.subprocess, "run", run)
    return commands


def test_a_version_mismatch_is_refused_naming_both_versions_and_paths(trees) -> None:
    _, httpstan, cache = trees
    other = fake_sources(cache.parent / "cmdstan-2.34.1", version="2.34.1")
    with pytest.raises(cb.CmdStanBuildError) as error:
        cb.build_cmdstan(other, cache)
    message = str(error.value)
    assert "CmdStan 2.34.1" in message and "Stan 2.35.0" in message
    assert str(other) in message and str(httpstan.root) in message
    assert not cache.exists()


def test_a_stanc_of_another_version_is_refused(tmp_path: Path, monkeypatch) -> None:
    tmp_path = tmp_path.resolve()
    httpstan = fake_httpstan(tmp_path / "httpstan", stanc="2.36.0")
    monkeypatch.setattr(cb, "find_httpstan", lambda: httpstan)
    with pytest.raises(cb.CmdStanBuildError, match=r"CmdStan 2\.35\.0.*stanc3 2\.36\.0"):
        cb.build_cmdstan(fake_sources(tmp_path / "src"), tmp_path / "cache")


@pytest.mark.parametrize("remove", ["makefile", "src/cmdstan/main.cpp", "make/program"])
def test_a_folder_that_is_not_a_cmdstan_tree_is_refused(trees, remove: str) -> None:
    sources, _, cache = trees
    (sources / remove).unlink()
    with pytest.raises(cb.CmdStanBuildError, match=f"not a CmdStan source tree.*{remove}"):
        cb.build_cmdstan(sources, cache)


def test_a_makefile_without_a_version_is_refused(trees) -> None:
    sources, _, cache = trees
    (sources / "makefile").write_text("help:\n")
    with pytest.raises(cb.CmdStanBuildError, match="CMDSTAN_VERSION"):
        cb.build_cmdstan(sources, cache)


def test_the_cache_key_differs_by_each_version_and_the_compiler() -> None:
    key = cb.cache_key("2.35.0", "4.13.0", "g++: g++ 12.2.0")
    others = [
        cb.cache_key("2.36.0", "4.13.0", "g++: g++ 12.2.0"),
        cb.cache_key("2.35.0", "4.14.0", "g++: g++ 12.2.0"),
        cb.cache_key("2.35.0", "4.13.0", "g++: g++ 13.1.0"),
    ]
    assert len({key, *others}) == 4
    assert "2.35.0" in key and "4.13.0" in key
    assert key == cb.cache_key("2.35.0", "4.13.0", "g++: g++ 12.2.0")


def _build_dir(cache: Path) -> Path:
    return cache / cb.cache_key("2.35.0", "4.13.0", "g++: g++ (Fake) 12.2.0")


def test_an_existing_stamp_returns_the_home_without_running_make(trees, monkeypatch) -> None:
    sources, _, cache = trees
    build_dir = _build_dir(cache)
    build_dir.mkdir(parents=True)
    (build_dir / cb.STAMP).write_text("{}")
    commands = _no_make(monkeypatch)
    monkeypatch.setattr(cb, "assemble", lambda *a: pytest.fail("assembled again"))
    home = cb.build_cmdstan(sources, cache)
    assert home == build_dir / "cmdstan-2.35.0"
    assert all(Path(c[0]).name != "make" for c in commands)


def _fake_make(calls: list[Path], fail: bool):
    def run_make(home: Path, jobs: int, log: Path) -> None:
        calls.append(home)
        if fail:
            raise cb.CmdStanBuildError("make failed")
        (home / "bin" / "stansummary").write_text("")

    return run_make


def test_a_failed_build_leaves_no_stamp_and_the_next_call_cleans_and_retries(
    trees, monkeypatch
) -> None:
    sources, _, cache = trees
    calls: list[Path] = []
    monkeypatch.setattr(cb, "run_make", _fake_make(calls, fail=True))
    with pytest.raises(cb.CmdStanBuildError, match="make failed"):
        cb.build_cmdstan(sources, cache)
    build_dir = _build_dir(cache)
    assert not (build_dir / cb.STAMP).exists()
    (build_dir / "left-over").write_text("from the failed build")
    monkeypatch.setattr(cb, "run_make", _fake_make(calls, fail=False))
    home = cb.build_cmdstan(sources, cache)
    assert len(calls) == 2 and not (build_dir / "left-over").exists()
    assert json.loads((build_dir / cb.STAMP).read_text())["cmdstan_home"] == str(home)
    assert cb.build_cmdstan(sources, cache) == home and len(calls) == 2  # reused


def test_the_assembled_tree_has_stanc_the_make_files_and_the_libraries(trees, monkeypatch):
    sources, _, cache = trees
    monkeypatch.setattr(cb, "run_make", _fake_make([], fail=False))
    home = cb.build_cmdstan(sources, cache)
    math = home / "stan" / "lib" / "stan_math"
    assert (home / "makefile").read_text() == (sources / "makefile").read_text()
    assert (
        subprocess.run([home / "bin" / "stanc", "--version"], capture_output=True).returncode == 0
    )
    assert (home / "stan" / "src" / "stan" / "model" / "model_header.hpp").is_file()
    assert not (home / "stan" / "src" / "stan" / "math").exists()  # Stan Math has its own place
    assert (math / "stan" / "math" / "version.hpp").is_file()
    assert (math / "lib" / "include" / "Eigen" / "Dense").is_file()
    assert not (math / "lib" / "include" / "pybind11").exists()
    assert (home / "stan" / "lib" / "rapidjson_1.1.0" / "rapidjson" / "rapidjson.h").is_file()
    assert (math / "lib" / "tbb" / "libtbb.so").resolve() == math / "lib" / "tbb" / cb.TBB_LIBRARY
    for name in cb.MAKE_FILES:
        text = (math / "make" / name).read_text()
        assert text.startswith("####") and "hierbn" in text.splitlines()[1]
    for name in cb.SUNDIALS_LIBRARIES:
        assert (math / "lib" / "sundials" / f"libsundials_{name}.a").is_file()


def test_the_command_prints_the_home_and_reports_a_refusal(trees, monkeypatch, capsys) -> None:
    sources, _, cache = trees
    monkeypatch.setattr(cb, "run_make", _fake_make([], fail=False))
    args = build_parser().parse_args(
        ["build-cmdstan", "--sources", str(sources), "--cache", str(cache), "--jobs", "1"]
    )
    args.func(args)
    assert capsys.readouterr().out.strip() == str(_build_dir(cache) / "cmdstan-2.35.0")
    (sources / "makefile").unlink()
    with pytest.raises(SystemExit, match="not a CmdStan source tree"):
        args.func(args)
