"""METABRIC (Sec. 6 / App. D of dombowsky2025; decisions §4.5, §5, A11, A12 and A13): the twelve
variables of Table 4 built from the public cBioPortal ``brca_metabric`` patient and sample tables
(the paper's Kaggle file needs a login, decision A13), following the [code] preprocessing of
decisions §4.5.

Kaggle column <- cBioPortal column (decisions §5): type_of_breast_surgery <- BREAST_SURGERY,
death_from_cancer <- VITAL_STATUS, chemotherapy / radio_therapy / hormone_therapy <- YES/NO as
1/0, age_at_diagnosis, integrative_cluster <- INTCLUST, primary_tumor_laterality <- LATERALITY
(l/r), inferred_menopausal_state, cohort (patient table); tumor_size, and cancer_type /
cancer_type_detailed <- the OncoTree code (sample table: this release has no CANCER_TYPE
columns; PT, the phyllodes tumour, is OncoTree's one "Breast Sarcoma"). cBioPortal's missing
tokens (empty, NA, null) play the Kaggle file's empty string.

``mode="code"`` (decision A12): empty strings stay a level, tumour size in quartile bins by R's
``cut(x, c(0, Q25, Q50, Q75, max), right=TRUE)`` on type-7 quantiles of the filtered data, age
by ``cut(..., right=FALSE)`` at Table 4's age-bin edges (``paper.TABLE4_AGE_BINS``, the last bin
open above), every other variable coded by its R factor
levels (alphabetical, "4ER-" before "4ER+" as in decisions §4.5) from 0. A value R would code NA (a
tumour size of 0 is outside (0, Q25]) cannot enter a count table: that patient is dropped with
the reason. ``mode="clean"``: an empty value is missing (the patient is dropped) and tumour size
is binned as Table 4's low / normal / high (< Q1, Q1-Q3, > Q3).

The restriction of [code] to patients with mRNA profiles (cBioPortal's study page lists fewer
patients with mRNA profiles than with clinical data) cannot be approximated from
these two tables: every patient with clinical data has a PAM50 and an integrative cluster (both
expression-based), and no column marks the profiled ones (that needs cBioPortal's mRNA case
list, which the mirror does not hold).
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import numpy as np
import pandas as pd

from hierbn.studies.dombowsky2025.paper import (
    METABRIC_N,
    TABLE4_AGE_BINS,
    TABLE4_CATEGORIES,
    TABLE4_LEVELS,
)

VARIABLES = ("TBS", "CHT", "DFC", "CTD", "AAD", "TSI", "RTH", "PTL", "INC", "IMS", "HTH", "COH")
MODES = ("code", "clean")
MISSING_TOKENS = ("", "NA", "null")
ID = "PATIENT_ID"
# (table, column) of each variable; "sample" = the sample table
SOURCE = {"TBS": ("patient", "BREAST_SURGERY"), "CHT": ("patient", "CHEMOTHERAPY"),
          "DFC": ("patient", "VITAL_STATUS"), "CTD": ("sample", "ONCOTREE_CODE"),
          "AAD": ("patient", "AGE_AT_DIAGNOSIS"), "TSI": ("sample", "TUMOR_SIZE"),
          "RTH": ("patient", "RADIO_THERAPY"), "PTL": ("patient", "LATERALITY"),
          "INC": ("patient", "INTCLUST"), "IMS": ("patient", "INFERRED_MENOPAUSAL_STATE"),
          "HTH": ("patient", "HORMONE_THERAPY"), "COH": ("patient", "COHORT")}  # fmt: skip
TREATMENT = {"NO": 0, "YES": 1}  # the treatment columns CHT, RTH, HTH
# cBioPortal value -> Kaggle label, keys in R's alphabetical order of the labels ("" first)
LABELS: dict[str, dict[str, str]] = {
    "TBS": {"": "", "BREAST CONSERVING": "BREAST CONSERVING", "MASTECTOMY": "MASTECTOMY"},
    "DFC": {"": "", "Died of Disease": "Died of Disease",
            "Died of Other Causes": "Died of Other Causes", "Living": "Living"},
    "CTD": {"": "", "BREAST": "Breast", "DCIS": "Breast Ductal Carcinoma In Situ",
            "IDC": "Breast Invasive Ductal Carcinoma", "ILC": "Breast Invasive Lobular Carcinoma",
            "IMMC": "Breast Invasive Mixed Mucinous Carcinoma",
            "MDLC": "Breast Mixed Ductal and Lobular Carcinoma",
            "BRCA": "Invasive Breast Carcinoma", "MBC": "Metaplastic Breast Cancer",
            "PT": "Phyllodes Tumor of the Breast"},
    "PTL": {"": "", "l": "Left", "r": "Right"},
    "INC": {v: v for v in ("", "1", "10", "2", "3", "4ER-", "4ER+", "5", "6", "7", "8", "9")},
    "IMS": {"": "", "post": "Post", "pre": "Pre"},
}  # fmt: skip
SARCOMA = {"PT"}  # OncoTree codes whose cancer type is not "Breast Cancer" (Breast Sarcoma)
# our data's label of a Table 4 spelling, where they differ beyond letter case (a mapping we
# chose from the data's levels; the spellings themselves are paper.TABLE4_CATEGORIES)
DATA_LABEL_OF = {"yes": "1", "no": "0", "IDC": "Breast Invasive Ductal Carcinoma",
               "mDLC": "Breast Mixed Ductal and Lobular Carcinoma",
               "ILC": "Breast Invasive Lobular Carcinoma",
               "MMBC": "Breast Invasive Mixed Mucinous Carcinoma",
               "MpBC": "Metaplastic Breast Cancer"}  # fmt: skip
# Table 4's age bins (TABLE4_AGE_BINS: the first bin's edges, the second's, the last's lower
# edge): equal widths from the first lower edge, the last bin open above
_FIRST, _WIDTH, _LAST = (
    TABLE4_AGE_BINS[0],
    TABLE4_AGE_BINS[1] - TABLE4_AGE_BINS[0],
    TABLE4_AGE_BINS[-1],
)
AGE_BREAKS = (*range(_FIRST, _LAST + 1, _WIDTH), np.inf)
PATIENT_FILTERS = (  # decisions §4.5 steps 1 and 3, in order; the first that applies is the reason
    ("no patient attributes (not in the clinical cohort)", lambda f: ~f["clinical"]),
    ("not breast cancer (OncoTree PT: Breast Sarcoma)", lambda f: f["CTD"].isin(
        [LABELS["CTD"][c] for c in SARCOMA])),
    ("tumour size missing", lambda f: f["TSI"].isna()),
    ("type of breast surgery missing", lambda f: f["TBS"].eq("")),
    ("vital status (death from cancer) missing", lambda f: f["DFC"].eq("")),
)  # fmt: skip


def _text(values: pd.Series, var: str, column: str, source: str, ids: pd.Series) -> pd.Series:
    """A text column as Kaggle labels (missing tokens -> ""); an unknown value is an error
    naming the file, the column, the value and a patient."""
    raw = values.astype(object).where(values.notna(), "").map(str).str.strip()
    raw = raw.where(~raw.isin(MISSING_TOKENS), "")
    unknown = ~raw.isin(LABELS[var])
    if unknown.any():
        first = int(np.flatnonzero(unknown.to_numpy())[0])
        raise ValueError(
            f"{source}: column {column!r} has {raw.iloc[first]!r} (patient {ids.iloc[first]}); "
            f"expected one of {sorted(LABELS[var])}"
        )
    return raw.map(LABELS[var])


def _number(
    values: pd.Series, column: str, source: str, ids: pd.Series, words: dict[str, int]
) -> pd.Series:
    """A numeric column as float64 (missing tokens -> NaN, ``words`` -> their numbers); any
    other non-number is an error naming the file, the column, the value and a patient."""
    raw = values.astype(object).where(values.notna(), "").map(str).str.strip()
    raw = raw.map(lambda v: str(words[v]) if v in words else v)
    raw = raw.where(~raw.isin(MISSING_TOKENS), None)
    numbers = pd.to_numeric(raw, errors="coerce")
    bad = raw.notna() & numbers.isna()
    if bad.any():
        first = int(np.flatnonzero(bad.to_numpy())[0])
        raise ValueError(
            f"{source}: column {column!r} has {raw.iloc[first]!r} (patient {ids.iloc[first]}); "
            f"expected a number{' or ' + '/'.join(words) if words else ''}"
        )
    return numbers.astype(np.float64)


def _check_ids(frame: pd.DataFrame, source: str) -> pd.Series:
    if ID not in frame.columns:
        raise ValueError(f"{source}: no {ID} column; has {list(frame.columns)}")
    ids = frame[ID].astype(str)
    if ids.duplicated().any():
        raise ValueError(f"{source}: {ID} {ids[ids.duplicated()].iloc[0]!r} occurs twice")
    return ids


def join_tables(
    patients: pd.DataFrame, samples: pd.DataFrame, sources: tuple[str, str]
) -> pd.DataFrame:
    """One row per patient (index PATIENT_ID, patient-table order) with the twelve variables
    in Kaggle semantics (labels; numbers for AAD, TSI, COH and the 0/1 treatments) and
    ``clinical`` (the patient has any patient attribute). Each sample patient must be a patient
    and each patient have one sample."""
    tables = {"patient": patients, "sample": samples}
    where = dict(zip(tables, sources, strict=True))
    ids = {name: _check_ids(t, where[name]) for name, t in tables.items()}
    if set(ids["patient"]) != set(ids["sample"]):
        odd = sorted(set(ids["patient"]) ^ set(ids["sample"]))
        raise ValueError(f"{sources[0]} and {sources[1]}: patients not in both tables: {odd[:5]}")
    order = pd.Index(ids["patient"], name=ID)
    columns = {}
    for var, (table, column) in SOURCE.items():
        frame = tables[table]
        if column not in frame.columns:
            raise ValueError(f"{where[table]}: column {column!r} ({var}) not found")
        raw, who = frame[column].reset_index(drop=True), ids[table].reset_index(drop=True)
        if var in LABELS:
            values = _text(raw, var, column, where[table], who)
        else:
            words = TREATMENT if var in ("CHT", "RTH", "HTH") else {}
            values = _number(raw, column, where[table], who, words)
        columns[var] = pd.Series(values.to_numpy(), index=ids[table].to_numpy()).loc[order]
    attributes = patients.drop(columns=[ID]).astype(object)
    present = ~(attributes.isna() | attributes.map(lambda v: str(v).strip() in MISSING_TOKENS))
    columns["clinical"] = pd.Series(present.any(axis=1).to_numpy(), index=order)
    return pd.DataFrame(columns, index=order)


def _cut(values: np.ndarray, breaks: np.ndarray, right: bool) -> np.ndarray:
    """R's ``cut`` (include.lowest=FALSE): the interval index, -1 outside every interval."""
    if np.unique(breaks).size != breaks.size:
        raise ValueError(f"cut(): breaks {breaks.tolist()} are not unique")
    index = np.searchsorted(breaks, values, side="left" if right else "right") - 1
    return np.where((index >= 0) & (index < breaks.size - 1), index, -1)


def _cut_labels(breaks: np.ndarray, right: bool) -> list[str]:
    """R's interval labels, e.g. "(0,1.5]" or "[2,Inf)" (3 significant digits)."""
    text = ["Inf" if np.isinf(b) else f"{b:.3g}" for b in breaks]
    left, close = ("(", "]") if right else ("[", ")")
    return [f"{left}{a},{b}{close}" for a, b in pairwise(text)]


def _tumour_bins(
    size: np.ndarray, reference: np.ndarray, mode: str
) -> tuple[np.ndarray, list[str], list[float]]:
    """TSI codes (-1 = none), labels and breaks, with quantiles of ``reference`` (the filtered
    data, decisions §4.5 step 5): [code]'s quartile bins, or clean mode's 3 bins."""
    if mode == "code":
        q = np.quantile(reference, [0.25, 0.5, 0.75])  # numpy's linear method = R's type 7
        breaks = np.array([0.0, *q, reference.max()])
        return _cut(size, breaks, right=True), _cut_labels(breaks, True), breaks.tolist()
    q1, q3 = np.quantile(reference, [0.25, 0.75])
    codes = np.where(size < q1, 0, np.where(size <= q3, 1, 2))
    labels = [f"low (<{q1:g})", f"normal ([{q1:g},{q3:g}])", f"high (>{q3:g})"]
    return codes, labels, [float(q1), float(q3)]


def _factor(values: pd.Series, var: str) -> tuple[np.ndarray, list[str]]:
    """Zero-based codes over the levels present, in R's factor order (-1 = NA)."""
    present = set(values.dropna())
    levels = (
        [lab for lab in LABELS[var].values() if lab in present]
        if var in LABELS
        else sorted(present)
    )
    codes = values.map({lv: i for i, lv in enumerate(levels)}).fillna(-1).astype(np.int64)
    names = levels if var in LABELS else [f"{v:g}" for v in levels]
    return codes.to_numpy(), names


def _code(
    kept: pd.DataFrame, reference: pd.DataFrame, mode: str
) -> tuple[pd.DataFrame, dict[str, list[str]], list[float]]:
    """Codes of the ``kept`` patients (-1 where R gives NA), the level names (the levels
    present in ``kept``) and the TSI breaks (quantiles of ``reference``)."""
    codes, levels = {}, {}
    for var in VARIABLES:
        if var == "AAD":
            breaks = np.array(AGE_BREAKS, dtype=float)
            age = np.nan_to_num(kept["AAD"].to_numpy(), nan=-np.inf)  # missing -> no interval
            codes[var] = _cut(age, breaks, right=False)
            levels[var] = _cut_labels(breaks, right=False)
        elif var == "TSI":
            codes[var], levels[var], tsi_breaks = _tumour_bins(
                kept["TSI"].to_numpy(), reference["TSI"].to_numpy(), mode
            )
        else:
            codes[var], levels[var] = _factor(kept[var], var)
    return pd.DataFrame(codes, index=kept.index), levels, tsi_breaks


def _clean_filters(frame: pd.DataFrame) -> list[tuple[str, pd.Series]]:
    """clean mode (decision A12): an empty label or a missing number is missing -> the row is
    dropped."""
    missing = {var: frame[var].eq("") if var in LABELS else frame[var].isna() for var in VARIABLES}
    return [(f"{var} missing (clean mode)", mask) for var, mask in missing.items()]


def _reasons(frame: pd.DataFrame, filters: list[tuple[str, pd.Series]]) -> pd.Series:
    """All reasons that apply to each patient, "; "-joined ("" = none)."""
    hits = pd.DataFrame({name: mask.reindex(frame.index, fill_value=False)
                         for name, mask in filters})  # fmt: skip
    return hits.apply(lambda row: "; ".join(hits.columns[row.to_numpy(dtype=bool)]), axis=1)


def code_metabric(
    patients: pd.DataFrame,
    samples: pd.DataFrame,
    mode: str = "code",
    sources: tuple[str, str] = ("patients", "samples"),
) -> tuple[pd.DataFrame, pd.DataFrame, dict[str, Any]]:
    """The Table 4 variables as zero-based int64 codes (index PATIENT_ID), the record of every
    patient (kept or not, the first reason and all reasons that applied at the step that dropped
    it) and a JSON-able report: n per step, drop reasons with counts, every level with its
    count, the differences from Table 4 and from the paper's n."""
    if mode not in MODES:
        raise ValueError(f"metabric_mode must be one of {MODES}, got {mode!r}")
    frame = join_tables(patients, samples, sources)
    steps = _reasons(frame, [(name, rule(frame)) for name, rule in PATIENT_FILTERS])
    reasons = steps
    if mode == "clean":
        reasons = reasons.where(reasons.ne(""), _reasons(frame, _clean_filters(frame)))
    filtered = frame[reasons.eq("")]
    if filtered.empty:
        raise ValueError(f"{sources[0]}, {sources[1]}: no patient is left after the filters")
    codes = _code(filtered, filtered, mode)[0]
    uncoded = [(f"{var}: no R code (NA)" + (", outside the cut() intervals"
                                             if var in ("AAD", "TSI") else ""), codes[var] < 0)
               for var in VARIABLES]  # fmt: skip
    reasons = reasons.where(reasons.ne(""), _reasons(frame, uncoded))
    # a row R codes NA is dropped; the factors are then coded over the levels left, the
    # tumour-size quantiles stay those of the filtered data
    final = filtered[reasons.loc[filtered.index].eq("")]
    codes, levels, tsi_breaks = _code(final, filtered, mode)
    record = pd.DataFrame({ID: frame.index, "kept": reasons.eq("").to_numpy(),
                           "reason": reasons.str.split("; ").str[0].to_numpy(),
                           "reasons": reasons.to_numpy()})  # fmt: skip
    sizes = {"patients": len(frame), "after_steps_1_3": int(steps.eq("").sum()),
             "after_mode_filter": len(filtered), "n": len(codes)}  # fmt: skip
    report = _report(record, codes, levels, sizes)
    return codes, record, {"mode": mode, "sources": list(sources), **report,
                           "tumour_size_breaks": tsi_breaks}  # fmt: skip


def _report(
    record: pd.DataFrame, codes: pd.DataFrame, levels: dict[str, list[str]], sizes: dict[str, int]
) -> dict[str, Any]:
    """Drop reasons (the first per patient) with counts, levels with counts, and the
    differences from Table 4's category counts and the paper's n."""
    counts = {var: dict(zip(levels[var], np.bincount(codes[var], minlength=len(levels[var]))
                            .tolist(), strict=True)) for var in VARIABLES}  # fmt: skip
    dropped = record.loc[~record["kept"], "reason"]
    differences = [d for var in VARIABLES if (d := _table4_difference(var, list(counts[var])))]
    return {
        **sizes, "paper_n": METABRIC_N, "n_minus_paper_n": sizes["n"] - METABRIC_N,
        "dropped": len(dropped),
        "drop_reasons": {str(k): int(v) for k, v in dropped.value_counts().items()},
        "levels": counts,
        "levels_per_variable": {var: len(counts[var]) for var in VARIABLES},
        "table4_differences": differences,
        "column_map": {var: f"{t}:{c}" for var, (t, c) in SOURCE.items()},
    }  # fmt: skip


def _table4_difference(var: str, ours: list[str]) -> str:
    """How our levels of ``var`` differ from Table 4 (count, and the categories where it lists
    them, compared after :data:`DATA_LABEL_OF` and ignoring letter case); "" = no difference."""
    paper = [DATA_LABEL_OF.get(c, c).casefold() for c in TABLE4_CATEGORIES.get(var, ())]
    only_ours = [lv for lv in ours if paper and lv.casefold() not in paper]
    only_paper = [c for c in TABLE4_CATEGORIES.get(var, ()) if
                  DATA_LABEL_OF.get(c, c).casefold() not in {lv.casefold() for lv in ours}]  # fmt: skip
    if len(ours) == TABLE4_LEVELS[var] and not only_ours and not only_paper:
        return ""
    head = f"{var}: Table 4 has {TABLE4_LEVELS[var]} categories, ours {len(ours)}"
    if not paper:
        return f"{head}: {ours}"
    return f"{head}; only ours: {only_ours}; only in Table 4: {only_paper}"
