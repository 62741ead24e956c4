import json
import shlex

from snakemake.utils import validate

from hierbn.data.registry import load_registry, study_datasets

validate(config, schema="../schemas/config.schema.yaml")

REGISTRY = load_registry(config["data"]["registry"])
STUDIES = ["azzimonti2019", "beal2006", "petitjean2018"]


# Short or network-bound jobs run on the submitting host under a cluster executor.
localrules:
    fetch_raw,
    azz_data_report,
    pj_data_report,
    render_report,


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
    return " ".join(f"--mirror {shlex.quote(m)}" for m in config["data"]["mirrors"])


def as_json(section):
    """A config section as a shell-quoted JSON string for the hierbn CLI."""
    return shlex.quote(json.dumps(section, sort_keys=True))


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


# ----------------------------------------------------------------- azzimonti2019
AZZ = config["azzimonti2019"]
AZZ_E2_DATASETS = study_dataset_ids("azzimonti2019", AZZ["e2"]["datasets"])


def azz_e1_tables(wildcards):
    return expand(
        "results/azzimonti2019/e1/x{n_x}_y{n_y}.parquet",
        n_x=AZZ["e1"]["n_x"],
        n_y=AZZ["e1"]["n_y"],
    )


def azz_e1_stan(wildcards):
    needs_stan = {"nuts", "advi"} & set(AZZ["e1"]["methods"])
    return {"stan": "resources/stan/hier_md.json"} if needs_stan else {}


def azz_e1_stan_flag(wildcards, input):
    return f"--stan {input.stan}" if "stan" in input.keys() else ""


def azz_e3_tables(wildcards):
    return ["results/azzimonti2019/e3/adult.parquet"] if AZZ["e3"]["enabled"] else []


def azz_checks(wildcards):
    ids = sorted(set(AZZ_E2_DATASETS) | ({"adult"} if AZZ["e3"]["enabled"] else set()))
    return expand("resources/datasets/azzimonti2019/{dataset}.check.json", dataset=ids)


# ---------------------------------------------------------------------- beal2006
BEAL = config["beal2006"]
BEAL_COMMON = {k: BEAL[k] for k in ("reading", "zero_floor")}
BEAL_SCORES_CONFIG = {
    **BEAL_COMMON,
    **{k: BEAL[k] for k in ("restarts", "vb_from_cs", "exact_max_n")},
}
BEAL_AIS_CONFIG = {
    **BEAL_COMMON,
    **{k: BEAL["ais"][k] for k in ("steps", "strength", "e_tau")},
}


def beal_score_tables(wildcards):
    return expand(
        "results/beal2006/scores/i{instance}_n{n}.parquet",
        instance=range(BEAL["instances"] + 1),
        n=BEAL["sizes"],
    )


def beal_ais_tables(wildcards):
    return expand(
        "results/beal2006/ais/n{n}_g{run}.parquet",
        n=BEAL["ais"]["sizes"],
        run=range(BEAL["ais"]["runs"]),
    )


# ----------------------------------------------------------------- petitjean2018
PJ = config["petitjean2018"]
PJ_DATASETS = study_dataset_ids("petitjean2018", PJ["datasets"])
PJ_LC_DATASETS = study_dataset_ids("petitjean2018", PJ["learning_curve"]["datasets"])
PJ_TIMING_DATASETS = study_dataset_ids("petitjean2018", PJ["timing"]["datasets"])


def pj_cv_tables(wildcards):
    """CV result tables: one per data set, or one per (data set, round, fold, method) cell
    when ``cv.jobs: cell`` spreads the work over a cluster."""
    if PJ["cv"]["jobs"] == "dataset":
        return expand("results/petitjean2018/cv/{dataset}.parquet", dataset=PJ_DATASETS)
    from hierbn.studies.petitjean2018.protocol import cv_methods

    return expand(
        "results/petitjean2018/cv/{dataset}/r{round}f{fold}/{method}.parquet",
        dataset=PJ_DATASETS,
        round=range(PJ["cv"]["rounds"]),
        fold=(0, 1),
        method=cv_methods(PJ["cv"]),
    )


def pj_splice_tables(wildcards):
    """The optional Splice run (E11) when enabled."""
    return ["results/petitjean2018/splice.parquet"] if PJ["splice"]["enabled"] else []


def pj_splice_files(wildcards):
    cfg = PJ["splice"]
    return [
        cfg[f"{part}_{kind}"]
        for part in ("train", "test")
        for kind in ("sequences", "labels")
    ]


def pj_learning_curve_tables(wildcards):
    return expand(
        "results/petitjean2018/learning_curve/{dataset}/run{run}.parquet",
        dataset=PJ_LC_DATASETS,
        run=range(PJ["learning_curve"]["runs"]),
    )


# ------------------------------------------------------------------------ report
def report_inputs(wildcards):
    study = wildcards.study
    inputs = {"claims": f"results/{study}/claims.json"}
    if study == "azzimonti2019":
        inputs["data_report"] = "results/azzimonti2019/data_report.tsv"
    if study == "beal2006":
        inputs["table2"] = "results/beal2006/table2.parquet"
    if study == "petitjean2018":
        inputs["data_report"] = "results/petitjean2018/data_report.tsv"
        inputs["iterations"] = "results/petitjean2018/iterations.parquet"
    return inputs
