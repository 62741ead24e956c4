"""The code key of a job (hierbn.code_key): every hierbn file its step can run changes it, a file
it cannot run does not (issue 44: a code change must never reuse an old cached output)."""

from __future__ import annotations

from pathlib import Path

import pytest

from hierbn.code_key import code_files, code_key, module_file
from hierbn.workflow import step_code

PYPROJECT = '[project]\nname = "hierbn"\ndependencies = ["numpy>=1.26"]\n'

TREE = {
    "hierbn/__init__.py": "",
    "hierbn/cli.py": "import argparse\nfrom hierbn.io import write\n",
    "hierbn/io.py": "import json\n",
    "hierbn/blocks/__init__.py": "",
    "hierbn/blocks/kernel.py": "from .helper import twice\n",
    "hierbn/blocks/helper.py": "def twice(x):\n    return 2 * x\n",
    "hierbn/blocks/table.json": "{}\n",
    "hierbn/blocks/README.md": "about the blocks\n",
    "hierbn/report/__init__.py": "",
    "hierbn/report/pages.py": "import textwrap\n",
    "hierbn/studies/__init__.py": "",
    "hierbn/studies/toy/__init__.py": "",
    "hierbn/studies/toy/cli.py": (
        "from hierbn.io import write\n\n"
        "def cmd_cv(args):\n    from hierbn.studies.toy.protocol import run\n\n"
        "def cmd_claims(args):\n    from hierbn.studies.toy.claims import judge\n"
    ),
    "hierbn/studies/toy/protocol.py": (
        "def run():\n    from hierbn.blocks import kernel\n    return kernel\n"
    ),
    "hierbn/studies/toy/claims.py": "from hierbn.report import pages\n",
}


@pytest.fixture()
def tree(tmp_path: Path) -> Path:
    """A small hierbn source tree under ``tmp_path/src`` with its pyproject.toml."""
    for name, text in TREE.items():
        path = tmp_path / "src" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    (tmp_path / "pyproject.toml").write_text(PYPROJECT)
    return tmp_path / "src"


def _key(root: Path) -> str:
    return code_key(
        ["hierbn.studies.toy.protocol"], ["hierbn.cli", "hierbn.studies.toy.cli"], root,
        root.parent / "pyproject.toml",
    )  # fmt: skip


def _files(root: Path) -> set[str]:
    files = code_files(
        ["hierbn.studies.toy.protocol"], ["hierbn.cli", "hierbn.studies.toy.cli"], root
    )
    return {str(p.relative_to(root)) for p in files}


def test_the_step_reaches_through_function_level_and_relative_imports(tree: Path) -> None:
    files = _files(tree)
    assert {
        "hierbn/studies/toy/protocol.py",
        "hierbn/blocks/kernel.py",
        "hierbn/blocks/helper.py",  # from .helper import twice
        "hierbn/blocks/__init__.py",  # runs on import
        "hierbn/blocks/table.json",  # data beside the code
        "hierbn/cli.py",
        "hierbn/io.py",
    } <= files
    assert "hierbn/blocks/README.md" not in files


def test_the_entry_is_followed_at_module_level_only(tree: Path) -> None:
    files = _files(tree)
    assert "hierbn/studies/toy/claims.py" not in files  # the claims step's code
    assert "hierbn/report/pages.py" not in files


@pytest.mark.parametrize(
    "edited",
    [
        "hierbn/blocks/helper.py",
        "hierbn/blocks/table.json",
        "hierbn/studies/toy/protocol.py",
        "hierbn/studies/toy/cli.py",
        "hierbn/io.py",
        "hierbn/__init__.py",
    ],
)
def test_editing_any_file_the_step_can_run_changes_the_key(tree: Path, edited: str) -> None:
    before = _key(tree)
    with (tree / edited).open("a") as handle:
        handle.write("\n# edited\n")
    assert _key(tree) != before


@pytest.mark.parametrize(
    "edited", ["hierbn/studies/toy/claims.py", "hierbn/report/pages.py", "hierbn/blocks/README.md"]
)
def test_editing_a_file_the_step_cannot_run_keeps_the_key(tree: Path, edited: str) -> None:
    before = _key(tree)
    with (tree / edited).open("a") as handle:
        handle.write("\n# edited\n")
    assert _key(tree) == before


def test_the_declared_dependencies_are_part_of_the_key(tree: Path) -> None:
    before = _key(tree)
    (tree.parent / "pyproject.toml").write_text(PYPROJECT.replace("1.26", "2.0"))
    assert _key(tree) != before


def test_a_missing_module_is_named(tree: Path) -> None:
    with pytest.raises(ValueError, match=r"hierbn\.studies\.toy\.nowhere"):
        module_file("hierbn.studies.toy.nowhere", tree)


def test_the_real_cv_cell_of_petitjean2018_runs_weka_but_not_its_claims() -> None:
    root = Path(__file__).resolve().parents[1] / "src"
    files = {
        str(p.relative_to(root))
        for p in code_files(
            ["hierbn.studies.petitjean2018.protocol"],
            ["hierbn.cli", "hierbn.studies.petitjean2018.cli"],
            root,
        )
    }
    assert "hierbn/forest/weka.py" in files
    assert "hierbn/estimators/hdp_kernels.py" in files
    assert "hierbn/studies/petitjean2018/claims.py" not in files
    assert "hierbn/studies/panel/protocol.py" not in files
    key = step_code("petitjean2018", "protocol")
    assert len(key) == 16 and key == step_code("petitjean2018", "protocol")


def test_no_cached_step_runs_the_result_cache_itself() -> None:
    """The rules' cached steps (``step_code(study, step)`` in workflow/rules) cannot reach
    hierbn.result_cache: how an entry is stored (its compact encoding) changes no job's key, so
    re-encoding the committed entries keeps them (hierbn.result_cache's docstring)."""
    import re

    repo = Path(__file__).resolve().parents[1]
    rules = "".join(p.read_text() for p in (repo / "workflow/rules").glob("*.smk"))
    steps = set(re.findall(r'step_code\("(\w+)", "(\w+)"\)', rules))
    assert len(steps) >= 10
    for study, step in steps:
        files = code_files(
            [f"hierbn.studies.{study}.{step}"],
            ["hierbn.cli", f"hierbn.studies.{study}.cli"],
            repo / "src",
        )
        assert repo / "src/hierbn/result_cache.py" not in files, (study, step)
