"""Random forests on Adult (petitjean2018's discretised codes of fold 0 of round 0, ~24.4k
training and ~24.4k test rows, one core): seconds to fit and to predict the test rows of each
forest of :mod:`hierbn.forest`, against named peers measured in the same run.

Targets (issue 42), speed-up = peer seconds / our seconds, ours = fit + predict:
- ``weka``, :class:`hierbn.forest.WekaRandomForest` (100 trees, Weka's defaults): >= 1 against
  scikit-learn's ``RandomForestClassifier(n_estimators=100, max_features=int(log2(M))+1,
  criterion="entropy", n_jobs=1)`` on the same codes (fit + predict), and >= 3 against Weka's own
  RandomForest (``java -cp <weka.jar> weka.classifiers.trees.RandomForest -I 100 -S 1``, the
  "Time taken to build model" it prints: building only, so the ratio flatters Weka; JVM start-up
  and ARFF parsing are not counted). Without the jar (``--weka-jar``) that peer is skipped.
- ``r``, :class:`hierbn.forest.RRandomForest` (500 trees, R randomForest's defaults on factors):
  >= 1 against scikit-learn's ``RandomForestClassifier(n_estimators=500, max_features="sqrt",
  n_jobs=1)`` (:func:`hierbn.forest.r_random_forest`) on the same codes (fit + predict), and
  >= 1 against R's own randomForest 4.7-1.1 (``Rscript``: ``randomForest(x, y)`` on the codes as
  factors with their declared levels, then ``predict(type = "prob")``, both timed inside R by
  ``system.time``: R's start-up and CSV reading are not counted). Without Rscript or the R
  package that peer is skipped.

Another forest is one more :class:`Bench` appended to ``BENCHES``: its runner, its peers'
runners (each ``(fold, seed, args) -> Run``, ``args`` the command line) and their targets.

Needs the canonical Adult table: ``snakemake --cores 1 resources/datasets/petitjean2018/adult.parquet``.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from hierbn.data.cv import encode_fold
from hierbn.forest import RRandomForest, WekaRandomForest, r_random_forest, weka_on_codes
from hierbn.forest.weka import nominal_arff
from hierbn.io import write_json
from hierbn.metrics import rmse_multiclass, zero_one_loss
from hierbn.studies.petitjean2018.protocol import cv_split

if TYPE_CHECKING:
    from sklearn.ensemble import RandomForestClassifier

TREES = 100
R_TREES = 500  # R randomForest's default ntree


@dataclass(frozen=True)
class Fold:
    """Training and test codes (class last) with the declared states."""

    train: np.ndarray
    test: np.ndarray
    cards: list[int]


@dataclass(frozen=True)
class Run:
    """One timed run: fit and predict seconds (predict None when the peer does not report it)
    and the test-set metrics."""

    fit_seconds: float
    predict_seconds: float | None
    rmse: float
    error: float

    @property
    def seconds(self) -> float:
        return self.fit_seconds + (self.predict_seconds or 0.0)


# (fold, seed, command-line args) -> run; None: the peer is not installed
Runner = Callable[[Fold, int, argparse.Namespace], "Run | None"]


@dataclass(frozen=True)
class Bench:
    """A forest of ours and the peers it is timed against, with the speed-ups it must reach;
    peers in ``run_once`` (slow external programs) are timed once, the rest best of repeats."""

    name: str
    ours: Runner
    peers: dict[str, Runner]
    targets: dict[str, float]
    run_once: tuple[str, ...] = ()


def timed(fit: Callable[[], object], predict: Callable[[object], np.ndarray], fold: Fold) -> Run:
    """Time ``fit()`` then ``predict(model)`` on the fold's test codes."""
    start = time.perf_counter()
    model = fit()
    fitted = time.perf_counter()
    proba = predict(model)
    done = time.perf_counter()
    y = fold.test[:, -1]
    return Run(fitted - start, done - fitted, rmse_multiclass(y, proba), zero_one_loss(y, proba))


def ours(forest: WekaRandomForest | RRandomForest, fold: Fold) -> Run:
    """One of our forests fitted on the fold's training codes and scored on its test codes."""
    x, y = fold.train[:, :-1], fold.train[:, -1]
    return timed(
        lambda: forest.fit(x, y, fold.cards[:-1], fold.cards[-1]),
        lambda model: model.predict_proba(fold.test[:, :-1]),
        fold,
    )


def on_codes(forest: RandomForestClassifier, fold: Fold) -> Run:
    """scikit-learn's forest on the codes as numbers; one probability column per class, as
    :func:`hierbn.forest.forest_proba` (split to time the fit and the prediction apart)."""

    def predict(model: RandomForestClassifier) -> np.ndarray:
        proba = np.zeros((fold.test.shape[0], fold.cards[-1]))
        proba[:, model.classes_.astype(int)] = model.predict_proba(fold.test[:, :-1])
        return proba

    return timed(lambda: forest.fit(fold.train[:, :-1], fold.train[:, -1]), predict, fold)


def weka_forest(fold: Fold, seed: int, args: argparse.Namespace) -> Run:
    return ours(WekaRandomForest(seed=seed, trees=TREES), fold)


def sklearn_entropy(fold: Fold, seed: int, args: argparse.Namespace) -> Run:
    """scikit-learn's forest with Weka's settings as far as it has them, on the codes."""
    return on_codes(weka_on_codes(seed, TREES, fold.train.shape[1] - 1), fold)


def weka_cli(fold: Fold, seed: int, args: argparse.Namespace) -> Run | None:
    """Weka's own RandomForest (``--weka-jar``) on the fold written as nominal ARFF; the build
    time it reports."""
    if not Path(args.weka_jar).is_file():
        return None
    with tempfile.TemporaryDirectory() as tmp:
        for part in ("train", "test"):
            codes = getattr(fold, part)
            (Path(tmp) / f"{part}.arff").write_text(nominal_arff(codes, fold.cards, "adult"))
        out = subprocess.run(
            ["java", "-cp", args.weka_jar, "weka.classifiers.trees.RandomForest",
             "-I", str(TREES), "-S", str(seed), "-t", "train.arff", "-T", "test.arff", "-o"],
            check=True, capture_output=True, text=True, cwd=tmp,
        ).stdout  # fmt: skip
    build = re.search(r"Time taken to build model: ([0-9.]+) seconds", out)
    test_part = out.split("=== Error on test data ===")[-1]
    rmse = re.search(r"Root mean squared error\s+([0-9.]+)", test_part)
    wrong = re.search(r"Incorrectly Classified Instances\s+(\d+)", test_part)
    if build is None or rmse is None or wrong is None:
        raise RuntimeError(f"unexpected Weka output:\n{out}")
    return Run(float(build[1]), None, float(rmse[1]), int(wrong[1]) / fold.test.shape[0])


def r_forest(fold: Fold, seed: int, args: argparse.Namespace) -> Run:
    return ours(RRandomForest(seed=seed, trees=R_TREES), fold)


def sklearn_gini_sqrt(fold: Fold, seed: int, args: argparse.Namespace) -> Run:
    """scikit-learn's forest with R's defaults mapped (:func:`hierbn.forest.r_random_forest`)
    on the codes."""
    return on_codes(r_random_forest(seed), fold)


R_SCRIPT = """
suppressPackageStartupMessages(library(randomForest))
args <- commandArgs(trailingOnly = TRUE)
cards <- as.integer(strsplit(args[3], ",")[[1]])
factors <- function(f) {
  for (j in seq_along(f)) f[[j]] <- factor(f[[j]], levels = seq_len(cards[j]) - 1)
  f
}
train <- read.csv("train.csv")
test <- read.csv("test.csv")
p <- ncol(train) - 1
x <- factors(train[seq_len(p)])
xtest <- factors(test[seq_len(p)])
y <- factor(train[[p + 1]])
set.seed(as.integer(args[2]))
fit <- system.time(rf <- randomForest(x, y, ntree = as.integer(args[1])))[["elapsed"]]
predict_time <- system.time(votes <- predict(rf, xtest, type = "prob"))[["elapsed"]]
proba <- matrix(0, nrow(test), cards[p + 1])
proba[, as.integer(colnames(votes)) + 1] <- votes
write.csv(proba, "proba.csv", row.names = FALSE)
cat(fit, predict_time, "\n")
"""


def r_cli(fold: Fold, seed: int, args: argparse.Namespace) -> Run | None:
    """R's own randomForest (Rscript) on the fold written as CSV codes; the fit and predict
    seconds R measures."""
    probe = ["Rscript", "-e", "library(randomForest)"]
    if shutil.which("Rscript") is None or subprocess.run(probe, capture_output=True).returncode:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        for part in ("train", "test"):
            pd.DataFrame(getattr(fold, part)).to_csv(Path(tmp) / f"{part}.csv", index=False)
        out = subprocess.run(
            ["Rscript", "-e", R_SCRIPT, str(R_TREES), str(seed), ",".join(map(str, fold.cards))],
            check=True, capture_output=True, text=True, cwd=tmp,
        ).stdout  # fmt: skip
        proba = pd.read_csv(Path(tmp) / "proba.csv").to_numpy()
    fit_seconds, predict_seconds = (float(v) for v in out.split())
    y = fold.test[:, -1]
    return Run(fit_seconds, predict_seconds, rmse_multiclass(y, proba), zero_one_loss(y, proba))


BENCHES = [
    Bench(
        name="weka",
        ours=weka_forest,
        peers={"sklearn_entropy_codes": sklearn_entropy, "weka_3_6_cli": weka_cli},
        targets={"sklearn_entropy_codes": 1.0, "weka_3_6_cli": 3.0},
        run_once=("weka_3_6_cli",),
    ),
    Bench(
        name="r",
        ours=r_forest,
        peers={"sklearn_gini_sqrt_codes": sklearn_gini_sqrt, "r_randomforest_4_7": r_cli},
        targets={"sklearn_gini_sqrt_codes": 1.0, "r_randomforest_4_7": 1.0},
        run_once=("r_randomforest_4_7",),
    ),
]


def best_of(runner: Runner, fold: Fold, args: argparse.Namespace, repeats: int) -> Run | None:
    """The fastest of ``repeats`` runs with seed 1 (None if the runner is not available)."""
    runs = [runner(fold, 1, args) for _ in range(repeats)]
    if any(r is None for r in runs):
        return None
    return min(runs, key=lambda r: r.seconds)


def measure(bench: Bench, fold: Fold, args: argparse.Namespace) -> dict:
    """Our runs and the peers', with speed-ups and whether each target is met."""
    bench.ours(Fold(fold.train[:200], fold.test[:10], fold.cards), 0, args)  # compile first
    ours = best_of(bench.ours, fold, args, args.repeats)
    result: dict = {"ours": vars(ours) | {"seconds": ours.seconds}, "peers": {}}
    for peer, runner in bench.peers.items():
        theirs = best_of(runner, fold, args, 1 if peer in bench.run_once else args.repeats)
        if theirs is None:
            result["peers"][peer] = "skipped: not installed"
            continue
        speedup = theirs.seconds / ours.seconds
        result["peers"][peer] = vars(theirs) | {
            "seconds": theirs.seconds,
            "speedup": speedup,
            "target": bench.targets[peer],
            "met": bool(speedup >= bench.targets[peer]),
        }
    return result


def adult_fold(path: str) -> Fold:
    """Fold 0 of round 0 of petitjean2018's stratified 5x2 CV on Adult, coded as the study
    codes it (MDL cuts on the training rows, missing as its own state)."""
    frame = pd.read_parquet(path)
    target = frame.columns[-1]
    y = frame[target].cat.codes.to_numpy()
    train_rows, test_rows = cv_split(y, "adult", 0, 0, 0)
    train, test, _, cards = encode_fold(frame, target, train_rows, test_rows)
    return Fold(train, test, cards)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--adult", default="resources/datasets/petitjean2018/adult.parquet")
    parser.add_argument("--weka-jar", default="/usr/share/java/weka.jar")
    parser.add_argument("--repeats", type=int, default=3, help="best of (not run_once peers)")
    parser.add_argument("--out", default="results/benchmarks/forests.json")
    args = parser.parse_args()
    fold = adult_fold(args.adult)
    result = {
        "dataset": "adult",
        "train_rows": int(fold.train.shape[0]),
        "test_rows": int(fold.test.shape[0]),
        "attributes": int(fold.train.shape[1] - 1),
        "trees": TREES,
        "repeats": args.repeats,
        "forests": {bench.name: measure(bench, fold, args) for bench in BENCHES},
    }
    write_json(result, args.out)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
