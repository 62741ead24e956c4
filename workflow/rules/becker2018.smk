# becker2018: VB hierarchical regression vs Gibbs, Stan NUTS, OLS, lasso, ridge and a mixed
# model on the Turkiye data (Tables 1-4, Figure 2), the synthetic substitute and the toy test.
# Which tables and config values each step reads: hierbn.studies.becker2018.workflow.

from hierbn.studies.becker2018 import workflow as bk

BK = config["becker2018"]

CLAIMS_INPUTS["becker2018"] = bk.claims_inputs(BK)
REPORT_INPUTS["becker2018"] = bk.report_inputs(BK)
JOB_OUTPUTS["becker2018"] = bk.job_outputs(BK)


rule bk_prepare:
    input:
        "resources/datasets/becker2018/turkiye.parquet",
    output:
        data=bk.PREPARED,
        check="results/becker2018/data_check.json",
    log:
        "logs/becker2018/prepare.log",
    benchmark:
        benchmark_of(bk.PREPARED)
    conda:
        "../../envs/hierbn.yaml"
    resources:
        mem_mb=1000,  # largest RSS of 1 paper job 0 MB x 1.5, floor 1000
        runtime=minutes(10),  # min; longest of 1 paper job 0 s x 2, floor 10
    shell:
        "hierbn becker2018 prepare --canonical {input} --out {output.data} "
        "--check {output.check} > {log} 2>&1"


rule bk_table2:
    input:
        bk.PREPARED,
    output:
        "results/becker2018/table2.parquet",
    log:
        "logs/becker2018/table2.log",
    benchmark:
        benchmark_of("results/becker2018/table2.parquet")
    conda:
        "../../envs/hierbn.yaml"
    resources:
        mem_mb=1000,  # largest RSS of 1 paper job 311 MB x 1.5, floor 1000
        runtime=minutes(10),  # min; longest of 1 paper job 2 s x 2, floor 10
    params:
        code=step_code("becker2018", "protocol"),
    shell:
        cached(
            "hierbn becker2018 table2 --prepared {input} --out {output} > {log} 2>&1"
        )


rule bk_vb:
    input:
        bk.PREPARED,
    output:
        "results/becker2018/vb/{variant}.parquet",
    log:
        "logs/becker2018/vb/{variant}.log",
    benchmark:
        benchmark_of("results/becker2018/vb/{variant}.parquet")
    wildcard_constraints:
        variant="faithful|corrected",
    conda:
        "../../envs/hierbn.yaml"
    threads: 1
    resources:
        mem_mb=1000,  # largest RSS of 2 paper jobs 362 MB x 1.5, floor 1000
        runtime=minutes(10),  # min; longest of 2 paper jobs 2 s x 2, floor 10
    params:
        code=step_code("becker2018", "protocol"),
        config=as_json(bk.fit_config(BK)),
    shell:
        cached(
            "hierbn becker2018 vb --prepared {input} --variant {wildcards.variant} "
            "--config {params.config} --threads {threads} --out {output} > {log} 2>&1"
        )


rule bk_gibbs:
    input:
        bk.PREPARED,
    output:
        draws="results/becker2018/gibbs/chain{chain}.parquet",
        beta="results/becker2018/gibbs/chain{chain}_beta.parquet",
    log:
        "logs/becker2018/gibbs/chain{chain}.log",
    benchmark:
        benchmark_of("results/becker2018/gibbs/chain{chain}.parquet")
    wildcard_constraints:
        chain=r"\d+",
    conda:
        "../../envs/hierbn.yaml"
    threads: 1
    resources:
        mem_mb=1000,  # largest RSS of 4 paper jobs 368 MB x 1.5, floor 1000
        runtime=minutes(10),  # min; longest of 4 paper jobs 3 s x 2, floor 10
    params:
        code=step_code("becker2018", "protocol"),
        config=as_json(bk.gibbs_config(BK)),
        seed=config["seed"],
    shell:
        cached(
            "hierbn becker2018 gibbs --prepared {input} --chain {wildcards.chain} "
            "--config {params.config} --seed {params.seed} --threads {threads} "
            "--out {output.draws} --beta {output.beta} > {log} 2>&1"
        )


rule bk_nuts:
    input:
        data=bk.PREPARED,
        stan=bk.STAN_MARKER,
    output:
        "results/becker2018/nuts.parquet",
    log:
        "logs/becker2018/nuts.log",
    benchmark:
        benchmark_of("results/becker2018/nuts.parquet")
    priority: 10  # long jobs start first, so --cores N finishes sooner
    conda:
        "../../envs/hierbn.yaml"
    threads: 1
    resources:
        mem_mb=1400,  # largest RSS of 1 paper job 913 MB x 1.5
        runtime=minutes(10),  # min; longest of 1 paper job 208 s x 2, floor 10
    params:
        code=step_code("becker2018", "protocol"),
        config=as_json(bk.nuts_config(BK)),
        seed=config["seed"],
    shell:
        cached(
            "hierbn becker2018 nuts --prepared {input.data} --stan {input.stan} "
            "--config {params.config} --seed {params.seed} --threads {threads} "
            "--out {output} > {log} 2>&1"
        )


rule bk_lasso:
    input:
        bk.PREPARED,
    output:
        "results/becker2018/lasso_rankings.parquet",
    log:
        "logs/becker2018/lasso.log",
    benchmark:
        benchmark_of("results/becker2018/lasso_rankings.parquet")
    conda:
        "../../envs/hierbn.yaml"
    threads: 1
    resources:
        mem_mb=1000,  # largest RSS of 1 paper job 284 MB x 1.5, floor 1000
        runtime=minutes(10),  # min; longest of 1 paper job 2 s x 2, floor 10
    params:
        code=step_code("becker2018", "cv"),
        config=as_json({}),
    shell:
        cached(
            "hierbn becker2018 lasso --prepared {input} --config {params.config} "
            "--threads {threads} --out {output} > {log} 2>&1"
        )


rule bk_cv:
    input:
        bk.PREPARED,
    output:
        "results/becker2018/cv/r{repeat}f{fold}.parquet",
    log:
        "logs/becker2018/cv/r{repeat}f{fold}.log",
    benchmark:
        benchmark_of("results/becker2018/cv/r{repeat}f{fold}.parquet")
    wildcard_constraints:
        repeat=r"\d+",
        fold=r"\d+",
    conda:
        "../../envs/hierbn.yaml"
    threads: 1
    resources:
        mem_mb=1000,  # largest RSS of 50 paper jobs 380 MB x 1.5, floor 1000
        runtime=minutes(10),  # min; longest of 50 paper jobs 3 s x 2, floor 10
    params:
        code=step_code("becker2018", "cv"),
        config=as_json(bk.cv_config(BK)),
        seed=config["seed"],
    shell:
        cached(
            "hierbn becker2018 cv --prepared {input} --repeat {wildcards.repeat} "
            "--fold {wildcards.fold} --config {params.config} --seed {params.seed} "
            "--threads {threads} --out {output} > {log} 2>&1"
        )


rule bk_timing:
    input:
        bk.PREPARED,
    output:
        "results/becker2018/timing.parquet",
    log:
        "logs/becker2018/timing.log",
    benchmark:
        benchmark_of("results/becker2018/timing.parquet")
    conda:
        "../../envs/hierbn.yaml"
    resources:
        mem_mb=1000,  # largest RSS of 1 paper job 365 MB x 1.5, floor 1000
        runtime=minutes(10),  # min; longest of 1 paper job 4 s x 2, floor 10
    params:
        code=step_code("becker2018", "protocol"),
        config=as_json(bk.timing_config(BK)),
        seed=config["seed"],
    shell:
        cached(
            "hierbn becker2018 timing --prepared {input} --config {params.config} "
            "--seed {params.seed} --out {output} > {log} 2>&1"
        )


rule bk_sensitivity:
    input:
        bk.PREPARED,
    output:
        "results/becker2018/sensitivity_fits.parquet",
    log:
        "logs/becker2018/sensitivity.log",
    benchmark:
        benchmark_of("results/becker2018/sensitivity_fits.parquet")
    conda:
        "../../envs/hierbn.yaml"
    threads: 1
    resources:
        mem_mb=1000,  # largest RSS of 1 paper job 354 MB x 1.5, floor 1000
        runtime=minutes(10),  # min; longest of 1 paper job 2 s x 2, floor 10
    params:
        code=step_code("becker2018", "protocol"),
        config=as_json(bk.sensitivity_config(BK)),
    shell:
        cached(
            "hierbn becker2018 sensitivity --prepared {input} --config {params.config} "
            "--threads {threads} --out {output} > {log} 2>&1"
        )


rule bk_synthetic:
    output:
        "results/becker2018/synthetic/{scenario}_{rep}.parquet",
    log:
        "logs/becker2018/synthetic/{scenario}_{rep}.log",
    benchmark:
        benchmark_of("results/becker2018/synthetic/{scenario}_{rep}.parquet")
    wildcard_constraints:
        scenario="dense|sparse",
        rep=r"\d+",
    conda:
        "../../envs/hierbn.yaml"
    threads: 1
    resources:
        mem_mb=1000,  # largest RSS of 10 paper jobs 351 MB x 1.5, floor 1000
        runtime=minutes(10),  # min; longest of 10 paper jobs 4 s x 2, floor 10
    params:
        code=step_code("becker2018", "protocol"),
        config=as_json(bk.synthetic_config(BK)),
        seed=config["seed"],
    shell:
        cached(
            "hierbn becker2018 synthetic --scenario {wildcards.scenario} --rep {wildcards.rep} "
            "--config {params.config} --seed {params.seed} --threads {threads} "
            "--out {output} > {log} 2>&1"
        )


rule bk_toy:
    output:
        "results/becker2018/toy.parquet",
    log:
        "logs/becker2018/toy.log",
    benchmark:
        benchmark_of("results/becker2018/toy.parquet")
    conda:
        "../../envs/hierbn.yaml"
    threads: 1
    resources:
        mem_mb=1000,  # largest RSS of 1 paper job 334 MB x 1.5, floor 1000
        runtime=minutes(10),  # min; longest of 1 paper job 2 s x 2, floor 10
    params:
        code=step_code("becker2018", "protocol"),
        config=as_json(bk.fit_config(BK)),
        seed=config["seed"],
    shell:
        cached(
            "hierbn becker2018 toy --config {params.config} --seed {params.seed} "
            "--threads {threads} --out {output} > {log} 2>&1"
        )


rule bk_claims:
    input:
        **CLAIMS_INPUTS["becker2018"],
    output:
        **{name: f"results/becker2018/{name}.parquet" for name in bk.MERGED},
        claims="results/becker2018/claims.json",
    log:
        "logs/becker2018/claims.log",
    benchmark:
        benchmark_of("results/becker2018/claims.json")
    conda:
        "../../envs/hierbn.yaml"
    resources:
        mem_mb=1000,  # paper run of an earlier command: 424 MB x 1.5, floor 1000
        runtime=minutes(10),  # min; paper run of an earlier command: 5 s
    params:
        scale=as_json(bk.run_scale(BK)),
    shell:
        "hierbn becker2018 claims --table2 {input.table2} --vb {input.vb} --gibbs {input.gibbs} "
        "--gibbs-beta {input.gibbs_beta} --nuts {input.nuts} --lasso {input.lasso} "
        "--cv {input.cv} --timing {input.timing} --sensitivity {input.sensitivity} "
        "--synthetic {input.synthetic} --toy {input.toy} --out {output.claims} "
        "--posterior {output.posterior} --figure2 {output.figure2} "
        "--class-beta {output.class_beta} --gibbs-beta-summary {output.gibbs_beta} "
        "--table3 {output.table3} --table4 {output.table4} "
        "--sensitivity-summary {output.sensitivity} --all-cv {output.cv} "
        "--all-synthetic {output.synthetic} --scale {params.scale} > {log} 2>&1"
