"""dombowsky2025 data (spec §4.2, §4.5, §5, A11-A13): LUCAS0 under the spec's names with its true
DAG and Markov blankets (Table 5), and the METABRIC Table 4 variables from the cBioPortal patient
and sample tables, every patient accounted for, in both metabric modes."""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from hierbn.data.convert import build_dataset, check_against_paper
from hierbn.data.registry import load_registry
from hierbn.studies.dombowsky2025.lucas import (
    COLUMNS,
    EDGES,
    SPANISH,
    TARGETS,
    code_lucas,
    markov_blanket,
    true_blankets,
)
from hierbn.studies.dombowsky2025.metabric import LABELS, VARIABLES, code_metabric
from hierbn.studies.dombowsky2025.paper import TABLE5

REGISTRY = Path(__file__).resolve().parents[1] / "config" / "datasets.tsv"
LUCAS_FILE = "vicbeldo98/causaInf/LUCAS-EXAMPLE/lucas.csv"


def _converted(mirror: Path, dataset: str) -> tuple[pd.DataFrame, dict]:
    entry = load_registry(REGISTRY)[("dombowsky2025", dataset)]
    data = build_dataset(entry, [mirror / p.file for p in entry.parts])
    return data, check_against_paper(entry, data)


# ------------------------------------------------------------------------------------ LUCAS
@pytest.fixture(scope="module")
def lucas(mirror) -> pd.DataFrame:
    data, check = _converted(mirror, "lucas0")
    assert check["deviations"] == []  # 2000 rows, 11 attributes + the target, 2 classes
    return data


def test_lucas_spanish_header_is_the_spec_order(mirror) -> None:
    header = (mirror / LUCAS_FILE).read_text().splitlines()[0].split(",")
    assert [SPANISH[h] for h in header] == list(COLUMNS)


def test_lucas_codes_are_2000_by_12_binary(lucas: pd.DataFrame) -> None:
    table, check = code_lucas(lucas, "lucas0.parquet")
    assert table.shape == (2000, 12) and list(table.columns) == list(COLUMNS)
    assert all(table[c].dtype == np.int64 for c in COLUMNS) and set(np.unique(table)) == {0, 1}
    assert check["order_matches_spec"] and check["rows"] == 2000
    assert round(check["mean"]["Anxiety"], 4) == 0.6305  # §5: Anxiety .63, Genetics .14, ...
    assert (round(check["mean"]["Genetics"], 4), check["mean"]["Allergy"]) == (0.1395, 0.343)


# §5, the CPTs verified against the Causality Workbench page: (child, parents, {parent values:
# P(child = 1)}); the file's frequencies must agree within 4 standard errors
CPTS = [
    ("Yellow_Fingers", ("Smoking",), {(0,): 0.23119, (1,): 0.95372}),
    ("Attention_Disorder", ("Genetics",), {(0,): 0.28956, (1,): 0.68706}),
    ("Lung_cancer", ("Genetics", "Smoking"),
     {(0, 0): 0.23146, (1, 0): 0.86996, (0, 1): 0.83934, (1, 1): 0.99351}),
    ("Smoking", ("Peer_Pressure", "Anxiety"),
     {(0, 0): 0.43118, (1, 0): 0.74591, (0, 1): 0.8686, (1, 1): 0.91576}),
]  # fmt: skip


@pytest.mark.parametrize(("child", "parents", "cpt"), CPTS)
def test_lucas_columns_mean_what_their_names_say(lucas, child, parents, cpt) -> None:
    table, _ = code_lucas(lucas, "lucas0.parquet")
    for values, p in cpt.items():
        rows = table[(table[list(parents)] == list(values)).all(axis=1)]
        se = math.sqrt(p * (1 - p) / len(rows))
        assert abs(rows[child].mean() - p) < 4 * se, (child, values, rows[child].mean(), p)


def test_markov_blanket_has_parents_children_and_spouses() -> None:
    edges = [("a", "c"), ("b", "c"), ("c", "d"), ("e", "d"), ("d", "f")]
    assert markov_blanket(edges, "c") == {"a", "b", "d", "e"}
    assert markov_blanket(edges, "a") == {"c", "b"} and markov_blanket(edges, "z") == set()


def test_true_blankets_from_the_dag_equal_table5() -> None:
    assert len(EDGES) == 12 and set(TARGETS) == set(TABLE5)
    assert true_blankets() == TABLE5
    assert true_blankets()["Fatigue"] == {
        "Lung_cancer", "Coughing", "Car_Accident", "Attention_Disorder"}  # fmt: skip
    assert markov_blanket(EDGES, "Born_an_Even_Day") == set()  # isolated


def test_dag_matches_the_mirrored_dagitty_graph(mirror) -> None:
    text = (mirror / "vicbeldo98/causaInf/LUCAS-EXAMPLE/lucas-graph.txt").read_text()
    edges = re.findall(r"^(\w+) -> (\w+)$", text, flags=re.MULTILINE)
    assert {(SPANISH[a], SPANISH[b]) for a, b in edges} == set(EDGES) and len(edges) == 12


def test_lucas_bad_input_names_file_and_column(lucas: pd.DataFrame) -> None:
    bad = lucas.copy()
    bad["Toser"] = bad["Toser"].where(bad.index != 7, 2.0)
    with pytest.raises(
        ValueError, match=r"bad\.csv: column 'Coughing' must be 0/1; row 8 .*'2\.0'"
    ):
        code_lucas(bad, "bad.csv")
    with pytest.raises(ValueError, match=r"short\.csv: LUCAS columns \['Allergy'\] not found"):
        code_lucas(lucas.drop(columns=["Alergia"]), "short.csv")
    with pytest.raises(ValueError, match=r"head\.csv: expected 2000 rows x 12 columns"):
        code_lucas(lucas.head(50), "head.csv")
    missing = lucas.copy()
    missing["Fumar"] = missing["Fumar"].where(missing.index != 0)
    with pytest.raises(ValueError, match=r"column 'Smoking' must be 0/1; row 1 .* 'nan'"):
        code_lucas(missing, "missing.csv")


# --------------------------------------------------------------------------------- METABRIC
@pytest.fixture(scope="module")
def metabric(mirror) -> tuple[pd.DataFrame, pd.DataFrame]:
    patients, check = _converted(mirror, "metabric-patient")
    samples, _ = _converted(mirror, "metabric-sample")
    assert check["rows"] == 2509 and len(samples) == 2509  # every cBioPortal patient is read
    return patients, samples


EXPECTED = {  # n and levels per variable from the mirrored files; see the module docstring
    "code": (1933, {"TBS": 2, "CHT": 2, "DFC": 3, "CTD": 5, "AAD": 8, "TSI": 4, "RTH": 2,
                    "PTL": 3, "INC": 11, "IMS": 2, "HTH": 2, "COH": 5}),
    "clean": (1839, {"TBS": 2, "CHT": 2, "DFC": 3, "CTD": 6, "AAD": 8, "TSI": 3, "RTH": 2,
                     "PTL": 2, "INC": 11, "IMS": 2, "HTH": 2, "COH": 5}),
}  # fmt: skip


@pytest.mark.parametrize("mode", ["code", "clean"])
def test_metabric_accounts_for_every_patient(metabric, mode: str) -> None:
    patients, samples = metabric
    codes, record, report = code_metabric(patients, samples, mode, ("pat.txt", "sam.txt"))
    assert len(record) == len(patients) == report["patients"] == 2509
    assert set(record["PATIENT_ID"]) == set(patients["PATIENT_ID"].astype(str))
    dropped = record[~record["kept"]]
    assert (dropped["reason"] != "").all() and (record.loc[record["kept"], "reason"] == "").all()
    assert report["n"] + report["dropped"] == 2509 == len(codes) + len(dropped)
    assert sum(report["drop_reasons"].values()) == len(dropped)
    assert list(codes.index) == list(record.loc[record["kept"], "PATIENT_ID"])
    assert report["drop_reasons"]["no patient attributes (not in the clinical cohort)"] == 529
    assert report["drop_reasons"]["not breast cancer (OncoTree PT: Breast Sarcoma)"] == 4
    assert report["after_steps_1_3"] == 1936 and report["paper_n"] == 1867
    assert (report["n"], report["levels_per_variable"]) == EXPECTED[mode]


@pytest.mark.parametrize("mode", ["code", "clean"])
def test_metabric_codes_are_contiguous_from_zero(metabric, mode: str) -> None:
    codes, _, report = code_metabric(*metabric, mode)
    assert list(codes.columns) == list(VARIABLES)
    for var in VARIABLES:
        assert codes[var].dtype == np.int64
        assert sorted(codes[var].unique()) == list(range(report["levels_per_variable"][var]))
        assert list(report["levels"][var].values()) == np.bincount(codes[var]).tolist()


def test_metabric_code_mode_follows_r(metabric) -> None:
    _, record, report = code_metabric(*metabric, "code")
    assert report["tumour_size_breaks"] == [0.0, 17.0, 23.0, 30.0, 182.0]
    assert list(report["levels"]["INC"])[4:6] == ["4ER-", "4ER+"]  # §4.5 step 6
    assert report["levels"]["PTL"][""] == 97  # cBioPortal "null" laterality kept as a level
    size0 = record[record["reason"].str.startswith("TSI")]  # R's cut() gives NA for size 0
    assert len(size0) == 3 and set(size0["PATIENT_ID"]) == {"MB-0281", "MB-0403", "MB-0876"}
    assert any(d.startswith("INC: Table 4 has 10 categories, ours 11; only ours: ['10']")
               for d in report["table4_differences"])  # fmt: skip


def test_metabric_labels_are_in_r_alphabetical_order() -> None:
    for var, labels in LABELS.items():
        order = list(labels.values())
        if var == "INC":  # the spec's order: "4ER-" before "4ER+" (locale collation)
            assert order == ["", "1", "10", "2", "3", "4ER-", "4ER+", "5", "6", "7", "8", "9"]
        else:
            assert order == sorted(order), var


def _toy(rows: list[tuple]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Patient and sample tables: (id, surgery, vital, size, age, laterality, cluster, oncotree)."""
    patients = pd.DataFrame(
        [{"PATIENT_ID": r[0], "BREAST_SURGERY": r[1], "VITAL_STATUS": r[2],
          "AGE_AT_DIAGNOSIS": r[4], "LATERALITY": r[5], "INTCLUST": r[6], "CHEMOTHERAPY": "NO",
          "RADIO_THERAPY": "YES", "HORMONE_THERAPY": "YES", "INFERRED_MENOPAUSAL_STATE": "post",
          "COHORT": 2.0} for r in rows]
    )  # fmt: skip
    samples = pd.DataFrame([{"PATIENT_ID": r[0], "TUMOR_SIZE": r[3], "ONCOTREE_CODE": r[7]}
                            for r in rows])  # fmt: skip
    return patients, samples


TOY = [("a", "MASTECTOMY", "Living", 10.0, 29.99, "l", "4ER+", "IDC"),
       ("b", "MASTECTOMY", "Living", 20.0, 30.0, "r", "4ER-", "IDC"),
       ("c", "BREAST CONSERVING", "Died of Disease", 30.0, 45.0, "", "10", "ILC"),
       ("d", "MASTECTOMY", "Living", 40.0, 90.0, "r", "2", "IDC"),
       ("e", "MASTECTOMY", "Living", 50.0, 95.0, "l", "2", "MDLC"),
       ("f", "", "Living", 25.0, 50.0, "l", "2", "IDC"),
       ("g", "MASTECTOMY", "Living", 25.0, 50.0, "l", "2", "PT"),
       ("h", "MASTECTOMY", "NA", np.nan, 50.0, "l", "2", "IDC")]  # fmt: skip


def test_metabric_toy_codes_and_reasons() -> None:
    codes, record, report = code_metabric(*_toy(TOY), "code")
    assert record.set_index("PATIENT_ID")["reasons"].to_dict() == {
        "a": "", "b": "", "c": "", "d": "", "e": "", "f": "type of breast surgery missing",
        "g": "not breast cancer (OncoTree PT: Breast Sarcoma)",
        "h": "tumour size missing; vital status (death from cancer) missing"}  # fmt: skip
    # type-7 quartiles of 10..50 are 20, 30, 40: (0,20], (20,30], (30,40], (40,50]
    assert codes["TSI"].tolist() == [0, 0, 1, 2, 3]
    assert codes["AAD"].tolist() == [0, 1, 2, 7, 7]  # [20,30), [30,40), [40,50), ..., [90,Inf)
    assert codes["INC"].tolist() == [3, 2, 0, 1, 1]  # levels 10, 2, 4ER-, 4ER+
    assert codes["PTL"].tolist() == [1, 2, 0, 2, 1] and codes["TBS"].tolist() == [1, 1, 0, 1, 1]
    assert codes["DFC"].tolist() == [1, 1, 0, 1, 1] and set(codes["COH"]) == {0}
    assert codes["RTH"].tolist() == [0] * 5 and report["levels"]["RTH"] == {"1": 5}
    clean, record, _ = code_metabric(*_toy(TOY), "clean")
    assert record.set_index("PATIENT_ID").loc["c", "reason"] == "PTL missing (clean mode)"
    # clean quartiles of 10, 20, 40, 50: Q1 = 17.5, Q3 = 42.5
    assert clean["TSI"].tolist() == [0, 1, 1, 2] and clean["PTL"].tolist() == [0, 1, 1, 0]


def test_metabric_bad_input_names_file_and_column() -> None:
    patients, samples = _toy(TOY)
    odd = patients.assign(LATERALITY=["l", "x", *patients["LATERALITY"][2:]])
    with pytest.raises(ValueError, match=r"pat\.txt: column 'LATERALITY' has 'x' \(patient b\)"):
        code_metabric(odd, samples, "code", ("pat.txt", "sam.txt"))
    with pytest.raises(ValueError, match=r"pat\.txt: column 'COHORT' \(COH\) not found"):
        code_metabric(patients.drop(columns="COHORT"), samples, "code", ("pat.txt", "sam.txt"))
    with pytest.raises(ValueError, match=r"sam\.txt: column 'TUMOR_SIZE' has 'big'"):
        code_metabric(patients, samples.assign(TUMOR_SIZE="big"), "code", ("pat.txt", "sam.txt"))
    with pytest.raises(ValueError, match=r"patients not in both tables: \['h'\]"):
        code_metabric(patients, samples.iloc[:-1], "code", ("pat.txt", "sam.txt"))
    with pytest.raises(ValueError, match="metabric_mode must be one of"):
        code_metabric(patients, samples, "kaggle")
