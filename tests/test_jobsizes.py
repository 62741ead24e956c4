"""Job sizes from benchmark files and Snakemake's metadata; the sample and the planned-run estimate."""

from __future__ import annotations

import base64
import json
import math
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hierbn.cli import main
from hierbn.report.job_scaling import extra_seconds, read_scaling, scale_jobs
from hierbn.report.jobsizes import (
    PlannedJob,
    dry_run_jobs,
    local_rules,
    match_measured,
    measured_jobs,
    per_rule,
    planned_jobs,
    profile_block,
    profile_sizes,
    rule_estimate,
    sample_jobs,
    study_estimate,
    study_of,
)

STUDIES = ("azzimonti2019", "beal2006")
PAPER = "hierbn azzimonti2019 e1 --config '{\"reps\": 10}' --out {out}"
PROBE = "results/azzimonti2019/e1/b.parquet"
SMOKE = "hierbn azzimonti2019 e1 --config '{\"reps\": 2}' --out {out}"


def _job(
    run: Path, output: str, rule: str, seconds: list[float], rss: float, shell: str = ""
) -> None:
    name = base64.urlsafe_b64encode(output.encode()).decode()
    (run / ".snakemake" / "metadata").mkdir(parents=True, exist_ok=True)
    record = {"rule": rule, "shellcmd": shell.replace("{out}", output)}
    (run / ".snakemake" / "metadata" / name).write_text(json.dumps(record))
    bench = run / "logs" / "benchmarks" / f"{output}.tsv"
    bench.parent.mkdir(parents=True, exist_ok=True)
    rows = "".join(f"{s}\t0:00:0{int(s)}\t{rss}\n" for s in seconds)
    bench.write_text("s\th:m:s\tmax_rss\n" + rows)


def _dry_run(jobs: list[tuple[str, str, str]], threads: int = 1) -> str:
    """A ``snakemake -n -p`` listing of (rule, output, shell template) jobs."""
    text = ""
    for rule, output, shell in jobs:
        text += f"[Tue Nov 24 03:44:54 2026]\nrule {rule}:\n    output: {output}\n    jobid: 1\n"
        text += f"    threads: {threads}\n" if threads > 1 else ""
        text += "Shell command: " + shell.replace("{out}", output) + "\n\n"
    return (
        text
        + "[Tue Nov 24 03:44:54 2026]\nlocalrule all:\n    input: results/index.html\n    jobid: 0\n"
    )


def test_benchmarks_are_joined_with_their_rule_and_summarised(tmp_path: Path) -> None:
    _job(tmp_path, "results/azzimonti2019/e1/x2_y2.parquet", "azz_e1_cell", [2.0, 4.0], 100.0)
    _job(tmp_path, "results/azzimonti2019/e1/x2_y8.parquet", "azz_e1_cell", [9.0], 300.0)
    _job(tmp_path, "resources/datasets/beal2006/data.parquet", "convert_dataset", [1.0], 50.0)
    jobs = measured_jobs([tmp_path], STUDIES)
    assert sorted(jobs.study) == ["azzimonti2019", "azzimonti2019", "beal2006"]
    sizes = per_rule(jobs)
    # jobs, mean of (3, 9), median, max, RSS: a job's seconds are the mean of its repeats
    assert sizes.loc["azz_e1_cell"].tolist() == [2, 6.0, 6.0, 9.0, 300.0]


def test_a_dry_run_lists_rule_outputs_threads_and_command() -> None:
    text = _dry_run(
        [("azz_e1_cell", "results/azzimonti2019/e1/a.parquet, results/x.json", PAPER)], threads=4
    )
    jobs = dry_run_jobs(text)
    assert jobs == [
        PlannedJob(
            "azz_e1_cell",
            ("results/azzimonti2019/e1/a.parquet", "results/x.json"),
            4,
            PAPER.replace("{out}", "results/azzimonti2019/e1/a.parquet, results/x.json"),
        ),
        PlannedJob("all"),  # a job with no output line still counts
    ]
    planned = planned_jobs(text, STUDIES)
    assert planned[["rule", "study", "threads"]].values.tolist() == [
        ["azz_e1_cell", "azzimonti2019", 4],
        ["all", "shared", 1],
    ]


def test_only_the_same_command_for_the_same_output_is_a_measurement(tmp_path: Path) -> None:
    """A smoke-scale run of the same output (other config values in its command) measures nothing."""
    smoke, paper = tmp_path / "smoke", tmp_path / "paper"
    _job(smoke, "results/azzimonti2019/e1/a.parquet", "azz_e1_cell", [1.0], 10.0, SMOKE)
    _job(paper, "results/azzimonti2019/e1/b.parquet", "azz_e1_cell", [50.0], 500.0, PAPER)
    plan = _dry_run(
        [("azz_e1_cell", f"results/azzimonti2019/e1/{c}.parquet", PAPER) for c in "abc"]
    )
    costed = match_measured(
        planned_jobs(plan, STUDIES), measured_jobs([smoke, paper], STUDIES), frozenset({PROBE})
    )
    assert costed["seconds"].tolist()[:3] == pytest.approx([math.nan, 50.0, math.nan], nan_ok=True)
    assert costed["probe"].tolist() == [False, True, False, False]


def test_two_runs_of_the_same_job_count_the_longer(tmp_path: Path) -> None:
    for run, seconds in (("one", 50.0), ("two", 70.0)):
        _job(
            tmp_path / run,
            "results/azzimonti2019/e1/a.parquet",
            "azz_e1_cell",
            [seconds],
            seconds,
            PAPER,
        )
    plan = _dry_run([("azz_e1_cell", "results/azzimonti2019/e1/a.parquet", PAPER)])
    costed = match_measured(
        planned_jobs(plan, STUDIES), measured_jobs([tmp_path / "one", tmp_path / "two"], STUDIES)
    )
    assert costed.loc[0, ["seconds", "max_rss_mb"]].tolist() == [70.0, 70.0]


def test_the_estimate_costs_unmeasured_jobs_at_the_sample_mean_with_its_standard_error() -> None:
    """Closed form: 4 planned jobs on 2 threads, 2 measured (10 s, 30 s): total core-seconds
    2 * (10 + 30 + 2 * 20) = 160; standard error 2 * 2 * sd(10, 30) / sqrt(2) = 40."""
    costed = pd.DataFrame(
        {
            "rule": ["r"] * 4 + ["q"],
            "study": ["azzimonti2019"] * 5,
            "threads": [2] * 4 + [1],
            "seconds": [10.0, 30.0, math.nan, math.nan, math.nan],
            "max_rss_mb": [100.0, 300.0, math.nan, math.nan, math.nan],
            "probe": [False] * 5,
        }
    )
    rules = rule_estimate(costed).set_index("rule")
    assert rules.loc["r", "core_hours"] == pytest.approx(160 / 3600)
    assert rules.loc["r", "se_core_hours"] == pytest.approx(40 / 3600)
    assert rules.loc["r", ["jobs", "measured", "sampled", "peak_rss_mb"]].tolist() == [
        4,
        2,
        2,
        300.0,
    ]
    assert math.isnan(rules.loc["q", "core_hours"])
    study = study_estimate(rules.reset_index()).loc["azzimonti2019"]
    assert study["core_hours"] == pytest.approx(160 / 3600)
    assert (
        study["jobs"],
        study["measured"],
        study["unmeasured_jobs"],
        study["unmeasured_rules"],
    ) == (5, 2, 1, "q")
    assert study["cluster_jobs"] == 5
    assert (
        study_estimate(rules.reset_index(), frozenset({"q"})).loc["azzimonti2019", "cluster_jobs"]
        == 4
    )


def test_local_rules_are_read_from_the_snakefiles_block(tmp_path: Path) -> None:
    snakefile = tmp_path / "Snakefile"
    snakefile.write_text("localrules:\n    fetch_raw,\n    scoreboard,\n\n\nrule all:\n")
    assert local_rules(snakefile) == {"fetch_raw", "scoreboard"}
    snakefile.write_text("rule all:\n    input: x\n")
    with pytest.raises(ValueError, match=r"Snakefile: no `localrules:` block"):
        local_rules(snakefile)


def test_a_probe_counts_at_its_own_cost_and_stays_out_of_the_mean() -> None:
    """Jobs 10 s and 30 s sampled, a 100 s probe, one unmeasured: 140 + 20 = 160 core-seconds,
    standard error 1 * sd(10, 30) / sqrt(2) = 10; the probe sets the longest job and the RSS."""
    costed = pd.DataFrame(
        {
            "rule": ["r"] * 4,
            "study": ["s"] * 4,
            "threads": [1] * 4,
            "seconds": [10.0, 30.0, 100.0, math.nan],
            "max_rss_mb": [1.0, 2.0, 9.0, math.nan],
            "probe": [False, False, True, False],
        }
    )
    row = rule_estimate(costed).iloc[0]
    assert row["core_hours"] == pytest.approx(160 / 3600)
    assert row["se_core_hours"] == pytest.approx(10 / 3600)
    assert (row["measured"], row["sampled"], row["peak_rss_mb"]) == (3, 2, 9.0)
    assert row["max_job_hours"] == pytest.approx(100 / 3600)


def test_a_fully_measured_rule_has_no_sampling_error() -> None:
    costed = pd.DataFrame(
        {
            "rule": ["r", "r"],
            "study": ["s", "s"],
            "threads": [1, 1],
            "seconds": [5.0, 7.0],
            "max_rss_mb": [1.0, 2.0],
            "probe": [False, False],
        }
    )
    row = rule_estimate(costed).iloc[0]
    assert (row["core_hours"], row["se_core_hours"]) == (pytest.approx(12 / 3600), 0.0)


def test_one_sampled_job_gives_an_estimate_without_a_standard_error() -> None:
    costed = pd.DataFrame(
        {
            "rule": ["r", "r", "q"],
            "study": ["s"] * 3,
            "threads": [1] * 3,
            "seconds": [5.0, math.nan, 1.0],
            "max_rss_mb": [1.0, math.nan, 1.0],
            "probe": [False] * 3,
        }
    )
    rules = rule_estimate(costed)
    assert rules.set_index("rule").loc["r", "core_hours"] == pytest.approx(10 / 3600)
    assert math.isnan(rules.set_index("rule").loc["r", "se_core_hours"])
    assert math.isnan(study_estimate(rules).loc["s", "se_core_hours"])


def test_profile_sizes_add_the_margin_round_up_and_keep_the_floors() -> None:
    sizes = pd.DataFrame(
        {"max_s": [100.0, 3000.0], "max_rss_mb": [120.0, 2010.0]}, index=["small", "big"]
    )
    profile = profile_sizes(sizes, time_margin=2.0, memory_margin=1.5, min_minutes=10, min_mb=1000)
    assert profile.loc["small"].tolist() == [
        10,
        1000,
    ]  # 200 s -> 4 min and 180 MB are below the floors
    assert profile.loc["big"].tolist() == [100, 3100]  # 6000 s = 100 min; 3015 MB -> 3100


def test_the_profile_block_states_the_measurement_beside_each_value() -> None:
    sizes = pd.DataFrame(
        {
            "jobs": [1, 30],
            "max_s": [6000.0, 59.4],
            "max_rss_mb": [2010.0, 300.0],
            "runtime": [100, 10],
            "mem_mb": [3100, 1000],
        },
        index=["big", "small"],
    )
    assert profile_block(sizes, 2.0, 1.5).splitlines() == [
        "set-resources:",
        "  big:",
        "    runtime: 100 # min; longest of 1 measured job 6,000 s x 2",
        "    mem_mb: 3100 # largest RSS 2,010 MB x 1.5",
        "  small:",
        "    runtime: 10 # min; longest of 30 measured jobs 59 s x 2",
        "    mem_mb: 1000 # largest RSS 300 MB x 1.5",
    ]


@settings(max_examples=50, deadline=None)
@given(
    sizes=st.lists(st.integers(1, 30), min_size=1, max_size=4),
    take=st.integers(0, 40),
    seed=st.integers(0, 99),
)
def test_a_sample_is_a_reproducible_subset_of_each_rules_jobs(
    sizes: list[int], take: int, seed: int
) -> None:
    planned = pd.DataFrame(
        [
            {"rule": f"r{i}", "output": f"r{i}/{j}"}
            for i, size in enumerate(sizes)
            for j in range(size)
        ]
    )
    wanted = {f"r{i}": take for i in range(len(sizes))}
    targets = sample_jobs(planned, wanted, seed)
    assert targets == sample_jobs(planned, wanted, seed)
    assert len(set(targets)) == len(targets) == sum(min(take, size) for size in sizes)
    assert set(targets) <= set(planned["output"])


def test_a_sample_of_an_unplanned_rule_is_refused() -> None:
    with pytest.raises(ValueError, match=r"no job of rule\(s\) \['nope'\]"):
        sample_jobs(pd.DataFrame({"rule": ["r"], "output": ["o"]}), {"nope": 1}, 0)


def test_a_malformed_sample_request_names_the_argument(tmp_path: Path) -> None:
    plan = tmp_path / "plan.txt"
    plan.write_text(_dry_run([("azz_e1_cell", "results/azzimonti2019/e1/a.parquet", PAPER)]))
    with pytest.raises(SystemExit, match=r"--rule 'azz_e1_cell': expected RULE=COUNT"):
        main(
            [
                "jobsizes-sample",
                "--plan",
                str(plan),
                "--rule",
                "azz_e1_cell",
                "--out",
                str(tmp_path / "t"),
            ]
        )


def test_a_profile_block_without_a_plan_is_refused(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match=r"--profile-block, --probes and --scaling need --plan"):
        main(
            ["jobsizes", "--run-dir", str(tmp_path), "--profile-block", "b.yaml", "--out", "o.json"]
        )


def test_a_folder_that_is_no_snakemake_run_is_named(tmp_path: Path) -> None:
    with pytest.raises(
        SystemExit, match=r"hierbn jobsizes: .*nowhere: no \.snakemake/metadata here"
    ):
        main(
            ["jobsizes", "--run-dir", str(tmp_path / "nowhere"), "--out", str(tmp_path / "o.json")]
        )


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("nothing to be done\n", "lists no job"),
        ("rule r:\n    output: results/x\n", "lists no shell command"),
    ],
)
def test_a_plan_without_jobs_or_commands_is_named(tmp_path: Path, text: str, problem: str) -> None:
    plan = tmp_path / "plan.txt"
    plan.write_text(text)
    with pytest.raises(SystemExit, match=rf"hierbn jobsizes-sample: .*plan\.txt: {problem}"):
        main(
            ["jobsizes-sample", "--plan", str(plan), "--rule", "r=1", "--out", str(tmp_path / "t")]
        )


def test_a_benchmark_without_a_recorded_job_is_named(tmp_path: Path) -> None:
    _job(tmp_path, "results/azzimonti2019/a.parquet", "r", [1.0], 1.0)
    (tmp_path / "logs" / "benchmarks" / "stray.tsv").write_text("s\tmax_rss\n1\t1\n")
    with pytest.raises(ValueError, match=r"stray\.tsv: Snakemake recorded no job writing 'stray'"):
        measured_jobs([tmp_path], STUDIES)


def test_a_metadata_record_without_a_rule_is_named(tmp_path: Path) -> None:
    (tmp_path / ".snakemake" / "metadata").mkdir(parents=True)
    (tmp_path / ".snakemake" / "metadata" / "b3V0").write_text("{}")
    with pytest.raises(ValueError, match=r"b3V0: not a Snakemake metadata record"):
        measured_jobs([tmp_path], STUDIES)


def test_outputs_outside_a_study_folder_are_shared() -> None:
    assert study_of("results/index.html", STUDIES) == "shared"
    assert study_of("logs/benchmarks/results/beal2006/x.tsv", STUDIES) == "beal2006"


SCALING = """
r_whole:
  job: 3
r_rows:
  rows:
    - where: {metric: ^seconds$, method: -hdp$}
      factor: 50
    - where: {metric: ^seconds$, method: hdp}
      factor: 10
"""


def _cells(seconds: dict[str, float]) -> pd.DataFrame:
    """A tidy output: one seconds row and one loss row per method."""
    rows = [{"method": m, "metric": "seconds", "value": s} for m, s in seconds.items()]
    rows += [{"method": m, "metric": "zero_one", "value": 0.5} for m in seconds]
    return pd.DataFrame(rows)


def test_a_row_takes_the_first_entry_it_matches_and_unmatched_rows_stay(tmp_path: Path) -> None:
    """Closed form: 2 s of nb-hdp x 50 and 3 s of nb-hdp-single-100 x 10 add 49 * 2 + 9 * 3;
    the m-estimate's seconds and every loss row add nothing."""
    path = tmp_path / "s.yaml"
    path.write_text(SCALING)
    rows = read_scaling(path)["r_rows"].rows
    frame = _cells({"nb-hdp": 2.0, "nb-hdp-single-100": 3.0, "nb-m": 5.0})
    assert extra_seconds(frame, rows) == pytest.approx(49 * 2 + 9 * 3)
    with pytest.raises(KeyError, match=r"no column \['method'\] to match"):
        extra_seconds(frame.drop(columns="method"), rows)


def test_scaled_jobs_stand_for_the_planned_jobs_of_the_same_output(tmp_path: Path) -> None:
    """A record run at other config values: its scaled jobs cost the paper plan's jobs of the
    same output (120 s x 3; 10 + 49 x 4 s), an unscaled rule still needs the same command,
    and the rule's unmeasured planned job costs the mean of its scaled ones."""
    run, scaling = tmp_path / "run", tmp_path / "s.yaml"
    scaling.write_text(SCALING)
    _job(run, "results/azzimonti2019/w.parquet", "r_whole", [120.0], 50.0, SMOKE)
    for name, chain in (("a", 4.0), ("b", 8.0)):
        output = f"results/azzimonti2019/rows/{name}.parquet"
        _job(run, output, "r_rows", [10.0], 70.0, SMOKE)
        (run / output).parent.mkdir(parents=True, exist_ok=True)
        _cells({"kdb1-hdp": chain, "kdb1-m": 1.0}).to_parquet(run / output)
    _job(run, "results/azzimonti2019/other.parquet", "r_other", [7.0], 1.0, SMOKE)
    plan = _dry_run(
        [
            ("r_whole", "results/azzimonti2019/w.parquet", PAPER),
            *[("r_rows", f"results/azzimonti2019/rows/{n}.parquet", PAPER) for n in "abc"],
            ("r_other", "results/azzimonti2019/other.parquet", PAPER),
        ]
    )
    table = read_scaling(scaling)
    measured = scale_jobs(measured_jobs([run], STUDIES), table)
    costed = match_measured(planned_jobs(plan, STUDIES), measured, scaled_rules=frozenset(table))
    assert costed["seconds"].tolist() == pytest.approx(
        [360.0, 10 + 49 * 4, 10 + 49 * 8, math.nan, math.nan, math.nan], nan_ok=True
    )
    rules = rule_estimate(costed).set_index("rule")
    assert rules.loc["r_rows", "core_hours"] == pytest.approx(3 * (10 + 49 * 6) / 3600)
    assert rules.loc["r_rows", "peak_rss_mb"] == 70.0


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("[1, 2]", "expected a mapping of rule: scaling"),
        ("r: {job: 2, extra: 1}", "r: expected a mapping with 'job' and/or 'rows'"),
        ("r: {job: -1}", r"r\.job: expected a positive number, got -1"),
        ("r: {rows: [{factor: 2}]}", r"r\.rows\[0\]: expected a mapping with keys"),
        ("r: {rows: [{where: {m: '('}, factor: 2}]}", r"r\.rows\[0\]\.where\.m: not a regular"),
    ],
)
def test_a_malformed_scaling_file_names_the_rule_and_key(
    tmp_path: Path, text: str, problem: str
) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(text)
    with pytest.raises(ValueError, match=rf"s\.yaml: ?{problem}"):
        read_scaling(path)


def test_a_scaled_output_without_a_matched_column_is_named(tmp_path: Path) -> None:
    """A misspelt or missing column would scale nothing; it is refused, naming the output."""
    run, scaling = tmp_path / "run", tmp_path / "s.yaml"
    scaling.write_text(SCALING)
    output = "results/azzimonti2019/rows/a.parquet"
    _job(run, output, "r_rows", [10.0], 70.0, SMOKE)
    (run / output).parent.mkdir(parents=True, exist_ok=True)
    _cells({"kdb1-hdp": 4.0}).rename(columns={"method": "estimator"}).to_parquet(run / output)
    with pytest.raises(ValueError, match=r"a\.parquet: rule r_rows: no column \['method'\]"):
        scale_jobs(measured_jobs([run], STUDIES), read_scaling(scaling))


def test_a_scaled_rule_whose_output_is_no_parquet_is_named(tmp_path: Path) -> None:
    run, scaling = tmp_path / "run", tmp_path / "s.yaml"
    scaling.write_text(SCALING)
    _job(run, "results/azzimonti2019/rows/a.json", "r_rows", [10.0], 70.0, SMOKE)
    with pytest.raises(ValueError, match=r"a\.json: rule r_rows scales timed rows"):
        scale_jobs(measured_jobs([run], STUDIES), read_scaling(scaling))
