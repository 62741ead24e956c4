// Hierarchical linear regression of becker2018 (paper Section 2.1), non-centred:
//   sigma ~ Gamma(a0, b0) (noise precision), s ~ Gamma(c0, d0) (pooling precision),
//   w_d ~ Gamma(e0, f0), Delta = z_Delta ./ sqrt(w), beta_i = Delta + z_i / sqrt(s),
//   y_i ~ N(X_i beta_i, 1/sigma).
// The likelihood is written with the per-group sufficient statistics X_i'X_i, X_i'y_i, y_i'y_i
// (the same value up to the constant -N/2 ln 2 pi), so a gradient costs O(C D^2), not O(N D).
data {
  int<lower=1> C;
  int<lower=1> D;
  array[C] matrix[D, D] xtx;
  array[C] vector[D] xty;
  vector[C] yty;
  vector<lower=1>[C] rows;
  real<lower=0> a0;
  real<lower=0> b0;
  real<lower=0> c0;
  real<lower=0> d0;
  real<lower=0> e0;
  real<lower=0> f0;
}
parameters {
  real<lower=0> sigma;
  real<lower=0> s;
  vector<lower=0>[D] w;
  vector[D] delta_z;
  array[C] vector[D] beta_z;
}
transformed parameters {
  vector[D] delta = delta_z ./ sqrt(w);
}
model {
  sigma ~ gamma(a0, b0);
  s ~ gamma(c0, d0);
  w ~ gamma(e0, f0);
  delta_z ~ std_normal();
  for (i in 1:C) {
    vector[D] beta = delta + beta_z[i] / sqrt(s);
    beta_z[i] ~ std_normal();
    target += 0.5 * rows[i] * log(sigma)
              - 0.5 * sigma * (yty[i] - 2 * dot_product(beta, xty[i]) + quad_form(xtx[i], beta));
  }
}
