# hierbn: every table and figure of the five studies from raw public data.
# Default: snakemake --cores 2 (smoke scale); paper scale: add --configfile config/paper.yaml


configfile: "config/config.yaml"


include: "workflow/rules/common.smk"
include: "workflow/rules/data.smk"
include: "workflow/rules/stan.smk"
include: "workflow/rules/azzimonti2019.smk"
include: "workflow/rules/beal2006.smk"
include: "workflow/rules/petitjean2018.smk"
include: "workflow/rules/report.smk"


rule all:
    default_target: True
    input:
        enabled_reports(),
