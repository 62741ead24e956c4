# petitjean2018: 5x2 CV (8 BNCs x {HDP, m-estimate}, the iteration x tying runs, RF) per data
# set or per (data set, round, fold, method) cell, learning curves, timings, Table 1, claims.
# Input functions live in common.smk.


rule pj_cv:
    input:
        "resources/datasets/petitjean2018/{dataset}.parquet",
    output:
        "results/petitjean2018/cv/{dataset}.parquet",
    log:
        "logs/petitjean2018/cv/{dataset}.log",
    priority: 1
    conda:
        "../../envs/hierbn.yaml"
    threads: 1
    params:
        config=as_json(PJ["cv"]),
        seed=config["seed"],
    shell:
        "hierbn petitjean2018 cv --canonical {input} --dataset {wildcards.dataset} "
        "--config {params.config} --seed {params.seed} --threads {threads} "
        "--out {output} > {log} 2>&1"


rule pj_cv_cell:
    input:
        "resources/datasets/petitjean2018/{dataset}.parquet",
    output:
        "results/petitjean2018/cv/{dataset}/r{round}f{fold}/{method}.parquet",
    log:
        "logs/petitjean2018/cv/{dataset}/r{round}f{fold}/{method}.log",
    wildcard_constraints:
        round=r"\d+",
        fold="[01]",
        method="[a-z0-9-]+",
    conda:
        "../../envs/hierbn.yaml"
    threads: 1
    params:
        config=as_json(PJ["cv"]),
        seed=config["seed"],
    shell:
        "hierbn petitjean2018 cv --canonical {input} --dataset {wildcards.dataset} "
        "--round {wildcards.round} --fold {wildcards.fold} --method {wildcards.method} "
        "--config {params.config} --seed {params.seed} --threads {threads} "
        "--out {output} > {log} 2>&1"


rule pj_learning_curve:
    input:
        "resources/datasets/petitjean2018/{dataset}.parquet",
    output:
        "results/petitjean2018/learning_curve/{dataset}/run{run}.parquet",
    log:
        "logs/petitjean2018/learning_curve/{dataset}/run{run}.log",
    wildcard_constraints:
        run=r"\d+",
    priority: 1
    conda:
        "../../envs/hierbn.yaml"
    threads: 1
    params:
        config=as_json(PJ["learning_curve"]),
        seed=config["seed"],
    shell:
        "hierbn petitjean2018 learning-curve --canonical {input} --dataset {wildcards.dataset} "
        "--run {wildcards.run} --config {params.config} --seed {params.seed} "
        "--threads {threads} --out {output} > {log} 2>&1"


rule pj_timing:
    input:
        "resources/datasets/petitjean2018/{dataset}.parquet",
    output:
        "results/petitjean2018/timing/{dataset}.parquet",
    log:
        "logs/petitjean2018/timing/{dataset}.log",
    priority: 1
    conda:
        "../../envs/hierbn.yaml"
    params:
        config=as_json(PJ["timing"]),
        seed=config["seed"],
    shell:
        "hierbn petitjean2018 timing --canonical {input} --dataset {wildcards.dataset} "
        "--config {params.config} --seed {params.seed} --out {output} > {log} 2>&1"


rule pj_splice:
    input:
        pj_splice_files,
    output:
        "results/petitjean2018/splice.parquet",
    log:
        "logs/petitjean2018/splice.log",
    conda:
        "../../envs/hierbn.yaml"
    threads: 1
    params:
        config=as_json(PJ["splice"]),
        seed=config["seed"],
    shell:
        "hierbn petitjean2018 splice --config {params.config} --seed {params.seed} "
        "--threads {threads} --out {output} > {log} 2>&1"


rule pj_table1:
    output:
        "results/petitjean2018/table1.parquet",
    log:
        "logs/petitjean2018/table1.log",
    conda:
        "../../envs/hierbn.yaml"
    params:
        config=as_json(PJ["table1"]),
        seed=config["seed"],
    shell:
        "hierbn petitjean2018 table1 --config {params.config} --seed {params.seed} "
        "--out {output} > {log} 2>&1"


rule pj_data_report:
    input:
        expand(
            "resources/datasets/petitjean2018/{dataset}.check.json",
            dataset=PJ_DATASETS,
        ),
    output:
        "results/petitjean2018/data_report.tsv",
    log:
        "logs/petitjean2018/data_report.log",
    conda:
        "../../envs/hierbn.yaml"
    shell:
        "hierbn data-report --checks {input} --out {output} > {log} 2>&1"


rule pj_claims:
    input:
        cv=pj_cv_tables,
        table1="results/petitjean2018/table1.parquet",
        learning_curve=pj_learning_curve_tables,
        timing=expand(
            "results/petitjean2018/timing/{dataset}.parquet",
            dataset=PJ_TIMING_DATASETS,
        ),
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
    conda:
        "../../envs/hierbn.yaml"
    params:
        config=as_json(PJ),
        splice=lambda wildcards: " ".join(pj_splice_tables(wildcards)),  # may be empty
    shell:
        "hierbn petitjean2018 claims --cv {input.cv} --table1 {input.table1} "
        "--learning-curve {input.learning_curve} --timing {input.timing} --splice {params.splice} "
        "--config {params.config} --out {output.claims} --table2 {output.table2} "
        "--table3 {output.table3} --iterations {output.iterations} --prior {output.prior} --all-cv {output.cv} "
        "--all-learning-curve {output.learning_curve} --all-timing {output.timing} "
        "> {log} 2>&1"
