"""becker2018: Becker (2018), *Variational Bayesian hierarchical regression for data analysis*,
arXiv:1811.03687. Mean-field VB of a hierarchical linear regression vs its Gibbs sampler (and
Stan NUTS), OLS, lasso, ridge and a mixed model on the Turkiye student evaluation data."""

TITLE = "Variational Bayesian hierarchical regression"
CITATION = "Becker (2018), arXiv:1811.03687"
