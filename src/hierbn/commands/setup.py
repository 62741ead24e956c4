"""``hierbn stan-compile``, ``build-cmdstan`` and ``check-config``: what a run needs before its
first job."""

from __future__ import annotations

import argparse

from hierbn.io import write_json
from hierbn.studies import STUDIES


def cmd_stan_compile(args: argparse.Namespace) -> None:
    from hierbn.stan.runner import compile_model, resolve_backend

    backend = resolve_backend(args.backend)
    info = compile_model(args.model, backend, exe_dir=args.exe_dir)
    write_json(info, args.out)


def cmd_build_cmdstan(args: argparse.Namespace) -> None:
    from pathlib import Path

    from hierbn.stan.cmdstan_build import CmdStanBuildError, build_cmdstan

    try:
        home = build_cmdstan(
            Path(args.sources), Path(args.cache) if args.cache else None, jobs=args.jobs
        )
    except CmdStanBuildError as error:
        raise SystemExit(f"hierbn build-cmdstan: {error}") from None
    print(home)


def cmd_check_config(args: argparse.Namespace) -> None:
    from hierbn.config import ConfigError, check_config_files

    try:
        check_config_files(args.files, args.schemas, STUDIES)
    except ConfigError as error:
        raise SystemExit(str(error)) from None
    print(f"{' + '.join(args.files)}: valid")


def register(sub: argparse._SubParsersAction) -> None:
    """Add the set-up commands."""
    p = sub.add_parser("stan-compile", help="compile a packaged Stan model once")
    p.add_argument("--model", required=True)
    p.add_argument("--backend", default="auto")
    p.add_argument("--exe-dir", default=None)
    p.add_argument("--out", required=True)
    p.set_defaults(func=cmd_stan_compile)

    p = sub.add_parser(
        "build-cmdstan",
        help="build CmdStan offline from its sources and httpstan; prints the CmdStan home",
    )
    p.add_argument("--sources", required=True, help="the CmdStan source tree (cmdstan-<version>)")
    p.add_argument("--cache", default=None, help="default: $XDG_CACHE_HOME/hierbn/cmdstan")
    p.add_argument("--jobs", type=int, default=2, help="make -j")
    p.set_defaults(func=cmd_build_cmdstan)

    p = sub.add_parser(
        "check-config", help="check config files (YAML syntax with file and line, then the schema)"
    )
    p.add_argument("files", nargs="+", help="the default config first, then overlays")
    p.add_argument("--schemas", default="workflow/schemas", help="the schema folder")
    p.set_defaults(func=cmd_check_config)
