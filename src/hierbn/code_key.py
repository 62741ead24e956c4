"""The key of the code a job runs: a digest of every ``hierbn`` source file its command can
execute, for the result cache (Snakemake's ``cache:`` hashes a rule's command, params and
inputs, never the Python package the command imports, so each cached rule carries this key as
a param and a code change never reuses an old output).

A job's code is found by reading import statements (``ast``), without importing anything:
- the *entry* modules (``hierbn.cli``, a study's ``cli``) are followed through their
  module-level imports only: their step functions import what each step runs, inside the
  function, and a claims step's modules are not a CV cell's code;
- the *step* modules a rule names (say ``hierbn.studies.petitjean2018.protocol``) are followed
  through every import, module level or inside a function, into every ``hierbn`` module they
  reach (a parent package's ``__init__`` runs on import, so it is part of the code too).

Each module's folder adds its data files (a Stan model's dummy data, the ADVI driver's C++),
READMEs aside, and ``pyproject.toml``'s declared dependencies stand for the software stack.
"""

from __future__ import annotations

import ast
import hashlib
import tomllib
from collections.abc import Iterable
from pathlib import Path

PACKAGE = "hierbn"
SOURCE_ROOT = Path(__file__).resolve().parent.parent  # src/, which holds hierbn/
NOT_CODE = {"README.md"}


def module_file(module: str, root: Path = SOURCE_ROOT) -> Path:
    """The source file of ``module`` (a package's ``__init__.py``) under ``root``."""
    base = root.joinpath(*module.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    raise ValueError(f"{module}: no source file under {root} (expected {base}.py or a package)")


def _resolve(module: str, node: ast.ImportFrom, is_package: bool) -> str:
    """The absolute module a ``from … import`` names (relative imports resolved)."""
    if node.level == 0:
        return node.module or ""
    parts = module.split(".")
    base = parts if is_package else parts[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


def _imports(path: Path, module: str, top_level_only: bool) -> tuple[str, ...]:
    """The ``hierbn`` modules ``module``'s source imports: at module level (``top_level_only``)
    or anywhere. ``from package import name`` counts ``package.name`` when that is a module.
    Kept per file version (size and modification time): a workflow asks for many keys."""
    stat = path.stat()
    version = (path, stat.st_size, stat.st_mtime_ns, module, top_level_only)
    if version not in _PARSED:
        _PARSED[version] = _parse_imports(path, module, top_level_only)
    return _PARSED[version]


_PARSED: dict[tuple, tuple[str, ...]] = {}


def _parse_imports(path: Path, module: str, top_level_only: bool) -> tuple[str, ...]:
    tree = ast.parse(path.read_bytes(), filename=str(path))
    nodes = tree.body if top_level_only else list(ast.walk(tree))
    is_package = path.name == "__init__.py"
    found: list[str] = []
    for node in nodes:
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            target = _resolve(module, node, is_package)
            found.append(target)
            found += [f"{target}.{alias.name}" for alias in node.names]
    root = path.parents[len(module.split(".")) - (0 if is_package else 1)]
    return tuple(
        sorted({name for name in found if name.split(".")[0] == PACKAGE and _exists(name, root)})
    )


def _exists(module: str, root: Path) -> bool:
    try:
        module_file(module, root)
    except ValueError:
        return False
    return True


def _with_parents(module: str) -> list[str]:
    """``module`` and each package above it (whose ``__init__`` runs when it is imported)."""
    parts = module.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts) + 1)]


def code_files(
    steps: Iterable[str], entries: Iterable[str] = (), root: Path = SOURCE_ROOT
) -> list[Path]:
    """Every source and data file a job can execute: the import closure of ``steps`` (every
    import) and of ``entries`` (module-level imports; what they reach is followed in full)."""
    followed: set[str] = set()  # modules whose every import is followed
    pending = [m for name in steps for m in _with_parents(name)]
    entry_files = []
    for name in entries:
        entry_files.append(module_file(name, root))
        pending += _with_parents(name)[:-1]
        pending += _imports(module_file(name, root), name, top_level_only=True)
    while pending:
        module = pending.pop()
        if module in followed:
            continue
        followed.add(module)
        pending += _with_parents(module)[:-1]
        pending += _imports(module_file(module, root), module, top_level_only=False)
    files = {module_file(m, root) for m in followed} | set(entry_files)
    data = {
        path
        for folder in {path.parent for path in files}
        for path in folder.iterdir()
        if path.is_file() and path.suffix not in {".py", ".pyc"} and path.name not in NOT_CODE
    }
    return sorted(files | data)


def declared_dependencies(pyproject: Path | None = None) -> list[str]:
    """The software stack the project declares: ``[project] dependencies`` of ``pyproject``, or
    by default the installed distribution's requirements (extras aside)."""
    if pyproject is not None:
        return list(tomllib.loads(pyproject.read_text())["project"]["dependencies"])
    from importlib.metadata import requires

    return [r for r in requires(PACKAGE) or [] if "extra ==" not in r]


def code_key(
    steps: Iterable[str],
    entries: Iterable[str] = (),
    root: Path = SOURCE_ROOT,
    pyproject: Path | None = None,
) -> str:
    """sha256 (hex, 16 characters) of the files of :func:`code_files` (path and bytes) and of
    the declared dependencies (:func:`declared_dependencies`)."""
    digest = hashlib.sha256()
    for path in code_files(steps, entries, root):
        digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    for requirement in declared_dependencies(pyproject):
        digest.update(requirement.encode() + b"\0")
    return digest.hexdigest()[:16]
