import gzip

import numpy as np
import pytest

from hierbn.data.sequences import read_labels, read_windows
from hierbn.studies.petitjean2018.protocol import run_splice


def test_windows_are_coded_acgt_and_other_and_truncated_to_rows(tmp_path) -> None:
    path = tmp_path / "w.txt"
    path.write_bytes(b"ACGTN\nacgta\nTTTTT\n")
    assert read_windows(path).tolist() == [[0, 1, 2, 3, 4], [0, 1, 2, 3, 0], [3] * 5]
    assert read_windows(path, rows=2).shape == (2, 5)
    gz = tmp_path / "w.txt.gz"
    gz.write_bytes(gzip.compress(b"AC\r\nGT"))  # CRLF and no final newline
    assert read_windows(gz).tolist() == [[0, 1], [2, 3]]


def test_ragged_windows_and_bad_labels_name_file_and_line(tmp_path) -> None:
    path = tmp_path / "w.txt"
    path.write_bytes(b"ACGT\nACG\nACGTA\n")
    with pytest.raises(ValueError, match=r"w\.txt"):
        read_windows(path)
    labels = tmp_path / "y.txt"
    labels.write_text("1\n-1\n2\n")
    with pytest.raises(ValueError, match=r"y\.txt, line 3"):
        read_labels(labels)
    labels.write_text("1\n-1\n-1\n")
    assert read_labels(labels).tolist() == [1, 0, 0] and read_labels(labels, 1).tolist() == [1]


def test_down_sampled_splice_run_on_a_synthetic_motif(tmp_path) -> None:
    """A planted motif at two positions: SkDB with either estimator beats the majority rule."""
    rng = np.random.default_rng(0)

    def write(name: str, n: int) -> None:
        seq = rng.integers(0, 4, (n, 8))
        y = (seq[:, 2] == 1) & (seq[:, 5] == 2)
        letters = np.array(list("ACGT"))[seq]
        (tmp_path / f"{name}.seq").write_text("\n".join("".join(r) for r in letters) + "\n")
        (tmp_path / f"{name}.lab").write_text("\n".join(np.where(y, "1", "-1")) + "\n")

    write("train", 1500)
    write("test", 600)
    config = {
        "train_sequences": str(tmp_path / "train.seq"),
        "train_labels": str(tmp_path / "train.lab"),
        "test_sequences": str(tmp_path / "test.seq"),
        "test_labels": str(tmp_path / "test.lab"),
        "train_rows": 1200,
        "test_rows": 600,
        "iterations": 100,
        "backoff": "literal",
    }
    table = run_splice(config, base_seed=0).set_index(["method", "metric"])["value"]
    assert table[("skdb-hdp", "majority_error")] == pytest.approx(1 / 16, abs=0.03)
    for method in ("skdb-m", "skdb-hdp"):
        assert table[(method, "zero_one")] < 0.5 * table[(method, "majority_error")]
