"""Run the package's Stan models with cmdstanpy (if CmdStan is installed) or PyStan.

Both backends run the same ``.stan`` file. NUTS uses the rstan/CmdStan defaults of the
azzimonti2019 spec (§3.3): 4 chains x (1000 warm-up + 1000 draws), adapt_delta 0.8,
max_treedepth 10, chains run one after another (rstan's default, and the fair setting for
timing). Meanfield ADVI (§3.4) uses CmdStan's ``variational`` defaults and needs CmdStan:
PyStan 3 exposes only NUTS, so with the PyStan backend ADVI raises
:class:`BackendUnavailable` and callers record the method as not run.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import time
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from hierbn.stan.diagnostics import max_rhat

BACKENDS = ("auto", "cmdstanpy", "pystan")


class BackendUnavailable(RuntimeError):
    """The requested Stan backend (or method) cannot run on this machine."""


@dataclass(frozen=True)
class NutsSettings:
    chains: int = 4
    warmup: int = 1000
    draws: int = 1000
    adapt_delta: float = 0.8
    max_treedepth: int = 10


@dataclass(frozen=True)
class StanDraws:
    """Posterior draws of the requested variables, ``draws[name][chain, iteration, ...]``."""

    draws: dict[str, np.ndarray]
    seconds: float
    divergences: int
    backend: str


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

        target_dir = Path(exe_dir or stan_file(model).parent)
        target_dir.mkdir(parents=True, exist_ok=True)
        local = target_dir / f"{model}.stan"
        local.write_text(code)
        built = cmdstanpy.CmdStanModel(stan_file=str(local))
        info["exe_file"] = str(built.exe_file)
        info["cmdstan_version"] = cmdstanpy.cmdstan_version()
    else:
        import stan

        with _quiet():
            stan.build(code, data=_dummy_data(model), random_seed=1)
        info["pystan_version"] = getattr(stan, "__version__", "unknown")
    info["compile_seconds"] = time.perf_counter() - start
    return info


def _dummy_data(model: str) -> dict[str, Any]:
    if model == "hier_md":
        return {"X": 2, "Y": 1, "n": [[1, 1]], "s": 2.0, "alpha0": [1.0, 1.0]}
    raise KeyError(f"no dummy data for model {model!r}")


def sample_nuts(
    model: str,
    data: dict[str, Any],
    variables: list[str],
    seed: int,
    backend: str,
    settings: NutsSettings = NutsSettings(),
    compiled: dict[str, Any] | None = None,
) -> StanDraws:
    """NUTS draws of ``variables``; wall time covers sampling only, not compilation."""
    if backend == "cmdstanpy":
        return _nuts_cmdstanpy(model, data, variables, seed, settings, compiled)
    return _nuts_pystan(model, data, variables, seed, settings)


def _nuts_pystan(
    model: str, data: dict[str, Any], variables: list[str], seed: int, settings: NutsSettings
) -> StanDraws:
    import stan

    code = stan_file(model).read_text()
    per_chain: dict[str, list[np.ndarray]] = {v: [] for v in variables}
    divergences = 0
    seconds = 0.0
    for chain in range(settings.chains):
        with _quiet():
            posterior = stan.build(
                code, data=data, random_seed=seed + chain
            )  # cached after first build
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
        for v in variables:
            arr = np.asarray(fit[v])  # param dims..., draws
            per_chain[v].append(np.moveaxis(arr, -1, 0))
    draws = {v: np.stack(per_chain[v], axis=0) for v in variables}
    return StanDraws(draws, seconds, divergences, "pystan")


def _cmdstan_model(model: str, compiled: dict[str, Any] | None) -> Any:
    import cmdstanpy

    if compiled and compiled.get("exe_file"):
        return cmdstanpy.CmdStanModel(exe_file=compiled["exe_file"])
    return cmdstanpy.CmdStanModel(stan_file=str(stan_file(model)))


def _nuts_cmdstanpy(
    model: str,
    data: dict[str, Any],
    variables: list[str],
    seed: int,
    settings: NutsSettings,
    compiled: dict[str, Any] | None,
) -> StanDraws:
    built = _cmdstan_model(model, compiled)
    start = time.perf_counter()
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
    )
    seconds = time.perf_counter() - start
    draws = {}
    for v in variables:
        arr = fit.stan_variable(v)  # (chains*draws, dims...)
        draws[v] = arr.reshape(settings.chains, settings.draws, *arr.shape[1:])
    divergences = int(np.sum(fit.divergences)) if fit.divergences is not None else 0
    return StanDraws(draws, seconds, divergences, "cmdstanpy")


def variational_meanfield(
    model: str,
    data: dict[str, Any],
    variables: list[str],
    seed: int,
    backend: str,
    compiled: dict[str, Any] | None = None,
) -> StanDraws:
    """Stan meanfield ADVI with CmdStan defaults (iter 10000, tol_rel_obj 0.01, 1000 draws)."""
    if backend != "cmdstanpy":
        raise BackendUnavailable(
            "meanfield ADVI needs CmdStan (PyStan 3 has no variational inference)"
        )
    built = _cmdstan_model(model, compiled)
    start = time.perf_counter()
    fit = built.variational(
        data=data, seed=seed, algorithm="meanfield", require_converged=False, show_console=False
    )
    seconds = time.perf_counter() - start
    draws = {v: np.asarray(fit.stan_variable(v, mean=False))[None, ...] for v in variables}
    return StanDraws(draws, seconds, 0, "cmdstanpy")


def chain_rhat(draws: np.ndarray) -> float:
    """Max rank-normalised R-hat of ``draws[chain, iteration, ...]``."""
    return max_rhat(draws)
