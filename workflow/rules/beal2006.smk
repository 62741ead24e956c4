# beal2006: EM/VBEM scores per (instance, n), AIS per (n, run), AIS schedule study, claims.
# Which tables and config values each step reads: hierbn.studies.beal2006.workflow.

from hierbn.studies.beal2006 import workflow as beal

BEAL = config["beal2006"]

CLAIMS_INPUTS["beal2006"] = beal.claims_inputs(BEAL)
REPORT_INPUTS["beal2006"] = beal.report_inputs(BEAL)


rule beal_scores:
    output:
        "results/beal2006/scores/i{instance}_n{n}.parquet",
    log:
        "logs/beal2006/scores/i{instance}_n{n}.log",
    benchmark:
        benchmark_of("results/beal2006/scores/i{instance}_n{n}.parquet")
    priority: 5  # long jobs start first, so --cores N finishes sooner
    conda:
        "../../envs/hierbn.yaml"
    threads: 1
    resources:
        mem_mb=1000,  # largest RSS of 11 paper jobs 261 MB x 1.5, floor 1000
        runtime=10,  # min; longest of 11 paper jobs 23 s x 2, floor 10
    params:
        config=as_json(beal.scores_config(BEAL)),
        seed=config["seed"],
    shell:
        "hierbn beal2006 scores --instance {wildcards.instance} --n {wildcards.n} "
        "--config {params.config} --seed {params.seed} --threads {threads} "
        "--out {output} > {log} 2>&1"


rule beal_ais:
    output:
        "results/beal2006/ais/n{n}_g{run}.parquet",
    log:
        "logs/beal2006/ais/n{n}_g{run}.log",
    benchmark:
        benchmark_of("results/beal2006/ais/n{n}_g{run}.parquet")
    conda:
        "../../envs/hierbn.yaml"
    threads: 1
    resources:
        mem_mb=1000,  # largest RSS of 10 paper jobs 236 MB x 1.5, floor 1000
        runtime=10,  # min; longest of 10 paper jobs 104 s x 2, floor 10
    params:
        config=as_json(beal.ais_config(BEAL)),
        seed=config["seed"],
    shell:
        "hierbn beal2006 ais --n {wildcards.n} --run {wildcards.run} "
        "--config {params.config} --seed {params.seed} --threads {threads} "
        "--out {output} > {log} 2>&1"


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
        runtime=10,  # min; longest of 1 paper job 36 s x 2, floor 10
    params:
        config=as_json({"schedule": BEAL["schedule"], "ais": beal.ais_config(BEAL)}),
        seed=config["seed"],
    shell:
        "hierbn beal2006 schedule --config {params.config} --seed {params.seed} "
        "--threads {threads} --out {output} > {log} 2>&1"


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
        runtime=30,  # min; not measured at paper scale (smoke: 2 s)
    shell:
        "hierbn beal2006 claims --scores {input.scores} --ais {input.ais} "
        "--schedule {input.schedule} --out {output.claims} --table2 {output.table2} "
        "--table3 {output.table3} > {log} 2>&1"
