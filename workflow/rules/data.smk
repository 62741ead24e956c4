# Raw files (mirror or download, sha256-checked) -> canonical parquet + check vs the paper.


rule fetch_raw:
    output:
        "resources/raw/{path}",
    log:
        "logs/fetch/{path}.log",
    wildcard_constraints:
        path=".+",
    conda:
        "../../envs/hierbn.yaml"
    params:
        mirrors=mirror_flags,
        registry=config["data"]["registry"],
    shell:
        "hierbn fetch --registry {params.registry} --file '{wildcards.path}' {params.mirrors} "
        "--out '{output}' > '{log}' 2>&1"


rule convert_dataset:
    input:
        raw_files,
    output:
        data="resources/datasets/{study}/{dataset}.parquet",
        check="resources/datasets/{study}/{dataset}.check.json",
    log:
        "logs/convert/{study}/{dataset}.log",
    conda:
        "../../envs/hierbn.yaml"
    params:
        registry=config["data"]["registry"],
    shell:
        "hierbn convert --registry {params.registry} --study {wildcards.study} "
        "--dataset {wildcards.dataset} --raw {input:q} --out {output.data} "
        "--check {output.check} > {log} 2>&1"
