"""The reproduction record (issue 27): ``hierbn record`` from a finished run, the scoreboard
showing it beside the run, and the stale flag flipping when the study's code, rule file or
config section changes (and not when its README or another study's section does)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from hierbn.report.record import make_record, read_record, scale_name, staleness
from hierbn.report.scoreboard import build_scoreboard, render_html
from hierbn.studies.citations import Quote
from hierbn.studies.claims import REDUCED_SCALE, claim, finished

REPO = Path(__file__).resolve().parents[1]
STUDY = "becker2018"


def _checkout(tmp_path: Path) -> Path:
    """A fake checkout: the study's package and rule file, the two config files."""
    root = tmp_path / "checkout"
    shutil.copytree(REPO / "src/hierbn/studies" / STUDY, root / "src/hierbn/studies" / STUDY,
                    ignore=shutil.ignore_patterns("__pycache__"))  # fmt: skip
    (root / "workflow/rules").mkdir(parents=True)
    shutil.copy(REPO / f"workflow/rules/{STUDY}.smk", root / "workflow/rules")
    (root / "config").mkdir()
    for name in ("config.yaml", "paper.yaml"):
        shutil.copy(REPO / "config" / name, root / "config" / name)
    return root


def _run(root: Path, statuses: list[str], scale: str = "paper") -> tuple[dict, list[str]]:
    """A finished run's scoreboard of ``STUDY`` with claims of ``statuses`` judged at
    ``scale``; the ours of claim i is 2 + i."""
    folder = root / "results" / STUDY
    folder.mkdir(parents=True, exist_ok=True)
    quote = Quote(STUDY, "Table 2", "the text")
    claims = [finished(claim(f"C{i + 1}", f"claim {i}", 1, 2 + i, "c", s, statement=quote), scale)
              for i, s in enumerate(statuses)]  # fmt: skip
    (folder / "claims.json").write_text(json.dumps({"study": STUDY, "claims": claims}))
    (folder / "runtime.json").write_text(json.dumps({"jobs": 12, "seconds": 7200.0}))
    files = [str(folder / n) for n in ("claims.json", "runtime.json", "report.html")]
    run = {"config_files": ["config/config.yaml", "config/paper.yaml"],
           "config_hash": {STUDY: "abc123"}, "commit": "c0ffee"}  # fmt: skip
    return run, files


def test_a_record_holds_the_verdicts_scale_and_cost_of_the_run(tmp_path: Path) -> None:
    root = _checkout(tmp_path)
    run, files = _run(root, ["pass", "fail", "not covered"])
    board = build_scoreboard([STUDY], *([f] for f in files), run, root / "results/index.html")
    record = make_record(STUDY, board, root, cores=2, wall_seconds=3900.0, date="2026-11-26")
    assert record["scale"] == "paper" and record["config_hash"] == "abc123"
    assert (record["commit"], record["cores"], record["jobs"]) == ("c0ffee", 2, 12)
    assert record["core_hours"] == 2.0 and record["wall_seconds"] == 3900.0
    assert record["counts"] == {"pass": 1, "fail": 1, "not covered": 1, "reported, not judged": 0}
    assert [c["status"] for c in record["claims"]] == ["pass", "fail", "not covered"]
    assert "paper" not in record["claims"][0]  # short texts only, no raw values
    assert f"workflow/rules/{STUDY}.smk" in record["sources"]
    assert set(record["config_sections"]) == {"config/config.yaml", "config/paper.yaml"}
    assert staleness(record, root) == []
    assert scale_name(["config/config.yaml"]) == "default"
    assert scale_name(["config/config.yaml", "medium.yaml"]) == "medium.yaml"
    only = "reproduction/only-becker2018.yaml"
    assert scale_name(["config/config.yaml", "config/paper.yaml", only]) == "paper"
    cached = ["config/config.yaml", "config/paper.yaml", only, "reproduction/cache.yaml"]
    assert scale_name(cached) == "paper"  # regenerated from the result cache: the same scale
    assert scale_name([*cached[:2], "reproduction/cache-store.yaml"]) == "paper"
    assert scale_name(["config/config.yaml", "config/paper.yaml", "x/cache.yaml"]) == (
        "paper + cache.yaml"
    )


def test_the_scoreboard_shows_the_record_and_flags_it_stale_when_the_study_changes(
    tmp_path: Path,
) -> None:
    root = _checkout(tmp_path)
    run, files = _run(root, ["pass", "fail"])
    page = root / "results/index.html"
    board = build_scoreboard([STUDY], *([f] for f in files), run, page)
    (root / "reproduction").mkdir()
    path = root / "reproduction" / f"{STUDY}.json"
    path.write_text(json.dumps(make_record(STUDY, board, root, cores=2, date="2026-11-26")))
    # this run (default scale, say) judges C2 differently and has a claim the record lacks
    run, files = _run(root, ["pass", "pass", "fail"])

    def shown() -> tuple[dict, str]:
        board = build_scoreboard([STUDY], *([f] for f in files), run, page, [str(path)])
        return board, render_html(board)

    board, html = shown()
    record = board["studies"][0]["record"]
    assert record["stale"] == [] and record["scale"] == "paper"
    recorded = [c["recorded"]["status"] for c in board["claims"]]
    assert recorded == ["pass", "fail", None]
    assert "not in the record" in html and "stale" not in html.split("<h2>")[1]
    assert "paper run, 2026-11-26" in html
    # the record's own number, scale and cause of a miss stand beside its verdict
    recorded_c2 = board["claims"][1]["recorded"]
    assert (recorded_c2["ours_text"], recorded_c2["claim_scale"]) == ("3", "paper")
    assert recorded_c2["cause"] == "the paper's claim does not hold on our faithful run"
    assert "ours: 3" in html and "ours 3 against the paper&#x27;s 1" in html
    # a reduced-scale run's verdicts count apart from the paper-scale headline
    run, files = _run(root, ["pass", "fail"], scale="HDP chains of 10 of the paper's 50 iterations")
    board, html = shown()
    assert board["studies"][0]["tallies"]["paper scale"]["pass"] == 0
    assert board["studies"][0]["tallies"]["reduced scale"] == {
        "pass": 1, "fail": 1, "not covered": 0, "reported, not judged": 0}  # fmt: skip
    assert board["claims"][1]["cause"] == REDUCED_SCALE
    assert "reduced: HDP chains of 10 of the paper&#x27;s 50 iterations" in html
    assert "At the paper's scale: 0 pass, 0 fail" in html
    run, files = _run(root, ["pass", "pass", "fail"])
    # the README is not a source: editing it keeps the record current
    (root / f"src/hierbn/studies/{STUDY}/README.md").write_text("new text")
    (root / "config/paper.yaml").write_text(
        (root / "config/paper.yaml").read_text() + "\nother_study: {x: 1}\n"
    )
    assert shown()[0]["studies"][0]["record"]["stale"] == []
    # a study file, the rule file and the study's config section each make it stale
    claims_py = root / f"src/hierbn/studies/{STUDY}/claims.py"
    claims_py.write_text(claims_py.read_text() + "\n# changed\n")
    board, html = shown()
    assert board["studies"][0]["record"]["stale"] == [
        f"src/hierbn/studies/{STUDY}/claims.py changed"
    ]
    assert "stale: src/hierbn/studies/becker2018/claims.py changed" in html
    (root / f"workflow/rules/{STUDY}.smk").unlink()
    paper = root / "config/paper.yaml"
    paper.write_text(paper.read_text().replace(f"{STUDY}:\n", f"{STUDY}:\n  extra: 1\n", 1))
    assert shown()[0]["studies"][0]["record"]["stale"] == [
        f"src/hierbn/studies/{STUDY}/claims.py changed",
        f"workflow/rules/{STUDY}.smk removed",
        f"{STUDY} section of config/paper.yaml changed",
    ]


def test_hierbn_record_writes_one_file_per_study_and_refuses_an_unknown_one(
    tmp_path: Path,
) -> None:
    root = _checkout(tmp_path)
    run, files = _run(root, ["pass"])
    board = build_scoreboard([STUDY], *([f] for f in files), run, root / "results/index.html")
    (root / "results/scoreboard.json").write_text(json.dumps(board))
    command = [sys.executable, "-m", "hierbn.cli", "record", "--root", str(root), "--cores", "2",
               "--scoreboard", str(root / "results/scoreboard.json")]  # fmt: skip
    done = subprocess.run([*command, "--study", STUDY], capture_output=True, text=True, check=True)
    assert "paper scale, 1 pass, 0 fail" in done.stdout
    assert read_record(root / "reproduction" / f"{STUDY}.json", STUDY)["cores"] == 2
    done = subprocess.run([*command, "--study", "panel"], capture_output=True, text=True)
    assert done.returncode != 0 and "the run has no study 'panel'" in done.stderr
    with pytest.raises(ValueError, match=r"expected a record of 'panel' of version \(1, 2\)"):
        read_record(root / "reproduction" / f"{STUDY}.json", "panel")


def test_a_restamp_keeps_the_change_and_its_reason_and_needs_both(tmp_path: Path) -> None:
    from hierbn.report.record import restamp

    root = _checkout(tmp_path)
    run, files = _run(root, ["pass", "fail"])
    board = build_scoreboard([STUDY], *([f] for f in files), run, root / "results/index.html")
    record = make_record(STUDY, board, root, cores=2, date="2026-11-26")
    with pytest.raises(ValueError, match="current"):
        restamp(record, root, "abc", "why", "2026-11-29")
    rules = root / f"workflow/rules/{STUDY}.smk"
    rules.write_text(rules.read_text() + "\n# the same commands through the cache\n")
    with pytest.raises(ValueError, match="reason"):
        restamp(record, root, "abc", "  ", "2026-11-29")
    stamped = restamp(record, root, "abc", "same commands", "2026-11-29")
    assert staleness(stamped, root) == []
    assert stamped["claims"] == record["claims"]
    assert stamped["restamps"] == [{"commit": "abc", "date": "2026-11-29", "reason": "same commands",
                                    "changes": [f"workflow/rules/{STUDY}.smk changed"]}]  # fmt: skip
    (root / "reproduction").mkdir()
    path = root / "reproduction" / f"{STUDY}.json"
    path.write_text(json.dumps(stamped))
    board = build_scoreboard([STUDY], *([f] for f in files), run, root / "results/index.html",
                             [str(path)])  # fmt: skip
    assert "restamped at <code>abc</code>: same commands" in render_html(board)
