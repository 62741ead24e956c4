import os
from pathlib import Path
from types import SimpleNamespace

from hierbn.config import validate_config
from hierbn.data.download import MIRRORS_VARIABLE, STALL_VARIABLE
from hierbn.data.registry import load_registry, study_datasets
from hierbn.result_cache import FOLDER_VARIABLE, STORE_VARIABLE
from hierbn.studies import STUDIES
from hierbn.workflow import (
    as_json,
    benchmark_of,
    cached,
    config_hash,
    flat_paths,
    minutes,
    paths,
    pick,
    source_commit,
    step_code,
    verbatim,
)

validate_config(config, Path(workflow.basedir) / "workflow" / "schemas", STUDIES)

REGISTRY = load_registry(config["data"]["registry"])
# Where fetch jobs look for raw files first. An environment variable, not a job param: the
# registry's sha256 fixes the bytes, so pointing at another mirror must rerun nothing.
os.environ[MIRRORS_VARIABLE] = os.pathsep.join(config["data"]["mirrors"])
os.environ[STALL_VARIABLE] = str(config["data"]["stall_seconds"])  # likewise
# The result cache likewise: turning it on restores outputs, it changes no job.
CACHE_FOLDER = config["result_cache"]["folder"]
os.environ[FOLDER_VARIABLE] = str(Path(CACHE_FOLDER).resolve()) if CACHE_FOLDER else ""
os.environ[STORE_VARIABLE] = "1" if config["result_cache"]["store"] else ""
ENABLED = [s for s in STUDIES if config[s]["enabled"]]


# What each study's rules file registers (keyed by study id): the named inputs its report
# notebook reads besides claims.json, the data sets of its data report, and the named inputs
# of its claims step (whose jobs' benchmarks make up the study's wall time on the scoreboard).
REPORT_INPUTS = {}
DATA_REPORT_DATASETS = {}
CLAIMS_INPUTS = {}
# Optional: the first outputs of a study's experiment jobs, when some claims inputs are a job's
# second output (their benchmark is the first output's); by default the claims inputs.
JOB_OUTPUTS = {}
# The script of the rules whose input lists go through argument files (hierbn.workflow.run_with_argfiles).
ARGFILES_SCRIPT = "../scripts/hierbn_argfiles.py"


wildcard_constraints:
    study="|".join(STUDIES),
    dataset="[A-Za-z0-9_.-]+",


def registry_entry(wildcards):
    key = (wildcards.study, wildcards.dataset)
    if key not in REGISTRY:
        raise ValueError(
            f"{config['data']['registry']}: no data set {wildcards.dataset!r} for study {wildcards.study!r}"
        )
    return REGISTRY[key]


def paper_rows(study, dataset):
    """The registry's paper_rows of a data set (how its CV is split into cluster jobs)."""
    return registry_entry(SimpleNamespace(study=study, dataset=dataset)).paper_rows


def raw_files(wildcards):
    """Raw file paths of every part of a registered data set."""
    return [f"resources/raw/{part.file}" for part in registry_entry(wildcards).parts]


def study_dataset_ids(study, selection):
    """Data-set ids of ``study``: all registered ones, or the configured list (validated)."""
    registered = [e.id for e in study_datasets(REGISTRY, study)]
    if selection == "all":
        return registered
    unknown = [d for d in selection if d not in registered]
    if unknown:
        raise ValueError(
            f"config {study} datasets: {unknown} are not in {config['data']['registry']} for {study}"
        )
    return list(selection)


def data_report_checks(wildcards):
    return [
        f"resources/datasets/{wildcards.study}/{dataset}.check.json"
        for dataset in DATA_REPORT_DATASETS[wildcards.study]
    ]


def report_inputs(wildcards):
    """claims.json plus the named tables the study registered for its notebook, and the
    study's committed reproduction record when there is one."""
    record = committed_record(wildcards.study)
    return {
        "claims": f"results/{wildcards.study}/claims.json",
        **REPORT_INPUTS[wildcards.study],
        **({"record": record} if record else {}),
    }


def staged_figures(wildcards):
    """Where a report's figures are drawn before they replace results/<study>/figures whole
    (a run killed mid-notebook leaves no half-filled figure folder behind)."""
    return f"results/{wildcards.study}/.figures.tmp"


def notebook_parameters(wildcards, input):
    """The papermill parameters (YAML, here JSON): the declared inputs and the figure folder."""
    inputs = {
        k: v if isinstance(v, str) else list(v)
        for k, v in input.items()
        if k != "notebook"
    }
    return as_json({"inputs": inputs, "figures_dir": staged_figures(wildcards)})


def study_benchmarks(wildcards):
    """Benchmark files of the study's experiment, claims and report jobs."""
    study = wildcards.study
    outputs = JOB_OUTPUTS.get(study) or flat_paths(CLAIMS_INPUTS[study])
    outputs = [
        *outputs,
        *(
            f"results/{study}/{name}"
            for name in ("claims.json", "report.ipynb", "report.html")
        ),
    ]
    return [benchmark_of(p) for p in outputs]


def scoreboard_inputs(wildcards):
    files = {
        "claims": "claims.json",
        "runtime": "runtime.json",
        "report": "report.html",
    }
    return {
        kind: [f"results/{s}/{name}" for s in ENABLED] for kind, name in files.items()
    } | {"records": [r for s in ENABLED if (r := committed_record(s))]}


def committed_record(study):
    """The study's committed reproduction record in this checkout, or None."""
    path = Path(workflow.basedir) / "reproduction" / f"{study}.json"
    return str(path) if path.is_file() else None


def scoreboard_run(wildcards):
    """What the page says of the run: config files (default first, then --configfile overlays,
    then --config keys), per-study config hashes, the commit."""
    overlays = [os.path.relpath(f) for f in workflow.overwrite_configfiles]
    files = [os.path.relpath(f) for f in workflow.configfiles]
    files = [f for f in files if f not in overlays] + overlays
    overrides = sorted(workflow.config_settings.config)
    return as_json(
        {
            "config_files": files
            + ([f"--config {', '.join(overrides)}"] if overrides else []),
            "config_hash": {s: config_hash(config, s) for s in ENABLED},
            "commit": source_commit(workflow.basedir),
        }
    )
