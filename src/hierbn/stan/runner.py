"""Run the package's Stan models with cmdstanpy (if CmdStan is installed) or PyStan.

Both backends run the same ``.stan`` file. NUTS uses the rstan/CmdStan defaults of
azzimonti2019 decisions §3.3: 4 chains x (1000 warm-up + 1000 draws), adapt_delta 0.8,
max_treedepth 10, chains run one after another (rstan's default, and the fair setting for
timing). Meanfield ADVI (azzimonti2019 decisions §3.4) uses CmdStan's ``variational``
defaults. PyStan 3 exposes only NUTS, so with the PyStan backend ADVI runs Stan's own
``stan::services::experimental::advi::meanfield`` through a small driver
(``advi_driver.cpp``) compiled against the Stan sources that PyStan's httpstan ships; without
a C++ compiler it raises :class:`BackendUnavailable` and callers record the method as not run.

NUTS can be given a wall-time cap (``NutsSettings.max_seconds``, used by the azzimonti2019
E4 timings). PyStan runs the chains one after another and the cap is *soft*: it is checked
after each chain, a chain is never interrupted, and the completed chains are returned with
``capped=True`` -- so the recorded seconds are a lower bound of the full run's time. With
cmdstanpy the cap is *hard*: it is cmdstanpy's ``timeout=``, which terminates the CmdStan
process (with ``parallel_chains=1`` and CmdStan >= 2.28 all chains run in one process, so the
cap covers the whole run; older CmdStan runs one process per chain and the cap is per chain),
and a timed-out run returns the elapsed seconds, ``capped=True`` and no draws (arrays with a
``draws`` None). Without a cap nothing changes.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import subprocess
import tempfile
import time
from dataclasses import dataclass
from importlib import resources
from importlib.metadata import version
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from hierbn.draws import Draws
from hierbn.io import write_with
from hierbn.seeds import kernel_seed
from hierbn.stan import pystan_build
from hierbn.user_cache import user_cache

BACKENDS = ("auto", "cmdstanpy", "pystan")
# Stan's sampler columns under the names of the project's draws record (ArviZ's)
NUTS_STATS = {
    "lp__": "lp",
    "accept_stat__": "acceptance_rate",
    "stepsize__": "step_size",
    "divergent__": "diverging",
}


class BackendUnavailable(RuntimeError):
    """The requested Stan backend (or method) cannot run on this machine."""


@dataclass(frozen=True)
class NutsSettings:
    chains: int = 4
    warmup: int = 1000
    draws: int = 1000
    adapt_delta: float = 0.8
    max_treedepth: int = 10
    max_seconds: float | None = None  # wall-time cap on sampling (see the module docstring)

    def __post_init__(self) -> None:
        if self.max_seconds is not None and not self.max_seconds > 0:
            raise ValueError(f"max_seconds must be positive or None, got {self.max_seconds!r}")


@dataclass(frozen=True)
class StanDraws:
    """One Stan run: its draws record (the requested variables ``[chain, draw, ...]`` and, for
    NUTS, the sample statistics lp, acceptance_rate, step_size, diverging), or None when a
    hard cap stopped the run before any draw; the seconds of sampling; the divergences; the
    backend; the completed chains; ``capped`` when a NUTS wall-time cap stopped it early."""

    draws: Draws | None
    seconds: float
    divergences: int
    backend: str
    chains_done: int | None = None
    capped: bool = False

    def __post_init__(self) -> None:
        if self.chains_done is None:
            chains = 0 if self.draws is None else self.draws.n_chains
            object.__setattr__(self, "chains_done", chains)


def stan_file(model: str) -> Path:
    """Path of the packaged ``<model>.stan``."""
    path = Path(str(resources.files("hierbn.stan") / f"{model}.stan"))
    if not path.is_file():
        raise FileNotFoundError(f"no Stan model {model!r} at {path}")
    return path


def model_digest(model: str) -> str:
    return hashlib.sha256(stan_file(model).read_bytes()).hexdigest()


def cmdstan_available() -> bool:
    try:
        import cmdstanpy

        cmdstanpy.cmdstan_path()
    except Exception:
        return False
    return True


def pystan_available() -> bool:
    try:
        import stan  # noqa: F401
    except ImportError:
        return False
    return True


def resolve_backend(name: str) -> str:
    """``auto`` -> cmdstanpy when CmdStan is installed, else PyStan."""
    if name not in BACKENDS:
        raise ValueError(f"stan.backend must be one of {BACKENDS}, got {name!r}")
    if name == "auto":
        if cmdstan_available():
            return "cmdstanpy"
        if pystan_available():
            return "pystan"
        raise BackendUnavailable("neither CmdStan (for cmdstanpy) nor PyStan is installed")
    if name == "cmdstanpy" and not cmdstan_available():
        raise BackendUnavailable("stan.backend is cmdstanpy but no CmdStan installation was found")
    if name == "pystan" and not pystan_available():
        raise BackendUnavailable("stan.backend is pystan but the 'stan' package is not importable")
    return name


@contextlib.contextmanager
def _quiet() -> Any:
    sink = io.StringIO()
    with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
        yield sink


def compile_model(model: str, backend: str, exe_dir: str | Path | None = None) -> dict[str, Any]:
    """Compile ``model`` once for ``backend``; returns metadata for the compile marker."""
    code = stan_file(model).read_text()
    start = time.perf_counter()
    info: dict[str, Any] = {"model": model, "backend": backend, "sha256": model_digest(model)}
    if backend == "cmdstanpy":
        import cmdstanpy

        info["exe_file"] = str(_cmdstan_executable(model, code, exe_dir))
        info["cmdstan_version"] = cmdstanpy.cmdstan_version()
    else:
        import stan

        with _quiet():
            pystan_build.build(model, code, model_sidecar(model)["dummy_data"], random_seed=1)
        info["pystan_version"] = getattr(stan, "__version__", "unknown")
        if model_sidecar(model).get("advi"):
            info["advi_exe"] = str(build_advi_executable(model))
    info["compile_seconds"] = time.perf_counter() - start
    return info


def _cmdstan_executable(model: str, code: str, exe_dir: str | Path | None) -> Path:
    """``model``'s CmdStan executable in ``exe_dir`` (default: the user cache, by the model's
    hash), compiled once per source. The compile runs in a temporary folder inside ``exe_dir``
    and only a finished executable is moved in; the ``.stan`` copy beside it, written after
    the move, says which source it was built from, so a compile stopped half-way leaves
    nothing that a later run takes as built."""
    import cmdstanpy

    # never beside the packaged .stan file: cmdstanpy writes the executable next to it
    target_dir = Path(exe_dir or user_cache("cmdstanpy") / model_digest(model)[:16])
    exe, source = target_dir / model, target_dir / f"{model}.stan"
    if exe.is_file() and source.is_file() and source.read_text() == code:
        return exe
    target_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=target_dir, prefix=f".{model}-build-") as tmp:
        local = Path(tmp) / f"{model}.stan"
        local.write_text(code)
        os.replace(cmdstanpy.CmdStanModel(stan_file=str(local)).exe_file, exe)
    write_with(source, lambda tmp: tmp.write_text(code))
    return exe


def build_advi_executable(model: str) -> Path:
    """Compile ``model`` with ``advi_driver.cpp`` against PyStan's bundled Stan sources.

    The model's C++ and the driver are one translation unit (a file that includes both), so
    Stan's headers are parsed once: 35 CPU-seconds of compile for hier_md instead of 51 for two
    units, and the same draws, byte for byte (four data sets, three seeds each). Builds are
    cached by the hash of the model, the driver and the httpstan version, so each machine
    compiles a model once.
    """
    import httpstan
    from httpstan.compile import compile as stanc

    bundled = Path(httpstan.__file__).parent
    driver = Path(str(resources.files("hierbn.stan") / "advi_driver.cpp"))
    key = hashlib.sha256(
        stan_file(model).read_bytes() + driver.read_bytes() + version("httpstan").encode()
    ).hexdigest()[:16]
    exe = user_cache("advi") / key / f"{model}_advi"
    if exe.is_file():
        return exe
    exe.parent.mkdir(parents=True, exist_ok=True)
    cpp, _ = stanc(stan_file(model).read_text(), f"{model}_model")
    with tempfile.TemporaryDirectory(prefix="hierbn_advi_") as tmp:
        (Path(tmp) / "model.cpp").write_text(cpp)
        source = Path(tmp) / "unit.cpp"
        source.write_text(f'#include "model.cpp"\n#include "{driver}"\n')
        partial = exe.parent / f".{exe.name}.{os.getpid()}.tmp"  # renamed within one folder
        command = [
            os.environ.get("CXX", "g++"), "-O3", "-std=c++17", "-w",
            "-DBOOST_DISABLE_ASSERTS", "-DBOOST_PHOENIX_NO_VARIADIC_EXPRESSION", "-DSTAN_THREADS",
            "-D_REENTRANT", "-D_GLIBCXX_USE_CXX11_ABI=0", f"-I{bundled / 'include'}",
            str(source), f"-L{bundled / 'lib'}", "-lsundials_cvodes",
            "-lsundials_idas", "-lsundials_nvecserial", "-ltbb",
            f"-Wl,-rpath,{bundled / 'lib'}", "-o", str(partial),
        ]  # fmt: skip
        try:
            done = subprocess.run(command, capture_output=True, text=True, check=False)
        except OSError as exc:
            raise BackendUnavailable(
                f"cannot run the C++ compiler for the ADVI driver: {exc}"
            ) from exc
        try:
            if done.returncode != 0:
                raise BackendUnavailable(f"building the ADVI driver failed:\n{done.stderr[-3000:]}")
            os.replace(partial, exe)
        finally:
            partial.unlink(missing_ok=True)
    return exe


def model_sidecar(model: str) -> dict[str, Any]:
    """``<model>.json`` beside the ``.stan`` file: a tiny valid data set (PyStan compiles with
    data) and whether the model needs the ADVI driver."""
    path = stan_file(model).with_suffix(".json")
    if not path.is_file():
        raise FileNotFoundError(f"no {path.name} beside {stan_file(model)} (dummy data, advi flag)")
    return json.loads(path.read_text())


def sample_nuts(
    model: str,
    data: dict[str, Any],
    variables: list[str],
    seed: np.random.SeedSequence,
    backend: str,
    settings: NutsSettings = NutsSettings(),
    compiled: dict[str, Any] | None = None,
) -> StanDraws:
    """NUTS draws of ``variables``; wall time covers sampling only, not compilation. Stan is
    seeded with :func:`hierbn.seeds.kernel_seed` of ``seed``.

    With ``settings.max_seconds`` the run may stop early (``capped=True``; see the module
    docstring for the soft PyStan and hard cmdstanpy caps)."""
    if backend == "cmdstanpy":
        return _nuts_cmdstanpy(model, data, variables, kernel_seed(seed), settings, compiled)
    return _nuts_pystan(model, data, variables, kernel_seed(seed), settings)


def _nuts_pystan(
    model: str, data: dict[str, Any], variables: list[str], seed: int, settings: NutsSettings
) -> StanDraws:
    code = stan_file(model).read_text()
    per_chain: dict[str, list[np.ndarray]] = {v: [] for v in [*variables, *NUTS_STATS]}
    divergences = 0
    seconds = 0.0
    capped = False
    chains_done = 0
    for chain in range(settings.chains):
        if settings.max_seconds is not None and seconds >= settings.max_seconds:
            capped = True  # soft cap: checked between chains, a chain is never interrupted
            break
        with _quiet():
            posterior = pystan_build.build(
                model, code, data, seed + chain
            )  # cached after the first
            start = time.perf_counter()
            fit = posterior.sample(
                num_chains=1,
                num_warmup=settings.warmup,
                num_samples=settings.draws,
                delta=settings.adapt_delta,
                max_depth=settings.max_treedepth,
            )
            seconds += time.perf_counter() - start
        divergences += int(np.sum(fit["divergent__"]))
        dims = dict(zip(fit.param_names, fit.dims, strict=True))
        for v in per_chain:
            arr = np.moveaxis(np.asarray(fit[v]), -1, 0)  # draws, param dims...
            # PyStan gives a scalar (and a sampler column) one dimension of length 1
            per_chain[v].append(arr.reshape(arr.shape[0], *dims.get(v, [])))
        chains_done += 1
    stacked = {v: np.stack(arrays, axis=0) for v, arrays in per_chain.items()}
    stats = {NUTS_STATS[v]: stacked[v].reshape(chains_done, -1) for v in NUTS_STATS}
    draws = Draws({v: stacked[v] for v in variables}, stats)
    return StanDraws(draws, seconds, divergences, "pystan", chains_done, capped)


def _cmdstan_model(model: str, compiled: dict[str, Any] | None) -> Any:
    import cmdstanpy

    if not (compiled and compiled.get("exe_file")):
        compiled = compile_model(model, "cmdstanpy")
    return cmdstanpy.CmdStanModel(exe_file=compiled["exe_file"])


def _nuts_cmdstanpy(
    model: str,
    data: dict[str, Any],
    variables: list[str],
    seed: int,
    settings: NutsSettings,
    compiled: dict[str, Any] | None,
) -> StanDraws:
    built = _cmdstan_model(model, compiled)
    cap = {} if settings.max_seconds is None else {"timeout": settings.max_seconds}
    start = time.perf_counter()
    try:
        fit = built.sample(
            data=data,
            chains=settings.chains,
            parallel_chains=1,
            iter_warmup=settings.warmup,
            iter_sampling=settings.draws,
            adapt_delta=settings.adapt_delta,
            max_treedepth=settings.max_treedepth,
            seed=seed,
            show_progress=False,
            show_console=False,
            **cap,
        )
    except TimeoutError:  # hard cap: CmdStan was terminated, no draws are kept
        seconds = time.perf_counter() - start
        return StanDraws(None, seconds, 0, "cmdstanpy", chains_done=0, capped=True)
    seconds = time.perf_counter() - start
    posterior = {}
    for v in variables:
        arr = fit.stan_variable(v)  # (chains*draws, dims...)
        posterior[v] = arr.reshape(settings.chains, settings.draws, *arr.shape[1:])
    sampler = fit.method_variables()  # name -> (draws, chains)
    stats = {NUTS_STATS[v]: np.asarray(sampler[v]).T for v in NUTS_STATS}
    # the saved draws' divergent__ column, as with PyStan: cmdstanpy's fit.divergences gave
    # 117 where that column held 119 (becker2018's model, 2 x 1,000 draws)
    divergences = int(stats["diverging"].sum())
    draws = Draws(posterior, stats)
    return StanDraws(draws, seconds, divergences, "cmdstanpy", settings.chains, False)


def variational_meanfield(
    model: str,
    data: dict[str, Any],
    variables: list[str],
    seed: np.random.SeedSequence,
    backend: str,
    compiled: dict[str, Any] | None = None,
) -> StanDraws:
    """Stan meanfield ADVI with CmdStan defaults (iter 10000, tol_rel_obj 0.01, 1000 draws),
    seeded with :func:`hierbn.seeds.kernel_seed` of ``seed``.

    Raises RuntimeError when Stan reports an error (an ADVI "crash" in the paper's sense).
    """
    seed_int = kernel_seed(seed)
    if backend != "cmdstanpy":
        if not compiled or not compiled.get("advi_exe"):
            raise BackendUnavailable("no ADVI executable: compile the model first (compile_model)")
        return _advi_bundled(Path(compiled["advi_exe"]), data, variables, seed_int)
    built = _cmdstan_model(model, compiled)
    start = time.perf_counter()
    fit = built.variational(
        data=data, seed=seed_int, algorithm="meanfield", require_converged=False, show_console=False
    )
    seconds = time.perf_counter() - start
    draws = {v: np.asarray(fit.stan_variable(v, mean=False))[None, ...] for v in variables}
    return StanDraws(Draws(draws), seconds, 0, "cmdstanpy")


def _advi_bundled(exe: Path, data: dict[str, Any], variables: list[str], seed: int) -> StanDraws:
    with tempfile.TemporaryDirectory(prefix="hierbn_advi_") as tmp:
        data_path = Path(tmp) / "data.json"
        out_path = Path(tmp) / "output.csv"
        data_path.write_text(json.dumps(data))
        start = time.perf_counter()
        done = subprocess.run(
            [str(exe), str(data_path), str(out_path), str(seed)], capture_output=True, text=True
        )
        seconds = time.perf_counter() - start
        if done.returncode != 0 or not out_path.is_file():
            raise RuntimeError(f"Stan ADVI failed (exit {done.returncode}): {done.stderr[-2000:]}")
        table = pd.read_csv(out_path, comment="#")
    draws = table.iloc[1:]  # the first row is the mean of the approximation, as in CmdStan
    return StanDraws(
        Draws({v: stan_csv_variable(draws, v)[None, ...] for v in variables}), seconds, 0, "pystan"
    )


def stan_csv_variable(table: pd.DataFrame, name: str) -> np.ndarray:
    """Columns ``name.i.j...`` of a Stan CSV as an array (draws, dims...), 1-based indices."""
    columns = [c for c in table.columns if c == name or c.startswith(f"{name}.")]
    if not columns:
        raise KeyError(f"no variable {name!r} in the Stan output")
    if columns == [name]:
        return table[name].to_numpy()
    index = np.array([[int(k) - 1 for k in c.split(".")[1:]] for c in columns])
    out = np.empty((len(table), *(index.max(axis=0) + 1)))
    for col, idx in zip(columns, index, strict=True):
        out[(slice(None), *idx)] = table[col].to_numpy()
    return out
