"""Every rule a cluster runs declares its memory and runtime, each value with the measurement
(or the reason) behind it, so a Slurm submission never falls back on a silent guess."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
RULE = re.compile(r"^(?:rule|checkpoint) (\w+):\n((?:^(?:    .*|)\n)*)", re.M)


def _local_rules() -> set[str]:
    block = re.search(r"^localrules:\n((?:    .*\n)+)", (REPO / "Snakefile").read_text(), re.M)
    assert block, "the Snakefile declares no localrules"
    return {name.strip(" ,") for name in block.group(1).split()}


def _cluster_rules() -> dict[str, str]:
    rules = {}
    for path in sorted((REPO / "workflow" / "rules").glob("*.smk")):
        for match in RULE.finditer(path.read_text()):
            rules[match.group(1)] = match.group(2)
    return {name: body for name, body in rules.items() if name not in _local_rules()}


def test_every_cluster_rule_states_its_memory_and_runtime_with_a_reason() -> None:
    missing = []
    for name, body in _cluster_rules().items():
        for key in ("mem_mb", "runtime"):
            line = re.search(rf"^        {key}=\d+,\s*#\s*\S.*$", body, re.M)
            if not line:
                missing.append(f"{name}: {key}")
    assert not missing, f"declare resources `{{key}}=<value>,  # <measured ...>` for {missing}"


def test_the_parser_sees_the_rules() -> None:
    rules = _cluster_rules()
    assert len(rules) > 40 and "fetch_raw" not in rules and "compile_stan" in rules
