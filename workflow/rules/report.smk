# Per-study report: papermill executes the notebook template with the rule's declared inputs
# as its parameter (it only reads them and draws), nbconvert renders it to HTML. Then the
# scoreboard: every enabled study's claims, run scale, commit and wall time on one page.


rule execute_notebook:
    input:
        unpack(report_inputs),
        notebook="notebooks/{study}.ipynb",
    output:
        notebook="results/{study}/report.ipynb",
        figures=directory("results/{study}/figures"),
    log:
        "logs/{study}/notebook.log",
    benchmark:
        benchmark_of("results/{study}/report.ipynb")
    conda:
        "../../envs/hierbn.yaml"
    resources:
        mem_mb=4000,  # paper scale, 3 of 5 studies: 768 MB; others unmeasured
        runtime=minutes(30),  # min; paper scale, 3 of 5 studies: 15 s
    params:
        parameters=notebook_parameters,
        staging=staged_figures,
    shell:
        # papermill waits 60 s for the kernel to start, then fails: a busy machine starts it
        # later, so the wait is a week (a kernel that dies still fails at once); the notebook
        # is written once at the end, not after every cell
        "rm -rf {params.staging} && papermill --log-level ERROR --start-timeout 604800 "
        "--no-request-save-on-cell-execute --autosave-cell-every 0 {input.notebook} "
        "results/{wildcards.study}/report.tmp.ipynb -y {params.parameters} > {log} 2>&1 "
        "&& rm -rf {output.figures} && mv {params.staging} {output.figures} "
        "&& mv results/{wildcards.study}/report.tmp.ipynb {output.notebook}"


rule render_report:
    input:
        "results/{study}/report.ipynb",
    output:
        "results/{study}/report.html",
    log:
        "logs/{study}/render.log",
    benchmark:
        benchmark_of("results/{study}/report.html")
    conda:
        "../../envs/hierbn.yaml"
    resources:
        runtime=minutes(10),
    shell:
        "jupyter nbconvert --to html --no-input --output-dir results/{wildcards.study} "
        "--output report.tmp.html {input} > {log} 2>&1 "
        "&& mv results/{wildcards.study}/report.tmp.html {output}"


rule study_runtime:
    input:
        benchmarks=study_benchmarks,
    output:
        "results/{study}/runtime.json",
    log:
        "logs/{study}/runtime.log",
    benchmark:
        benchmark_of("results/{study}/runtime.json")
    conda:
        "../../envs/hierbn.yaml"
    params:
        command=verbatim(
            "hierbn runtime --benchmarks {argfiles.benchmarks} --out {output}"
        ),
        argfiles=["benchmarks"],
    script:
        ARGFILES_SCRIPT


rule scoreboard:
    input:
        unpack(scoreboard_inputs),
    output:
        html="results/index.html",
        json="results/scoreboard.json",
    log:
        "logs/scoreboard.log",
    benchmark:
        benchmark_of("results/index.html")
    conda:
        "../../envs/hierbn.yaml"
    params:
        studies=" ".join(ENABLED),
        run=scoreboard_run,
    shell:
        "hierbn scoreboard --studies {params.studies} --claims {input.claims} "
        "--runtime {input.runtime} --reports {input.report} --run {params.run} "
        "--records {input.records} --html {output.html} --json {output.json} > {log} 2>&1"
