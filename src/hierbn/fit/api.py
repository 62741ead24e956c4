"""The fit itself (:func:`fit`, :func:`prepare`, :func:`estimator_settings`), imported by
:mod:`hierbn.fit` on first use, so that ``hierbn fit --help`` and a refusal of the command line
start without the estimators' imports."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from hierbn.bn.structures import BNStructure
from hierbn.cpts import ESTIMATORS, FittedCPT, fit_network, make_estimator
from hierbn.data.readers import DataFormatError
from hierbn.data.user_tables import (
    UNTYPED,
    ColumnTypes,
    attribute_column,
    categorical_column,
    prepare_table,
    refuse_identifiers,
)
from hierbn.fit.encoding import Bins, ColumnCoding, check_bins, encode_table, fit_codings
from hierbn.fit.model import FittedModel
from hierbn.fit.options import MAX_PARENT_CONFIGURATIONS, did_you_mean
from hierbn.fit.structure import (
    check_parent_configurations,
    classifier_structure,
    edge_parents,
    learned_parents,
)
from hierbn.seeds import seed_sequence

# Each estimator's settings and their defaults: the chains of the papers (the panel's
# config/paper.yaml); ``hier_domains`` is left out, it needs a domain per row. The m-estimate
# backs off by the context rule (petitjean2018 decision §1.7, its 2018 code), whose rows sum to
# one; the paper's literal rule scores classes but its rows do not sum to one, so a network
# to take away refuses it.
DEFAULT_SETTINGS: dict[str, dict[str, Any]] = {
    "laplace": {},
    "bdeu": {},
    "hier": {"root": "laplace", "configurations": "observed"},
    "m": {"m": 1.0, "backoff": "context"},
    "hdp": {"iterations": 50_000, "tying": "level", "prior": [0.0, 0.0], "conc_every": 5},
    "hidden": {
        "iterations": 10_000,
        "burn": 200,
        "step_size": "auto",
        "eps": 0.3,
        "b": 1.0,
        "rho_rule": "code",
    },
}
Edges = Sequence[tuple[str, str] | tuple[str, str, str]]  # (from, to[, where it was read])


def estimator_settings(estimator: str, settings: Mapping[str, Any] | None) -> dict[str, Any]:
    """The defaults of ``estimator`` (``bdeu<iss>`` for BDeu) updated with ``settings``; an
    unknown estimator or setting is refused naming the known ones."""
    key = "bdeu" if estimator.startswith("bdeu") else estimator
    if key not in DEFAULT_SETTINGS:
        known = ", ".join(k if k != "bdeu" else "bdeu<iss>" for k in DEFAULT_SETTINGS)
        extra = " (hier_domains needs a domain per row: use the panel)" if key in ESTIMATORS else ""
        names = [k if k != "bdeu" else "bdeu1" for k in DEFAULT_SETTINGS]
        raise ValueError(
            f"unknown estimator {estimator!r}{extra}; expected one of {known}"
            + did_you_mean(estimator, names)
        )
    chosen = dict(settings or {})
    unknown = sorted(set(chosen) - set(DEFAULT_SETTINGS[key]))
    if unknown:
        raise ValueError(
            f"estimator {estimator!r} has no setting {unknown}; "
            f"its settings are {sorted(DEFAULT_SETTINGS[key]) or 'none'}"
            + did_you_mean(unknown[0], DEFAULT_SETTINGS[key])
        )
    merged = DEFAULT_SETTINGS[key] | chosen
    if key == "m" and merged["backoff"] != "context":
        raise ValueError(
            f"estimator 'm' with backoff {merged['backoff']!r}: only the context back-off gives "
            "rows that sum to one (the literal rule of petitjean2018 eq. (16) does not)"
        )
    return merged


def prepare(
    frame: pd.DataFrame,
    target: str | None,
    drop: Sequence[str] = (),
    where: str = "data",
    types: ColumnTypes = UNTYPED,
) -> pd.DataFrame:
    """The table as the panel prepares it (target last when given; ``types`` the user's
    column types), after refusing identifier-like columns and columns without a single
    value."""
    if target is not None:
        table = prepare_table(frame, where, target, drop, types=types)
    else:
        unknown = [c for c in drop if c not in frame.columns]
        if unknown:
            raise DataFormatError(f"{where}: drop names {unknown}, not columns of {list(frame)}")
        kept = frame.drop(columns=list(drop)).reset_index(drop=True)
        types.check(list(kept.columns), where, None)
        table = pd.DataFrame(
            {c: attribute_column(kept[c], types.kind(c), types.few_values, where) for c in kept}
        )
    attributes = table if target is None else table.iloc[:, :-1]
    refuse_identifiers(attributes, where, types.numeric)
    empty = [c for c in attributes.columns if attributes[c].isna().all()]
    if empty:
        raise DataFormatError(
            f"{where}: column {empty[0]!r} has no data (every value is missing); leave it out "
            f"(--drop {empty[0]})"
        )
    return table


def declare_states(
    table: pd.DataFrame, states: Mapping[str, Sequence[Any]], where: str, source: str
) -> pd.DataFrame:
    """``table`` with the declared ``states`` (column -> its values, in order) as the levels of
    those columns, observed or not (a column with declared states is typed categorical before:
    :func:`_column_types`); an observed value not declared, an unknown column or a repeated or
    empty list is refused naming ``source`` (the --states file)."""
    table = table.copy()
    for column, declared in states.items():
        if column not in table.columns:
            raise DataFormatError(
                f"{source}: states for {column!r}, not a column of {where} {list(table.columns)}"
            )
        labels = [str(v) for v in declared]
        if len(set(labels)) != len(labels) or not labels:
            raise DataFormatError(
                f"{source}: the states of {column!r} must be distinct, none empty"
            )
        series = categorical_column(table[column])
        observed = [str(v) for v in series.cat.remove_unused_categories().cat.categories]
        unknown = [v for v in observed if v not in labels]
        if unknown:
            raise DataFormatError(
                f"{source}: {where} column {column!r} has {unknown[0]!r}, not among its "
                f"declared states {labels}"
            )
        text = series.cat.rename_categories([str(v) for v in series.cat.categories])
        table[column] = text.cat.set_categories(labels)
    return table


def _column_types(
    data: pd.DataFrame,
    categorical: Sequence[str],
    numeric: Sequence[str],
    few_values: bool,
    declared: Mapping[str, Any],
) -> ColumnTypes:
    """The user's column types; a column with declared states is categorical."""
    given = [c for c in declared if c in data.columns]
    return ColumnTypes(tuple(dict.fromkeys([*categorical, *given])), tuple(numeric), few_values)


def _codings(
    table: pd.DataFrame, target: str | None, bins: Bins, keep_constant: bool
) -> tuple[tuple[ColumnCoding, ...], list[str]]:
    """The codings of the table's columns but those (not the target) left with a single
    state, a number column whose cut found no point or one value throughout (kept with
    ``keep_constant``), and the names of those left out."""
    codings = fit_codings(table, target, bins)
    one_state = [] if keep_constant else [
        c.column for c in codings if len(c.states) == 1 and c.column != target
    ]  # fmt: skip
    return tuple(c for c in codings if c.column not in one_state), one_state


def _structure_choice(
    structure: str | None, edges: Edges | None, learn: str | None, target: str | None
) -> str:
    given = [name for name, value in (("structure", structure), ("edges", edges),
                                      ("learn", learn)) if value is not None]  # fmt: skip
    if len(given) != 1:
        raise ValueError(f"give exactly one of structure, edges and learn; got {given or 'none'}")
    if given[0] == "structure" and target is None:
        raise ValueError(f"the classifier structure {structure!r} needs a target column")
    return given[0]


def _network(
    choice: str,
    name: str | None,
    edges: Edges | None,
    codings: Sequence[Any],
    codes: np.ndarray,
    target: str | None,
    where: str,
    one_state: Sequence[str],
    max_parent_configurations: int,
) -> tuple[BNStructure, tuple[int, ...]]:
    """The structure chosen ``choice`` (a classifier or learner ``name``, or ``edges``) over
    the coded columns, and the columns it keeps (a selective classifier leaves some out);
    edges naming a column left out with ``one_state`` are refused, and so is a family above
    ``max_parent_configurations``."""
    if choice == "edges":
        named = {str(e[k]) for e in edges for k in (0, 1)} & set(one_state)
        if named:
            raise ValueError(
                f"{where}: the edges name {sorted(named)}, left out with one state; "
                "--keep-constant keeps it"
            )
    nodes = [c.node for c in codings]
    cards = [len(c.states) for c in codings]
    if choice == "structure":
        network, kept = classifier_structure(name, codes, nodes, cards)
    else:
        if choice == "edges":
            triples = [(str(e[0]), str(e[1]), e[2] if len(e) > 2 else f"edges[{i}]")
                       for i, e in enumerate(edges)]  # fmt: skip
            parents = edge_parents(triples, [c.column for c in codings], nodes)
        else:
            parents = tuple(tuple(p) for p in learned_parents(name, codes, nodes, where))
        class_index = None if target is None else len(codings) - 1
        network = BNStructure(tuple(nodes), tuple(cards), parents, class_index)
        kept = tuple(range(len(nodes)))
    check_parent_configurations(network, max_parent_configurations, choice)
    return network, kept


def fit(
    data: pd.DataFrame,
    *,
    target: str | None = None,
    structure: str | None = None,
    edges: Edges | None = None,
    learn: str | None = None,
    estimator: str = "hier",
    settings: Mapping[str, Any] | None = None,
    drop: Sequence[str] = (),
    categorical: Sequence[str] = (),
    numeric: Sequence[str] = (),
    few_values: bool = True,
    bins: Bins = None,
    states: Mapping[str, Sequence[Any]] | None = None,
    states_source: str = "states",
    keep_constant: bool = False,
    seed: int = 0,
    threads: int = 1,
    max_parent_configurations: int = MAX_PARENT_CONFIGURATIONS,
    on_fitted: Callable[[str, FittedCPT], None] | None = None,
    on_planned: Callable[[int], None] | None = None,
    where: str = "data",
) -> FittedModel:
    """Fit the CPTs of a network on ``data`` with ``estimator`` (README, "Fit a network").

    The structure: ``structure``, a BN classifier (``nb``, ``tan``, ``kdb2``, ``skdb``, ...;
    needs ``target``), ``edges`` (``(from, to)`` column pairs) or ``learn`` (``hc``, ``tabu``).
    ``estimator`` is a name of :data:`DEFAULT_SETTINGS` (``bdeu<iss>``), ``settings`` override
    its defaults. Columns: ``drop`` leaves some out; ``categorical``, ``numeric`` and
    ``few_values`` type them (:class:`hierbn.data.user_tables.ColumnTypes`), ``bins`` cuts the
    numeric ones (:func:`hierbn.fit.encoding.check_bins`), ``states`` (read from
    ``states_source``) are declared (:func:`declare_states`), and one left with one state is
    left out, named in the model's ``one_state``, unless ``keep_constant``. ``seed`` feeds the
    samplers (node ``i``: child ``i`` of the key ("fit",)); ``threads`` fits families in
    parallel with the same result; ``on_planned(cpts)`` is called once the structure is known,
    ``on_fitted(node, cpt)`` as each CPT is done; ``where`` names the data in errors.

    Refused before any fit, naming the item: unknown columns, estimators or settings, an
    identifier, a column without data, a word in a numeric column, a value outside its
    declared states, a cyclic edge list, a constant column for ``learn``, and a family with
    more than ``max_parent_configurations`` parent configurations.
    """
    choice = _structure_choice(structure, edges, learn, target)
    chosen_settings = estimator_settings(estimator, settings)
    cpt_estimator = make_estimator(estimator, {estimator.rstrip("0123456789."): chosen_settings})
    types = _column_types(data, categorical, numeric, few_values, states or {})
    table = declare_states(
        prepare(data, target, drop, where, types), states or {}, where, states_source
    )
    codings, one_state = _codings(table, target, check_bins(bins, target), keep_constant)
    codes = encode_table(codings, table.drop(columns=one_state), where)
    structure_start = time.perf_counter()
    network, kept = _network(choice, structure or learn, edges, codings, codes, target, where,
                             one_state, max_parent_configurations)  # fmt: skip
    structure_seconds = time.perf_counter() - structure_start
    if on_planned is not None:
        on_planned(len(network.names))

    def done(node: int, cpt: FittedCPT) -> None:
        if on_fitted is not None:
            on_fitted(network.names[node], cpt)

    start = time.perf_counter()
    fitted = fit_network(
        network, np.ascontiguousarray(codes[:, list(kept)]), cpt_estimator,
        seed_sequence("fit", base_seed=seed), threads=threads, on_fitted=done,
    )  # fmt: skip
    return FittedModel(
        network=fitted,
        codings=tuple(codings[i] for i in kept),
        structure=structure or learn or "edges",
        estimator=estimator,
        settings=chosen_settings,
        target=target,
        left_out=tuple(codings[i].column for i in range(len(codings)) if i not in kept),
        seconds=time.perf_counter() - start,
        structure_seconds=structure_seconds,
        one_state=tuple(one_state),
    )


__all__ = ["DEFAULT_SETTINGS", "FittedModel", "fit"]
