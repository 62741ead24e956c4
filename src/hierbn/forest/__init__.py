"""Random forests, the papers' competitors, on the integer codes the studies hold.

- :mod:`hierbn.forest.sklearn_codes`: scikit-learn's forest on the codes read as ordered
  numbers (R ``randomForest``'s defaults mapped as in azzimonti2019 decisions §E5), shown as
  the extra column "RF, scikit-learn on codes"."""

from hierbn.forest.sklearn_codes import forest_proba, r_random_forest

__all__ = ["forest_proba", "r_random_forest"]
