"""Slowness never breaks a Stan build (issue 43): PyStan's client waits as long as a compile
takes, a build killed half-way or abandoned leaves no cache entry that breaks the next one, and
a cache that still cannot be used is named in the error. aiohttp's default limit (300 s per
request) is scaled down in these tests so that a real compile, or a stub server's slow answer,
outlasts it."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from hierbn.stan.pystan_build import (
    COMPILER_OUTPUT,
    build,
    cache_entry,
    no_client_timeout,
    without_debug_info,
)
from hierbn.stan.runner import compile_model, stan_file

pytest.importorskip("stan")


@pytest.fixture()
def short_default_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    """aiohttp's default session timeout (300 s in total) cut to half a second."""
    import aiohttp

    monkeypatch.setattr(aiohttp.client, "DEFAULT_TIMEOUT", aiohttp.ClientTimeout(total=0.5))


def test_pystans_client_waits_longer_than_aiohttps_default(
    monkeypatch: pytest.MonkeyPatch, short_default_timeout: None
) -> None:
    import aiohttp.web
    import httpstan.app
    import stan.common

    async def slow(request: aiohttp.web.Request) -> aiohttp.web.Response:
        await asyncio.sleep(1.5)  # three times the (scaled) default limit
        return aiohttp.web.json_response({"built": True})

    def stub_app() -> aiohttp.web.Application:
        app = aiohttp.web.Application()
        app.router.add_post("/v1/models", slow)
        return app

    monkeypatch.setattr(httpstan.app, "make_app", stub_app)

    async def request() -> int:
        async with stan.common.HttpstanClient() as client:
            return (await client.post("/models", json={})).status

    with pytest.raises(asyncio.TimeoutError):
        asyncio.run(request())  # PyStan as shipped: the slow answer is abandoned
    with no_client_timeout():
        assert asyncio.run(request()) == 200
    assert stan.common.HttpstanClient.__name__ == "HttpstanClient"  # restored


@pytest.fixture()
def fresh_model() -> Iterator[str]:
    """A tiny Stan program no cache has seen; its cache entry is removed afterwards."""
    code = f"// hierbn test {uuid.uuid4().hex}\nparameters {{ real mu; }}\nmodel {{ mu ~ normal(0, 1); }}\n"
    yield code
    shutil.rmtree(cache_entry(code), ignore_errors=True)


def test_a_cache_that_cannot_be_used_is_named_with_how_to_clear_it(fresh_model: str) -> None:
    entry = cache_entry(fresh_model)
    entry.parent.mkdir(parents=True, exist_ok=True)
    entry.write_text("not a folder")  # httpstan can neither read nor replace it
    try:
        with pytest.raises(RuntimeError, match=rf"'tiny'.*{entry}.*rm -r {entry}"):
            build("tiny", fresh_model, {}, 1)
    finally:
        entry.unlink()


@pytest.mark.stan
def test_a_build_killed_half_way_or_abandoned_never_breaks_the_next(
    fresh_model: str, short_default_timeout: None
) -> None:
    import stan

    entry = cache_entry(fresh_model)
    script = f"from hierbn.stan.pystan_build import build; build('tiny', {fresh_model!r}, {{}}, 1)"
    child = subprocess.Popen([sys.executable, "-c", script], start_new_session=True)
    while child.poll() is None and not any(entry.glob("*.cpp")):
        time.sleep(0.2)  # httpstan writes the model's C++ source, then compiles it
    time.sleep(3.0)
    if child.poll() is None:
        os.killpg(child.pid, signal.SIGKILL)  # kill -9 half-way through the C++ compile
    child.wait()
    assert not (entry / COMPILER_OUTPUT).exists()

    # the next build compiles afresh, longer than the (scaled) client limit, and succeeds
    start = time.perf_counter()
    assert build("tiny", fresh_model, {}, 1).param_names == ("mu",)
    assert time.perf_counter() - start > 0.5 and (entry / COMPILER_OUTPUT).is_file()

    # an abandoned build's entry: the module in place, the compiler output missing
    (entry / COMPILER_OUTPUT).unlink()
    with pytest.raises(ValueError, match="TAPE_ERROR"):
        stan.build(fresh_model, data={}, random_seed=1)  # PyStan as shipped: broken for good
    assert build("tiny", fresh_model, {}, 1).param_names == ("mu",)
    assert (entry / COMPILER_OUTPUT).is_file()


@pytest.mark.stan
def test_a_cmdstan_executable_is_moved_in_only_when_finished(
    cmdstanpy_backend: str, tmp_path: Path
) -> None:
    exe_dir = tmp_path / "exe"
    killed = exe_dir / ".logit_glm-build-killed"  # what a compile killed half-way leaves
    killed.mkdir(parents=True)
    (killed / "logit_glm").write_bytes(b"\x7fELF half-written")
    exe = Path(compile_model("logit_glm", cmdstanpy_backend, exe_dir)["exe_file"])
    assert exe == exe_dir / "logit_glm" and exe.stat().st_size > 100_000
    assert (exe_dir / "logit_glm.stan").read_text() == stan_file("logit_glm").read_text()
    assert list(exe_dir.glob(".logit_glm-build-*")) == [killed]  # the new build's folder is gone
    built = exe.stat().st_mtime_ns
    compile_model("logit_glm", cmdstanpy_backend, exe_dir)  # built once per source
    assert exe.stat().st_mtime_ns == built
    (exe_dir / "logit_glm.stan").write_text("// another source\n")  # an executable of another
    compile_model("logit_glm", cmdstanpy_backend, exe_dir)
    assert exe.stat().st_mtime_ns > built


@pytest.mark.parametrize("stock", [None, "-march=native"])
def test_model_builds_end_their_flags_without_debug_information(
    monkeypatch: pytest.MonkeyPatch, stock: str | None
) -> None:
    """setuptools (which httpstan builds with) puts ``-g0`` after Python's own ``-g``, and the
    user's CFLAGS come back unchanged afterwards."""
    from setuptools._distutils import ccompiler, sysconfig

    if stock is None:
        monkeypatch.delenv("CFLAGS", raising=False)
    else:
        monkeypatch.setenv("CFLAGS", stock)
    with without_debug_info():
        compiler = ccompiler.new_compiler()
        sysconfig.customize_compiler(compiler)
        flags = list(compiler.compiler_so)
    last = flags.index("-g0")
    assert all(i < last for i, flag in enumerate(flags) if flag.startswith("-g") and i != last)
    assert stock is None or stock in flags
    assert os.environ.get("CFLAGS") == stock
