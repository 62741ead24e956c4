"""``hierbn`` command-line entry points called by the Snakemake rules: the dispatch to the
shared commands (:mod:`hierbn.commands`), ``hierbn fit`` and each study's steps."""

from __future__ import annotations

import argparse
import sys

from hierbn.studies import STUDIES, study_module

INTERRUPTED = 130  # 128 + SIGINT, as a shell reports a Ctrl-C


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line: the shared commands (data, Stan, scoreboard), ``hierbn fit`` and one
    command per registered study. With ``command``, only the group that owns it is registered:
    a job then imports only its own study's modules, not every study's and ``fit``'s, which
    would add about a second to each of a run's few-second jobs."""
    parser = argparse.ArgumentParser(prog="hierbn", description=__doc__, fromfile_prefix_chars="@")
    sub = parser.add_subparsers(dest="command", required=True)
    if command not in (*STUDIES, "fit"):
        from hierbn.commands import register

        register(sub)
        if command in sub.choices:
            return parser
        command = None  # help, or an unknown command: its error lists every command
    if command in (None, "fit"):
        from hierbn.fit import cli as fit_cli

        fit_cli.register(sub)
    for study in STUDIES:
        if command in (None, study):
            study_module(study, "cli").register(sub)
    return parser


def _command(argv: list[str]) -> str | None:
    """The command ``argv`` names (its first word that is not an option), or None for
    ``--help`` alone or an ``@file`` of arguments (then the whole parser is built)."""
    words = [word for word in argv if not word.startswith("-")]
    return words[0] if words and not words[0].startswith("@") else None


def _bad_input_errors() -> tuple[type[Exception], ...]:
    """The errors that name bad input (imported when one is raised: they pull in pandas)."""
    from hierbn.config import ConfigError
    from hierbn.data.download import ChecksumError
    from hierbn.data.readers import DataFormatError
    from hierbn.data.registry import RegistryError

    return ChecksumError, ConfigError, DataFormatError, RegistryError


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = build_parser(_command(argv)).parse_args(argv)
    try:
        args.func(args)
    except KeyboardInterrupt:
        # Ctrl-C: one line, the shell's code for SIGINT; every write is atomic, so no output
        # is left half-written
        print(f"hierbn {args.command}: interrupted", file=sys.stderr)
        return INTERRUPTED
    except _bad_input_errors() as error:
        # bad input, named by file and line or key: a message, not a traceback
        raise SystemExit(f"hierbn {args.command}: {error}") from None
    return 0


if __name__ == "__main__":
    sys.exit(main())
