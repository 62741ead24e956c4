"""Helpers of the Snakemake workflow (``workflow/rules/*.smk``) and of each study's input
functions (``hierbn.studies.<study>.workflow``): config values as shell-quoted JSON params,
output path lists, benchmark paths, and what the scoreboard says of a run."""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import shlex
import subprocess
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any


def as_json(values: Any) -> str:
    """Config values as a shell-quoted JSON string for the hierbn CLI."""
    return shlex.quote(json.dumps(values, sort_keys=True))


def pick(section: Mapping[str, Any], *keys: str) -> str:
    """Only the config values a job reads, as shell-quoted JSON: a rule's params carry these,
    so changing another value of the section reruns none of its jobs."""
    missing = [k for k in keys if k not in section]
    if missing:
        raise KeyError(f"config section has no {missing}; it has {sorted(section)}")
    return as_json({k: section[k] for k in keys})


def paths(template: str, **values: Iterable[Any]) -> list[str]:
    """``template`` formatted with every combination of ``values`` (like Snakemake's expand)."""
    names = list(values)
    return [
        template.format(**dict(zip(names, combo, strict=True)))
        for combo in itertools.product(*(list(values[n]) for n in names))
    ]


def cv_job_tables(
    results: str, cv: Mapping[str, Any], datasets: Iterable[str], rows: Mapping[str, int]
) -> list[str]:
    """CV result tables under ``cv.jobs: dataset`` (one per data set) or ``round`` (one per
    (data set, round) for a data set of at least ``cv.round_min_rows`` rows, one per data set
    for a smaller one, so a cluster job is neither hours of one core nor mostly start-up).
    ``rows``: the registry's paper_rows; a data set it lacks (a user's file) runs per round."""
    if cv["jobs"] not in ("dataset", "round"):
        raise ValueError(f"cv.jobs {cv['jobs']!r} is not 'dataset' or 'round'")
    smallest = cv.get("round_min_rows", 0)
    tables = []
    for dataset in datasets:
        if cv["jobs"] == "dataset" or rows.get(dataset, smallest) < smallest:
            tables.append(f"{results}/cv/{dataset}.parquet")
        else:
            tables += [f"{results}/cv/{dataset}/r{r}.parquet" for r in range(cv["rounds"])]
    return tables


def flat_paths(named: Mapping[str, str | Iterable[str]]) -> list[str]:
    """Every path of a dict of named inputs (values: a path or a list of paths)."""
    return [p for v in named.values() for p in ([v] if isinstance(v, str) else v)]


def write_argfile(path: str | os.PathLike[str], items: Iterable[str]) -> str:
    """Write ``items`` one per line for ``hierbn … @path`` (argparse reads each line as one
    argument): tens of thousands of input paths would exceed the OS limit on a command line."""
    lines = [str(item) for item in items]
    bad = [item for item in lines if "\n" in item]
    if bad:
        raise ValueError(
            f"cannot pass a path with a line break through an argument file: {bad[0]!r}"
        )
    Path(path).write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return str(path)


def run_with_argfiles(job: Any) -> int:
    """Run a rule's ``hierbn`` command whose long input lists go through argument files: the
    body of ``workflow/scripts/hierbn_argfiles.py``, the ``script:`` of such rules (a claims
    step of a 30,000-cell run reads more paths than one command line holds).

    ``job`` is Snakemake's ``snakemake`` object: ``params.command`` is the command template
    (``hierbn …``, whose ``{argfiles.NAME}`` fields become ``@file`` for the input list
    ``NAME``, and whose ``{input.…}``, ``{output.…}``, ``{params.…}`` fields are the job's);
    ``params.argfiles`` names the input lists; the command's output goes to ``log[0]``.
    It runs in this process: a ``run:`` block would start a second Snakemake, which parses the
    whole workflow again (about 3.5 s a job)."""
    import tempfile
    from types import SimpleNamespace

    from hierbn.cli import main

    with tempfile.TemporaryDirectory(prefix="hierbn-argfiles.") as tmp:
        files = {
            name: "@" + write_argfile(Path(tmp) / f"{name}.txt", _listed(getattr(job.input, name)))
            for name in job.params.argfiles
        }
        command = job.params.command.format(
            argfiles=SimpleNamespace(**files), input=job.input, output=job.output, params=job.params
        )
        program, *argv = shlex.split(command)
        if program != "hierbn":
            raise ValueError(f"the command must start with hierbn: {command[:80]!r}")
        with open(job.log[0], "w") as log:
            # the command's output to the log: Python's and its libraries' alike
            os.dup2(log.fileno(), 1)
            os.dup2(log.fileno(), 2)
        return main(argv)


def _listed(paths: str | Iterable[str]) -> list[str]:
    """A named input as a list: one path (a string) or a list of them."""
    return [paths] if isinstance(paths, str) else list(paths)


def verbatim(text: str) -> Callable[[Any], str]:
    """A rule's params value that Snakemake passes as it is: it fills ``{…}`` fields of params
    strings with wildcards, and a command template's fields are filled by the job itself
    (:func:`run_with_argfiles`). Snakemake leaves a function's value alone."""

    def value(wildcards: Any) -> str:
        return text

    return value


def benchmark_of(output: str) -> str:
    """Benchmark file of the job whose first output is ``output`` (wildcards allowed): every
    rule's ``benchmark:`` follows this, so a study's wall time can be summed from its jobs."""
    return f"logs/benchmarks/{output}.tsv"


def config_hash(config: Mapping[str, Any], study: str) -> str:
    """Short hash of the effective config a study's numbers depend on (its section and seed)."""
    text = json.dumps({"seed": config["seed"], study: config[study]}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:10]


def source_commit(directory: str) -> str:
    """The checkout's commit (+dirty when tracked files differ), or 'unknown' outside git."""
    git = ["git", "-C", directory]
    head = subprocess.run([*git, "rev-parse", "--short=12", "HEAD"], capture_output=True, text=True)
    if head.returncode != 0:
        return "unknown (not a git checkout)"
    dirty = subprocess.run(
        [*git, "status", "--porcelain", "--untracked-files=no"], capture_output=True, text=True
    )
    return head.stdout.strip() + ("+dirty" if dirty.stdout.strip() else "")


def cached(command: str) -> str:
    """An expensive job's shell command run through the result cache (``hierbn cached``,
    :mod:`hierbn.result_cache`), keyed by its command, inputs and code (``params.code``)."""
    return (
        "hierbn cached --code {params.code} --inputs {input:q} --outputs {output:q} -- " + command
    )


def minutes(base: int) -> Callable[[Any, int], int]:
    """A rule's ``runtime`` resource (minutes) that doubles with each ``attempt``: a job a
    cluster stopped at its time limit (a busy node, a slow disk) gets twice the time when
    Snakemake retries it (the Slurm profile's ``retries``), so slowness is never failure."""

    def runtime(wildcards: Any, attempt: int) -> int:
        return base * 2 ** (attempt - 1)

    return runtime


def step_code(study: str, *steps: str) -> str:
    """The code key of a job of ``study`` whose command runs ``steps`` (modules of the
    study's package): every file of the imported ``hierbn`` (the one the jobs run) they can
    reach, with the command line (``hierbn.cli``, the study's ``cli``) as entry."""
    from hierbn.code_key import code_key

    return code_key(
        [f"hierbn.studies.{study}.{step}" for step in steps],
        ["hierbn.cli", f"hierbn.studies.{study}.cli"],
    )
