"""Random forests, the papers' competitors, on the integer codes the studies hold.

- :mod:`hierbn.forest.sklearn_codes`: scikit-learn's forest on the codes read as ordered
  numbers (R ``randomForest``'s defaults mapped as in azzimonti2019 decisions §E5), shown as
  the extra column "RF, scikit-learn on codes".
- :mod:`hierbn.forest.weka`: Weka's RandomForest with the codes as nominal attributes (multiway
  RandomTree splits, Weka's defaults), as petitjean2018 ran it; checked against Weka 3.6.14.
- :mod:`hierbn.forest.randomforest_r`: R ``randomForest``'s forest with the codes as factors
  (splits by subsets of levels, R's defaults), as azzimonti2019 ran it; checked against R's
  randomForest 4.7-1.1."""

from hierbn.forest.randomforest_r import RRandomForest
from hierbn.forest.sklearn_codes import forest_proba, r_random_forest, weka_on_codes
from hierbn.forest.weka import WekaRandomForest, weka_default_features

__all__ = [
    "RRandomForest",
    "WekaRandomForest",
    "forest_proba",
    "r_random_forest",
    "weka_default_features",
    "weka_on_codes",
]
