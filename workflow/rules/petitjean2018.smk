# petitjean2018: 5x2 CV (8 BNCs x {HDP, m-estimate}, the iteration x tying runs, RF) per data
# set or per (data set, round, fold, method) cell, learning curves, timings, Table 1, the
# optional Splice run, claims. Which tables and config values each step reads:
# hierbn.studies.petitjean2018.workflow.

from functools import partial

from hierbn.studies.petitjean2018 import workflow as pj

PJ = config["petitjean2018"]
PJ_DATASETS = study_dataset_ids("petitjean2018", PJ["datasets"])

CLAIMS_INPUTS["petitjean2018"] = pj.claims_inputs(
    PJ,
    PJ_DATASETS,
    study_dataset_ids("petitjean2018", PJ["learning_curve"]["datasets"]),
    study_dataset_ids("petitjean2018", PJ["timing"]["datasets"]),
    {d: paper_rows("petitjean2018", d) for d in PJ_DATASETS},
)
REPORT_INPUTS["petitjean2018"] = pj.report_inputs(PJ)
DATA_REPORT_DATASETS["petitjean2018"] = PJ_DATASETS


rule pj_cv:
    input:
        "resources/datasets/petitjean2018/{dataset}.parquet",
    output:
        "results/petitjean2018/cv/{dataset}.parquet",
    log:
        "logs/petitjean2018/cv/{dataset}.log",
    benchmark:
        benchmark_of("results/petitjean2018/cv/{dataset}.parquet")
    priority: 1
    conda:
        "../../envs/hierbn.yaml"
    threads: 1  # raise on a larger machine: a classifier's HDP trees run in parallel threads
    resources:
        mem_mb=1000,  # largest RSS of 4 paper rounds of data sets under 2,000 rows 351 MB x 1.5, floor 1000 (the paper config's pj_cv jobs); raise it for jobs: dataset on Adult
        runtime=minutes(480),  # min; not measured as one job: the paper config runs data sets under 2,000 rows here, whose 4 measured rounds took 10-49 s (x 5 rounds x 2 = 8 min), raised for the larger ones among them
    params:
        code=step_code("petitjean2018", "protocol"),
        config=as_json(pj.cv_config(PJ)),
        seed=config["seed"],
    shell:
        cached(
            "hierbn petitjean2018 cv --canonical {input} --dataset {wildcards.dataset} "
            "--config {params.config} --seed {params.seed} --threads {threads} "
            "--out {output} > {log} 2>&1"
        )


rule pj_cv_round:
    input:
        "resources/datasets/petitjean2018/{dataset}.parquet",
    output:
        "results/petitjean2018/cv/{dataset}/r{round}.parquet",
    log:
        "logs/petitjean2018/cv/{dataset}/r{round}.log",
    benchmark:
        benchmark_of("results/petitjean2018/cv/{dataset}/r{round}.parquet")
    wildcard_constraints:
        round=r"\d+",
    priority: 1
    conda:
        "../../envs/hierbn.yaml"
    threads: 1
    resources:
        mem_mb=1100,  # every round of the recorded run (22 data sets, chains of 1,000): largest RSS 686 MB (Adult) x 1.5; chain length does not change it
        runtime=minutes(480),  # min; estimated: that run's rounds with each HDP cell x 50 (one Adult kDB-5 network: x 42 from 1,000 to 50,000) give at most about 1.9 h (splice) x 2, raised as not measured whole
    params:
        code=step_code("petitjean2018", "protocol"),
        config=as_json(pj.cv_config(PJ)),
        seed=config["seed"],
    shell:
        cached(
            "hierbn petitjean2018 cv --canonical {input} --dataset {wildcards.dataset} "
            "--round {wildcards.round} --config {params.config} --seed {params.seed} "
            "--threads {threads} --out {output} > {log} 2>&1"
        )


rule pj_cv_cell:
    input:
        "resources/datasets/petitjean2018/{dataset}.parquet",
    output:
        "results/petitjean2018/cv/{dataset}/r{round}f{fold}/{method}.parquet",
    log:
        "logs/petitjean2018/cv/{dataset}/r{round}f{fold}/{method}.log",
    benchmark:
        benchmark_of(
            "results/petitjean2018/cv/{dataset}/r{round}f{fold}/{method}.parquet"
        )
    wildcard_constraints:
        round=r"\d+",
        fold="[01]",
        method="[a-z0-9-]+",
    conda:
        "../../envs/hierbn.yaml"
    threads: 1
    resources:
        mem_mb=1200,  # largest RSS of 33 paper jobs 741 MB x 1.5
        runtime=minutes(60),  # min; longest of 33 paper jobs 666 s x 2, raised: 33 of 31,020 measured
    params:
        code=step_code("petitjean2018", "protocol"),
        config=pj.CellParams(PJ["cv"]),
        seed=config["seed"],
    shell:
        cached(
            "hierbn petitjean2018 cv --canonical {input} --dataset {wildcards.dataset} "
            "--round {wildcards.round} --fold {wildcards.fold} --method {wildcards.method} "
            "--config {params.config} --seed {params.seed} --threads {threads} "
            "--out {output} > {log} 2>&1"
        )


rule pj_learning_curve:
    input:
        "resources/datasets/petitjean2018/{dataset}.parquet",
    output:
        "results/petitjean2018/learning_curve/{dataset}/run{run}.parquet",
    log:
        "logs/petitjean2018/learning_curve/{dataset}/run{run}.log",
    benchmark:
        benchmark_of("results/petitjean2018/learning_curve/{dataset}/run{run}.parquet")
    wildcard_constraints:
        run=r"\d+",
    priority: 1
    conda:
        "../../envs/hierbn.yaml"
    threads: 1
    resources:
        mem_mb=1100,  # largest RSS of 7 paper jobs 710 MB x 1.5
        runtime=minutes(23),  # min; longest of 7 paper jobs 666 s x 2
    params:
        code=step_code("petitjean2018", "protocol"),
        config=pick(PJ["learning_curve"], "sizes", "structures", "backoff", "hdp"),
        seed=config["seed"],
    shell:
        cached(
            "hierbn petitjean2018 learning-curve --canonical {input} --dataset {wildcards.dataset} "
            "--run {wildcards.run} --config {params.config} --seed {params.seed} "
            "--threads {threads} --out {output} > {log} 2>&1"
        )


rule pj_timing:
    input:
        "resources/datasets/petitjean2018/{dataset}.parquet",
    output:
        "results/petitjean2018/timing/{dataset}.parquet",
    log:
        "logs/petitjean2018/timing/{dataset}.log",
    benchmark:
        benchmark_of("results/petitjean2018/timing/{dataset}.parquet")
    priority: 1
    conda:
        "../../envs/hierbn.yaml"
    resources:
        mem_mb=3100,  # largest RSS of 2 paper jobs 2,009 MB x 1.5
        runtime=minutes(41),  # min; longest of 2 paper jobs 1,217 s x 2
    params:
        code=step_code("petitjean2018", "protocol"),
        config=pick(PJ["timing"], "structures", "iterations", "tying", "prior"),
        seed=config["seed"],
    shell:
        cached(
            "hierbn petitjean2018 timing --canonical {input} --dataset {wildcards.dataset} "
            "--config {params.config} --seed {params.seed} --out {output} > {log} 2>&1"
        )


rule pj_splice:
    input:
        partial(pj.splice_files, PJ),
    output:
        "results/petitjean2018/splice.parquet",
    log:
        "logs/petitjean2018/splice.log",
    benchmark:
        benchmark_of("results/petitjean2018/splice.parquet")
    conda:
        "../../envs/hierbn.yaml"
    threads: 1
    resources:
        mem_mb=16000,  # not measured: 1M training windows of 141 positions
        runtime=minutes(1440),  # min; not measured (optional, decision §E11: data not mirrored)
    params:
        code=step_code("petitjean2018", "protocol"),
        config=as_json(pj.splice_config(PJ)),
        seed=config["seed"],
    shell:
        cached(
            "hierbn petitjean2018 splice --config {params.config} --seed {params.seed} "
            "--threads {threads} --out {output} > {log} 2>&1"
        )


rule pj_table1:
    output:
        "results/petitjean2018/table1.parquet",
    log:
        "logs/petitjean2018/table1.log",
    benchmark:
        benchmark_of("results/petitjean2018/table1.parquet")
    conda:
        "../../envs/hierbn.yaml"
    resources:
        mem_mb=1000,  # largest RSS of 1 paper job 318 MB x 1.5, floor 1000
        runtime=minutes(10),  # min; longest of 1 paper job 2 s x 2, floor 10
    params:
        code=step_code("petitjean2018", "protocol"),
        config=pick(PJ["table1"], "iterations", "seeds"),
        seed=config["seed"],
    shell:
        cached(
            "hierbn petitjean2018 table1 --config {params.config} --seed {params.seed} "
            "--out {output} > {log} 2>&1"
        )


rule pj_claims:
    input:
        **CLAIMS_INPUTS["petitjean2018"],
    output:
        claims="results/petitjean2018/claims.json",
        table2="results/petitjean2018/table2.parquet",
        table3="results/petitjean2018/table3.parquet",
        iterations="results/petitjean2018/iterations.parquet",
        prior="results/petitjean2018/prior.parquet",
        cv="results/petitjean2018/cv.parquet",
        learning_curve="results/petitjean2018/learning_curve.parquet",
        timing="results/petitjean2018/timing.parquet",
    log:
        "logs/petitjean2018/claims.log",
    benchmark:
        benchmark_of("results/petitjean2018/claims.json")
    conda:
        "../../envs/hierbn.yaml"
    resources:
        mem_mb=8000,  # not measured at paper scale (smoke: 704 MB); reads 31,020 cells' rows
        runtime=minutes(60),  # min; not measured at paper scale (smoke: 3 s)
    params:
        config=as_json(pj.claims_config(PJ, study_dataset_ids("petitjean2018", "all"))),
        scale=as_json(pj.run_scale(PJ, PJ_DATASETS)),
        command=verbatim(
            "hierbn petitjean2018 claims --cv {argfiles.cv} --table1 {input.table1} "
            "--learning-curve {argfiles.learning_curve} --timing {input.timing} "
            "--splice {input.splice} --config {params.config} --scale {params.scale} "
            "--out {output.claims} --table2 {output.table2} --table3 {output.table3} "
            "--iterations {output.iterations} --prior {output.prior} --all-cv {output.cv} "
            "--all-learning-curve {output.learning_curve} --all-timing {output.timing}"
        ),
        argfiles=["cv", "learning_curve"],
    script:
        ARGFILES_SCRIPT
