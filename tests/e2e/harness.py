"""The end-to-end harness: a scratch copy of the workflow with the tiny config of every
registered study, and Snakemake run in it."""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
import yaml

from hierbn.report.jobsizes import dry_run_jobs
from hierbn.studies import STUDIES
from hierbn.studies.claims import without_timing

REPO = Path(__file__).resolve().parents[2]
TINY = Path(__file__).resolve().parent / "tiny"


def tiny_config(mirror: Path) -> dict:
    """The core keys plus each registered study's ``tiny/<study>.yaml``."""
    config = {"data": {"registry": "config/datasets.tsv", "mirrors": [str(mirror)]}}
    for study in STUDIES:
        config.update(yaml.safe_load((TINY / f"{study}.yaml").read_text()))
    return config


def write_study_inputs(work: Path) -> None:
    """Files a study's tiny config names (a user's own data set, say): each
    ``tiny/<study>.py`` that exists writes them into ``work`` with ``write_inputs(work)``."""
    for study in STUDIES:
        script = TINY / f"{study}.py"
        if script.exists():
            spec = importlib.util.spec_from_file_location(f"tiny_{study}", script)
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            module.write_inputs(work)


def make_workdir(path: Path, mirror: Path, config: dict | None = None) -> Path:
    """A scratch copy of the workflow with ``tiny.yaml`` (the tiny config unless given)."""
    path.mkdir(parents=True)
    shutil.copy(REPO / "Snakefile", path / "Snakefile")
    for folder in ("workflow", "config", "notebooks", "envs", "profiles"):
        shutil.copytree(REPO / folder, path / folder)
    shutil.copytree(REPO / "src" / "hierbn" / "stan", path / "src" / "hierbn" / "stan")
    write_config(path / "tiny.yaml", config or tiny_config(mirror))
    write_study_inputs(path)
    return path


def write_config(path: Path, config: dict) -> None:
    path.write_text(yaml.safe_dump(config, sort_keys=False))


def snakemake(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Snakemake on 2 cores in ``cwd``, with no time limit: a slow run is never a failure."""
    return subprocess.run(
        ["snakemake", "--cores", "2", *args], cwd=cwd, capture_output=True, text=True
    )


@dataclass(frozen=True)
class TinyRun:
    """The finished tiny run: its folder, config and Snakemake's output."""

    work: Path
    config: dict
    run: subprocess.CompletedProcess[str]

    @property
    def results(self) -> Path:
        return self.work / "results"


# Jobs any change of a study reruns after its experiment jobs: its claims feed these.
REPORTING = {"execute_notebook", "render_report", "study_runtime", "scoreboard", "all"}


def planned(work: Path, config: dict, name: str = "changed.yaml") -> dict[str, list[str]]:
    """Rule -> outputs of the jobs ``snakemake -n`` plans for ``config`` (default triggers),
    written to the config file ``name``."""
    write_config(work / name, config)
    run = snakemake(work, "-n", "--configfile", name)
    assert run.returncode == 0, run.stderr[-3000:]
    jobs: dict[str, list[str]] = {}
    for job in dry_run_jobs(run.stdout + run.stderr):
        jobs.setdefault(job.rule, []).extend(job.outputs)
    return jobs


def comparable_table(frame: pd.DataFrame) -> pd.DataFrame:
    """A result table without its wall-clock rows (metrics and methods named *seconds*) and
    columns (a draws table's ``seconds``)."""
    timed = pd.Series(False, index=frame.index)
    for column in ("metric", "method"):
        if column in frame:
            timed |= frame[column].astype(str).str.contains("seconds")
    kept = frame[~timed].reset_index(drop=True)
    return kept.drop(columns=[c for c in kept.columns if "seconds" in str(c)])


def assert_same_results(expected: Path, got: Path) -> None:
    """Two runs of one config agree: every claim field for field (timing claims: all but their
    values and status) and every table value (wall-clock rows aside)."""
    for claims in expected.glob("*/claims.json"):
        mine = json.loads((got / claims.relative_to(expected)).read_text())["claims"]
        assert without_timing(mine) == without_timing(json.loads(claims.read_text())["claims"])
    tables = sorted(expected.rglob("*.parquet"))
    assert tables and sorted(got.rglob("*.parquet")) == [
        got / t.relative_to(expected) for t in tables
    ]
    for table in tables:
        pd.testing.assert_frame_equal(
            comparable_table(pd.read_parquet(got / table.relative_to(expected))),
            comparable_table(pd.read_parquet(table)),
            obj=str(table.relative_to(expected)),
        )
