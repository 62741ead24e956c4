import os
import subprocess
import sys
from pathlib import Path

from hierbn import numba_cache


def _package(root: Path, kernel: str, helper: str) -> Path:
    (root / "sub").mkdir(parents=True)
    (root / "sub" / "kernels.py").write_text(
        f"from numba import njit\n\n@njit(cache=True)\n{kernel}"
    )
    (root / "helper.py").write_text(helper)
    return root


def test_the_cache_directory_follows_the_kernel_sources_only(tmp_path: Path) -> None:
    """A change to any kernel module gives a new directory (Numba itself would keep the callers'
    stale code); a change to a module without kernels does not."""
    first = _package(tmp_path / "a", "def f(x):\n    return x + 1\n", "X = 1\n")
    same = _package(tmp_path / "b", "def f(x):\n    return x + 1\n", "X = 2\n")
    changed = _package(tmp_path / "c", "def f(x):\n    return x + 2\n", "X = 1\n")
    assert numba_cache.kernel_sources(first) == [first / "sub" / "kernels.py"]
    assert numba_cache.cache_dir(first) == numba_cache.cache_dir(same)
    assert numba_cache.cache_dir(first) != numba_cache.cache_dir(changed)


def test_every_kernel_module_of_the_package_is_hashed() -> None:
    names = {
        p.relative_to(numba_cache.PACKAGE_ROOT).as_posix() for p in numba_cache.kernel_sources()
    }
    assert {"scoring/kernels.py", "scoring/ais_kernels.py", "estimators/hdp_kernels.py",
            "special.py", "random_variates.py"} <= names  # fmt: skip
    assert "numba_cache.py" not in names


def _numba_cache_dir_after_import(tmp_path: Path, **env: str) -> str:
    environment = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    environment.update(XDG_CACHE_HOME=str(tmp_path), **env)
    code = "import numba, hierbn; print(numba.config.CACHE_DIR)"  # numba first: the late path
    out = subprocess.run(
        [sys.executable, "-c", code], env=environment, capture_output=True, text=True, check=True
    )
    return out.stdout.strip()


def test_importing_hierbn_points_numba_at_the_keyed_directory(tmp_path: Path) -> None:
    expected = tmp_path / "hierbn" / "numba" / numba_cache.cache_dir().name
    assert _numba_cache_dir_after_import(tmp_path) == str(expected)


def test_a_users_numba_cache_dir_wins(tmp_path: Path) -> None:
    mine = str(tmp_path / "mine")
    assert _numba_cache_dir_after_import(tmp_path, NUMBA_CACHE_DIR=mine) == mine
