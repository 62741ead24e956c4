# Per-study report: papermill executes the notebook template (it only reads results and
# draws), then nbconvert renders it to HTML.


rule execute_notebook:
    input:
        unpack(report_inputs),
        notebook="notebooks/{study}.ipynb",
    output:
        notebook="results/{study}/report.ipynb",
        figures=directory("results/{study}/figures"),
    log:
        "logs/{study}/notebook.log",
    conda:
        "../../envs/hierbn.yaml"
    shell:
        "papermill --log-level ERROR {input.notebook} results/{wildcards.study}/report.tmp.ipynb "
        "-p results_dir results/{wildcards.study} > {log} 2>&1 "
        "&& mv results/{wildcards.study}/report.tmp.ipynb {output.notebook}"


rule render_report:
    input:
        "results/{study}/report.ipynb",
    output:
        "results/{study}/report.html",
    log:
        "logs/{study}/render.log",
    conda:
        "../../envs/hierbn.yaml"
    shell:
        "jupyter nbconvert --to html --no-input --output-dir results/{wildcards.study} "
        "--output report.tmp.html {input} > {log} 2>&1 "
        "&& mv results/{wildcards.study}/report.tmp.html {output}"
