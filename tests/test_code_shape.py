"""Shape rules of DEVELOPERS.md that a reviewer would otherwise check by eye: small functions
(Numba kernels aside), building blocks that never import a study, one registration point."""

import ast
from pathlib import Path

import pytest

from hierbn.studies import STUDIES

SRC = Path(__file__).resolve().parents[1] / "src" / "hierbn"
REPO = SRC.parents[1]
MAX_LINES = 80
BUILDING_BLOCKS = (
    "bn", "cpts", "data", "estimators", "fit", "scoring", "stan", "structure_learning",
    "array_copy.py", "code_key.py", "config.py", "diagnostics.py", "draws.py", "forest", "io.py", "machine.py",
    "metrics.py", "numba_cache.py", "random_variates.py", "result_cache.py", "seeds.py",
    "special.py", "stats_tests.py", "steps.py", "uniform_stream.py", "user_cache.py", "validate.py",
)  # fmt: skip
# what may name the studies: the registry, the CLI, the workflow glue and the shared reports
STUDY_AWARE = ("studies", "report", "cli.py", "commands", "workflow.py", "__init__.py")


def _functions(path: Path):
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield node


def _is_numba_kernel(node: ast.FunctionDef) -> bool:
    return any("jit" in ast.unparse(d) for d in node.decorator_list)


def test_no_function_outside_a_numba_kernel_exceeds_80_lines() -> None:
    long = [
        f"{path.relative_to(SRC)}:{node.lineno} {node.name} ({node.end_lineno - node.lineno + 1})"
        for path in SRC.rglob("*.py")
        for node in _functions(path)
        if node.end_lineno - node.lineno + 1 > MAX_LINES and not _is_numba_kernel(node)
    ]
    assert not long, long


def test_every_module_is_a_building_block_or_study_aware() -> None:
    names = {p.name for p in SRC.iterdir() if p.suffix == ".py" or (p / "__init__.py").is_file()}
    assert names == set(BUILDING_BLOCKS) | set(STUDY_AWARE)


@pytest.mark.parametrize("block", BUILDING_BLOCKS)
def test_building_blocks_never_import_a_study(block: str) -> None:
    target = SRC / block
    files = [target] if target.is_file() else list(target.rglob("*.py"))
    for path in files:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom | ast.Import):
                names = [node.module or ""] if isinstance(node, ast.ImportFrom) else []
                names += [a.name for a in node.names] if isinstance(node, ast.Import) else []
                assert not any(n.startswith("hierbn.studies") for n in names), path


def _imports(block: str) -> set[str]:
    names: set[str] = set()
    for path in (SRC / block).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                names.add(node.module or "")
            elif isinstance(node, ast.Import):
                names.update(a.name for a in node.names)
    return names


@pytest.mark.parametrize(
    ("block", "forbidden"),
    [("bn", ("hierbn.estimators", "hierbn.cpts")), ("estimators", ("hierbn.bn", "hierbn.cpts"))],
)
def test_building_blocks_stay_in_their_layer(block: str, forbidden: tuple[str, ...]) -> None:
    """bn/ holds structures and counts and fits nothing; the engines receive count tables."""
    assert not {n for n in _imports(block) if n.startswith(forbidden)}


@pytest.mark.parametrize("study", STUDIES)
def test_every_registered_study_has_its_files(study: str) -> None:
    """What a study brings; nothing outside these names the study (but the registry)."""
    package = SRC / "studies" / study
    for module in ("__init__", "protocol", "tables", "claims", "report", "cli", "workflow"):
        assert (package / f"{module}.py").is_file(), module
    for path in (
        f"workflow/rules/{study}.smk",
        f"workflow/schemas/{study}.schema.yaml",
        f"notebooks/{study}.ipynb",
        f"tests/e2e/tiny/{study}.yaml",
        f"src/hierbn/studies/{study}/README.md",
    ):
        assert (REPO / path).is_file(), path


def _code_text(path: Path) -> str:
    """A file's code without comments and docstrings (papers are cited there, as they should)."""
    if path.suffix != ".py":
        return "\n".join(line.split("#")[0] for line in path.read_text().splitlines())
    tree = ast.parse(path.read_text())
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return "\n".join(
        str(node.value) if isinstance(node, ast.Constant) else node.id
        for node in ast.walk(tree)
        if (isinstance(node, ast.Constant) and id(node) not in docstrings)
        or isinstance(node, ast.Name)
    )


def test_shared_code_never_names_a_study() -> None:
    """Shared code, rules, profiles, schema and the generic e2e test discover the studies from
    the registry; only a study's own files name it."""
    shared = [
        SRC / "cli.py",
        SRC / "config.py",
        SRC / "workflow.py",
        SRC / "steps.py",
        *(SRC / "report").glob("*.py"),
        SRC / "studies" / "claims.py",
        SRC / "studies" / "common.py",
        *(REPO / "workflow" / "rules").glob("*.smk"),
        *(REPO / "workflow" / "profiles").rglob("*.yaml"),
        REPO / "workflow" / "schemas" / "config.schema.yaml",
        REPO / "Snakefile",
        REPO / "tests" / "e2e" / "test_workflow.py",
        REPO / "tests" / "e2e" / "harness.py",
    ]
    study_files = {f"{s}.smk" for s in STUDIES}
    named = {
        str(path.relative_to(REPO)): [s for s in STUDIES if s in _code_text(path)]
        for path in shared
        if path.name not in study_files
    }
    assert not {k: v for k, v in named.items() if v}
