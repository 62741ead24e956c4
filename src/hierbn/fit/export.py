"""A fitted network as pgmpy sees it, and written as BIF or XMLBIF (the formats pgmpy,
bnlearn's ``read.bif`` and most BN tools read). pgmpy is the optional extra
``pip install -e ".[pgmpy]"``, imported here only: for the pgmpy model and for XMLBIF.

BIF is written here, as pgmpy's ``BIFWriter`` writes it, byte for byte (the tests compare the
two on every kind of fit): pgmpy's import alone takes 2.5 s (it loads scikit-learn), which
kept every ``hierbn fit --out model.bif`` above issue 45's 2 s for a later call, and a BIF file
should not need an optional extra."""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hierbn.io import write_with

if TYPE_CHECKING:
    from hierbn.fit.model import FittedModel

FORMATS = {".bif": "BIF", ".xml": "XMLBIF", ".xmlbif": "XMLBIF"}


def _pgmpy() -> Any:
    try:
        import pgmpy
    except ImportError:
        raise ImportError(
            "exporting a fitted network needs pgmpy: pip install -e '.[pgmpy]' "
            "(or pip install pgmpy)"
        ) from None
    return pgmpy


def to_pgmpy(model: FittedModel) -> Any:
    """``DiscreteBayesianNetwork`` with one ``TabularCPD`` per node: values ``[x, p]`` over
    every parent configuration, the last parent fastest as pgmpy orders evidence, and the
    interchange state names of every variable."""
    _pgmpy()
    from pgmpy.factors.discrete import TabularCPD
    from pgmpy.models import DiscreteBayesianNetwork

    network = DiscreteBayesianNetwork()
    network.add_nodes_from(model.nodes)
    network.add_edges_from((p, node) for node in model.nodes for p in model.parents(node))
    for node in model.nodes:
        parents = list(model.parents(node))
        states = {v: list(model.states(v)) for v in (node, *parents)}
        network.add_cpds(
            TabularCPD(
                node,
                len(states[node]),
                model.table(node).T,
                evidence=parents or None,
                evidence_card=[len(states[p]) for p in parents] or None,
                state_names=states,
            )
        )
    network.check_model()
    return network


def _numbers(values: Iterable[float]) -> str:
    """Probabilities as pgmpy writes them: each number's shortest repr, comma-separated."""
    return ", ".join(repr(float(v)) for v in values)


def bif_text(model: FittedModel) -> str:
    """``model`` in BIF: the variables, then one probability block per node (sorted by name),
    a parent configuration per line with the last parent fastest, as pgmpy's ``BIFWriter``
    writes a :func:`to_pgmpy` network."""
    nodes = sorted(model.nodes)
    text = ["network unknown {\n}\n"]
    for node in nodes:
        states = model.states(node)
        text.append(
            f"variable {node} {{\n    type discrete [ {len(states)} ] {{ {', '.join(states)} }};\n}}\n"
        )
    for node in nodes:
        parents, table = model.parents(node), model.table(node)
        if not parents:
            text.append(f"probability ( {node} ) {{\n    table {_numbers(table[0])} ;\n}}\n")
            continue
        configurations = itertools.product(*(model.states(parent) for parent in parents))
        rows = "".join(
            f"    ( {', '.join(states)} ) {_numbers(row)};\n"
            for states, row in zip(configurations, table, strict=True)
        )
        text.append(f"probability ( {node} | {', '.join(parents)} ) {{\n{rows}\n}}\n")
    return "".join(text)


def write_network(model: FittedModel, path: Path) -> Path:
    """Write ``model`` to ``path`` in the format of its extension (:data:`FORMATS`),
    atomically; an unknown extension is refused naming the known ones."""
    kind = FORMATS.get(path.suffix.lower())
    if kind is None:
        raise ValueError(
            f"{path}: unknown network format {path.suffix!r}; expected one of {', '.join(FORMATS)}"
        )
    if kind == "BIF":
        text = bif_text(model)
        write_with(path, lambda tmp: tmp.write_text(text))
        return path
    from pgmpy.readwrite import XMLBIFWriter

    writer = XMLBIFWriter(to_pgmpy(model))
    write_with(path, lambda tmp: writer.write(str(tmp)))
    return path
