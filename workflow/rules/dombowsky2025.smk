# dombowsky2025: the HiDDeN sampler on Table 1 (sparse counts), Table 3 (two DAGs), Tables 7-8
# (two parent sets), the ALARM parameters (Figure 10) and structure (Tables 10-11), the LUCAS
# Markov blankets (Tables 2, 6) and the METABRIC outcomes (Figures 5-7), plus the Theorem 2
# and grid-integration checks. One job per (experiment, setting, replicate block) of the
# simulations and one per real-data experiment; which config values each job reads:
# hierbn.studies.dombowsky2025.workflow.

from hierbn.studies.dombowsky2025 import workflow as dd

DD = config["dombowsky2025"]

CLAIMS_INPUTS["dombowsky2025"] = dd.claims_inputs(DD)
REPORT_INPUTS["dombowsky2025"] = dd.report_inputs(DD)
JOB_OUTPUTS["dombowsky2025"] = dd.job_outputs(DD)


rule dd_table1:
    output:
        results="results/dombowsky2025/table1/K{K}_b{block}.parquet",
        trace="results/dombowsky2025/table1/K{K}_b{block}_trace.parquet",
    log:
        "logs/dombowsky2025/table1/K{K}_b{block}.log",
    benchmark:
        benchmark_of("results/dombowsky2025/table1/K{K}_b{block}.parquet")
    wildcard_constraints:
        K=r"\d+",
        block=r"\d+",
    conda:
        "../../envs/hierbn.yaml"
    threads: 1
    resources:
        mem_mb=1000,  # largest RSS of 4 paper jobs 390 MB x 1.5, floor 1000
        runtime=minutes(10),  # min; longest of 4 paper jobs 4 s x 2, floor 10
    params:
        code=step_code("dombowsky2025", "protocol"),
        config=as_json(dd.table1_config(DD)),
        reps=dd.reps_argument(DD["table1"]["datasets"], DD["table1"]["block"]),
        seed=config["seed"],
    shell:
        cached(
            "hierbn dombowsky2025 table1 --K {wildcards.K} {params.reps} "
            "--config {params.config} --seed {params.seed} --threads {threads} "
            "--out {output.results} --trace {output.trace} > {log} 2>&1"
        )


rule dd_table1_bayes:
    input:
        dd.STAN_MARKER,
    output:
        "results/dombowsky2025/table1_bayes/K{K}_b{block}.parquet",
    log:
        "logs/dombowsky2025/table1_bayes/K{K}_b{block}.log",
    benchmark:
        benchmark_of("results/dombowsky2025/table1_bayes/K{K}_b{block}.parquet")
    wildcard_constraints:
        K=r"\d+",
        block=r"\d+",
    priority: 10  # long jobs start first, so --cores N finishes sooner
    conda:
        "../../envs/hierbn.yaml"
    threads: 1
    resources:
        mem_mb=1300,  # largest RSS of 4 paper jobs 839 MB x 1.5
        runtime=minutes(10),  # min; longest of 4 paper jobs 102 s x 2, floor 10
    params:
        code=step_code("dombowsky2025", "protocol"),
        config=as_json(dd.table1_bayes_config(DD)),
        reps=dd.reps_argument(
            DD["table1"]["logit_bayes"]["datasets"], DD["table1"]["block"]
        ),
        seed=config["seed"],
    shell:
        cached(
            "hierbn dombowsky2025 table1-bayes --K {wildcards.K} {params.reps} --stan {input} "
            "--config {params.config} --seed {params.seed} --threads {threads} "
            "--out {output} > {log} 2>&1"
        )


rule dd_table3:
    output:
        results="results/dombowsky2025/table3/k1_{k1}_b{block}.parquet",
        trace="results/dombowsky2025/table3/k1_{k1}_b{block}_trace.parquet",
    log:
        "logs/dombowsky2025/table3/k1_{k1}_b{block}.log",
    benchmark:
        benchmark_of("results/dombowsky2025/table3/k1_{k1}_b{block}.parquet")
    wildcard_constraints:
        k1=r"\d+",
        block=r"\d+",
    conda:
        "../../envs/hierbn.yaml"
    threads: 1
    resources:
        mem_mb=1000,  # largest RSS of 8 paper jobs 365 MB x 1.5, floor 1000
        runtime=minutes(10),  # min; longest of 8 paper jobs 5 s x 2, floor 10
    params:
        code=step_code("dombowsky2025", "protocol"),
        config=lambda w: as_json(dd.table3_config(DD, w.k1)),
        reps=dd.reps_argument(DD["table3"]["reps"], DD["table3"]["block"]),
        seed=config["seed"],
    shell:
        cached(
            "hierbn dombowsky2025 table3 --k1 {wildcards.k1} {params.reps} "
            "--config {params.config} --seed {params.seed} --threads {threads} "
            "--out {output.results} --trace {output.trace} > {log} 2>&1"
        )


rule dd_tables78:
    output:
        results="results/dombowsky2025/tables78/{truth}_n{n}_b{block}.parquet",
        trace="results/dombowsky2025/tables78/{truth}_n{n}_b{block}_trace.parquet",
    log:
        "logs/dombowsky2025/tables78/{truth}_n{n}_b{block}.log",
    benchmark:
        benchmark_of("results/dombowsky2025/tables78/{truth}_n{n}_b{block}.parquet")
    wildcard_constraints:
        truth="G1|G2",
        n=r"\d+",
        block=r"\d+",
    conda:
        "../../envs/hierbn.yaml"
    threads: 1
    resources:
        mem_mb=1000,  # largest RSS of 16 paper jobs 382 MB x 1.5, floor 1000
        runtime=minutes(10),  # min; longest of 16 paper jobs 7 s x 2, floor 10
    params:
        code=step_code("dombowsky2025", "protocol"),
        config=lambda w: as_json(dd.tables78_config(DD, w.truth)),
        reps=dd.reps_argument(DD["tables78"]["datasets"], DD["tables78"]["block"]),
        seed=config["seed"],
    shell:
        cached(
            "hierbn dombowsky2025 tables78 --truth {wildcards.truth} --n {wildcards.n} "
            "{params.reps} --config {params.config} --seed {params.seed} --threads {threads} "
            "--out {output.results} --trace {output.trace} > {log} 2>&1"
        )


rule dd_alarm_prepare:
    input:
        "resources/datasets/dombowsky2025/alarm.parquet",
    output:
        data=dd.PREPARED,
        check="results/dombowsky2025/alarm_check.json",
    log:
        "logs/dombowsky2025/alarm_prepare.log",
    benchmark:
        benchmark_of(dd.PREPARED)
    conda:
        "../../envs/hierbn.yaml"
    resources:
        mem_mb=1000,  # largest RSS of 1 paper job 374 MB x 1.5, floor 1000
        runtime=minutes(10),  # min; longest of 1 paper job 2 s x 2, floor 10
    shell:
        "hierbn dombowsky2025 alarm-prepare --canonical {input} --out {output.data} "
        "--check {output.check} > {log} 2>&1"


rule dd_alarm:
    input:
        dd.PREPARED,
    output:
        results="results/dombowsky2025/alarm.parquet",
        trace="results/dombowsky2025/alarm_trace.parquet",
    log:
        "logs/dombowsky2025/alarm.log",
    benchmark:
        benchmark_of("results/dombowsky2025/alarm.parquet")
    conda:
        "../../envs/hierbn.yaml"
    threads: 1
    resources:
        mem_mb=1000,  # largest RSS of 21 paper jobs of one subsample 389 MB x 1.5, floor 1000
        runtime=minutes(10),  # min; 21 paper subsamples of at most 6 s each (one job each then) x 2, floor 10
    params:
        code=step_code("dombowsky2025", "alarm"),
        config=as_json(dd.alarm_config(DD)),
        subsamples=dd.subsamples(DD),
        seed=config["seed"],
    shell:
        cached(
            "hierbn dombowsky2025 alarm --prepared {input} --subsample {params.subsamples} "
            "--config {params.config} --seed {params.seed} --threads {threads} "
            "--out {output.results} --trace {output.trace} > {log} 2>&1"
        )


rule dd_alarm_structure:
    input:
        dd.PREPARED,
    output:
        results="results/dombowsky2025/alarm_structure.parquet",
        trace="results/dombowsky2025/alarm_structure_trace.parquet",
    log:
        "logs/dombowsky2025/alarm_structure.log",
    benchmark:
        benchmark_of("results/dombowsky2025/alarm_structure.parquet")
    conda:
        "../../envs/hierbn.yaml"
    threads: 1
    resources:
        mem_mb=1000,  # largest RSS of 21 paper jobs of one subsample 383 MB x 1.5, floor 1000
        runtime=minutes(10),  # min; 21 paper subsamples of at most 4 s each (one job each then) x 2, floor 10
    params:
        code=step_code("dombowsky2025", "alarm"),
        config=as_json(dd.alarm_structure_config(DD)),
        subsamples=dd.subsamples(DD),
        seed=config["seed"],
    shell:
        cached(
            "hierbn dombowsky2025 alarm-structure --prepared {input} "
            "--subsample {params.subsamples} --config {params.config} --seed {params.seed} "
            "--threads {threads} --out {output.results} --trace {output.trace} > {log} 2>&1"
        )


rule dd_lucas_prepare:
    input:
        "resources/datasets/dombowsky2025/lucas0.parquet",
    output:
        data=dd.LUCAS,
        check="results/dombowsky2025/lucas_check.json",
    log:
        "logs/dombowsky2025/lucas_prepare.log",
    benchmark:
        benchmark_of(dd.LUCAS)
    conda:
        "../../envs/hierbn.yaml"
    resources:
        mem_mb=1000,  # largest RSS of 1 paper job 8 MB x 1.5, floor 1000
        runtime=minutes(10),  # min; longest of 1 paper job 0 s x 2, floor 10
    shell:
        "hierbn dombowsky2025 lucas-prepare --canonical {input} --out {output.data} "
        "--check {output.check} > {log} 2>&1"


rule dd_lucas:
    input:
        dd.LUCAS,
    output:
        results="results/dombowsky2025/lucas.parquet",
        trace="results/dombowsky2025/lucas_trace.parquet",
    log:
        "logs/dombowsky2025/lucas.log",
    benchmark:
        benchmark_of("results/dombowsky2025/lucas.parquet")
    conda:
        "../../envs/hierbn.yaml"
    threads: 1
    resources:
        mem_mb=1000,  # largest RSS of 6 paper jobs of one target 372 MB x 1.5, floor 1000
        runtime=minutes(10),  # min; 6 paper targets of at most 8 s each (one job each then) x 2, floor 10
    params:
        code=step_code("dombowsky2025", "structure"),
        config=as_json(dd.lucas_config(DD)),
        targets=" ".join(DD["lucas"]["targets"]),
        seed=config["seed"],
    shell:
        cached(
            "hierbn dombowsky2025 lucas --prepared {input} --target {params.targets} "
            "--config {params.config} --seed {params.seed} --threads {threads} "
            "--out {output.results} --trace {output.trace} > {log} 2>&1"
        )


rule dd_metabric_prepare:
    input:
        patients="resources/datasets/dombowsky2025/metabric-patient.parquet",
        samples="resources/datasets/dombowsky2025/metabric-sample.parquet",
    output:
        data=dd.METABRIC,
        patients="results/dombowsky2025/metabric_{mode}_patients.parquet",
        check="results/dombowsky2025/metabric_{mode}_check.json",
    log:
        "logs/dombowsky2025/metabric_{mode}_prepare.log",
    benchmark:
        benchmark_of(dd.METABRIC)
    wildcard_constraints:
        mode="code|clean",
    conda:
        "../../envs/hierbn.yaml"
    resources:
        mem_mb=1000,  # largest RSS of 1 paper job 159 MB x 1.5, floor 1000
        runtime=minutes(10),  # min; longest of 1 paper job 1 s x 2, floor 10
    shell:
        "hierbn dombowsky2025 metabric-prepare --patients {input.patients} "
        "--samples {input.samples} --mode {wildcards.mode} --out {output.data} "
        "--record {output.patients} --check {output.check} > {log} 2>&1"


rule dd_metabric:
    input:
        dd.METABRIC,
    output:
        results="results/dombowsky2025/metabric_{mode}.parquet",
        trace="results/dombowsky2025/metabric_{mode}_trace.parquet",
    log:
        "logs/dombowsky2025/metabric_{mode}.log",
    benchmark:
        benchmark_of("results/dombowsky2025/metabric_{mode}.parquet")
    wildcard_constraints:
        mode="code|clean",
    conda:
        "../../envs/hierbn.yaml"
    threads: 1
    resources:
        mem_mb=1000,  # largest RSS of 3 paper jobs of one outcome 385 MB x 1.5, floor 1000
        runtime=minutes(10),  # min; 3 paper outcomes of at most 16 s each (one job each then) x 2, floor 10
    params:
        code=step_code("dombowsky2025", "structure"),
        config=as_json(dd.metabric_config(DD)),
        outcomes=" ".join(DD["metabric"]["outcomes"]),
        seed=config["seed"],
    shell:
        cached(
            "hierbn dombowsky2025 metabric --prepared {input} --outcome {params.outcomes} "
            "--config {params.config} --seed {params.seed} --threads {threads} "
            "--out {output.results} --trace {output.trace} > {log} 2>&1"
        )


rule dd_checks:
    output:
        "results/dombowsky2025/checks.parquet",
    log:
        "logs/dombowsky2025/checks.log",
    benchmark:
        benchmark_of("results/dombowsky2025/checks.parquet")
    # long, and with no input: at equal priority the scheduler takes jobs with the largest
    # inputs first, so it started last and ran alone at the end of a default run (35 s)
    priority: 10
    conda:
        "../../envs/hierbn.yaml"
    threads: 1
    resources:
        mem_mb=1000,  # largest RSS of 1 paper job 627 MB x 1.5, floor 1000
        runtime=minutes(10),  # min; longest of 1 paper job 36 s x 2, floor 10
    params:
        code=step_code("dombowsky2025", "checks"),
        config=as_json(dd.checks_config(DD)),
        seed=config["seed"],
    shell:
        cached(
            "hierbn dombowsky2025 checks --config {params.config} --seed {params.seed} "
            "--threads {threads} --out {output} > {log} 2>&1"
        )


rule dd_claims:
    input:
        **CLAIMS_INPUTS["dombowsky2025"],
    output:
        **{name: f"results/dombowsky2025/{name}.parquet" for name in dd.SUMMARIES},
        claims="results/dombowsky2025/claims.json",
    log:
        "logs/dombowsky2025/claims.log",
    benchmark:
        benchmark_of("results/dombowsky2025/claims.json")
    conda:
        "../../envs/hierbn.yaml"
    resources:
        mem_mb=1000,  # paper run of an earlier command: 604 MB x 1.5, floor 1000
        runtime=minutes(10),  # min; paper run of an earlier command: 2 s
    params:
        scale=as_json(dd.run_scale(DD)),
        command=verbatim(
            "hierbn dombowsky2025 claims --results {argfiles.results} "
            "--traces {argfiles.traces} --checks {argfiles.checks} --out {output.claims} "
            f"--all-traces {{output.traces}} --scale {{params.scale}} {dd.summary_arguments()}"
        ),
        argfiles=["results", "traces", "checks"],
    script:
        ARGFILES_SCRIPT
