"""Every rule a cluster runs declares its memory and runtime, each value with the measurement
(or the reason) behind it, so a Slurm submission never falls back on a silent guess."""

from __future__ import annotations

import re
import subprocess
from collections import Counter
from pathlib import Path

from hierbn.report.jobsizes import local_rules

REPO = Path(__file__).resolve().parents[1]
RULE = re.compile(r"^(?:rule|checkpoint) (\w+):\n((?:^(?:    .*|)\n)*)", re.M)


def _local_rules() -> frozenset[str]:
    return local_rules(REPO / "Snakefile")


def _cluster_rules() -> dict[str, str]:
    rules = {}
    for path in sorted((REPO / "workflow" / "rules").glob("*.smk")):
        for match in RULE.finditer(path.read_text()):
            rules[match.group(1)] = match.group(2)
    return {name: body for name, body in rules.items() if name not in _local_rules()}


def test_every_cluster_rule_states_its_memory_and_runtime_with_a_reason() -> None:
    missing = []
    for name, body in _cluster_rules().items():
        for key, value in (("mem_mb", r"\d+"), ("runtime", r"minutes\(\d+\)")):
            line = re.search(rf"^        {key}={value},\s*#\s*\S.*$", body, re.M)
            if not line:
                missing.append(f"{name}: {key}")
    assert not missing, (
        f"declare `mem_mb=<MB>,  # <measured ...>` and `runtime=minutes(<min>),  # <measured ...>` "
        f"for {missing}"
    )


def test_the_parser_sees_the_rules() -> None:
    rules = _cluster_rules()
    assert len(rules) > 40 and "fetch_raw" not in rules and "compile_stan" in rules


def test_the_paper_plan_submits_at_most_2000_cluster_jobs() -> None:
    """Issue 24: a cluster's queue limits and Snakemake's status polling set the pace of
    tens of thousands of jobs, so the paper plan (every study and the panel) submits at most
    2,000 jobs besides the local rules; the CV of a data set of 2,000 rows or more runs one
    job per round, a smaller one's one job, so the only rule with more than 100 jobs runs whole
    rounds of the larger data sets (their sizes: README, "How big is the paper run")."""
    plan = subprocess.run(
        ["snakemake", "-n", "--forceall", "--configfile", "config/paper.yaml"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    jobs = Counter(re.findall(r"^rule (\w+):$", plan, re.M))
    cluster = {rule: count for rule, count in jobs.items() if rule not in _local_rules()}
    cluster.pop("all")
    assert jobs["pj_cv_round"] + 5 * jobs["pj_cv"] == 66 * 5
    assert jobs["panel_cv_round"] + 5 * jobs["panel_cv"] == 41 * 5
    assert sum(cluster.values()) <= 2000, sorted(cluster.items(), key=lambda kv: -kv[1])
    assert {rule for rule, count in cluster.items() if count > 100} <= {"pj_cv_round"}
