# hierbn: every table and figure of the studies from raw public data, and a scoreboard.
# Default: snakemake --cores 2 (smoke scale); paper scale: add --configfile config/paper.yaml
# The studies are those registered in hierbn.studies.STUDIES; each has workflow/rules/<study>.smk.

from hierbn.config import load_yaml
from hierbn.studies import STUDIES

load_yaml("config/config.yaml")  # a YAML error names the file and line


configfile: "config/config.yaml"


include: "workflow/rules/common.smk"
include: "workflow/rules/data.smk"
include: "workflow/rules/stan.smk"


for study in STUDIES:

    include: f"workflow/rules/{study}.smk"


include: "workflow/rules/report.smk"


# Short or network-bound jobs run on the submitting host under a cluster executor (a data
# conversion: 2 s and 175 MB at most over the paper's 87 measured ones).
localrules:
    fetch_raw,
    convert_dataset,
    data_report,
    render_report,
    study_runtime,
    scoreboard,


rule all:
    default_target: True
    input:
        expand("results/{study}/report.html", study=ENABLED),
        "results/index.html",
