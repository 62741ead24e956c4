"""petitjean2018: Petitjean, Buntine, Webb & Zaidi (2018), *Accurate parameter estimation for
Bayesian network classifiers using hierarchical Dirichlet processes*, Machine Learning 107.
5x2 CV of 8 BN classifiers with HDP or m-estimate CPTs vs random forest, iterations x tying,
learning curves, timings and the optional Splice run."""

TITLE = "HDP parameter estimation for BN classifiers"
CITATION = "Petitjean, Buntine, Webb & Zaidi (2018), Machine Learning 107"
