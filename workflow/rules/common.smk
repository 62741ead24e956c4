import json

from snakemake.utils import validate

from hierbn.data.registry import load_registry, study_datasets


validate(config, schema="../schemas/config.schema.yaml")

REGISTRY = load_registry(config["data"]["registry"])
STUDIES = ["azzimonti2019"]


wildcard_constraints:
    study="[a-z0-9]+",
    dataset="[A-Za-z0-9_.-]+",


def enabled_reports():
    """The report of every enabled study (the targets of rule all)."""
    return [f"results/{s}/report.html" for s in STUDIES if config[s]["enabled"]]


def registry_entry(wildcards):
    key = (wildcards.study, wildcards.dataset)
    if key not in REGISTRY:
        raise ValueError(
            f"{config['data']['registry']}: no data set {wildcards.dataset!r} for study {wildcards.study!r}"
        )
    return REGISTRY[key]


def raw_files(wildcards):
    """Raw file paths of every part of a registered data set."""
    return [f"resources/raw/{part.file}" for part in registry_entry(wildcards).parts]


def mirror_flags(wildcards):
    return " ".join(f"--mirror '{m}'" for m in config["data"]["mirrors"])


def as_json(section):
    """A config section as a shell-quoted JSON string for the hierbn CLI."""
    text = json.dumps(section, sort_keys=True)
    return "'" + text.replace("'", "'\\''") + "'"


def study_dataset_ids(study, selection):
    """Data-set ids of ``study``: all registered ones, or the configured list (validated)."""
    registered = [e.id for e in study_datasets(REGISTRY, study)]
    if selection == "all":
        return registered
    unknown = [d for d in selection if d not in registered]
    if unknown:
        raise ValueError(
            f"config {study}.e2.datasets: {unknown} are not in {config['data']['registry']} for {study}"
        )
    return list(selection)
