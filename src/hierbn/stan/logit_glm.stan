// Binomial logistic regression with rstanarm's default priors
// (dombowsky2025 decisions §4.1 and A7):
// stan_glm(cbind(successes, failures) ~ factor(parent), family = binomial) fits the intercept
// of the centred predictors, alpha_c ~ N(0, 2.5), and each coefficient
// beta_k ~ N(0, 2.5 / sd(x_k)) (autoscale; sd over the aggregated rows, supplied as data).
data {
  int<lower=1> N;                      // aggregated rows (observed parent levels)
  int<lower=0> P;                      // dummy columns (treatment contrasts)
  matrix[N, P] X;
  array[N] int<lower=0> successes;
  array[N] int<lower=0> trials;
  vector<lower=0>[P] prior_scale;
}
transformed data {
  row_vector[P] x_mean = rep_row_vector(0, P);
  matrix[N, P] X_centred;
  for (p in 1:P) x_mean[p] = mean(X[, p]);
  for (n in 1:N) X_centred[n] = X[n] - x_mean;
}
parameters {
  real alpha_centred;
  vector[P] beta;
}
model {
  alpha_centred ~ normal(0, 2.5);
  beta ~ normal(0, prior_scale);
  successes ~ binomial_logit(trials, alpha_centred + X_centred * beta);
}
generated quantities {
  real alpha = alpha_centred - x_mean * beta;
}
