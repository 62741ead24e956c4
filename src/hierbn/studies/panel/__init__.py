"""panel: the estimator panel (issue 15). Every CPT estimator of the five papers — ML with
Laplace smoothing, BDeu (iss 1 and 10), m-estimates with back-off (petitjean2018), the
hierarchical Dirichlet VI of azzimonti2019, the HDP of petitjean2018 and the HiDDeN posterior
mean of dombowsky2025 — on the same BN classifier structures (NB, TAN, kDB-1..3, SkDB), the
same stratified 5x2 CV folds and the same data: the data sets that azzimonti2019 Table B.1 and
petitjean2018 Table 6 share, LUCAS0, an ALARM sample, and a user's own CSV or ARFF files.
Friedman and Nemenyi tests, critical-difference diagrams, win/draw/loss sign tests."""

TITLE = "Estimator panel: every CPT estimator on one protocol"
CITATION = "hierbn; estimators of azzimonti2019, petitjean2018 and dombowsky2025"
