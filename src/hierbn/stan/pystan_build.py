"""PyStan builds that slowness cannot break (issue 43).

PyStan 3 talks to an in-process httpstan server over HTTP, through an aiohttp session with
aiohttp's default timeout: 300 s in total per request. A C++ compile that takes longer (two
compiles at once on a busy machine) is abandoned half-way, and the build fails. And httpstan
writes a model's cache entry (``<httpstan cache>/models/<name>/``) in steps: the stanc
warnings, the compiled extension module, and last the compiler's output (``stderr.log``). A
build stopped between the last two (the abandoned request, ``kill -9``, Ctrl-C, a full disk)
leaves an entry whose module imports but whose ``stderr.log`` is missing; httpstan answers every
later build of that model with a 500 error, which PyStan reports as ``TAPE_ERROR``, for good.

:func:`build` is ``stan.build`` without those two failure modes:

- the client's session has no total time limit (:func:`no_client_timeout`), so a compile takes
  as long as it takes;
- before building, an entry without ``stderr.log`` is removed (:func:`discard_incomplete_entry`)
  so that httpstan builds it again, under a lock that keeps two hierbn processes from checking
  and building the same model at once;
- if the build still fails, the error names the model, the cache folder and how to clear it;
- the compiler writes no debug information (:func:`without_debug_info`): Python's own CFLAGS
  carry ``-g``, which made each model's compile about 40 % longer for the same machine code.

Hand-written because PyStan has no setting for its client's timeout and httpstan none for
checking its cache.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from hierbn.user_cache import exclusive_lock, user_cache

COMPILER_OUTPUT = "stderr.log"  # the file httpstan writes last into a model's cache entry


def cache_entry(code: str) -> Path:
    """httpstan's cache folder for the Stan program ``code``."""
    import httpstan.cache
    import httpstan.models

    return httpstan.cache.model_directory(httpstan.models.calculate_model_name(code))


def discard_incomplete_entry(code: str) -> Path | None:
    """Remove the cache entry of ``code`` if a build left it unfinished (no ``stderr.log``);
    returns the folder removed, or None when there was none or it was complete."""
    entry = cache_entry(code)
    if not entry.is_dir() or (entry / COMPILER_OUTPUT).is_file():
        return None
    shutil.rmtree(entry)
    return entry


@contextlib.contextmanager
def no_client_timeout() -> Iterator[None]:
    """Within the block, PyStan's HTTP client (``stan.common.HttpstanClient``) has no total
    time limit per request; its connection limit (30 s to a local socket) stays."""
    import aiohttp
    import stan.common

    stock = stan.common.HttpstanClient

    class PatientClient(stock):  # type: ignore[misc, valid-type]
        async def __aenter__(self) -> PatientClient:
            await super().__aenter__()
            await self.session.close()
            self.session = aiohttp.ClientSession(
                timeout=aiohttp.ClientTimeout(total=None, sock_connect=30)
            )
            return self

    stan.common.HttpstanClient = PatientClient
    try:
        yield
    finally:
        stan.common.HttpstanClient = stock


@contextlib.contextmanager
def without_debug_info() -> Iterator[None]:
    """Within the block, C compiles that setuptools runs (httpstan's model builds, in this
    process) end their flags with ``-g0``: setuptools appends ``$CFLAGS`` after Python's own
    ``-g``, and GCC and clang emit the same machine code with or without debug information
    (checked: the two builds of a model disassemble identically), so only the compile time and
    the module's size change."""
    stock = os.environ.get("CFLAGS")
    os.environ["CFLAGS"] = f"{stock} -g0" if stock else "-g0"
    try:
        yield
    finally:
        if stock is None:
            del os.environ["CFLAGS"]
        else:
            os.environ["CFLAGS"] = stock


def build(model: str, code: str, data: dict[str, Any], random_seed: int) -> Any:
    """``stan.build(code, data=data, random_seed=random_seed)`` for the package's ``model``:
    no client time limit, an unfinished cache entry rebuilt, a failure named."""
    import stan

    with exclusive_lock(user_cache("httpstan-locks") / f"{cache_entry(code).name}.lock"):
        discard_incomplete_entry(code)
        try:
            with no_client_timeout(), without_debug_info():
                return stan.build(code, data=data, random_seed=random_seed)
        except (RuntimeError, ValueError) as exc:
            entry = cache_entry(code)
            raise RuntimeError(
                f"PyStan could not build the Stan model {model!r} ({exc}). Its httpstan cache "
                f"folder is {entry}; if the error persists, delete that folder "
                f"(rm -r {entry}) and run again: the model is then compiled anew."
            ) from exc
