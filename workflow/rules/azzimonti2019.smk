# azzimonti2019: E1 (simulated CPTs), Lemma 1, E2 (TAN on Table B.1), E3 (Adult CPT MSE),
# E4 (Adult computing time), E5 (multi-domain classification on the synthetic generator).
# Which tables each step reads: hierbn.studies.azzimonti2019.workflow.

from hierbn.studies.azzimonti2019 import workflow as azz

AZZ = config["azzimonti2019"]
AZZ_E2_DATASETS = study_dataset_ids("azzimonti2019", AZZ["e2"]["datasets"])
AZZ_STAN = {"stan": azz.STAN_MARKER} if azz.needs_stan(AZZ) else {}
AZZ_E4_STAN = {"stan": azz.STAN_MARKER} if azz.e4_needs_stan(AZZ) else {}

CLAIMS_INPUTS["azzimonti2019"] = azz.claims_inputs(AZZ, AZZ_E2_DATASETS)
REPORT_INPUTS["azzimonti2019"] = azz.report_inputs(AZZ, AZZ_E2_DATASETS)
DATA_REPORT_DATASETS["azzimonti2019"] = azz.data_report_datasets(AZZ, AZZ_E2_DATASETS)


rule azz_e1_cell:
    input:
        **AZZ_STAN,
    output:
        "results/azzimonti2019/e1/x{n_x}_y{n_y}.parquet",
    log:
        "logs/azzimonti2019/e1/x{n_x}_y{n_y}.log",
    benchmark:
        benchmark_of("results/azzimonti2019/e1/x{n_x}_y{n_y}.parquet")
    priority: 10  # long jobs start first, so --cores N finishes sooner
    conda:
        "../../envs/hierbn.yaml"
    threads: 1  # serial numba kernels + sequential Stan chains
    resources:
        mem_mb=1300,  # largest RSS of 6 paper jobs 849 MB x 1.5
        runtime=minutes(60),  # min; longest of 6 paper jobs 1,086 s x 2, raised: a busy x6_y6 took 1,625 s
    params:
        code=step_code("azzimonti2019", "protocol"),
        config=pick(AZZ["e1"], "n", "reps", "methods", "exact_max_n", "nuts"),
        seed=config["seed"],
        stan=f"--stan {azz.STAN_MARKER}" if AZZ_STAN else "",
    shell:
        cached(
            "hierbn azzimonti2019 e1 --n-x {wildcards.n_x} --n-y {wildcards.n_y} "
            "--config {params.config} {params.stan} --seed {params.seed} "
            "--threads {threads} --out {output} > {log} 2>&1"
        )


rule azz_lemma1:
    output:
        "results/azzimonti2019/lemma1.parquet",
    log:
        "logs/azzimonti2019/lemma1.log",
    benchmark:
        benchmark_of("results/azzimonti2019/lemma1.parquet")
    conda:
        "../../envs/hierbn.yaml"
    resources:
        mem_mb=1000,  # largest RSS of 1 paper job 405 MB x 1.5, floor 1000
        runtime=minutes(10),  # min; longest of 1 paper job 10 s x 2, floor 10
    params:
        code=step_code("azzimonti2019", "protocol"),
        config=pick(AZZ["lemma1"], "settings", "draws"),
        seed=config["seed"],
    shell:
        cached(
            "hierbn azzimonti2019 lemma1 --config {params.config} --seed {params.seed} "
            "--out {output} > {log} 2>&1"
        )


rule azz_prepare:
    input:
        "resources/datasets/azzimonti2019/{dataset}.parquet",
    output:
        data="resources/azzimonti2019/prepared/{dataset}.parquet",
        cuts="resources/azzimonti2019/prepared/{dataset}.cuts.json",
    log:
        "logs/azzimonti2019/prepare/{dataset}.log",
    benchmark:
        benchmark_of("resources/azzimonti2019/prepared/{dataset}.parquet")
    conda:
        "../../envs/hierbn.yaml"
    resources:
        mem_mb=1000,  # largest RSS of 56 paper jobs 374 MB x 1.5, floor 1000
        runtime=minutes(10),  # min; longest of 56 paper jobs 6 s x 2, floor 10
    params:
        n_bins=AZZ["e2"]["n_bins"],
    shell:
        "hierbn azzimonti2019 prepare --canonical {input} --n-bins {params.n_bins} "
        "--out {output.data} --cuts {output.cuts} > {log} 2>&1"


rule azz_e2_dataset:
    input:
        "resources/azzimonti2019/prepared/{dataset}.parquet",
    output:
        "results/azzimonti2019/e2/{dataset}.parquet",
    log:
        "logs/azzimonti2019/e2/{dataset}.log",
    benchmark:
        benchmark_of("results/azzimonti2019/e2/{dataset}.parquet")
    conda:
        "../../envs/hierbn.yaml"
    threads: 1
    resources:
        mem_mb=1000,  # largest RSS of 56 paper jobs 378 MB x 1.5, floor 1000
        runtime=minutes(10),  # min; longest of 56 paper jobs 15 s x 2, floor 10
    params:
        code=step_code("azzimonti2019", "protocol"),
        config=pick(AZZ["e2"], "n", "reps", "test_size", "methods", "root_estimator"),
        seed=config["seed"],
    shell:
        cached(
            "hierbn azzimonti2019 e2 --prepared {input} --dataset {wildcards.dataset} "
            "--config {params.config} --seed {params.seed} --threads {threads} "
            "--out {output} > {log} 2>&1"
        )


rule azz_e3_adult:
    input:
        "resources/azzimonti2019/prepared/adult.parquet",
    output:
        "results/azzimonti2019/e3/adult.parquet",
    log:
        "logs/azzimonti2019/e3.log",
    benchmark:
        benchmark_of("results/azzimonti2019/e3/adult.parquet")
    conda:
        "../../envs/hierbn.yaml"
    threads: 1
    resources:
        mem_mb=1000,  # largest RSS of 1 paper job 383 MB x 1.5, floor 1000
        runtime=minutes(10),  # min; longest of 1 paper job 5 s x 2, floor 10
    params:
        code=step_code("azzimonti2019", "protocol"),
        config=pick(AZZ["e3"], "n", "reps", "methods", "root_estimator"),
        seed=config["seed"],
    shell:
        cached(
            "hierbn azzimonti2019 e3 --prepared {input} --config {params.config} "
            "--seed {params.seed} --threads {threads} --out {output} > {log} 2>&1"
        )


rule azz_e4_adult:
    input:
        **AZZ_E4_STAN,
        prepared="resources/azzimonti2019/prepared/adult.parquet",
    output:
        "results/azzimonti2019/e4/adult.parquet",
    log:
        "logs/azzimonti2019/e4.log",
    benchmark:
        benchmark_of("results/azzimonti2019/e4/adult.parquet")
    priority: 10  # capped NUTS fits: long, start first
    conda:
        "../../envs/hierbn.yaml"
    threads: 1  # timings on one core, Stan chains sequential (decision A19)
    resources:
        mem_mb=2100,  # largest RSS of 1 paper job 1,362 MB x 1.5
        runtime=minutes(43),  # min; longest of 1 paper job 1,268 s x 2
    params:
        code=step_code("azzimonti2019", "timing"),
        config=pick(
            AZZ["e4"],
            "n",
            "full",
            "reps",
            "methods",
            "nuts_cpts",
            "nuts_reps",
            "nuts",
            "rf_check",
        ),
        seed=config["seed"],
        stan=f"--stan {azz.STAN_MARKER}" if AZZ_E4_STAN else "",
    shell:
        cached(
            "hierbn azzimonti2019 e4 --prepared {input.prepared} --config {params.config} "
            "{params.stan} --seed {params.seed} --threads {threads} --out {output} > {log} 2>&1"
        )


rule azz_e5_job:
    output:
        "results/azzimonti2019/e5/n{n}_k{k}_c{c}_rep{rep}.parquet",
    log:
        "logs/azzimonti2019/e5/n{n}_k{k}_c{c}_rep{rep}.log",
    benchmark:
        benchmark_of("results/azzimonti2019/e5/n{n}_k{k}_c{c}_rep{rep}.parquet")
    wildcard_constraints:
        n=r"\d+",
        k=r"\d+",
        c=r"[0-9.e+-]+",
        rep=r"\d+",
    conda:
        "../../envs/hierbn.yaml"
    threads: 1
    resources:
        mem_mb=1000,  # largest RSS of 90 paper jobs 366 MB x 1.5, floor 1000
        runtime=minutes(10),  # min; longest of 90 paper jobs 104 s x 2, floor 10
    params:
        code=step_code("azzimonti2019", "multidomain"),
        config=pick(
            AZZ["e5"],
            "users",
            "n_classes",
            "n_features",
            "n_states",
            "n_test",
            "methods",
        ),
        seed=config["seed"],
    shell:
        cached(
            "hierbn azzimonti2019 e5 --n {wildcards.n} --users {wildcards.k} --c {wildcards.c} "
            "--rep {wildcards.rep} --config {params.config} --seed {params.seed} "
            "--threads {threads} --out {output} > {log} 2>&1"
        )


rule azz_claims:
    input:
        **CLAIMS_INPUTS["azzimonti2019"],
    output:
        claims="results/azzimonti2019/claims.json",
        e2_summary="results/azzimonti2019/e2_summary.parquet",
        e5_summary="results/azzimonti2019/e5_summary.parquet",
    log:
        "logs/azzimonti2019/claims.log",
    benchmark:
        benchmark_of("results/azzimonti2019/claims.json")
    conda:
        "../../envs/hierbn.yaml"
    resources:
        mem_mb=1000,  # largest RSS of 1 paper job 413 MB x 1.5, floor 1000
        runtime=minutes(10),  # min; longest of 1 paper job 2 s x 2, floor 10
    params:
        registry=study_dataset_ids("azzimonti2019", "all"),
        scale=as_json(azz.run_scale(AZZ, AZZ_E2_DATASETS)),
    shell:
        "hierbn azzimonti2019 claims --e1 {input.e1} --lemma1 {input.lemma1} "
        "--e2 {input.e2} --e3 {input.e3} --e4 {input.e4} --e5 {input.e5} "
        "--registry {params.registry} --scale {params.scale} --out {output.claims} "
        "--e2-summary {output.e2_summary} --e5-summary {output.e5_summary} > {log} 2>&1"
