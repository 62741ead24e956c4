"""dombowsky2025's lasso competitor (issue 46): our multinomial grouped lasso
(:mod:`hierbn.structure_learning.group_lasso`) against R's glmnet on the study's problems, one
core, side by side in one run.

Problems: the 12 LUCAS responses (each column against the 11 others, n = 2000, 11 dummies,
2 classes) and the 3 METABRIC outcomes TBS, CHT, DFC on their candidates (n = 1933, 33-35
dummies, 2, 2 and 3 classes; every METABRIC design is rank-deficient). Steps, each the best of
``--repeats`` elapsed times:

- ``path``: ours ``standardise`` + ``lambda_path`` + ``fit_path(stop_early=True)`` on the dummy
  design; glmnet's ``glmnet(x, y, family = "multinomial", type.multinomial = "grouped")``;
- ``cv``: ours ``cv_deviance`` (10 folds, each on its own λ path, predicted at the full-data λ);
  glmnet's ``cv.glmnet(..., foldid)`` minus its ``path`` (cv.glmnet refits the full data first);
- ``call``: ours ``select_neighbours`` (design, path, CV, one-SE rule: the study's whole call);
  glmnet's ``cv.glmnet`` on the same fold ids.

glmnet runs through ``Rscript benchmarks/glmnet_timings.R`` (timed inside R by
``system.time``: R's start-up, the CSV reading and ``model.matrix`` are not counted; glmnet's
default threshold 1e-7, ours the default ``tol``). Without Rscript or the glmnet package the
glmnet side is read from the committed ``benchmarks/glmnet_timings.csv`` (its header gives the
date, host and load of that measurement) and the table says so; ``--save-glmnet`` rewrites
that file from this run's R measurement. Target: glmnet / ours >= 1 on every problem and step.

Needs ``resources/dombowsky2025/lucas.parquet`` and ``metabric_code.parquet`` (``snakemake
--cores 1 resources/dombowsky2025/lucas.parquet resources/dombowsky2025/metabric_code.parquet``;
``--resources`` points elsewhere).
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from hierbn.io import write_json
from hierbn.steps import limit_threads
from hierbn.structure_learning.group_lasso import (
    N_FOLDS,
    cv_deviance,
    dummy_design,
    fit_path,
    fold_ids,
    lambda_path,
    one_hot,
    select_neighbours,
    standardise,
)
from hierbn.studies.dombowsky2025.structure import OUTCOMES, outcome_candidates

REPO = Path(__file__).resolve().parents[1]
R_SCRIPT = REPO / "benchmarks" / "glmnet_timings.R"
COMMITTED = REPO / "benchmarks" / "glmnet_timings.csv"
SEED = 20261129  # the fold assignment (select_neighbours' seed), the same for glmnet
STEPS = ("path", "cv", "call")
TARGET = 1.0


@dataclass(frozen=True)
class Problem:
    """One response (``codes[:, target]``) against its candidate columns."""

    name: str
    codes: np.ndarray
    target: int
    candidates: list[int]

    def folds(self) -> np.ndarray:
        """The fold ids select_neighbours draws from ``SEED`` (zero-based)."""
        return fold_ids(len(self.codes), N_FOLDS, np.random.default_rng(SEED))


def problems(resources: Path) -> list[Problem]:
    """The 12 LUCAS responses against every other column, then the METABRIC outcomes against
    their candidates (decisions §4.5)."""
    for file in ("lucas.parquet", "metabric_code.parquet"):
        if not (resources / file).is_file():
            raise SystemExit(
                f"{resources / file} is missing: run snakemake --cores 1 "
                "resources/dombowsky2025/lucas.parquet resources/dombowsky2025/metabric_code.parquet"
            )
    lucas = pd.read_parquet(resources / "lucas.parquet")
    codes = lucas.to_numpy().astype(np.int64)
    found = [
        Problem(f"lucas_{name}", codes, j, [c for c in range(codes.shape[1]) if c != j])
        for j, name in enumerate(lucas.columns)
    ]
    metabric = pd.read_parquet(resources / "metabric_code.parquet")
    for outcome in OUTCOMES:
        candidates = outcome_candidates(outcome)
        table = metabric[[*candidates, outcome]].to_numpy().astype(np.int64)
        found.append(
            Problem(f"metabric_{outcome}", table, len(candidates), list(range(len(candidates))))
        )
    return found


def best_of(run: Callable[[], object], repeats: int) -> float:
    """The shortest of ``repeats`` elapsed times of ``run()``."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def ours(problem: Problem, repeats: int) -> dict:
    """Our three steps' seconds, the path's size and work, and the selection."""
    x, _ = dummy_design(problem.codes, problem.candidates)
    response = problem.codes[:, problem.target]
    y = one_hot(response, np.unique(response))

    def path():
        z = standardise(x)[0]
        return fit_path(z, y, lambda_path(z, y), stop_early=True)

    fitted = path()  # also loads the kernels (Numba's cache) before any timing
    folds = problem.folds()

    def call():
        return select_neighbours(problem.codes, problem.target, problem.candidates, seed=SEED)

    seconds = {
        "path": best_of(path, repeats),
        "cv": best_of(lambda: cv_deviance(x, y, fitted.lambdas, folds), repeats),
        "call": best_of(call, repeats),
    }
    selection = call()
    return {
        "columns": int(x.shape[1]),
        "classes": int(y.shape[1]),
        "n_lambda": int(fitted.lambdas.size),
        "outer_iterations": int(fitted.iterations[:, 0].sum()),
        "cd_sweeps": int(fitted.iterations[:, 1].sum()),
        "seconds": seconds,
        "selected": list(selection.selected),
        "lambda_1se": selection.lambda_1se,
    }


def glmnet_in_r(found: list[Problem], repeats: int) -> pd.DataFrame | None:
    """glmnet's timings measured now through Rscript; None without Rscript or glmnet."""
    probe = ["Rscript", "-e", "library(glmnet)"]
    if shutil.which("Rscript") is None or subprocess.run(probe, capture_output=True).returncode:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        for problem in found:
            frame = pd.DataFrame(
                problem.codes[:, problem.candidates], columns=[f"v{c}" for c in problem.candidates]
            )
            frame["y"] = problem.codes[:, problem.target]
            frame.to_csv(Path(tmp) / f"{problem.name}.csv", index=False)
            folds = pd.DataFrame({"foldid": problem.folds() + 1})
            folds.to_csv(Path(tmp) / f"{problem.name}_fold.csv", index=False)
        out = Path(tmp) / "timings.csv"
        subprocess.run(["Rscript", str(R_SCRIPT), tmp, str(repeats), str(out)], check=True)
        return pd.read_csv(out)


def machine() -> dict:
    """Date, host, CPU, commit and the 1-minute load average (the machine may be busy)."""
    cpu = platform.processor()
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.is_file():
        models = [ln.split(":", 1)[1].strip() for ln in cpuinfo.read_text().splitlines()
                  if ln.startswith("model name")]  # fmt: skip
        cpu = models[0] if models else cpu
    commit = subprocess.run(
        ["git", "describe", "--always", "--dirty"], capture_output=True, text=True, cwd=REPO
    ).stdout.strip()
    return {
        "date": datetime.datetime.now().isoformat(timespec="seconds"),
        "host": platform.node(),
        "cpu": cpu,
        "cores": os.cpu_count(),
        "commit": commit,
        "loadavg_1min": os.getloadavg()[0],
    }


def save_glmnet(timings: pd.DataFrame, info: dict, repeats: int) -> None:
    """Rewrite the committed glmnet measurement with its provenance as '#' header lines."""
    header = [
        "glmnet's grouped multinomial path (path_s) and cv.glmnet (cv_glmnet_s), best of "
        f"{repeats} elapsed seconds inside R, on the problems of benchmarks/bench_group_lasso.py",
        "made by benchmarks/glmnet_timings.R through "
        "python benchmarks/bench_group_lasso.py --save-glmnet",
        f"on {info['date']}, host {info['host']} ({info['cpu']}, {info['cores']} cores), "
        f"commit {info['commit']}, 1-minute load average {info['loadavg_1min']:.2f}",
    ]
    text = "".join(f"# {line}\n" for line in header) + timings.to_csv(index=False)
    COMMITTED.write_text(text, encoding="utf-8")


def committed_glmnet() -> tuple[pd.DataFrame, str]:
    """The committed glmnet measurement and its provenance line."""
    lines = COMMITTED.read_text(encoding="utf-8").splitlines()
    provenance = " ".join(ln[2:] for ln in lines if ln.startswith("# on "))
    return pd.read_csv(COMMITTED, comment="#"), provenance


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--resources", type=Path, default=REPO / "resources" / "dombowsky2025")
    parser.add_argument("--repeats", type=int, default=3, help="best of")
    parser.add_argument("--out", default="results/benchmarks/group_lasso.json")
    parser.add_argument("--save-glmnet", action="store_true", help=f"rewrite {COMMITTED.name}")
    args = parser.parse_args()
    limit_threads(1)
    info = machine()
    found = problems(args.resources)
    timings = glmnet_in_r(found, args.repeats)
    if timings is not None:
        source = "measured in this run through Rscript"
        if args.save_glmnet:
            save_glmnet(timings, info, args.repeats)
    else:
        timings, provenance = committed_glmnet()
        source = f"NOT measured in this run (no Rscript/glmnet): {COMMITTED.name}, {provenance}"
    timings = timings.set_index("problem")
    rows = {}
    for problem in found:
        result = ours(problem, args.repeats)
        peer = timings.loc[problem.name]
        glmnet = {
            "path": float(peer["path_s"]),
            "cv": float(peer["cv_glmnet_s"] - peer["path_s"]),
            "call": float(peer["cv_glmnet_s"]),
        }
        result["glmnet_seconds"] = glmnet
        result["glmnet_n_lambda"] = int(peer["n_lambda"])
        result["ratio"] = {s: glmnet[s] / result["seconds"][s] for s in STEPS}
        rows[problem.name] = result
    print(
        f"glmnet {timings['glmnet_version'].iloc[0]} (R {timings['r_version'].iloc[0]}): {source}"
    )
    print(f"{'problem':26s} {'m':>3s} {'K':>2s} {'λ':>7s}", end="")
    for step in STEPS:
        print(f" | {step + ' ours':>10s} {'glmnet':>7s} {'ratio':>6s}", end="")
    print()
    for name, row in rows.items():
        print(f"{name:26s} {row['columns']:3d} {row['classes']:2d} "
              f"{row['n_lambda']:3d}/{row['glmnet_n_lambda']:3d}", end="")  # fmt: skip
        for step in STEPS:
            print(f" | {row['seconds'][step]:10.3f} {row['glmnet_seconds'][step]:7.3f} "
                  f"{row['ratio'][step]:6.1f}", end="")  # fmt: skip
        print()
    worst = {s: min(row["ratio"][s] for row in rows.values()) for s in STEPS}
    print("smallest ratio glmnet/ours (target >= 1):",
          ", ".join(f"{s} {worst[s]:.2f}" for s in STEPS))  # fmt: skip
    write_json(
        {
            "machine": info,
            "repeats": args.repeats,
            "glmnet_source": source,
            "glmnet_version": str(timings["glmnet_version"].iloc[0]),
            "target_ratio": TARGET,
            "smallest_ratio": worst,
            "problems": rows,
        },
        args.out,
    )


if __name__ == "__main__":
    main()
