# azzimonti2019: E1 (simulated CPTs), Lemma 1, E2 (TAN on Table B.1), E3 (Adult CPT MSE).
# Input functions live in common.smk.


rule azz_e1_cell:
    input:
        unpack(azz_e1_stan),
    output:
        "results/azzimonti2019/e1/x{n_x}_y{n_y}.parquet",
    log:
        "logs/azzimonti2019/e1/x{n_x}_y{n_y}.log",
    priority: 10  # long jobs start first, so --cores N finishes sooner
    conda:
        "../../envs/hierbn.yaml"
    threads: 1
    params:
        config=as_json(AZZ["e1"]),
        seed=config["seed"],
        stan=azz_e1_stan_flag,
    shell:
        "hierbn azzimonti2019 e1 --n-x {wildcards.n_x} --n-y {wildcards.n_y} "
        "--config {params.config} {params.stan} --seed {params.seed} "
        "--threads {threads} --out {output} > {log} 2>&1"


rule azz_lemma1:
    output:
        "results/azzimonti2019/lemma1.parquet",
    log:
        "logs/azzimonti2019/lemma1.log",
    conda:
        "../../envs/hierbn.yaml"
    params:
        config=as_json(AZZ["lemma1"]),
        seed=config["seed"],
    shell:
        "hierbn azzimonti2019 lemma1 --config {params.config} --seed {params.seed} "
        "--out {output} > {log} 2>&1"


rule azz_prepare:
    input:
        "resources/datasets/azzimonti2019/{dataset}.parquet",
    output:
        data="results/azzimonti2019/prepared/{dataset}.parquet",
        cuts="results/azzimonti2019/prepared/{dataset}.cuts.json",
    log:
        "logs/azzimonti2019/prepare/{dataset}.log",
    conda:
        "../../envs/hierbn.yaml"
    params:
        n_bins=AZZ["e2"]["n_bins"],
    shell:
        "hierbn azzimonti2019 prepare --canonical {input} --n-bins {params.n_bins} "
        "--out {output.data} --cuts {output.cuts} > {log} 2>&1"


rule azz_e2_dataset:
    input:
        "results/azzimonti2019/prepared/{dataset}.parquet",
    output:
        "results/azzimonti2019/e2/{dataset}.parquet",
    log:
        "logs/azzimonti2019/e2/{dataset}.log",
    conda:
        "../../envs/hierbn.yaml"
    threads: 1
    params:
        config=as_json(AZZ["e2"]),
        seed=config["seed"],
    shell:
        "hierbn azzimonti2019 e2 --prepared {input} --dataset {wildcards.dataset} "
        "--config {params.config} --seed {params.seed} --threads {threads} "
        "--out {output} > {log} 2>&1"


rule azz_e3_adult:
    input:
        "results/azzimonti2019/prepared/adult.parquet",
    output:
        "results/azzimonti2019/e3/adult.parquet",
    log:
        "logs/azzimonti2019/e3.log",
    conda:
        "../../envs/hierbn.yaml"
    threads: 1
    params:
        config=as_json(AZZ["e3"]),
        seed=config["seed"],
    shell:
        "hierbn azzimonti2019 e3 --prepared {input} --config {params.config} "
        "--seed {params.seed} --threads {threads} --out {output} > {log} 2>&1"


rule azz_data_report:
    input:
        azz_checks,
    output:
        "results/azzimonti2019/data_report.tsv",
    log:
        "logs/azzimonti2019/data_report.log",
    conda:
        "../../envs/hierbn.yaml"
    shell:
        "hierbn data-report --checks {input} --out {output} > {log} 2>&1"


rule azz_claims:
    input:
        e1=azz_e1_tables,
        lemma1="results/azzimonti2019/lemma1.parquet",
        e2=expand("results/azzimonti2019/e2/{dataset}.parquet", dataset=AZZ_E2_DATASETS),
        e3=azz_e3_tables,
    output:
        claims="results/azzimonti2019/claims.json",
        e2_summary="results/azzimonti2019/e2_summary.parquet",
    log:
        "logs/azzimonti2019/claims.log",
    conda:
        "../../envs/hierbn.yaml"
    shell:
        "hierbn azzimonti2019 claims --e1 {input.e1} --lemma1 {input.lemma1} "
        "--e2 {input.e2} --e3 {input.e3} --out {output.claims} "
        "--e2-summary {output.e2_summary} > {log} 2>&1"
