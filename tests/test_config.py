"""The composed config schema (core + one fragment per study) and its error messages."""

from pathlib import Path

import pytest
import yaml

from hierbn.config import (
    ConfigError,
    check_config_files,
    composed_schema,
    load_yaml,
    merged,
    validate_config,
)
from hierbn.studies import STUDIES

REPO = Path(__file__).resolve().parents[1]
SCHEMAS = REPO / "workflow" / "schemas"


def _default() -> dict:
    return yaml.safe_load((REPO / "config" / "config.yaml").read_text())


def test_default_and_paper_configs_are_valid() -> None:
    validate_config(_default(), SCHEMAS, STUDIES)
    paper = yaml.safe_load((REPO / "config" / "paper.yaml").read_text())
    validate_config(merged(_default(), paper), SCHEMAS, STUDIES)


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


def test_a_yaml_error_names_the_file_line_and_column(tmp_path: Path) -> None:
    bad = tmp_path / "paper.yaml"
    bad.write_text("seed: 1\nbeal2006:\n  sizes: [10, 20\n  reading: fans\n")
    with pytest.raises(ConfigError, match=r"paper\.yaml, line 4, column 10: expected ','"):
        load_yaml(bad)
    tabs = tmp_path / "tabs.yaml"
    tabs.write_text("seed: 1\ndata:\n\tregistry: x\n")
    with pytest.raises(ConfigError, match=r"tabs\.yaml, line 3, column 1"):
        load_yaml(tabs)
    (tmp_path / "list.yaml").write_text("- a\n")
    with pytest.raises(ConfigError, match="mapping of keys"):
        load_yaml(tmp_path / "list.yaml")


def test_overlays_are_merged_and_validated_like_snakemake_does(tmp_path: Path) -> None:
    default = REPO / "config" / "config.yaml"
    overlay = tmp_path / "overlay.yaml"
    study = next(s for s in STUDIES if "enabled" in _default()[s])
    overlay.write_text(f"{study}:\n  enabled: false\n")
    assert check_config_files([default, overlay], SCHEMAS, STUDIES)[study]["enabled"] is False
    overlay.write_text("seed: -1\n")
    with pytest.raises(ConfigError, match="seed: -1 is less than the minimum of 0"):
        check_config_files([default, overlay], SCHEMAS, STUDIES)


@pytest.mark.parametrize(
    ("keys", "value"),
    [
        (("azzimonti2019", "e1", "exact_max_n"), 10_000),  # the exact posterior costs ~n^4
        (("beal2006", "exact_max_n"), 13),  # 4^n completions
        (("petitjean2018", "cv", "hdp", "iterations"), 10**9),
        (("azzimonti2019", "e1", "n"), [20, 10**9]),
    ],
)
def test_sizes_that_can_explode_are_bounded(keys: tuple[str, ...], value) -> None:
    config = _default()
    section = config
    for key in keys[:-1]:
        section = section[key]
    section[keys[-1]] = value
    with pytest.raises(ConfigError, match=rf"{'.'.join(keys)}(\.1)?: .* greater than the maximum"):
        validate_config(config, SCHEMAS, STUDIES)
