"""``hierbn <command>`` builds only the command group it runs: a job's start-up imports its own
study's modules, not every study's and ``hierbn fit``'s (issue 43: a run's many short jobs pay
start-up each)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from hierbn.cli import _command, build_parser
from hierbn.studies import STUDIES

PROBE = """
import json, sys
from hierbn.cli import build_parser
build_parser({command!r})
print(json.dumps(sorted(m for m in sys.modules if m.startswith("hierbn."))))
"""


def _modules_after_building(command: str) -> list[str]:
    """The hierbn modules a fresh interpreter holds after building the parser for ``command``."""
    out = subprocess.run(
        [sys.executable, "-c", PROBE.format(command=command)],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    return json.loads(out.stdout)


@pytest.mark.parametrize("command", ["fetch", "convert", "scoreboard", "dombowsky2025"])
def test_a_command_imports_neither_fit_nor_another_study(command: str) -> None:
    modules = _modules_after_building(command)
    assert not [m for m in modules if m == "hierbn.fit" or m.startswith("hierbn.fit.")]
    others = [s for s in STUDIES if s != command]
    assert not [m for m in modules if any(m.startswith(f"hierbn.studies.{s}") for s in others)]


def test_a_study_command_builds_only_its_own_group() -> None:
    commands = build_parser("beal2006")._subparsers._group_actions[0].choices
    assert list(commands) == ["beal2006"]


def test_help_and_unknown_commands_list_every_command() -> None:
    for command in (None, "no-such-command"):
        choices = build_parser(command)._subparsers._group_actions[0].choices
        assert {"fetch", "fit", "record", *STUDIES} <= set(choices)


@pytest.mark.parametrize(
    ("argv", "command"),
    [
        (["fetch", "--registry", "r.tsv"], "fetch"),
        (["--help"], None),
        (["@args.txt"], None),
        (["petitjean2018", "cv-cell", "--seed", "1"], "petitjean2018"),
        ([], None),
    ],
)
def test_the_command_is_the_first_word_that_is_not_an_option(
    argv: list[str], command: str | None
) -> None:
    assert _command(argv) == command


def test_fit_help_imports_no_estimator_and_the_fit_api_loads_on_use() -> None:
    modules = _modules_after_building("fit")
    assert "hierbn.fit.cli" in modules
    assert not [m for m in modules if m.startswith(("hierbn.cpts", "hierbn.estimators"))]
    assert "hierbn.fit.api" not in modules
    from hierbn import fit

    assert fit.fit.__module__ == "hierbn.fit.api" and callable(fit.prepare)
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        fit.nothing  # noqa: B018


def test_ctrl_c_prints_one_line_and_exits_130(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    import hierbn.commands.sizes as sizes

    def interrupted(args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(sizes, "cmd_runtime", interrupted)
    from hierbn.cli import main

    assert main(["runtime", "--benchmarks", "x.tsv", "--out", "y.json"]) == 130
    assert capsys.readouterr().err == "hierbn runtime: interrupted\n"
