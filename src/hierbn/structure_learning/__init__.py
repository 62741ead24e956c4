"""Structure learning: HiDDeN's parent-set and Markov-blanket sampler (``hidden_parents``), and
the competitors with bnlearn's and glmnet's semantics: Markov-blanket discovery (Grow-Shrink,
IAMB), score-based search (hill climbing, tabu) and the multinomial grouped lasso for
neighbourhood selection."""
