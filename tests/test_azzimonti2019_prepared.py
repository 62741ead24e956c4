"""Every azzimonti2019 data set of the registry, converted from the mirror and prepared as E2
prepares it (spec §4 E2), has no missing value and integer-codes: a column with no observed
value (hypothyroid's TBG, anneal's 'm', ...) is dropped and named in the data report."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from hierbn.data.convert import build_dataset, check_against_paper
from hierbn.data.registry import load_registry
from hierbn.studies.azzimonti2019.protocol import coded, prepare_dataset

REGISTRY = Path(__file__).resolve().parents[1] / "config" / "datasets.tsv"
ENTRIES = {
    key[1]: entry for key, entry in load_registry(REGISTRY).items() if key[0] == "azzimonti2019"
}


@pytest.mark.parametrize("dataset", sorted(ENTRIES))
def test_prepared_data_have_no_missing_value(mirror, dataset: str) -> None:
    entry = ENTRIES[dataset]
    canonical = build_dataset(entry, [mirror / p.file for p in entry.parts])
    report = check_against_paper(entry, canonical)
    prepared, _, dropped = prepare_dataset(canonical, 5)
    assert dropped == report["empty_columns"]
    assert not prepared.isna().any().any(), prepared.columns[prepared.isna().any()].tolist()
    assert all(isinstance(prepared[c].dtype, pd.CategoricalDtype) for c in prepared.columns)
    data = coded(prepared)
    assert data.codes.shape == (len(canonical), canonical.shape[1] - len(dropped))
    if dropped:
        assert f"columns with no observed value: {dropped}" in report["deviations"]


def test_the_two_known_empty_columns_are_dropped(mirror) -> None:
    for dataset, column in (("hypothyroid", "TBG"), ("anneal", "m")):
        entry = ENTRIES[dataset]
        canonical = build_dataset(entry, [mirror / p.file for p in entry.parts])
        assert column in prepare_dataset(canonical, 5)[2]
