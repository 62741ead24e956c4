"""azzimonti2019: Azzimonti, Corani & Zaffalon (2019), *Hierarchical estimation of parameters
in Bayesian networks*, CSDA 137. E1 (VI vs MCMC on simulated CPTs), Lemma 1, E2 (TAN
classification on Table B.1), E3 (Adult CPT accuracy)."""

TITLE = "Hierarchical estimation of parameters in Bayesian networks"
CITATION = "Azzimonti, Corani & Zaffalon (2019), CSDA 137"
