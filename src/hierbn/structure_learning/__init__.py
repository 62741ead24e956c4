"""Structure-learning competitors with bnlearn's and glmnet's semantics: Markov-blanket discovery
(Grow-Shrink, IAMB), score-based search (hill climbing, tabu) and the multinomial grouped lasso
for neighbourhood selection."""
