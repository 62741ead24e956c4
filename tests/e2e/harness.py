"""The end-to-end harness: a scratch copy of the workflow with the tiny config of every
registered study, and Snakemake run in it."""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import yaml

from hierbn.studies import STUDIES

REPO = Path(__file__).resolve().parents[2]
TINY = Path(__file__).resolve().parent / "tiny"


def tiny_config(mirror: Path) -> dict:
    """The core keys plus each registered study's ``tiny/<study>.yaml``."""
    config = {"data": {"registry": "config/datasets.tsv", "mirrors": [str(mirror)]}}
    for study in STUDIES:
        config.update(yaml.safe_load((TINY / f"{study}.yaml").read_text()))
    return config


def make_workdir(path: Path, mirror: Path, config: dict | None = None) -> Path:
    """A scratch copy of the workflow with ``tiny.yaml`` (the tiny config unless given)."""
    path.mkdir(parents=True)
    shutil.copy(REPO / "Snakefile", path / "Snakefile")
    for folder in ("workflow", "config", "notebooks", "envs"):
        shutil.copytree(REPO / folder, path / folder)
    shutil.copytree(REPO / "src" / "hierbn" / "stan", path / "src" / "hierbn" / "stan")
    write_config(path / "tiny.yaml", config or tiny_config(mirror))
    return path


def write_config(path: Path, config: dict) -> None:
    path.write_text(yaml.safe_dump(config, sort_keys=False))


def snakemake(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["snakemake", "--cores", "2", *args], cwd=cwd, capture_output=True, text=True, timeout=1500
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
    rule = None
    for line in (run.stdout + run.stderr).splitlines():
        if match := re.match(r"^(?:local)?rule (\w+):$", line):
            rule = match.group(1)
            jobs.setdefault(rule, [])
        elif rule and (match := re.match(r"^\s+output: (.*)$", line)):
            jobs[rule] += match.group(1).split(", ")
    return jobs
