"""Scoreboard and study wall time from benchmark files (hierbn.report)."""

import json
from pathlib import Path

import pytest

from hierbn.report.runtime import hms, summarise_benchmarks
from hierbn.report.scoreboard import build_scoreboard, render_html
from hierbn.studies import STUDIES
from hierbn.studies.citations import Quote
from hierbn.studies.claims import claim, finished

HEADER = "s\th:m:s\tmax_rss\tmax_vms\tmax_uss\tmax_pss\tio_in\tio_out\tmean_load\tcpu_time\n"


def test_wall_time_sums_jobs_and_averages_repeats(tmp_path: Path) -> None:
    a, b = tmp_path / "a.tsv", tmp_path / "b.tsv"
    a.write_text(HEADER + "1.5\t0:00:01\t100.0\t1\t1\t1\t0\t0\t0\t1\n")
    b.write_text(
        HEADER + "2.0\t0:00:02\tNA\t1\t1\t1\t0\t0\t0\t1\n4.0\t0:00:04\t50\t1\t1\t1\t0\t0\t0\t1\n"
    )
    assert summarise_benchmarks([a, b]) == {
        "jobs": 2,
        "seconds": 4.5,
        "max_rss_mb": 100.0,
        "restored_jobs": 0,
    }
    (tmp_path / "c.tsv").write_text("x\n1\n")
    with pytest.raises(ValueError, match=r"c\.tsv"):
        summarise_benchmarks([tmp_path / "c.tsv"])
    assert (hms(42), hms(185), hms(3725)) == ("42 s", "3 min 05 s", "1 h 02 min")


def _study_files(tmp_path: Path, study: str, statuses: list[str]) -> tuple[str, str, str]:
    folder = tmp_path / "results" / study
    folder.mkdir(parents=True)
    quote = Quote(study, "Table 2, row TAN", "TAN 45-4-19 52-1-15")
    claims = [
        finished(
            claim(
                f"H{i + 1}", f"claim {i}", 1, 2, "c", s, statement=quote, deviation="d" * (i % 2)
            ),
            "paper",
        )
        for i, s in enumerate(statuses)
    ]
    (folder / "claims.json").write_text(json.dumps({"study": study, "claims": claims}))
    (folder / "runtime.json").write_text(json.dumps({"jobs": 3, "seconds": 75.0}))
    return str(folder / "claims.json"), str(folder / "runtime.json"), str(folder / "report.html")


def test_scoreboard_counts_every_claim_and_links_each_report(tmp_path: Path) -> None:
    study = STUDIES[0]
    statuses = ["pass", "pass", "fail", "not covered", "reported, not judged"]
    files = _study_files(tmp_path, study, statuses)
    run = {"config_files": ["config/config.yaml"], "config_hash": {study: "abc"}, "commit": "c0"}
    page = tmp_path / "results" / "index.html"
    board = build_scoreboard([study], *([f] for f in files), run, page)
    row = board["studies"][0]
    counts = {"pass": 2, "fail": 1, "not covered": 1, "reported, not judged": 1}
    assert row["counts"] == counts and row["claims"] == 5
    assert row["report"] == f"{study}/report.html" and row["wall_seconds"] == 75.0
    assert [c["study"] for c in board["claims"]] == [study] * 5
    html = render_html(board)
    assert "At the paper's scale: 2 pass, 1 fail, 1 not covered, 1 reported, not judged" in html
    assert html.count('<div class="scale">paper scale</div>') == 5
    assert html.count("<b>cause:</b> the paper&#x27;s claim does not hold") == 2  # fail, n.c.
    assert f'href="{study}/report.html"' in html and "1 min 15 s" in html
    assert html.count('<span class="status"') == 5
    # every claim quotes the paper with its locator; deviations are shown, 'none' otherwise
    assert html.count("“TAN 45-4-19 52-1-15”") == 5 and html.count("Table 2, row TAN") == 5
    assert html.count('<td class="deviation">d</td>') == 2
    assert html.count('<td class="deviation none">none</td>') == 3


def test_scoreboard_refuses_claims_of_another_study(tmp_path: Path) -> None:
    files = _study_files(tmp_path, STUDIES[0], ["pass"])
    run = {"config_files": [], "config_hash": {STUDIES[1]: "x"}, "commit": "c"}
    with pytest.raises(ValueError, match="claims of"):
        build_scoreboard([STUDIES[1]], *([f] for f in files), run, tmp_path / "index.html")
