# beal2006: EM/VBEM scores per (instance, n), AIS per (n, run), AIS schedule study, claims.
# Input functions live in common.smk.


rule beal_scores:
    output:
        "results/beal2006/scores/i{instance}_n{n}.parquet",
    log:
        "logs/beal2006/scores/i{instance}_n{n}.log",
    priority: 5  # long jobs start first, so --cores N finishes sooner
    conda:
        "../../envs/hierbn.yaml"
    threads: 1
    params:
        config=as_json(BEAL_SCORES_CONFIG),
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
    conda:
        "../../envs/hierbn.yaml"
    threads: 1
    params:
        config=as_json(BEAL_AIS_CONFIG),
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
    conda:
        "../../envs/hierbn.yaml"
    threads: 1
    params:
        config=as_json({"schedule": BEAL["schedule"], "ais": BEAL_AIS_CONFIG}),
        seed=config["seed"],
    shell:
        "hierbn beal2006 schedule --config {params.config} --seed {params.seed} "
        "--threads {threads} --out {output} > {log} 2>&1"


rule beal_claims:
    input:
        scores=beal_score_tables,
        ais=beal_ais_tables,
        schedule="results/beal2006/schedule.parquet",
    output:
        claims="results/beal2006/claims.json",
        table2="results/beal2006/table2.parquet",
        table3="results/beal2006/table3.parquet",
    log:
        "logs/beal2006/claims.log",
    conda:
        "../../envs/hierbn.yaml"
    shell:
        "hierbn beal2006 claims --scores {input.scores} --ais {input.ais} "
        "--schedule {input.schedule} --out {output.claims} --table2 {output.table2} "
        "--table3 {output.table3} > {log} 2>&1"
