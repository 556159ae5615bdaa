"""The one table of settings (server/settings_schema.py): what the server
reads goes through it, and what the editors and the docs say is written
from it (scripts/write_settings.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from annoscore.server.config import Settings, apply_editor_settings, load_project
from annoscore.server.settings_schema import SETTINGS

ROOT = Path(__file__).resolve().parents[3]


def _field(settings: Settings, name: str):
    for part in name.split("."):
        settings = getattr(settings, part)
    return settings


def _as_server_holds_it(setting, value):
    """An editor's value as `Settings` holds it: lists as tuples, "" as None where None is the default."""
    if isinstance(value, list):
        return tuple(value)
    if value == "" and setting.field in ("validation.lang", "validation.project_lang", "validation.data_dir",
                                         "max_file_size"):
        return None
    return value


def test_the_editors_and_the_docs_are_written_from_the_table():
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "write_settings.py"), "--check"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("setting", [s for s in SETTINGS if s.check], ids=lambda s: s.key)
def test_a_setting_s_default_is_the_server_s(setting):
    assert _field(Settings(), setting.field) == _as_server_holds_it(setting, setting.default)


@pytest.mark.parametrize("setting", [s for s in SETTINGS if s.editor and s.applies == "server"], ids=lambda s: s.key)
def test_the_server_reads_each_editor_setting_by_its_key(setting):
    """Given its default by its editor key, the server reports nothing; given
    a value of no allowed type, it reports that very key and keeps the default."""
    def section(value):
        *tables, leaf = setting.editor.split(".")
        data = {leaf: value}
        for table in reversed(tables):
            data = {table: data}
        return data

    settings, problems = apply_editor_settings(Settings(), section(setting.default))
    assert problems == [], problems
    settings, problems = apply_editor_settings(Settings(), section({"not": ["a", "value"]}))
    assert len(problems) >= 1 and setting.editor.split(".")[-1] in problems[0].message, problems
    assert _field(settings, setting.field) == _field(Settings(), setting.field)


def test_the_project_file_knows_its_keys_from_the_table(tmp_path):
    keys = {s.toml.split(".")[0] for s in SETTINGS if s.toml}
    assert keys == {"threshold", "sentences", "max_diagnostics", "max_diagnostics_per_document", "progress_marker",
                    "docs_url", "fold_unparsed_findings", "lang", "validation", "pair", "splits", "agreement"}
    (tmp_path / "annoscore.toml").write_text('threshold = 0.5\nmax_diagnostics = 7\nlang = "en"\n'
                                             'fold_unparsed_findings = false\n'
                                             '[validation]\nlevel = "off"\ndata_dir = "ud"\nsurprise = 1\n')
    settings, problems = load_project(tmp_path)
    assert (settings.threshold, settings.max_diagnostics, settings.validation.project_lang) == (0.5, 7, "en")
    assert settings.fold_unparsed_findings is False and Settings().fold_unparsed_findings is True
    assert settings.validation.level == 0 and settings.validation.data_dir == str(tmp_path / "ud")
    assert [p.message for p in problems] == [
        "annoscore.toml: validation.surprise: unknown key (the keys: level, data_dir, exclude, include_only); ignored"]


def test_the_docs_url_is_an_http_address_or_nothing(tmp_path):
    (tmp_path / "annoscore.toml").write_text('docs_url = "https://annoscore.example/reference/codes/"\n')
    settings, problems = load_project(tmp_path)
    assert settings.docs_url == "https://annoscore.example/reference/codes/" and problems == []
    for bad in ("annoscore.example/codes", "https://h/codes/#x", "https://h/a b", 7):
        settings, problems = apply_editor_settings(Settings(), {"docsUrl": bad})
        assert settings.docs_url == "" and len(problems) == 1 and "docsUrl" in problems[0].message, bad
    assert apply_editor_settings(Settings(), {"docsUrl": ""})[0].docs_url == ""


def test_auto_is_a_level_as_any_other_from_the_editor_to_the_checks():
    from annoscore.scorer.validation import prepare
    from annoscore.server.engine.conllu.validator_input import settings_for

    settings, problems = apply_editor_settings(Settings(), {"validation": {"level": "auto"}})
    assert not problems and settings.validation.level == "auto"
    validation = settings_for(settings.validation, "/nowhere/plain.conllu")  # (no language: level 3)
    assert validation.level == "auto"
    prepared = prepare(validation)
    assert prepared.level == 3 and any("levels 4-5 need a language" in n for n in prepared.notes), prepared.notes
    asked, _ = apply_editor_settings(Settings(), {"validation": {"level": 5}})
    assert any("level 5 needs a language" in n for n in prepare(settings_for(asked.validation, None)).notes)
    off, _ = apply_editor_settings(Settings(), {"validation": {"level": "off"}})
    assert settings_for(off.validation, None) is None
