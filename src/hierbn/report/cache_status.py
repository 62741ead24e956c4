"""Which of a plan's cached jobs the result cache holds: per study and per batch, and the
entries no planned job would use.

A planned job (``snakemake -n -p --forceall``) that runs through the cache shows its code key
and command (``hierbn cached --code KEY … -- COMMAND``). It is held when an entry has the same
step, code key and command, thread count aside (:func:`hierbn.result_cache.key_ingredients`).
The third part of the key, the inputs' content, is not in a plan: a regeneration compares it
when it restores the entry, so a job held here can still be recomputed there if its data
changed.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pandas as pd

from hierbn.report.jobsizes import dry_run_jobs, study_of
from hierbn.result_cache import ENTRY_FILE, entries, is_cached, normalised_command, step_name

Match = tuple[str, str, tuple[str, ...]]  # step, code key, normalised command


def cached_command(shell: str) -> tuple[str, list[str]]:
    """The code key and the job's own command of a ``hierbn cached`` shell command (its log
    redirection left out)."""
    words = shlex.split(shell)
    if "--" not in words or "--code" not in words:
        raise ValueError(f"not a `hierbn cached --code KEY … -- COMMAND` command: {shell!r}")
    code = words[words.index("--code") + 1]
    command = words[words.index("--") + 1 :]
    for stop, word in enumerate(command):
        if word.startswith(">") or word in {"2>&1", "&>"}:
            command = command[:stop]
            break
    return code, command


def match_of(code: str, command: list[str]) -> Match:
    """What an entry and a planned job must share to be the same job (inputs aside)."""
    return step_name(command), code, tuple(normalised_command(command))


def planned_cached_jobs(dry_run: str, studies: tuple[str, ...]) -> pd.DataFrame:
    """Study, rule, first output and match of every job of a dry run that runs through the
    result cache."""
    rows = []
    for job in dry_run_jobs(dry_run):
        if job.outputs and is_cached(job.shell):
            code, command = cached_command(job.shell)
            rows.append(
                {
                    "study": study_of(job.outputs[0], studies),
                    "rule": job.rule,
                    "output": job.outputs[0],
                    "match": match_of(code, command),
                }
            )
    if not rows:
        raise ValueError(
            "the dry run lists no job through the result cache; expected the output of "
            "`snakemake -n -p --forceall --configfile config/paper.yaml`"
        )
    return pd.DataFrame(rows)


def held_entries(cache: Path) -> dict[Match, Path]:
    """Every entry of the cache by its match."""
    held = {}
    for folder in entries(cache):
        entry = json.loads((folder / ENTRY_FILE).read_text())
        held[match_of(entry["code"], entry["command"])] = folder
    return held


def batch_of(batches: dict[str, list[dict[str, Any]]]) -> dict[str, str]:
    """The batch each target belongs to (``reproduction/batches.yaml``)."""
    return {t: b["name"] for study in batches.values() for b in study for t in b["targets"]}


def status(
    planned: pd.DataFrame,
    held: dict[Match, Path],
    batches: dict[str, list[dict[str, Any]]],
) -> pd.DataFrame:
    """``planned`` with whether the cache holds each job (``held``) and its batch."""
    out = planned.copy()
    out["held"] = [m in held for m in out["match"]]
    batch = batch_of(batches)
    out["batch"] = [batch.get(output, "") for output in out["output"]]
    return out


def unused_entries(planned: pd.DataFrame, held: dict[Match, Path]) -> list[Path]:
    """Entries that no planned job would restore (an older code key, another config)."""
    wanted = set(planned["match"])
    return sorted(folder for match, folder in held.items() if match not in wanted)


def _table(jobs: pd.DataFrame, by: str) -> pd.DataFrame:
    grouped = jobs.groupby(by, sort=False)
    table = pd.DataFrame({"jobs": grouped.size(), "held": grouped["held"].sum()})
    table["missing"] = table["jobs"] - table["held"]
    return table


def _batch_order(name: str) -> tuple[str, int]:
    """petitjean2018-2 before petitjean2018-10."""
    study, _, number = name.rpartition("-")
    return (study, int(number)) if number.isdigit() else (name, 0)


def report_lines(jobs: pd.DataFrame, unused: Iterable[Path], list_missing: bool) -> list[str]:
    """The status as text: per study, per batch with a job missing, the unused entries, and
    (``list_missing``) every missing job's output."""
    lines = ["study           jobs   held  missing"]
    rows = [*_table(jobs, "study").iterrows(), ("all", _table(jobs.assign(a=0), "a").iloc[0])]
    for study, row in rows:
        lines.append(f"{study:<14} {row.jobs:>5} {row.held:>6} {row.missing:>8}")
    batched = jobs[jobs["batch"] != ""]
    open_batches = _table(batched, "batch").query("missing > 0")
    open_batches = open_batches.loc[sorted(open_batches.index, key=_batch_order)]
    if not open_batches.empty:
        lines.append("batches with jobs missing:")
        lines += [f"  {name}: {row.missing} of {row.jobs}" for name, row in open_batches.iterrows()]
    unused = list(unused)
    lines.append(f"entries no planned job uses: {len(unused)}")
    lines += [f"  {folder}" for folder in unused]
    if list_missing:
        lines.append("missing:")
        lines += [f"  {o}" for o in jobs.loc[~jobs["held"], "output"]]
    return lines
