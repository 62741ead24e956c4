# beal2006: EM/VBEM scores of every instance per n, the AIS runs per n, AIS schedule study,
# claims.
# Which tables and config values each step reads: hierbn.studies.beal2006.workflow.

from hierbn.studies.beal2006 import workflow as beal

BEAL = config["beal2006"]

CLAIMS_INPUTS["beal2006"] = beal.claims_inputs(BEAL)
REPORT_INPUTS["beal2006"] = beal.report_inputs(BEAL)


rule beal_scores:
    output:
        "results/beal2006/scores/n{n}.parquet",
    log:
        "logs/beal2006/scores/n{n}.log",
    benchmark:
        benchmark_of("results/beal2006/scores/n{n}.parquet")
    priority: 5  # long jobs start first, so --cores N finishes sooner
    conda:
        "../../envs/hierbn.yaml"
    threads: 1
    resources:
        mem_mb=1000,  # largest RSS of 1- and 3-instance paper jobs (n = 10 to 10,240) 299 MB x 1.5, floor 1000
        runtime=minutes(90),  # min; the largest n (10,240): 42 s for 1 instance, 76 s for 3, so 106 take about 31 min; x 2, rounded up
    params:
        code=step_code("beal2006", "protocol"),
        config=as_json(beal.scores_config(BEAL)),
        instances=BEAL["instances"],
        seed=config["seed"],
    shell:
        cached(
            "hierbn beal2006 scores --instances {params.instances} --n {wildcards.n} "
            "--config {params.config} --seed {params.seed} --threads {threads} "
            "--out {output} > {log} 2>&1"
        )


rule beal_ais:
    output:
        "results/beal2006/ais/n{n}.parquet",
    log:
        "logs/beal2006/ais/n{n}.log",
    benchmark:
        benchmark_of("results/beal2006/ais/n{n}.parquet")
    conda:
        "../../envs/hierbn.yaml"
    threads: 1
    resources:
        mem_mb=1000,  # largest RSS of 1-run paper jobs (n = 110, 1,280, 10,240) 278 MB x 1.5, floor 1000
        runtime=minutes(100),  # min; the largest n (10,240): one run took 115 s, so 26 runs take about 50 min; x 2
    params:
        code=step_code("beal2006", "protocol"),
        config=as_json(beal.ais_config(BEAL)),
        runs=BEAL["ais"]["runs"],
        seed=config["seed"],
    shell:
        cached(
            "hierbn beal2006 ais --n {wildcards.n} --runs {params.runs} "
            "--config {params.config} --seed {params.seed} --threads {threads} "
            "--out {output} > {log} 2>&1"
        )


rule beal_schedule:
    output:
        "results/beal2006/schedule.parquet",
    log:
        "logs/beal2006/schedule.log",
    benchmark:
        benchmark_of("results/beal2006/schedule.parquet")
    conda:
        "../../envs/hierbn.yaml"
    threads: 1
    resources:
        mem_mb=1000,  # largest RSS of 1 paper job 237 MB x 1.5, floor 1000
        runtime=minutes(10),  # min; longest of 1 paper job 36 s x 2, floor 10
    params:
        code=step_code("beal2006", "protocol"),
        config=as_json({"schedule": BEAL["schedule"], "ais": beal.ais_config(BEAL)}),
        seed=config["seed"],
    shell:
        cached(
            "hierbn beal2006 schedule --config {params.config} --seed {params.seed} "
            "--threads {threads} --out {output} > {log} 2>&1"
        )


rule beal_claims:
    input:
        **CLAIMS_INPUTS["beal2006"],
    output:
        claims="results/beal2006/claims.json",
        table2="results/beal2006/table2.parquet",
        table3="results/beal2006/table3.parquet",
    log:
        "logs/beal2006/claims.log",
    benchmark:
        benchmark_of("results/beal2006/claims.json")
    conda:
        "../../envs/hierbn.yaml"
    resources:
        mem_mb=4000,  # not measured at paper scale (smoke: 316 MB); reads 2,660 tables
        runtime=minutes(30),  # min; not measured at paper scale (smoke: 2 s)
    params:
        scale=as_json(beal.run_scale(BEAL)),
    shell:
        "hierbn beal2006 claims --scores {input.scores} --ais {input.ais} "
        "--schedule {input.schedule} --out {output.claims} --table2 {output.table2} "
        "--table3 {output.table3} --scale {params.scale} > {log} 2>&1"
