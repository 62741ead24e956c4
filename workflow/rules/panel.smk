# panel: every CPT estimator on every BN classifier structure, on identical stratified 5x2 CV
# folds of the registry's shared data sets and the user's own files (panel.datasets), learning
# curves, then ranks, Friedman/Nemenyi and win/draw/loss tests and the claims. One job per data
# set, or per (data set, round, fold, structure, estimator) under cv.jobs: cell. Which config
# values each job reads: hierbn.studies.panel.workflow.

from hierbn.studies.panel import workflow as pn

PN = config["panel"]
PN_DATASETS = pn.dataset_entries(PN)

CLAIMS_INPUTS["panel"] = pn.claims_inputs(
    PN,
    list(PN_DATASETS),
    {
        d: paper_rows(*pn.source_parts(entry))
        for d, entry in PN_DATASETS.items()
        if "source" in entry
    },
)
REPORT_INPUTS["panel"] = pn.report_inputs()


rule panel_prepare:
    input:
        lambda wildcards: pn.prepare_input(PN_DATASETS[wildcards.dataset]),
    output:
        data="resources/panel/{dataset}.parquet",
        check="resources/panel/{dataset}.check.json",
    log:
        "logs/panel/prepare/{dataset}.log",
    benchmark:
        benchmark_of("resources/panel/{dataset}.parquet")
    conda:
        "../../envs/hierbn.yaml"
    resources:
        mem_mb=1000,  # largest RSS of 41 paper jobs 137 MB x 1.5, floor 1000
        runtime=minutes(10),  # min; longest of 41 paper jobs 1 s x 2, floor 10
    params:
        entry=lambda wildcards: pn.prepare_params(PN_DATASETS[wildcards.dataset]),
        seed=config["seed"],
    shell:
        "hierbn panel prepare --input {input:q} --dataset {wildcards.dataset} "
        "--config {params.entry} --seed {params.seed} --out {output.data} "
        "--check {output.check} > {log} 2>&1"


# the panel's data sets come from several studies and the user: its own data report (the shared
# one compares a study's data sets with its paper's table)
rule panel_data_report:
    input:
        expand("resources/panel/{dataset}.check.json", dataset=list(PN_DATASETS)),
    output:
        "results/panel/data_sets.tsv",
    log:
        "logs/panel/data_report.log",
    benchmark:
        benchmark_of("results/panel/data_sets.tsv")
    conda:
        "../../envs/hierbn.yaml"
    resources:
        mem_mb=1000,  # floor; reads one small JSON per data set
        runtime=minutes(10),  # min; floor (smoke: 2 s)
    shell:
        "hierbn panel data-report --checks {input} --out {output} > {log} 2>&1"


rule panel_cv:
    input:
        "resources/panel/{dataset}.parquet",
    output:
        "results/panel/cv/{dataset}.parquet",
    log:
        "logs/panel/cv/{dataset}.log",
    benchmark:
        benchmark_of("results/panel/cv/{dataset}.parquet")
    priority: 1
    conda:
        "../../envs/hierbn.yaml"
    threads: 1
    resources:
        mem_mb=1000,  # 41 jobs at 1,000 HDP/HiDDeN iterations: largest RSS 616 MB x 1.5, floor 1000
        runtime=minutes(480),  # min; longest of those 41 jobs 448 s (letter); not measured at the paper's 50,000 HDP iterations (the paper config runs data sets under 2,000 rows here: 4 sampled rounds took 10-183 s, so about 15 min for 5)
    params:
        code=step_code("panel", "protocol"),
        config=as_json(pn.cv_config(PN)),
        seed=config["seed"],
    shell:
        cached(
            "hierbn panel cv --data {input} --dataset {wildcards.dataset} "
            "--config {params.config} --seed {params.seed} --threads {threads} "
            "--out {output} > {log} 2>&1"
        )


rule panel_cv_round:
    input:
        "resources/panel/{dataset}.parquet",
    output:
        "results/panel/cv/{dataset}/r{round}.parquet",
    log:
        "logs/panel/cv/{dataset}/r{round}.log",
    benchmark:
        benchmark_of("results/panel/cv/{dataset}/r{round}.parquet")
    wildcard_constraints:
        round=r"\d+",
    priority: 1
    conda:
        "../../envs/hierbn.yaml"
    threads: 1
    resources:
        mem_mb=2500,  # Adult's rounds at 5,000 HDP / 2,000 HiDDeN iterations peaked at 1,373 MB (x 1.5, raised for shuttle's 58,000 rows, not yet measured); chain length does not change it
        runtime=minutes(180),  # min; the sampled round of a data set of 2,000 rows or more (nursery) took 157 s; not measured on Letter, whose kDB-3 HDP cell alone took 302 s, of 84 cells per round
    params:
        code=step_code("panel", "protocol"),
        config=as_json(pn.cv_config(PN)),
        seed=config["seed"],
    shell:
        cached(
            "hierbn panel cv --data {input} --dataset {wildcards.dataset} "
            "--round {wildcards.round} --config {params.config} --seed {params.seed} "
            "--threads {threads} --out {output} > {log} 2>&1"
        )


rule panel_cv_cell:
    input:
        "resources/panel/{dataset}.parquet",
    output:
        "results/panel/cv/{dataset}/r{round}f{fold}/{structure}/{estimator}.parquet",
    log:
        "logs/panel/cv/{dataset}/r{round}f{fold}/{structure}/{estimator}.log",
    benchmark:
        benchmark_of(
            "results/panel/cv/{dataset}/r{round}f{fold}/{structure}/{estimator}.parquet"
        )
    wildcard_constraints:
        round=r"\d+",
        fold="[01]",
        structure="[a-z0-9]+",
        estimator="[a-z0-9.]+",
    conda:
        "../../envs/hierbn.yaml"
    threads: 1
    resources:
        mem_mb=1000,  # largest RSS of 18 paper jobs 342 MB x 1.5, floor 1000
        runtime=minutes(20),  # min; longest of 18 paper jobs 302 s (letter kDB-3 HDP) x 2, raised: the largest HDP fit at 1,000 iterations (8.5 s, SkDB) x 50 = 425 s
    params:
        code=step_code("panel", "protocol"),
        config=pn.CellParams(PN),
        seed=config["seed"],
    shell:
        cached(
            "hierbn panel cv --data {input} --dataset {wildcards.dataset} "
            "--round {wildcards.round} --fold {wildcards.fold} "
            "--structure {wildcards.structure} --estimator {wildcards.estimator} "
            "--config {params.config} --seed {params.seed} --threads {threads} "
            "--out {output} > {log} 2>&1"
        )


rule panel_learning_curve:
    input:
        "resources/panel/{dataset}.parquet",
    output:
        "results/panel/learning_curve/{dataset}/run{run}.parquet",
    log:
        "logs/panel/learning_curve/{dataset}/run{run}.log",
    benchmark:
        benchmark_of("results/panel/learning_curve/{dataset}/run{run}.parquet")
    wildcard_constraints:
        run=r"\d+",
    priority: 1
    conda:
        "../../envs/hierbn.yaml"
    threads: 1
    resources:
        mem_mb=1000,  # 5 jobs at 1,000 HDP/HiDDeN iterations: largest RSS 421 MB x 1.5, floor 1000
        runtime=minutes(120),  # min; not measured at paper scale: longest of those 5 jobs 68 s (letter), HDP about 50x slower at 50,000 iterations
    params:
        code=step_code("panel", "protocol"),
        config=as_json(pn.curve_config(PN)),
        seed=config["seed"],
    shell:
        cached(
            "hierbn panel learning-curve --data {input} --dataset {wildcards.dataset} "
            "--run {wildcards.run} --config {params.config} --seed {params.seed} "
            "--threads {threads} --out {output} > {log} 2>&1"
        )


rule panel_claims:
    input:
        **CLAIMS_INPUTS["panel"],
    output:
        claims="results/panel/claims.json",
        ranks="results/panel/ranks.parquet",
        friedman="results/panel/friedman.parquet",
        nemenyi="results/panel/nemenyi.parquet",
        wdl="results/panel/wdl.parquet",
        cv="results/panel/cv.parquet",
        learning_curve="results/panel/learning_curve.parquet",
    log:
        "logs/panel/claims.log",
    benchmark:
        benchmark_of("results/panel/claims.json")
    conda:
        "../../envs/hierbn.yaml"
    resources:
        mem_mb=1200,  # 41 data sets x 10 splits (as the paper config) in 41 tables: RSS 784 MB x 1.5; the paper's 17,220 cell tables not measured
        runtime=minutes(10),  # min; the same run: 4 s x 2, floor 10
    params:
        config=as_json(pn.analysis_config(PN)),
        scale=as_json(pn.run_scale(PN)),
        command=verbatim(
            "hierbn panel claims --cv {argfiles.cv} "
            "--learning-curve {argfiles.learning_curve} --config {params.config} "
            "--scale {params.scale} --out {output.claims} --ranks {output.ranks} "
            "--friedman {output.friedman} --nemenyi {output.nemenyi} --wdl {output.wdl} "
            "--all-cv {output.cv} --all-learning-curve {output.learning_curve}"
        ),
        argfiles=["cv", "learning_curve"],
    script:
        ARGFILES_SCRIPT
