import numpy as np
import pytest

from hierbn.diagnostics import convergence
from hierbn.estimators.hier_exact import exact_alpha_moments, exact_posterior_theta
from hierbn.stan.runner import (
    BackendUnavailable,
    NutsSettings,
    compile_model,
    resolve_backend,
    sample_nuts,
    variational_meanfield,
)


def test_unknown_backend_is_rejected() -> None:
    with pytest.raises(ValueError, match=r"stan\.backend"):
        resolve_backend("rstan")


@pytest.mark.stan
def test_nuts_matches_exact_posterior_mean() -> None:
    """Stan NUTS on the spec's worked example agrees with the exact E[alpha] within MC error."""
    backend = resolve_backend("auto")
    counts = np.array([[3, 0, 1], [1, 4, 0], [0, 1, 2]]).T  # [y, x]: the spec's n[x, y]
    data = {"X": 3, "Y": 3, "n": counts.tolist(), "s": 3.0, "alpha0": [1.0, 1.0, 1.0]}
    fit = sample_nuts(
        "hier_md",
        data,
        ["alpha", "theta"],
        seed=np.random.SeedSequence(11),
        backend=backend,
        settings=NutsSettings(chains=2, warmup=500, draws=2000),
    )
    exact, _ = exact_alpha_moments(counts)
    alpha = fit.draws.posterior["alpha"]
    assert alpha.shape == (2, 2000, 3)
    assert np.allclose(alpha.mean(axis=(0, 1)), exact, atol=0.06)
    theta = fit.draws.posterior["theta"].mean(axis=(0, 1))  # [y, x], the orientation of ``counts``
    assert np.allclose(theta.sum(axis=1), 1.0)
    assert np.allclose(theta, exact_posterior_theta(counts), atol=0.03)
    assert fit.seconds > 0
    diagnostics = convergence(fit.draws, ["alpha"])
    assert diagnostics.rhat_max < 1.05 and diagnostics.ess_bulk_min > 200
    stats = fit.draws.sample_stats  # NUTS's sampler columns under ArviZ's names
    assert set(stats) == {"lp", "acceptance_rate", "step_size", "diverging"}
    assert all(v.shape == (2, 2000) for v in stats.values())
    assert (
        0.5 < stats["acceptance_rate"].mean() <= 1 and stats["diverging"].sum() == fit.divergences
    )
    idata = fit.draws.to_inference_data()
    assert idata.posterior["alpha"].shape == (2, 2000, 3) and "lp" in idata.sample_stats

    compiled = compile_model("hier_md", backend)
    advi = variational_meanfield(
        "hier_md", data, ["alpha", "theta"], np.random.SeedSequence(5), backend, compiled
    )
    assert advi.draws.posterior["alpha"].shape == (1, 1000, 3)
    assert np.allclose(
        advi.draws.posterior["alpha"].mean(axis=(0, 1)), exact, atol=0.3
    )  # an approximation
    with pytest.raises(BackendUnavailable):
        variational_meanfield(
            "hier_md", data, ["theta"], np.random.SeedSequence(1), "pystan", compiled=None
        )
