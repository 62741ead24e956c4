"""A fitted network as pgmpy sees it, and written by pgmpy's BIF and XMLBIF writers (the
formats pgmpy, bnlearn's ``read.bif`` and most BN tools read). pgmpy is the optional extra
``pip install -e ".[pgmpy]"``, imported here only."""

from __future__ import annotations

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


def write_network(model: FittedModel, path: Path) -> Path:
    """Write ``model`` to ``path`` in the format of its extension (:data:`FORMATS`),
    atomically; an unknown extension is refused naming the known ones."""
    kind = FORMATS.get(path.suffix.lower())
    if kind is None:
        raise ValueError(
            f"{path}: unknown network format {path.suffix!r}; expected one of {', '.join(FORMATS)}"
        )
    network = to_pgmpy(model)
    from pgmpy.readwrite import BIFWriter, XMLBIFWriter

    writer = BIFWriter(network) if kind == "BIF" else XMLBIFWriter(network)
    write_with(path, lambda tmp: writer.write(str(tmp)))
    return path
