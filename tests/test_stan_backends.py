"""Every packaged Stan model through both backends (issue 25): NUTS through cmdstanpy (on the
CmdStan built offline from ``../shared/cmdstan``) against PyStan on the same data and seeds,
posterior means within Monte-Carlo error and the same diagnostics fields, scalars shaped
[chain, draw] on both; meanfield ADVI through CmdStan's ``variational`` against the
project's driver of the same Stan service; the hard wall-time cap of the cmdstanpy path."""

from __future__ import annotations

import arviz as az
import numpy as np
import pytest

from hierbn.stan.runner import (
    NutsSettings,
    compile_model,
    resolve_backend,
    sample_nuts,
    variational_meanfield,
)

pytestmark = pytest.mark.stan

SETTINGS = NutsSettings(chains=2, warmup=500, draws=1000)


def _hier_md() -> dict:
    counts = np.array([[3, 0, 1], [1, 4, 0], [0, 1, 2]]).T  # [y, x], the spec's worked example
    return {"X": 3, "Y": 3, "n": counts.tolist(), "s": 3.0, "alpha0": [1.0, 1.0, 1.0]}


def _hier_regression() -> dict:
    """Sufficient statistics of 8 groups x 60 rows of y = x beta_c + noise (becker2018 §2.1).
    The model's vague Gamma(0.001, 0.001) scale priors give NUTS about 10 % divergent
    transitions on either backend (217 and 214 of 2,000 here); the means still agree."""
    rng = np.random.default_rng(3)
    xtx, xty, yty = [], [], []
    for beta in rng.normal([1.0, -0.5], 0.3, size=(8, 2)):
        x = np.column_stack([np.ones(60), rng.normal(size=60)])
        y = x @ beta + rng.normal(scale=0.5, size=60)
        xtx.append((x.T @ x).tolist())
        xty.append((x.T @ y).tolist())
        yty.append(float(y @ y))
    prior = dict.fromkeys(("a0", "b0", "c0", "d0", "e0", "f0"), 0.001)
    return {"C": 8, "D": 2, "xtx": xtx, "xty": xty, "yty": yty, "rows": [60] * 8, **prior}


def _logit_glm() -> dict:
    x = [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
    return {"N": 4, "P": 2, "X": x, "successes": [3, 9, 5, 14], "trials": [20, 20, 20, 20],
            "prior_scale": [5.0, 5.0]}  # fmt: skip


MODELS = {
    "hier_md": (_hier_md, ["alpha", "theta"]),
    "hier_regression": (_hier_regression, ["sigma", "s", "delta"]),
    "logit_glm": (_logit_glm, ["alpha", "beta"]),
}


def _mean_and_mcse(draws: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Posterior mean and its Monte-Carlo standard error per element ([chain, draw, ...])."""
    flat = draws.reshape(*draws.shape[:2], -1)
    mcse = np.array([az.mcse(flat[:, :, i], method="mean") for i in range(flat.shape[-1])])
    return flat.mean(axis=(0, 1)), mcse


@pytest.mark.parametrize("model", sorted(MODELS))
def test_nuts_gives_the_same_posterior_through_both_backends(
    model: str, cmdstanpy_backend: str
) -> None:
    make_data, variables = MODELS[model]
    data = make_data()
    seed = np.random.SeedSequence(25)
    cmdstan = sample_nuts(model, data, variables, seed, cmdstanpy_backend, SETTINGS)
    pystan = sample_nuts(model, data, variables, seed, "pystan", SETTINGS)
    assert (cmdstan.backend, pystan.backend) == ("cmdstanpy", "pystan")
    assert set(cmdstan.draws.sample_stats) == set(pystan.draws.sample_stats)
    for stat, values in cmdstan.draws.sample_stats.items():
        assert values.shape == pystan.draws.sample_stats[stat].shape == (2, 1000), stat
    assert cmdstan.divergences == int(cmdstan.draws.sample_stats["diverging"].sum())
    for name in variables:
        a, b = cmdstan.draws.posterior[name], pystan.draws.posterior[name]
        assert a.shape == b.shape and a.shape[:2] == (2, 1000)
        (mean_a, se_a), (mean_b, se_b) = _mean_and_mcse(a), _mean_and_mcse(b)
        z = np.abs(mean_a - mean_b) / np.hypot(se_a, se_b)
        assert z.max() < 4.5, (name, mean_a, mean_b, z)


def test_meanfield_advi_through_cmdstan_matches_the_projects_driver(
    cmdstanpy_backend: str,
) -> None:
    """Both run Stan 2.35's ``advi::meanfield`` service with CmdStan's defaults on the same
    data and seed (hier_md is the one model fitted by ADVI, azzimonti2019 E1/E4), so they give
    the same draws, bit for bit."""
    data, seed = _hier_md(), np.random.SeedSequence(7)
    cmdstan = variational_meanfield(
        "hier_md", data, ["alpha"], seed, cmdstanpy_backend, compile_model("hier_md", "cmdstanpy")
    )
    driver = variational_meanfield(
        "hier_md", data, ["alpha"], seed, "pystan", compile_model("hier_md", "pystan")
    )
    a, b = cmdstan.draws.posterior["alpha"], driver.draws.posterior["alpha"]
    assert a.shape == b.shape == (1, 1000, 3)
    np.testing.assert_array_equal(a, b)


def test_the_cmdstanpy_time_cap_stops_a_long_run_and_keeps_no_estimate(
    cmdstanpy_backend: str,
) -> None:
    compiled = compile_model("hier_md", cmdstanpy_backend)
    long_run = NutsSettings(chains=4, warmup=1000, draws=2_000_000, max_seconds=3.0)
    fit = sample_nuts(
        "hier_md", _hier_md(), ["alpha"], np.random.SeedSequence(1), cmdstanpy_backend,
        long_run, compiled,
    )  # fmt: skip
    assert fit.capped and fit.draws is None and fit.chains_done == 0
    assert 3.0 <= fit.seconds < 30.0


def test_auto_picks_cmdstanpy_when_cmdstan_is_installed(cmdstanpy_backend: str) -> None:
    assert resolve_backend("auto") == "cmdstanpy"
