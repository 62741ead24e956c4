// Hierarchical Multinomial-Dirichlet model, eq. (5) of azzimonti2019:
//   alpha = s * eta, eta ~ Dirichlet(alpha0); theta[y] ~ Dirichlet(alpha); n[y] ~ Multinomial(theta[y]).
data {
  int<lower=2> X;
  int<lower=1> Y;
  array[Y, X] int<lower=0> n;
  real<lower=0> s;
  vector<lower=0>[X] alpha0;
}
parameters {
  simplex[X] eta;
  array[Y] simplex[X] theta;
}
transformed parameters {
  vector[X] alpha = s * eta;
}
model {
  eta ~ dirichlet(alpha0);
  for (y in 1:Y) {
    theta[y] ~ dirichlet(alpha);
    n[y] ~ multinomial(theta[y]);
  }
}
