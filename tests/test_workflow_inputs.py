"""What each rule reads (hierbn.workflow and the studies' workflow modules): params hold
only the config values a job reads, input lists follow the config."""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from hierbn.studies.azzimonti2019.workflow import e5_jobs
from hierbn.studies.petitjean2018 import workflow as pj
from hierbn.studies.petitjean2018.protocol import cell_config, cv_methods
from hierbn.workflow import benchmark_of, cv_job_tables, flat_paths, minutes, paths, pick

CV = {
    "rounds": 2,
    "structures": ["nb", "tan"],
    "backoff": "literal",
    "hdp": {"iterations": 60, "tying": "level", "prior": [0.0, 0.0], "conc_every": 5},
    "iteration_study": {"structures": ["tan"], "tyings": ["single"], "iterations": [20]},
    "prior_sensitivity": {"structures": ["tan"], "prior": [2.0, 1.0]},
    "random_forest": {"trees": 5},
    "jobs": "cell",
}


def test_paths_pick_and_benchmarks() -> None:
    assert paths("r/{a}_{b}.p", a=[1, 2], b="xy") == ["r/1_x.p", "r/1_y.p", "r/2_x.p", "r/2_y.p"]
    assert pick({"a": 1, "b": [2]}, "b") == "'{\"b\": [2]}'"
    with pytest.raises(KeyError, match="no \\['c'\\]"):
        pick({"a": 1}, "c")
    assert flat_paths({"x": "a", "y": ["b", "c"], "z": []}) == ["a", "b", "c"]
    assert benchmark_of("results/s/x.parquet") == "logs/benchmarks/results/s/x.parquet.tsv"


@pytest.mark.parametrize(
    ("method", "expected"),
    [
        ("rf", {"random_forest": {"trees": 5}}),
        ("tan-m", {"backoff": "literal"}),
        ("tan-hdp", {"hdp": CV["hdp"]}),
        ("tan-hdp-single-20", {"hdp": {"prior": [0.0, 0.0], "conc_every": 5}}),
        (
            "tan-hdp-prior",
            {
                "hdp": {"tying": "level", "iterations": 60, "conc_every": 5},
                "prior_sensitivity": {"prior": [2.0, 1.0]},
            },
        ),
    ],
)
def test_a_cell_reads_only_its_methods_values(method: str, expected: dict) -> None:
    assert method in cv_methods(CV)
    assert cell_config(CV, method) == expected


def test_cell_tables_and_the_optional_splice_input() -> None:
    section = {
        "cv": CV,
        "learning_curve": {"runs": 2},
        "splice": {"enabled": False},
    }
    inputs = pj.claims_inputs(section, ["iris", "zoo"], ["adult"], ["adult"], {})
    assert len(inputs["cv"]) == 2 * 2 * 2 * len(cv_methods(CV))
    assert inputs["splice"] == [] and len(inputs["learning_curve"]) == 2
    section["splice"]["enabled"] = True
    assert pj.claims_inputs(section, ["iris"], [], [], {})["splice"] == [
        "results/petitjean2018/splice.parquet"
    ]
    assert pj.report_inputs(section)["splice"] == ["results/petitjean2018/splice.parquet"]
    assert "jobs" not in pj.cv_config(section)


def test_round_jobs_for_the_larger_data_sets_one_job_for_a_smaller_one() -> None:
    """Issue 24: under ``cv.jobs: round`` a data set of at least ``round_min_rows`` rows (or of
    unknown size: a user's file) gets one job per round, a smaller one a single job; the job
    split is not a value the CV jobs read."""
    cv = {**CV, "jobs": "round", "round_min_rows": 1000}
    rows = {"adult": 45222, "iris": 150, "edge": 1000}
    tables = cv_job_tables("r", cv, ["adult", "iris", "edge", "mine"], rows)
    assert tables == [
        "r/cv/adult/r0.parquet",
        "r/cv/adult/r1.parquet",
        "r/cv/iris.parquet",
        "r/cv/edge/r0.parquet",
        "r/cv/edge/r1.parquet",
        "r/cv/mine/r0.parquet",
        "r/cv/mine/r1.parquet",
    ]
    assert cv_job_tables("r", {**cv, "jobs": "dataset"}, ["adult", "mine"], rows) == [
        "r/cv/adult.parquet",
        "r/cv/mine.parquet",
    ]
    assert len(cv_job_tables("r", {**cv, "round_min_rows": 0}, ["iris"], rows)) == 2
    with pytest.raises(ValueError, match="'cell' is not 'dataset' or 'round'"):
        cv_job_tables("r", CV, ["iris"], rows)
    section = {"cv": cv, "learning_curve": {"runs": 1}, "splice": {"enabled": False}}
    assert pj.cv_config(section) == {k: v for k, v in CV.items() if k != "jobs"}


def test_long_path_lists_go_through_an_argument_file(tmp_path) -> None:
    """`hierbn … @file` reads one argument per line (the claims and runtime steps of a
    30,000-cell run would not fit on a command line)."""
    from hierbn.cli import main
    from hierbn.io import read_json
    from hierbn.workflow import write_argfile

    header = "s\th:m:s\tmax_rss\tmax_vms\tmax_uss\tmax_pss\tio_in\tio_out\tmean_load\tcpu_time\n"
    benchmarks = []
    for i in range(3):
        path = tmp_path / f"job {i}.tsv"  # a space in a path survives too
        path.write_text(header + f"{i + 1}\t0:00:01\t10\t1\t1\t1\t0\t0\t0\t1\n")
        benchmarks.append(path)
    argfile = write_argfile(tmp_path / "list.txt", benchmarks)
    out = tmp_path / "runtime.json"
    assert main(["runtime", "--benchmarks", f"@{argfile}", "--out", str(out)]) == 0
    assert read_json(out) == {"jobs": 3, "seconds": 6.0, "max_rss_mb": 10.0, "restored_jobs": 0}
    with pytest.raises(ValueError, match="line break"):
        write_argfile(tmp_path / "bad.txt", ["a\nb"])


RUN_WITH_ARGFILES = """
import json, sys
from types import SimpleNamespace as NS
from hierbn.workflow import run_with_argfiles
spec = json.loads(sys.argv[1])
job = NS(input=NS(**spec["input"]), output=NS(**spec["output"]), log=[spec["log"]],
         params=NS(command=spec["command"], argfiles=spec["argfiles"]))
sys.exit(run_with_argfiles(job))
"""


def _run_rule_script(spec: dict) -> subprocess.CompletedProcess:
    """:func:`run_with_argfiles` as a rule's script runs it: in its own process, whose output
    goes to the job's log."""
    return subprocess.run(
        [sys.executable, "-c", RUN_WITH_ARGFILES, json.dumps(spec)], capture_output=True, text=True
    )


def test_a_rule_script_passes_its_input_lists_as_argument_files(tmp_path) -> None:
    """The claims and runtime rules' script: each named list becomes ``@file``, the other
    fields are the job's, and the command's output lands in the log, not the terminal."""
    from hierbn.io import read_json

    header = "s\th:m:s\tmax_rss\tmax_vms\tmax_uss\tmax_pss\tio_in\tio_out\tmean_load\tcpu_time\n"
    benchmarks = []
    for i in range(3):
        path = tmp_path / f"job {i}.tsv"
        path.write_text(header + f"{i + 1}\t0:00:01\t10\t1\t1\t1\t0\t0\t0\t1\n")
        benchmarks.append(str(path))
    out, log = tmp_path / "runtime.json", tmp_path / "runtime.log"
    spec = {
        "input": {"benchmarks": benchmarks},
        "output": {"runtime": str(out)},
        "log": str(log),
        "command": "hierbn runtime --benchmarks {argfiles.benchmarks} --out {output.runtime}",
        "argfiles": ["benchmarks"],
    }
    done = _run_rule_script(spec)
    assert done.returncode == 0, done.stderr
    assert read_json(out)["jobs"] == 3 and read_json(out)["seconds"] == 6.0
    assert done.stdout == done.stderr == ""

    spec["input"] = {"benchmarks": str(tmp_path / "missing.tsv")}  # one path, not a list
    done = _run_rule_script(spec)
    assert done.returncode != 0 and "missing.tsv" in log.read_text()

    spec["command"] = "rm -rf {argfiles.benchmarks}"
    done = _run_rule_script(spec)
    assert done.returncode != 0 and "must start with hierbn" in done.stderr


def test_an_e5_scenario_with_more_users_than_the_population_is_refused_by_key() -> None:
    section = {
        "e5": {
            "enabled": True,
            "scenarios": [[100, 100], [500, 6]],
            "c": [5],
            "reps": 2,
            "users": 50,
        }
    }
    with pytest.raises(ValueError, match=r"e5.scenarios: K = \[100\] exceeds e5.users = 50"):
        e5_jobs(section)
    section["e5"]["users"] = 100
    assert e5_jobs(section) == [
        f"results/azzimonti2019/e5/n{n}_k{k}_c5_rep{r}.parquet"
        for n, k in ((100, 100), (500, 6))
        for r in range(2)
    ]


def test_every_rules_runtime_doubles_with_each_attempt() -> None:
    """Slowness is never failure (issue 43): a job Slurm stopped at its time limit is retried
    (the Slurm profile's ``retries``) with twice the time, so every rule's ``runtime`` is a
    :func:`hierbn.workflow.minutes` of its measured base, none a fixed number."""
    rules = Path(__file__).resolve().parents[1] / "workflow" / "rules"
    lines = [line for f in sorted(rules.glob("*.smk")) for line in f.read_text().splitlines()]
    runtimes = [line.split("#")[0].strip() for line in lines if "runtime=" in line.split("#")[0]]
    assert len(runtimes) >= 50
    assert all(re.fullmatch(r"runtime=minutes\(\d+\),", r) for r in runtimes), runtimes
    assert [minutes(10)(None, attempt) for attempt in (1, 2, 3)] == [10, 20, 40]
