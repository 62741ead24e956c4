"""dombowsky2025: Dombowsky & Dunson (2025), *Learning discrete Bayesian networks with
hierarchical Dirichlet shrinkage* (HiDDeN), arXiv:2509.13267. Part 1: the MALA-within-Gibbs
sampler, sparse-count parameter learning (Table 1), choosing between two DAGs (Table 3) and two
parent sets (Tables 7–8), and the ALARM parameters with the true graph (Figure 10)."""

TITLE = "HiDDeN: hierarchical Dirichlet shrinkage for discrete BNs"
CITATION = "Dombowsky & Dunson (2025), arXiv:2509.13267"
