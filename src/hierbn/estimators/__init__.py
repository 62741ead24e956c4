"""The estimation engines, fed with count tables or design matrices: closed-form CPT
estimates (Laplace, BDeu: ``bdeu``; m-estimates: ``m_estimate``, with back-off along parent
prefixes in ``m_estimate_tree``), the hierarchical Dirichlet of azzimonti2019 (variational
``hier_vi``, exact oracle ``hier_exact``), the HDP Gibbs sampler of petitjean2018 (``hdp``,
with its Stirling-number cache ``stirling``), HiDDeN of dombowsky2025 (fixed parents
``hidden``, its Numba kernels ``hidden_kernels``, parent-set and Markov-blanket search
``hidden_structure``, exact oracle ``hidden_exact``) and becker2018's hierarchical regression
(mean-field VB ``hier_regression``, Gibbs ``hier_regression_gibbs``, OLS/lasso/ridge/
mixed-model baselines ``regression_baselines``).

CPT estimators here take ``counts[x, y]`` (rows: child states, columns: parent configurations);
``hierbn.cpts`` wraps them behind one CPT-estimator interface (used by the panel so far).
"""
