# petitjean2018: 5x2 CV per data set (8 BNCs x {HDP, m-estimate} + RF), Table 1, claims.
# Input functions live in common.smk.


rule pj_cv:
    input:
        "resources/datasets/petitjean2018/{dataset}.parquet",
    output:
        "results/petitjean2018/cv/{dataset}.parquet",
    log:
        "logs/petitjean2018/cv/{dataset}.log",
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
        cv=expand("results/petitjean2018/cv/{dataset}.parquet", dataset=PJ_DATASETS),
        table1="results/petitjean2018/table1.parquet",
    output:
        claims="results/petitjean2018/claims.json",
        table2="results/petitjean2018/table2.parquet",
        table3="results/petitjean2018/table3.parquet",
    log:
        "logs/petitjean2018/claims.log",
    conda:
        "../../envs/hierbn.yaml"
    shell:
        "hierbn petitjean2018 claims --cv {input.cv} --table1 {input.table1} "
        "--out {output.claims} --table2 {output.table2} --table3 {output.table3} > {log} 2>&1"
