"""The result cache (hierbn.result_cache, ``hierbn cached``, ``hierbn cache verify``): a hit
restores exactly what was stored; the key moves with the command, the code and the inputs'
content, not with the thread count or a writer's bytes; a failed job stores nothing; verify
finds a recomputation that differs; an entry's tables are stored compactly and read back
bit for bit."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hierbn import result_cache as rc
from hierbn.report.runtime import summarise_benchmarks

# a tiny step: reads a table, writes a table with a value and a timing row (by --seed)
STEP = """
import sys, time
import numpy as np, pandas as pd
args = dict(zip(sys.argv[1::2], sys.argv[2::2]))
data = pd.read_parquet(args["--input"])
rng = np.random.default_rng(int(args["--seed"]))
value = float(data["x"].sum() + rng.normal())
if args.get("--noise") == "yes":
    value += time.perf_counter_ns() % 1000
pd.DataFrame({"metric": ["score", "fit_seconds"], "value": [value, time.perf_counter()]}).to_parquet(
    args["--out"], index=False)
"""


@pytest.fixture()
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "step.py").write_text(STEP)
    Path("resources").mkdir()
    pd.DataFrame({"x": [1.0, 2.0, 3.0]}).to_parquet("resources/data.parquet", index=False)
    Path("results").mkdir()
    return tmp_path


def _command(seed: int = 1, threads: int = 1, noise: str = "no") -> list[str]:
    return [sys.executable, "step.py", "--input", "resources/data.parquet", "--seed", str(seed),
            "--threads", str(threads), "--noise", noise, "--out", "results/out.parquet"]  # fmt: skip


def _run(cache: Path | None, store: bool, code: str = "c1", **kwargs: object) -> int:
    environ = {rc.FOLDER_VARIABLE: str(cache) if cache else ""}
    if store:
        environ[rc.STORE_VARIABLE] = "1"
    return rc.cached_run(
        code, _command(**kwargs), ["resources/data.parquet"], ["results/out.parquet"],
        "logs/benchmarks/results/out.parquet.tsv", environ,
    )  # fmt: skip


def test_a_hit_restores_the_stored_outputs_and_leaves_a_receipt(workdir: Path) -> None:
    cache = workdir / "cache"
    assert _run(cache, store=True) == 0
    stored = pd.read_parquet("results/out.parquet")
    [entry] = rc.entries(cache)
    assert entry.parent.name == "python" or entry.parent.name.endswith("python3")
    os.remove("results/out.parquet")
    assert _run(cache, store=False) == 0
    pd.testing.assert_frame_equal(pd.read_parquet("results/out.parquet"), stored)
    receipt = json.loads(rc.receipt_of("logs/benchmarks/results/out.parquet.tsv").read_text())
    assert receipt["entry"].endswith(entry.name) and receipt["seconds"] > 0


def test_without_store_a_miss_computes_and_stores_nothing(workdir: Path) -> None:
    cache = workdir / "cache"
    cache.mkdir()
    assert _run(cache, store=False) == 0
    assert Path("results/out.parquet").is_file() and rc.entries(cache) == []


def test_a_failed_job_stores_nothing_and_keeps_its_exit_code(workdir: Path) -> None:
    cache = workdir / "cache"
    os.remove("resources/data.parquet")
    pd.DataFrame({"y": [1.0]}).to_parquet("resources/data.parquet", index=False)  # no column x
    assert _run(cache, store=True) != 0
    assert not cache.exists() or rc.entries(cache) == []


def _ingredients(**kwargs: object) -> dict:
    code = str(kwargs.pop("code", "c1"))
    return rc.key_ingredients(code, _command(**kwargs), ["resources/data.parquet"])


def test_the_key_follows_command_code_and_input_content_not_threads(workdir: Path) -> None:
    base = rc.job_key(_ingredients())
    assert rc.job_key(_ingredients(threads=8)) == base
    assert rc.job_key(_ingredients(seed=2)) != base
    assert rc.job_key(_ingredients(code="c2")) != base
    frame = pd.read_parquet("resources/data.parquet")
    frame.to_parquet("resources/data.parquet", index=False, compression="zstd")  # other bytes
    assert rc.job_key(_ingredients()) == base
    frame.assign(x=frame["x"] + 1e-12).to_parquet("resources/data.parquet", index=False)
    assert rc.job_key(_ingredients()) != base


def test_a_json_input_is_keyed_without_its_machine_specific_values(tmp_path: Path) -> None:
    model = {"model": "hier_md", "backend": "pystan", "sha256": "ab", "compile_seconds": 1.0,
             "advi_exe": "/root/.cache/hierbn/advi/1/hier_md_advi"}  # fmt: skip
    path = tmp_path / "hier_md.json"
    path.write_text(json.dumps(model))
    base = rc.input_digest(path)
    path.write_text(json.dumps({**model, "compile_seconds": 9.0, "advi_exe": "/home/u/x"}))
    assert rc.input_digest(path) == base
    path.write_text(json.dumps({**model, "sha256": "cd"}))
    assert rc.input_digest(path) != base
    path.write_text(json.dumps({**model, "backend": "cmdstanpy"}))
    assert rc.input_digest(path) != base


def test_normalised_command_drops_only_the_thread_count() -> None:
    command = ["hierbn", "s", "cv", "--threads", "4", "--seed", "4", "--threads=2", "--out", "o"]
    assert rc.normalised_command(command) == ["hierbn", "s", "cv", "--seed", "4", "--out", "o"]
    assert rc.step_name(command) == "s-cv"


def test_compare_outputs_ignores_timing_and_names_a_differing_column(tmp_path: Path) -> None:
    a = pd.DataFrame(
        {"metric": ["score", "fit_seconds"], "value": [1.0, 2.0], "seconds": [3.0, 4.0]}
    )
    a.to_parquet(tmp_path / "a.parquet", index=False)
    a.assign(value=[1.0, 99.0], seconds=[7.0, 8.0]).to_parquet(tmp_path / "b.parquet", index=False)
    assert rc.compare_outputs(tmp_path / "a.parquet", tmp_path / "b.parquet") == []
    a.assign(value=[np.nextafter(1.0, 2.0), 2.0]).to_parquet(tmp_path / "c.parquet", index=False)
    assert rc.compare_outputs(tmp_path / "a.parquet", tmp_path / "c.parquet") == [
        "column 'value' differs in 1 rows of metric score (largest relative difference 2.2e-16)"
    ]
    a.assign(metric=["other", "fit_seconds"]).to_parquet(tmp_path / "d.parquet", index=False)
    assert rc.compare_outputs(tmp_path / "a.parquet", tmp_path / "d.parquet") == [
        "column 'metric' differs in 1 rows"
    ]
    # beal2006's diagnostics: the timing is named by the method, the metric is "diagnostic"
    diag = pd.DataFrame({"method": ["vb_iter_max", "em_seconds"], "metric": ["diagnostic"] * 2,
                         "value": [164.0, 0.017]})  # fmt: skip
    diag.to_parquet(tmp_path / "g.parquet", index=False)
    diag.assign(value=[164.0, 0.021]).to_parquet(tmp_path / "h.parquet", index=False)
    assert rc.compare_outputs(tmp_path / "g.parquet", tmp_path / "h.parquet") == []
    diag.assign(value=[165.0, 0.017]).to_parquet(tmp_path / "i.parquet", index=False)
    assert rc.compare_outputs(tmp_path / "g.parquet", tmp_path / "i.parquet")[0].startswith(
        "column 'value' differs in 1 rows of metric diagnostic"
    )
    many = pd.DataFrame({"metric": [f"m{i}" for i in range(7)], "value": np.arange(7.0)})
    many.to_parquet(tmp_path / "e.parquet", index=False)
    many.assign(value=np.arange(7.0) + 1).to_parquet(tmp_path / "f.parquet", index=False)
    assert rc.compare_outputs(tmp_path / "e.parquet", tmp_path / "f.parquet") == [
        "column 'value' differs in 7 rows of metric m0, m1, m2, m3, m4 and 2 more"
        " (largest relative difference 1.0e+00)"
    ]


def test_verify_passes_a_deterministic_entry_and_fails_a_noisy_one(workdir: Path) -> None:
    cache = workdir / "cache"
    assert _run(cache, store=True) == 0
    assert _run(cache, store=True, seed=3, noise="yes") == 0
    results = {}
    for folder in rc.entries(cache):
        entry = json.loads((folder / rc.ENTRY_FILE).read_text())
        assert entry["numerics"]["cpu"]  # what a rounding difference elsewhere can come from
        noisy = "yes" in entry["command"]
        results[noisy] = rc.verify_entry(folder, workdir / "scratch" / folder.name)
    assert results[False] == []
    [problem] = results[True]
    assert problem.startswith(
        "results/out.parquet: column 'value' differs in 1 rows of metric score (largest"
    )


def test_an_entry_records_its_numeric_platform_and_verify_names_what_differs() -> None:
    from hierbn.machine import numeric_platform, platform_differences

    here = numeric_platform()
    assert set(here) == {"cpu", "numpy_simd", "blas", "packages"} and here["cpu"]
    assert platform_differences(here, here) == []
    there = {**here, "cpu": "k8", "numpy_simd": ["X86_V3"]}
    assert platform_differences(there, here) == [
        f"cpu: k8 there, {here['cpu']} here",
        f"numpy_simd: ['X86_V3'] there, {here['numpy_simd']} here",
    ]
    assert "does not record" in platform_differences(None, here)[0]


def test_verify_refuses_an_entry_whose_inputs_are_not_these(workdir: Path) -> None:
    cache = workdir / "cache"
    assert _run(cache, store=True) == 0
    pd.DataFrame({"x": [5.0]}).to_parquet("resources/data.parquet", index=False)
    [folder] = rc.entries(cache)
    [problem] = rc.verify_entry(folder, workdir / "scratch")
    assert "differs from the entry's" in problem


def test_the_runtime_counts_a_restored_job_at_its_computing_cost(tmp_path: Path) -> None:
    benchmark = tmp_path / "job.tsv"
    benchmark.write_text("s\th:m:s\tmax_rss\n0.5\t0:00:00\t40\n")
    assert summarise_benchmarks([benchmark])["seconds"] == 0.5
    rc.receipt_of(benchmark).write_text(json.dumps({"seconds": 120.0, "max_rss_mb": 300.0}))
    summary = summarise_benchmarks([benchmark])
    assert (summary["seconds"], summary["max_rss_mb"], summary["restored_jobs"]) == (
        120.0,
        300.0,
        1,
    )


def test_hierbn_cached_without_a_cache_runs_the_command_in_its_place(tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    result = subprocess.run(
        [sys.executable, "-m", "hierbn.cli", "cached", "--code", "k", "--outputs", str(out),
         "--", "sh", "-c", f"echo ran > {out}; exit 3"],
        env={**os.environ, rc.FOLDER_VARIABLE: ""}, cwd=tmp_path, check=False,
    )  # fmt: skip
    assert result.returncode == 3 and out.read_text() == "ran\n"


def test_uncached_gives_the_job_its_own_command_back() -> None:
    shell = "hierbn cached --code k --inputs a.parquet --outputs b.parquet -- hierbn s cv --x 1"
    assert rc.uncached(shell) == "hierbn s cv --x 1"
    assert rc.uncached("hierbn fetch --file x") == "hierbn fetch --file x"


# ------------------------------------------------------------------------ compact storage
@settings(max_examples=60, deadline=None)
@given(
    values=st.lists(st.floats(allow_nan=True, allow_infinity=True, width=64), max_size=200),
    ints=st.integers(min_value=-(2**62), max_value=2**62),
)
def test_a_compact_copy_reads_back_bit_for_bit(values: list[float], ints: int) -> None:
    import tempfile

    doubles = np.array(values, dtype=np.float64)
    with np.errstate(over="ignore"):  # a double beyond float32's range becomes inf
        singles = doubles.astype(np.float32)
    even = np.arange(doubles.size) % 2 == 0
    frame = pd.DataFrame(
        {
            "value": doubles,
            "single": singles,
            "rep": np.full(doubles.size, ints, dtype=np.int64),
            "method": np.where(even, "hdp", "m"),
            "is_true": even,
        }
    )
    with tempfile.TemporaryDirectory() as scratch:
        source, target = Path(scratch) / "a.parquet", Path(scratch) / "b.parquet"
        frame.to_parquet(source, index=False)
        rc.copy_compact(source, target)
        written, back = pd.read_parquet(source), pd.read_parquet(target)
        assert rc.is_compact(target) and not rc.is_compact(source)
    pd.testing.assert_frame_equal(back, frame)
    for column in ("value", "single"):  # NaN payloads too (pandas' writer makes them canonical)
        bits = np.uint64 if column == "value" else np.uint32
        assert np.array_equal(
            back[column].to_numpy().view(bits), written[column].to_numpy().view(bits)
        )


def test_a_compact_entry_is_smaller_and_restores_the_same_table(workdir: Path) -> None:
    """Draws (random doubles) shrink by about a fifth or more; a hit restores equal values; an
    entry stored as the job wrote it is re-encoded in place by compact_entry, once."""
    rng = np.random.default_rng(3)
    draws = pd.DataFrame({"chain": np.repeat([0, 1], 20_000), "beta": rng.normal(size=40_000)})
    draws.to_parquet("results/draws.parquet", index=False)
    plain = Path("results/draws.parquet").stat().st_size
    cache = workdir / "cache"
    ingredients = rc.key_ingredients("c1", ["step", "--out", "results/draws.parquet"], [])
    folder = rc.store(cache, ingredients, ["results/draws.parquet"], {"seconds": 1.0})
    stored = folder / "results/draws.parquet"
    assert rc.is_compact(stored) and stored.stat().st_size < 0.9 * plain
    os.remove("results/draws.parquet")
    rc.restore(folder, ["results/draws.parquet"])
    pd.testing.assert_frame_equal(pd.read_parquet("results/draws.parquet"), draws)

    draws.to_parquet(stored, index=False)  # as an older store wrote it: the job's own bytes
    assert rc.compact_entry(folder) == (plain, stored.stat().st_size)
    assert rc.is_compact(stored) and rc.compact_entry(folder) == (stored.stat().st_size,) * 2
    pd.testing.assert_frame_equal(pd.read_parquet(stored), draws)


def test_a_file_other_than_a_parquet_table_is_stored_as_it_is(workdir: Path) -> None:
    Path("results/check.json").write_text('{"a": 1}\n')
    ingredients = rc.key_ingredients("c1", ["step", "--out", "results/check.json"], [])
    folder = rc.store(workdir / "cache", ingredients, ["results/check.json"], {"seconds": 1.0})
    assert (folder / "results/check.json").read_bytes() == b'{"a": 1}\n'
    assert rc.compact_entry(folder) == (9, 9)


def test_compact_names_a_damaged_table_and_a_missing_cache(workdir: Path) -> None:
    ingredients = rc.key_ingredients("c1", ["step", "--out", "results/draws.parquet"], [])
    folder = workdir / "cache" / "step" / "k"
    (folder / "results").mkdir(parents=True)
    (folder / "results/draws.parquet").write_bytes(b"not parquet at all")
    (folder / rc.ENTRY_FILE).write_text(
        json.dumps({**ingredients, "outputs": ["results/draws.parquet"]})
    )
    with pytest.raises(ValueError, match=r"results/draws\.parquet: not a readable parquet table"):
        rc.compact_entry(folder)
    assert (folder / "results/draws.parquet").read_bytes() == b"not parquet at all"
    from hierbn.cli import main

    with pytest.raises(SystemExit, match=r"hierbn cache compact: .*draws\.parquet: not a readable"):
        main(["cache", "compact", "--cache", str(workdir / "cache")])
    with pytest.raises(SystemExit, match=r"nowhere is not a folder"):
        main(["cache", "compact", "--cache", str(workdir / "nowhere")])
