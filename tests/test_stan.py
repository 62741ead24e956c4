import numpy as np
import pytest

from hierbn.diagnostics import convergence
from hierbn.estimators.hier_exact import exact_alpha_moments
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
    counts = np.array([[3, 0, 1], [1, 4, 0], [0, 1, 2]])
    data = {"X": 3, "Y": 3, "n": counts.T.tolist(), "s": 3.0, "alpha0": [1.0, 1.0, 1.0]}
    fit = sample_nuts(
        "hier_md",
        data,
        ["alpha", "theta"],
        seed=11,
        backend=backend,
        settings=NutsSettings(chains=2, warmup=500, draws=2000),
    )
    exact, _ = exact_alpha_moments(counts)
    alpha = fit.draws["alpha"]
    assert alpha.shape == (2, 2000, 3)
    assert np.allclose(alpha.mean(axis=(0, 1)), exact, atol=0.06)
    assert np.allclose(fit.draws["theta"].mean(axis=(0, 1)).sum(axis=1), 1.0)
    assert fit.seconds > 0
    diagnostics = convergence(fit.draws["alpha"])
    assert diagnostics.rhat_max < 1.05 and diagnostics.ess_bulk_min > 200

    compiled = compile_model("hier_md", backend)
    advi = variational_meanfield("hier_md", data, ["alpha", "theta"], 5, backend, compiled)
    assert advi.draws["alpha"].shape == (1, 1000, 3)
    assert np.allclose(advi.draws["alpha"].mean(axis=(0, 1)), exact, atol=0.3)  # an approximation
    with pytest.raises(BackendUnavailable):
        variational_meanfield("hier_md", data, ["theta"], 1, "pystan", compiled=None)
