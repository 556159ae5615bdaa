"""The settings: defaults, then the project file, then the editor's (later
ones winning), every value checked.  `layers` reads the sources,
`values` checks each kind of value, `settings` holds what they give,
`files` says what a file is (its format, gold, other annotations, split),
`toml_lines` finds a key's line for a problem.  The keys themselves:
`server.settings_schema`."""

from .files import agreement_others, declared_files, declared_split, is_gold_name, setup_for
from .layers import apply_editor_settings, load_project, read_setting, severity_for
from .settings import (AgreementSettings, ConfigProblem, DocumentSetup, PairRule, Settings, SplitSettings,
                       ValidationConfig)

__all__ = [
    "AgreementSettings", "ConfigProblem", "DocumentSetup", "PairRule", "Settings", "SplitSettings",
    "ValidationConfig", "agreement_others", "apply_editor_settings", "declared_files", "declared_split",
    "is_gold_name", "load_project", "read_setting", "setup_for", "severity_for",
]
