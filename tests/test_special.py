import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.special import digamma as sp_digamma
from scipy.special import polygamma

from hierbn.special import digamma, tetragamma, trigamma

positive = st.floats(min_value=1e-6, max_value=1e7, allow_nan=False, allow_infinity=False)


@settings(max_examples=300, deadline=None)
@given(positive)
def test_polygammas_match_scipy(x: float) -> None:
    assert np.isclose(digamma(x), sp_digamma(x), rtol=1e-12, atol=1e-12)
    assert np.isclose(trigamma(x), polygamma(1, x), rtol=1e-12, atol=0)
    assert np.isclose(tetragamma(x), polygamma(2, x), rtol=1e-11, atol=0)


def test_non_positive_argument_gives_nan() -> None:
    assert np.isnan(digamma(0.0)) and np.isnan(trigamma(-1.0)) and np.isnan(tetragamma(0.0))
