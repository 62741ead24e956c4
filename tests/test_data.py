import hashlib
from pathlib import Path

import pandas as pd
import pytest

from hierbn.data.convert import build_dataset, check_against_paper
from hierbn.data.download import ChecksumError, fetch, verify_sha256
from hierbn.data.readers import DataFormatError, read_arff, read_csv, read_rda
from hierbn.data.registry import RegistryError, load_registry
from hierbn.io import write_parquet

REGISTRY = Path(__file__).resolve().parents[1] / "config" / "datasets.tsv"


def test_registry_loads_every_table_b1_data_set_found() -> None:
    registry = load_registry(REGISTRY)
    ids = {k[1] for k in registry if k[0] == "azzimonti2019"}
    assert len(ids) == 56  # 57 rows of Table B.1 minus Connect-4 (not in the mirror)
    assert (
        "connect-4" not in ids
        and {"solar-flare-c", "solar-flare-m", "solar-flare-x", "adult"} <= ids
    )
    assert len(registry[("azzimonti2019", "adult")].parts) == 2


def test_registry_errors_name_row_and_column(tmp_path: Path) -> None:
    text = REGISTRY.read_text().splitlines()
    bad = text[0] + "\n" + text[3].replace("\tarff\t", "\txlsx\t") + "\n"
    path = tmp_path / "bad.tsv"
    path.write_text(bad)
    with pytest.raises(RegistryError, match=r"line 2 .*unknown format 'xlsx'"):
        load_registry(path)


def test_registry_checksums_match_the_mirror(mirror) -> None:
    for entry in load_registry(REGISTRY).values():
        for part in entry.parts:
            verify_sha256(mirror / part.file, part.sha256)


def test_checksum_mismatch_raises_with_both_digests(tmp_path: Path) -> None:
    mirror_dir = tmp_path / "mirror"
    (mirror_dir / "a").mkdir(parents=True)
    (mirror_dir / "a" / "f.csv").write_text("x,y\n1,2\n")
    good = hashlib.sha256(b"x,y\n1,2\n").hexdigest()
    wrong = "0" * 64
    with pytest.raises(ChecksumError, match=f"expected sha256 {wrong}, got {good}"):
        fetch("a/f.csv", "http://127.0.0.1:9/none", wrong, tmp_path / "out.csv", [mirror_dir])
    assert not (tmp_path / "out.csv").exists()
    origin = fetch(
        "a/f.csv",
        "http://127.0.0.1:9/none",
        good,
        tmp_path / "out.csv",
        [tmp_path / "nope", mirror_dir],
    )
    assert origin.endswith("f.csv") and (tmp_path / "out.csv").read_text() == "x,y\n1,2\n"


def test_missing_file_without_network_names_the_file_and_the_stall_limit(tmp_path: Path) -> None:
    with pytest.raises(OSError, match=r"a/missing\.csv.*config data\.stall_seconds"):
        fetch(
            "a/missing.csv",
            "http://127.0.0.1:9/none",
            "0" * 64,
            tmp_path / "o",
            [tmp_path],
            stall_seconds=2,
        )


def test_arff_errors_name_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "t.arff"
    path.write_text("@relation t\n@attribute a {x,y}\n@attribute b numeric\n@data\nx,1\nz,2\n")
    with pytest.raises(DataFormatError, match=r"t.arff, line 6: attribute 'a' has value 'z'"):
        read_arff(path)
    path.write_text("@relation t\n@attribute a {x,y}\n@attribute b numeric\n@data\nx,1\ny,oops\n")
    with pytest.raises(DataFormatError, match="line 6: attribute 'b' expects a number"):
        read_arff(path)
    path.write_text("@relation t\n@attribute a {x,y}\n@data\nx,1\n")
    with pytest.raises(DataFormatError, match="line 4: expected 1 values, found 2"):
        read_arff(path)


def test_arff_quirks(tmp_path: Path) -> None:
    path = tmp_path / "q.arff"
    path.write_text(
        "% comment\r\n@RELATION q\r\n@attribute\t'my name'\t{ 'a b', c}\r\n@attribute age_gt_60,{f,t}\r\n"
        "@attribute n real\r\n@data\r\n'a b', f, 1.5\r\n\r\nc,?,?\r\n"
    )
    frame = read_arff(path)
    assert list(frame.columns) == ["my name", "age_gt_60", "n"]
    assert list(frame["my name"].cat.categories) == ["a b", "c"]
    assert frame["age_gt_60"].isna().tolist() == [False, True]
    assert frame["n"].isna().tolist() == [False, True]


def test_readers_on_real_files(mirror) -> None:
    anneal = read_arff(mirror / "renatopp/arff-datasets/classification/anneal.arff")
    assert (
        anneal.shape == (898, 39) and len(anneal["class"].cat.categories) == 6
    )  # declared levels kept
    adult = read_csv(
        mirror / "j2kun/boosting/data/adult.data", columns=tuple(f"c{i}" for i in range(15))
    )
    assert adult.shape == (32561, 15) and adult["c1"].isna().sum() > 0
    rda = read_rda(mirror / "cran/arules/data/AdultUCI.rda")
    assert rda.shape == (48842, 15) and isinstance(rda["income"].dtype, pd.CategoricalDtype)


def test_convert_and_check_against_paper(mirror) -> None:
    registry = load_registry(REGISTRY)
    adult = registry[("azzimonti2019", "adult")]
    data = build_dataset(adult, [mirror / p.file for p in adult.parts])
    report = check_against_paper(adult, data)
    assert report["rows"] == 45222 and report["attributes"] == 14 and report["classes"] == 2
    assert report["deviations"] == [] and list(data["income"].cat.categories) == ["<=50K", ">50K"]
    heart = registry[("azzimonti2019", "heart-h")]
    report = check_against_paper(heart, build_dataset(heart, [mirror / heart.parts[0].file]))
    assert report["deviations"] == ["rows: paper 303, ours 294"]
    shuttle = registry[("azzimonti2019", "shuttle")]
    assert len(build_dataset(shuttle, [mirror / shuttle.parts[0].file])) == 5800


def test_numeric_class_labels_survive_the_parquet_round_trip(mirror, tmp_path: Path) -> None:
    """musk1's class is 0/1 in the CSV: the canonical table must keep it categorical."""
    musk = load_registry(REGISTRY)[("petitjean2018", "musk1")]
    data = build_dataset(musk, [mirror / p.file for p in musk.parts])
    write_parquet(data, tmp_path / "musk1.parquet")
    back = pd.read_parquet(tmp_path / "musk1.parquet")
    assert list(back["class"].cat.categories) == ["0", "1"]
    assert back["class"].value_counts().to_dict() == {"0": 269, "1": 207}


def test_petitjean_registry_loads_and_reports_deviations(mirror) -> None:
    """Table 6 of petitjean2018: 66 of 68 data sets in the mirror (Connect-4, Musk2 missing)."""
    entries = [e for (s, _), e in load_registry(REGISTRY).items() if s == "petitjean2018"]
    assert len(entries) == 66 and {"connect-4", "musk2"}.isdisjoint({e.id for e in entries})
    musk1 = next(e for e in entries if e.id == "musk1")
    report = check_against_paper(
        musk1, build_dataset(musk1, [mirror / p.file for p in musk1.parts])
    )
    assert (report["rows"], report["attributes"], report["classes"]) == (476, 166, 2)
    car = next(e for e in entries if e.id == "car")
    report = check_against_paper(car, build_dataset(car, [mirror / p.file for p in car.parts]))
    assert report["deviations"] == ["attributes: paper 7, ours 6"]
