"""What a measurement ran on, as the records and the result cache's entries give it."""

from __future__ import annotations

import platform
from importlib.metadata import version
from pathlib import Path
from typing import Any


def cpu_model() -> str:
    """The CPU's model name (``/proc/cpuinfo``), or the platform's processor string."""
    info = Path("/proc/cpuinfo")
    if info.is_file():
        for line in info.read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor() or platform.machine()


NUMERIC_PACKAGES = ("numpy", "scipy", "numba", "pandas")


def numeric_platform() -> dict[str, Any]:
    """What a floating-point result can depend on beyond the code: the CPU as LLVM (Numba)
    names it, NumPy's SIMD extensions in use (its vectorised exp and log differ from libm's in
    the last bit on AVX-512), the BLAS and its kernels, and the numeric packages' versions.
    Two machines that differ here can give numbers that differ by rounding. (threadpoolctl
    comes with scikit-learn, a dependency.)"""
    import llvmlite.binding
    import threadpoolctl
    from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__

    blas = [
        f"{i.get('internal_api')} {i.get('version')} {i.get('architecture')}"
        for i in threadpoolctl.threadpool_info()
        if i.get("user_api") == "blas"
    ]
    return {
        "cpu": llvmlite.binding.get_host_cpu_name(),
        "numpy_simd": [f for f in __cpu_dispatch__ if __cpu_features__.get(f)],
        "blas": blas,
        "packages": {name: version(name) for name in NUMERIC_PACKAGES},
    }


def platform_differences(then: dict[str, Any] | None, now: dict[str, Any]) -> list[str]:
    """What differs between two :func:`numeric_platform` records (``then`` unrecorded: one
    line saying so)."""
    if then is None:
        return ["the entry does not record its numeric platform (stored before it was kept)"]
    return [
        f"{key}: {then.get(key)} there, {now[key]} here" for key in now if then.get(key) != now[key]
    ]
