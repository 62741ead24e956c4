"""The estimation engines, fed with count tables or design matrices (they never build them:
nothing here imports :mod:`hierbn.bn`): closed-form CPT estimates (Laplace, BDeu, ML:
``bdeu``; m-estimates: ``m_estimate``, with back-off along parent prefixes in
``m_estimate_tree``), the hierarchical Dirichlet of azzimonti2019 (variational ``hier_vi``,
exact oracle ``hier_exact``), the HDP Gibbs sampler of petitjean2018 (``hdp``, with its
Stirling-number cache ``stirling``), HiDDeN of dombowsky2025 (``hidden``, its Numba kernels
``hidden_kernels``, exact oracle ``hidden_exact``) and becker2018's hierarchical regression
(mean-field VB ``hier_regression``, Gibbs ``hier_regression_gibbs``, OLS/lasso/ridge/
mixed-model baselines ``regression_baselines``). Numba kernels live in ``*_kernels`` modules.

Count tables are ``counts[y, x]`` (rows: parent configurations, columns: child values), the
orientation of :mod:`hierbn.cpts.base`; :mod:`hierbn.cpts` puts the CPT estimators behind the
one CPT-estimator interface every study fits and predicts through.
"""
