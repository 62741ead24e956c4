# Each Stan model is compiled once, by its own rule; fits read the compile marker.


rule compile_stan:
    input:
        "src/hierbn/stan/{model}.stan",
        "src/hierbn/stan/{model}.json",  # dummy data for PyStan, whether ADVI is needed
    output:
        "resources/stan/{model}.json",
    log:
        "logs/stan/{model}.log",
    benchmark:
        benchmark_of("resources/stan/{model}.json")
    priority: 50  # long jobs start first, so --cores N finishes sooner
    conda:
        "../../envs/hierbn.yaml"
    resources:
        mem_mb=4000,  # not measured cold: measured compiles hit PyStan's cache
        runtime=minutes(20),  # min; not measured cold (cached compiles: 22 s)
        cxx_compile=1,  # one C++ compile at a time: the profiles cap the sum at 1
    params:
        backend=config["stan"]["backend"],
    shell:
        "hierbn stan-compile --model {wildcards.model} --backend {params.backend} "
        "--exe-dir resources/stan --out {output} > {log} 2>&1"
