"""The composed config schema (core + one fragment per study) and its error messages."""

import copy
from pathlib import Path

import pytest
import yaml

from hierbn.config import ConfigError, composed_schema, validate_config
from hierbn.studies import STUDIES

REPO = Path(__file__).resolve().parents[1]
SCHEMAS = REPO / "workflow" / "schemas"


def _merge(base: dict, overlay: dict) -> dict:
    out = copy.deepcopy(base)
    for key, value in overlay.items():
        out[key] = _merge(out[key], value) if isinstance(value, dict) and key in out else value
    return out


def _default() -> dict:
    return yaml.safe_load((REPO / "config" / "config.yaml").read_text())


def test_default_and_paper_configs_are_valid() -> None:
    validate_config(_default(), SCHEMAS, STUDIES)
    paper = yaml.safe_load((REPO / "config" / "paper.yaml").read_text())
    validate_config(_merge(_default(), paper), SCHEMAS, STUDIES)


def test_every_study_section_is_required_and_checked_by_its_fragment() -> None:
    schema, _ = composed_schema(SCHEMAS, STUDIES)
    assert set(STUDIES) <= set(schema["required"])
    config = _default()
    del config[STUDIES[0]]
    with pytest.raises(ConfigError, match=STUDIES[0]):
        validate_config(config, SCHEMAS, STUDIES)


def test_errors_name_every_bad_key() -> None:
    config = _default()
    section = next(s for s in STUDIES if "enabled" in config[s])
    config[section]["enabled"] = "yes"
    config["bogus"] = 1
    with pytest.raises(ConfigError) as error:
        validate_config(config, SCHEMAS, STUDIES)
    text = str(error.value)
    assert f"{section}.enabled: 'yes' is not of type 'boolean'" in text and "'bogus'" in text


def test_a_missing_fragment_is_named(tmp_path: Path) -> None:
    (tmp_path / "config.schema.yaml").write_text((SCHEMAS / "config.schema.yaml").read_text())
    with pytest.raises(ConfigError, match=r"newstudy\.schema\.yaml does not exist"):
        composed_schema(tmp_path, ["newstudy"])
