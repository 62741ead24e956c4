"""panel data preparation: a user's CSV/ARFF file or a registry table -> the prepared table
(class last, float or categorical attributes, missing values kept) and its check metadata;
every bad input is an error naming the file or config key. And the panel config schema."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml
from jsonschema import Draft202012Validator

from hierbn.config import ConfigError
from hierbn.data.download import ChecksumError
from hierbn.data.readers import DataFormatError
from hierbn.io import write_parquet
from hierbn.studies.panel.data import prepare_registry_table, read_user_dataset

SCHEMA = Path(__file__).resolve().parents[1] / "workflow" / "schemas" / "panel.schema.yaml"

CSV = """age,colour,label,weight
31,red,yes,2.5
,blue,no,NA
27,?,yes,NaN
45,,no,?
52,red,no,1.0
"""

ARFF = """% a user's ARFF file
@relation user
@attribute size numeric
@attribute 'shape' {round, square, star}
@attribute class {good, bad, unused}
@data
1.5, round, good
?, square, bad
3, ?, good
"""

DESIGN_SECTION = """
enabled: true
registry:
  - { id: iris, source: petitjean2018/iris }
  - { id: lucas, source: dombowsky2025/lucas0, target: Cancer_Pulmon }
  - { id: alarm, source: dombowsky2025/alarm, target: BP, rows: 2000 }
datasets: []
structures: [nb, tan, kdb1, kdb2, kdb3, skdb]
estimators: [laplace, bdeu1, bdeu10, m, hier, hdp, hidden]
settings:
  m: { m: 1.0, backoff: literal }
  hdp: { iterations: 1000, tying: level, prior: [0.0, 0.0], conc_every: 5 }
  hidden: { iterations: 2000, burn: 200, step_size: auto, eps: 0.3, b: 1.0, rho_rule: code }
cv: { rounds: 5, jobs: dataset }
learning_curve:
  { datasets: [adult], sizes: [50, 100, 200, 500, 1000, 2000, 5000], runs: 1,
    structures: [nb, tan, kdb2] }
"""


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_csv_target_goes_last_and_missing_values_are_kept(tmp_path: Path) -> None:
    path = _write(tmp_path, "user.csv", CSV)
    table, check = read_user_dataset(path, "mine", "label", None, numeric=["age", "weight"])
    assert list(table.columns) == ["age", "colour", "weight", "label"]
    assert table["age"].dtype == np.float64 and table["weight"].dtype == np.float64
    np.testing.assert_array_equal(table["age"], [31, np.nan, 27, 45, 52])
    np.testing.assert_array_equal(table["weight"], [2.5, np.nan, np.nan, np.nan, 1.0])
    assert list(table["colour"].cat.categories) == ["blue", "red"]
    assert list(table["colour"].cat.codes) == [1, 0, -1, -1, 1]  # "?" and "" are missing
    assert list(table["label"].cat.categories) == ["no", "yes"]
    assert list(table["label"].astype(str)) == ["yes", "no", "yes", "no", "no"]
    assert check == {
        "id": "mine",
        "source": str(path),
        "target": "label",
        "rows": 5,
        "attributes": 3,
        "classes": {"count": 2, "labels": ["no", "yes"]},
        "missing_cells": 6,
        "numeric_attributes": 2,
        "categorical_attributes": 1,
        "one_state": [],
        "path": str(path),
        "sha256": _digest(path),
    }
    json.dumps(check)  # plain JSON types only


def test_prepared_table_survives_parquet(tmp_path: Path) -> None:
    path = _write(tmp_path, "numbers.csv", "a,b,cls\n1,x,0\n2,y,1\n,x,1\n")
    table, check = read_user_dataset(path, "numbers", "cls", None, numeric=["a"])
    assert check["classes"]["labels"] == ["0", "1"]  # numeric classes as text labels
    write_parquet(table, tmp_path / "numbers.parquet")
    back = pd.read_parquet(tmp_path / "numbers.parquet")
    assert [str(t) for t in back.dtypes] == ["float64", "category", "category"]
    np.testing.assert_array_equal(back["a"], table["a"])
    for name in ("b", "cls"):  # same levels and codes (level dtype may read back as str)
        assert list(back[name].cat.categories) == list(table[name].cat.categories)
        assert list(back[name].cat.codes) == list(table[name].cat.codes)


def test_arff_declared_levels_kept_and_unused_classes_dropped(tmp_path: Path) -> None:
    path = _write(tmp_path, "user.arff", ARFF)
    table, check = read_user_dataset(path, "shapes", "class", None, numeric=["size"])
    assert list(table.columns) == ["size", "shape", "class"]
    np.testing.assert_array_equal(table["size"], [1.5, np.nan, 3.0])
    assert list(table["shape"].cat.categories) == ["round", "square", "star"]
    assert list(table["shape"].cat.codes) == [0, 1, -1]
    assert list(table["class"].cat.categories) == ["good", "bad"]
    assert check["classes"] == {"count": 2, "labels": ["good", "bad"]}
    assert (check["missing_cells"], check["numeric_attributes"]) == (2, 1)


def test_few_numbers_are_categorical_and_a_one_value_column_is_left_out(tmp_path: Path) -> None:
    """Issue 45: a column of at most 20 distinct numbers keeps them as its levels (grades 1-4
    are four states, not bins merging 1 and 2) unless declared numeric; an attribute with one
    value in every row is left out and named, unless keep_constant."""
    rows = "".join(f"{i % 4 + 1},{i % 7 * 1.5},k,{'ab'[i % 2]}\n" for i in range(60))
    path = _write(tmp_path, "grades.csv", "grade,score,same,cls\n" + rows)
    table, check = read_user_dataset(path, "mine", "cls", None)
    assert list(table["grade"].cat.categories) == ["1", "2", "3", "4"]
    assert list(table["score"].cat.categories)[:2] == ["0", "1.5"]
    assert "same" not in table and check["one_state"] == ["same"]
    table, check = read_user_dataset(path, "mine", "cls", None, categorical=[], numeric=["grade"],
                                     keep_constant=True)  # fmt: skip
    assert table["grade"].dtype == np.float64 and check["one_state"] == []
    assert list(table["same"].cat.categories) == ["k"]
    with pytest.raises(DataFormatError, match=r"numeric: names \['grades'\], not columns"):
        read_user_dataset(path, "mine", "cls", None, numeric=["grades"])
    with pytest.raises(DataFormatError, match=r"'same' is declared numeric but has 'k'"):
        read_user_dataset(path, "mine", "cls", None, numeric=["same"])


def test_sha256_checked_when_given(tmp_path: Path) -> None:
    path = _write(tmp_path, "user.csv", CSV)
    right = _digest(path)
    _, check = read_user_dataset(path, "mine", "label", right.upper())
    assert check["sha256"] == right
    wrong = "0" * 64
    message = rf"{re.escape(str(path))}.*expected sha256 {wrong}, got {right}"
    with pytest.raises(ChecksumError, match=message):
        read_user_dataset(path, "mine", "label", wrong)


def test_user_file_errors_name_the_file_and_key(tmp_path: Path) -> None:
    where = re.escape(str(tmp_path))
    absent = tmp_path / "absent.csv"
    with pytest.raises(ConfigError, match=rf"panel\.datasets id 'x': file {where}.*absent"):
        read_user_dataset(absent, "x", "label", None)
    excel = _write(tmp_path, "user.xlsx", CSV)
    with pytest.raises(ConfigError, match=rf"{where}.*user\.xlsx.*\.csv, \.arff"):
        read_user_dataset(excel, "x", "label", None)
    path = _write(tmp_path, "user.csv", CSV)
    with pytest.raises(DataFormatError, match=rf"{where}.*'klass' not found.*'colour'"):
        read_user_dataset(path, "x", "klass", None)
    unlabelled = _write(tmp_path, "gaps.csv", "a,y\n1,p\n2,\n3,q\n4,?\n5,NA\n")
    with pytest.raises(DataFormatError, match=r"gaps\.csv.*: 3 rows .*'y' \(rows 2, 4, 5;"):
        read_user_dataset(unlabelled, "x", "y", None)
    single = _write(tmp_path, "single.csv", "a,y\n1,p\n2,p\n")
    with pytest.raises(DataFormatError, match=r"single\.csv.*1 class\(es\) \['p'\]"):
        read_user_dataset(single, "x", "y", None)
    garbled = _write(tmp_path, "garbled.csv", "a,y\n" + "1,p\n" * 30 + "one,q\n")
    with pytest.raises(DataFormatError, match=r"garbled\.csv, line 32: column 'a'"):
        read_user_dataset(garbled, "x", "y", None)


def test_an_identifier_column_of_a_users_file_is_refused_until_dropped(tmp_path: Path) -> None:
    """A text id per row (issue 26: a 2,000-row file with one ran 10x longer, silently) is
    refused with its name, count and the drop that fixes it, and so is a whole number per row
    (issue 45: cut into bins it meant nothing); a column of many repeated levels and a dropped
    id are fine."""
    rows = [f"u{i:04d},{['p', 'q', 'r'][i % 3]},{i},{'yes' if i % 2 else 'no'}" for i in range(120)]
    path = _write(tmp_path, "ids.csv", "user,level,num,y\n" + "\n".join(rows) + "\n")
    with pytest.raises(
        DataFormatError,
        match=r"ids\.csv.*'user' has 120 distinct values in 120 rows.*drop: \['user'\]",
    ):
        read_user_dataset(path, "mine", "y", None)
    with pytest.raises(DataFormatError, match=r"'num' holds a different whole number.*\['num'\]"):
        read_user_dataset(path, "mine", "y", None, drop=["user"])
    table, check = read_user_dataset(path, "mine", "y", None, drop=["user", "num"])
    assert list(table.columns) == ["level", "y"] and check["rows"] == 120
    few = _write(
        tmp_path, "few.csv", "user,y\n" + "".join(f"u{i % 49},a{i % 2}\n" for i in range(120))
    )
    assert read_user_dataset(few, "mine", "y", None)[0]["user"].nunique() == 49


def _registry_frame(n: int = 40) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "x": np.arange(n, dtype=np.float64),
            "count": np.arange(n) % 3,
            "cls": pd.Categorical(np.where(np.arange(n) % 2, "b", "a"), categories=["a", "b"]),
            "flag": pd.Categorical(np.where(np.arange(n) % 4, "u", "v")),
        }
    )


def test_registry_target_defaults_to_the_last_column_or_is_moved_last() -> None:
    frame = _registry_frame()
    table, check = prepare_registry_table(frame, "toy", "study/toy", None, None, base_seed=0)
    assert list(table.columns) == ["x", "count", "cls", "flag"]
    assert check["classes"] == {"count": 2, "labels": ["u", "v"]}
    assert table["count"].dtype == "category"  # integers become categorical, labels as text
    assert list(table["count"].cat.categories) == ["0", "1", "2"]
    assert (check["numeric_attributes"], check["categorical_attributes"]) == (1, 2)
    table, check = prepare_registry_table(frame, "toy", "study/toy", "cls", None, base_seed=0)
    assert list(table.columns) == ["x", "count", "flag", "cls"]
    assert (check["target"], check["rows"], check["attributes"]) == ("cls", 40, 3)


def test_a_float_indicator_column_becomes_nominal() -> None:
    frame = _registry_frame()
    frame["smokes"] = np.where(np.arange(40) % 3 == 0, 1.0, 0.0)
    frame.loc[5, "smokes"] = np.nan
    table, check = prepare_registry_table(frame, "toy", "study/toy", "cls", None, base_seed=0)
    assert list(table["smokes"].cat.categories) == ["0", "1"]
    assert table["smokes"].cat.codes[5] == -1 and table["x"].dtype == np.float64
    assert (check["numeric_attributes"], check["categorical_attributes"]) == (1, 3)
    frame["unmeasured"] = np.nan  # hypothyroid's TBG: stays numeric (parquet keeps its type)
    table, _ = prepare_registry_table(frame, "toy", "study/toy", "cls", None, base_seed=0)
    assert table["unmeasured"].dtype == np.float64


def test_dropped_columns_are_left_out_and_unknown_ones_named() -> None:
    frame = _registry_frame()
    table, check = prepare_registry_table(frame, "toy", "study/toy", "cls", None, 0, drop=["x"])
    assert list(table.columns) == ["count", "flag", "cls"] and check["attributes"] == 2
    with pytest.raises(DataFormatError, match=r"drop names \['id'\], not columns"):
        prepare_registry_table(frame, "toy", "study/toy", "cls", None, 0, drop=["id"])


def test_registry_rows_are_a_seeded_sample_in_table_order() -> None:
    frame = _registry_frame()
    first, check = prepare_registry_table(frame, "toy", "study/toy", "cls", 12, base_seed=0)
    again, _ = prepare_registry_table(frame, "toy", "study/toy", "cls", 12, base_seed=0)
    other, _ = prepare_registry_table(frame, "toy", "study/toy", "cls", 12, base_seed=1)
    pd.testing.assert_frame_equal(first, again)
    assert check["rows"] == 12 and first["x"].is_monotonic_increasing
    assert first["x"].is_unique and set(first["x"]) <= set(frame["x"])
    assert list(first["x"]) != list(other["x"])
    everything, _ = prepare_registry_table(frame, "toy", "study/toy", "cls", 40, base_seed=0)
    assert list(everything["x"]) == list(frame["x"])


def test_registry_errors_name_the_source() -> None:
    frame = _registry_frame()
    with pytest.raises(DataFormatError, match=r"study/toy \(panel\.registry id 'toy'\).*41.*40"):
        prepare_registry_table(frame, "toy", "study/toy", "cls", 41, base_seed=0)
    with pytest.raises(DataFormatError, match=r"study/toy.*'BP' not found.*\['x', 'count'"):
        prepare_registry_table(frame, "toy", "study/toy", "BP", None, base_seed=0)
    frame.loc[[3, 7], "cls"] = np.nan
    with pytest.raises(DataFormatError, match=r"study/toy.*2 rows .*\(rows 4, 8;"):
        prepare_registry_table(frame, "toy", "study/toy", "cls", None, base_seed=0)


@pytest.fixture(scope="module")
def validator() -> Draft202012Validator:
    schema = yaml.safe_load(SCHEMA.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def _errors(validator: Draft202012Validator, section: dict) -> list[str]:
    return [".".join(str(p) for p in e.path) for e in validator.iter_errors(section)]


def test_schema_accepts_the_design_section(validator: Draft202012Validator) -> None:
    section = yaml.safe_load(DESIGN_SECTION)
    assert _errors(validator, section) == []
    section["datasets"] = [
        {"id": "mine", "path": "data/mine.csv", "target": "label", "sha256": "ab" * 32}
    ]
    assert _errors(validator, section) == []


@pytest.mark.parametrize(
    ("change", "where"),
    [
        (lambda s: s.update(extra=1), ""),
        (lambda s: s["settings"]["hdp"].update(alpha=1), "settings.hdp"),
        (lambda s: s["registry"][0].update(path="x.csv"), "registry.0"),
        (lambda s: s["estimators"].append("mle"), "estimators.7"),
        (lambda s: s["estimators"].append("hdp"), "estimators"),
        (lambda s: s["registry"][0].update(source="iris"), "registry.0.source"),
        (lambda s: s["registry"][2].update(rows=5), "registry.2.rows"),
        (
            lambda s: s["datasets"].append({"id": "a b", "path": "p", "target": "y"}),
            "datasets.0.id",
        ),
        (lambda s: s["datasets"].append({"id": "a", "path": "p"}), "datasets.0"),
        (
            lambda s: s["datasets"].append({"id": "a", "path": "p", "target": "y", "sha256": "0"}),
            "datasets.0.sha256",
        ),
        (lambda s: s["settings"]["hidden"].update(eps=0), "settings.hidden.eps"),
        (lambda s: s["learning_curve"].update(sizes=[]), "learning_curve.sizes"),
    ],
)
def test_schema_rejects_bad_sections(validator: Draft202012Validator, change, where: str) -> None:
    section = yaml.safe_load(DESIGN_SECTION)
    change(section)
    assert where in _errors(validator, section)
