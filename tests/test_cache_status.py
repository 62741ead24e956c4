"""``hierbn cache status`` (hierbn.report.cache_status): a planned job is held when an entry has
its step, code key and command (threads aside); another code key or config is missing, and an
entry no planned job uses is listed."""

from __future__ import annotations

import shlex
from pathlib import Path

import pandas as pd
import pytest

from hierbn import result_cache as rc
from hierbn.cli import main
from hierbn.report import cache_status

CONFIG = '{"hdp": {"iterations": 50000}, "structures": ["nb", "tan"]}'


def _job(output: str, config: str = CONFIG, threads: int = 1) -> list[str]:
    return ["hierbn", "petitjean2018", "cv", "--dataset", Path(output).stem, "--config", config,
            "--seed", "7", "--threads", str(threads), "--out", output]  # fmt: skip


def _planned(output: str, code: str, **kwargs: object) -> str:
    """A dry run's lines for one cached job, as `snakemake -n -p` prints them."""
    command = shlex.join(_job(output, **kwargs))
    shell = (f"hierbn cached --code {code} --inputs resources/data.parquet --outputs {output} "
             f"-- {command} > logs/{Path(output).stem}.log 2>&1")  # fmt: skip
    return (f"\nrule pj_cv:\n    input: resources/data.parquet\n    output: {output}\n"
            f"    threads: 1\nShell command: {shell}\n")  # fmt: skip


@pytest.fixture()
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Entries for car (code k1, 2 threads), iris (code k1) and wine (code k0: an older key)."""
    monkeypatch.chdir(tmp_path)
    Path("resources").mkdir()
    pd.DataFrame({"x": [1.0]}).to_parquet("resources/data.parquet", index=False)
    for name, code, threads in [("car", "k1", 2), ("iris", "k1", 1), ("wine", "k0", 1)]:
        output = f"results/petitjean2018/cv/{name}.parquet"
        Path(output).parent.mkdir(parents=True, exist_ok=True)
        pd.DataFrame({"value": [1.0]}).to_parquet(output, index=False)
        ingredients = rc.key_ingredients(
            code, _job(output, threads=threads), ["resources/data.parquet"]
        )
        rc.store(tmp_path / "cache", ingredients, [output], {"seconds": 1.0})
    return tmp_path / "cache"


def _plan() -> str:
    return (
        _planned("results/petitjean2018/cv/car.parquet", "k1")  # held (threads aside)
        + _planned("results/petitjean2018/cv/iris.parquet", "k1", config="{}")  # another config
        + _planned("results/petitjean2018/cv/wine.parquet", "k1")  # held under k0 only
        + "\nrule pj_claims:\n    output: results/petitjean2018/claims.json\n"
        "Shell command: hierbn petitjean2018 claims > logs/claims.log 2>&1\n"
    )


def test_a_job_is_held_only_under_its_code_key_and_command(cache: Path) -> None:
    planned = cache_status.planned_cached_jobs(_plan(), ("petitjean2018",))
    held = cache_status.held_entries(cache)
    batches = {"petitjean2018": [{"name": "petitjean2018-1", "targets": [
        "results/petitjean2018/cv/car.parquet", "results/petitjean2018/cv/wine.parquet"]}]}  # fmt: skip
    jobs = cache_status.status(planned, held, batches)
    assert list(jobs["output"].str.split("/").str[-1]) == ["car.parquet", "iris.parquet",
                                                           "wine.parquet"]  # fmt: skip
    assert list(jobs["held"]) == [True, False, False]
    assert list(jobs["batch"]) == ["petitjean2018-1", "", "petitjean2018-1"]
    unused = cache_status.unused_entries(planned, held)
    assert sorted((m[1], m[2][4]) for m, f in held.items() if f in unused) == [
        ("k0", "wine"), ("k1", "iris")]  # fmt: skip
    lines = cache_status.report_lines(jobs, unused, list_missing=True)
    assert "petitjean2018      3      1        2" in lines
    assert "  petitjean2018-1: 1 of 2" in lines
    assert "entries no planned job uses: 2" in lines
    assert lines[-3:] == [
        "missing:", "  results/petitjean2018/cv/iris.parquet", "  results/petitjean2018/cv/wine.parquet"
    ]  # fmt: skip


def test_open_batches_are_listed_in_their_order() -> None:
    jobs = pd.DataFrame(
        {"study": "s", "output": list("abcd"), "held": False,
         "batch": ["s-10", "s-2", "r-1", "s-2"]}
    )  # fmt: skip
    lines = cache_status.report_lines(jobs, [], list_missing=False)
    start = lines.index("batches with jobs missing:")
    assert lines[start + 1 : start + 4] == ["  r-1: 1 of 1", "  s-2: 2 of 2", "  s-10: 1 of 1"]


def test_the_cached_command_is_read_without_its_log_redirection() -> None:
    shell = ("hierbn cached --code abc --inputs a b --outputs c -- hierbn s cv --config "
             "'{\"a\": [1, 2]}' --threads 2 > logs/x.log 2>&1")  # fmt: skip
    code, command = cache_status.cached_command(shell)
    assert code == "abc"
    assert command == ["hierbn", "s", "cv", "--config", '{"a": [1, 2]}', "--threads", "2"]
    with pytest.raises(ValueError, match="not a `hierbn cached"):
        cache_status.cached_command("hierbn s claims > x.log")


def test_the_command_prints_the_status_and_refuses_a_plan_without_cached_jobs(
    cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    Path("plan.txt").write_text(_plan())
    main(["cache", "status", "--plan", "plan.txt", "--cache", str(cache), "--batches", ""])
    out = capsys.readouterr().out
    assert "all                3      1        2" in out and "batches with" not in out
    Path("empty.txt").write_text("rule all:\n    input: x\n")
    with pytest.raises(
        SystemExit, match=r"empty\.txt: the dry run lists no job through the result cache"
    ):
        main(["cache", "status", "--plan", "empty.txt", "--cache", str(cache)])
