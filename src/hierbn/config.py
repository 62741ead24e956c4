"""The pipeline configuration's JSON Schema, composed from a core schema (seed, data, Stan) and
one fragment per registered study (``workflow/schemas/<study>.schema.yaml``), and the
validation of a config against it. Unknown keys are errors; every error names the key."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import yaml
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

CORE_SCHEMA = "config.schema.yaml"
BASE_URI = "https://hierbn.local/schemas/"


class ConfigError(ValueError):
    """The configuration does not satisfy the schema; the message lists each bad key."""


def load_yaml(path: str | Path, what: str = "config file") -> dict[str, Any]:
    """A YAML mapping from ``path``; a syntax error names the file, line and column (Snakemake's
    own message for a bad --configfile names neither)."""
    path = Path(path)
    if not path.is_file():
        raise ConfigError(f"{what} {path} does not exist")
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        where = f", line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        raise ConfigError(f"{what} {path}{where}: {error.problem or error.context}") from None
    except (yaml.YAMLError, UnicodeDecodeError) as error:
        raise ConfigError(f"{what} {path}: not readable YAML ({error})") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{what} {path}: expected a mapping of keys at the top level")
    return data


def merged(base: dict[str, Any], overlay: dict[str, Any]) -> dict[str, Any]:
    """``overlay`` on ``base`` key by key (as Snakemake applies --configfile overlays)."""
    out = dict(base)
    for key, value in overlay.items():
        both = isinstance(value, dict) and isinstance(out.get(key), dict)
        out[key] = merged(out[key], value) if both else value
    return out


def check_config_files(
    paths: Iterable[str | Path], schema_dir: str | Path, studies: Iterable[str]
) -> dict[str, Any]:
    """Load each config file (the first the default, the rest overlays), merge them and
    validate the result; errors name the file and line, or the key."""
    config: dict[str, Any] = {}
    for path in paths:
        config = merged(config, load_yaml(path))
    validate_config(config, schema_dir, studies)
    return config


def _load(path: Path) -> dict[str, Any]:
    return load_yaml(path, what="config schema")


def composed_schema(schema_dir: str | Path, studies: Iterable[str]) -> tuple[dict, Registry]:
    """The root schema (core + a required ``$ref`` per study) and the registry of all the
    schema files, each resolvable by its file name (``config.schema.yaml#/$defs/…``)."""
    directory = Path(schema_dir)
    core = _load(directory / CORE_SCHEMA)
    fragments = {f"{study}.schema.yaml": study for study in studies}
    resources = [
        Resource.from_contents({**_load(directory / name), "$id": BASE_URI + name})
        for name in fragments
    ]
    root = {
        **core,
        "$id": BASE_URI + CORE_SCHEMA,
        "properties": {**core.get("properties", {})}
        | {study: {"$ref": name} for name, study in fragments.items()},
        "required": [*core.get("required", []), *fragments.values()],
    }
    registry = Registry().with_resources(
        (r.contents["$id"], r) for r in [Resource.from_contents(root), *resources]
    )
    return root, registry


def validate_config(config: dict[str, Any], schema_dir: str | Path, studies: Iterable[str]) -> None:
    """Raise :class:`ConfigError` listing every violation with the path of the key at fault."""
    schema, registry = composed_schema(schema_dir, studies)
    validator = Draft202012Validator(schema, registry=registry)
    errors = sorted(validator.iter_errors(config), key=lambda e: [str(p) for p in e.path])
    if errors:
        lines = [
            f"  {'.'.join(str(p) for p in e.path) or '(top level)'}: {e.message}" for e in errors
        ]
        raise ConfigError("invalid configuration:\n" + "\n".join(lines))
