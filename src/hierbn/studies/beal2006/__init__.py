"""beal2006: Beal & Ghahramani (2006), *Variational Bayesian learning of directed graphical
models with hidden variables*, Bayesian Analysis 1(4). Experiments A and B (MAP, BIC, BICp,
CS and VB scores vs AIS) and the AIS schedule study."""

TITLE = "VB learning of directed graphical models with hidden variables"
CITATION = "Beal & Ghahramani (2006), Bayesian Analysis 1(4)"
