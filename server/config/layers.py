"""Configuration: what pairs with what, and the settings that shape diagnostics.

Three layers, later ones winning:

1. defaults (below);
2. the project file: ``annoscore.toml`` at the workspace root, or
   ``[tool.annoscore]`` in ``pyproject.toml``::

       threshold = 0.8
       [[pair]]
       files = "pred/*.conllu"   # glob relative to the root
       gold = "gold/{name}"      # {name}, {stem}, {dir} of the matched file
       format = "conllu"         # optional: conllu | space | tsv | labels
       pos = true                # optional: word/POS tokens
       [splits]                  # which files are which split (leaks, evaluate --final)
       train = "gold/*-train.*"  # a glob, or a list of paths and globs
       test = ["gold/test.conllu"]
       normalize = "nfc,casefold,space"   # optional: when texts are the same
       near = "digits,weekdays"           # optional: near-duplicate rules
       min_words = 0                      # optional: shorter items are not compared

3. editor settings under ``annoscore.*`` (``workspace/configuration``, or the
   initialization options).

Which keys each layer has, their types, values and defaults: the one table
of settings, `server.settings_schema` (docs/reference/settings.md is
written from it); the checks of each kind of value are
`server.config.values`'s.

UD validation (`ValidationConfig`): the project file may give ``lang`` (the
language of files whose names do not say it) and a ``[validation]`` table
(``level``, ``data_dir``, ``exclude``, ``include_only``); the editor's
``validation.*`` settings win over it, and ``annoscore check``'s options over both.

Every value is checked.  An invalid one is reported (as a `ConfigProblem`
with a message for the user and, for the project file, its line) and
replaced by the default; nothing here raises on bad input.

Without a ``[[pair]]`` rule for a file, ``NAME.gold.EXT`` beside ``NAME.EXT``
is its gold.
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import replace
from typing import Any, Mapping

from annoscore.scorer.excerpt import excerpt
from annoscore.scorer.problems import Severity

from ..project import project_source, shadowed_pyproject
from ..settings_schema import BY_KEY, SETTINGS, editor_keys, project_keys, table_keys
from ..workspace import EDITOR_SETTING, FLAG
from .settings import PYPROJECT_TABLE, ConfigProblem, Settings
from .toml_lines import header_pattern
from .values import CHECKS, ValueReader, shown

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib


# The validation settings: field -> key, in annoscore.toml's [validation] and in the editor's section.
PROJECT_VALIDATION_KEYS = table_keys("validation", "toml")
EDITOR_VALIDATION_KEYS = table_keys("validation", "editor")


def _field(settings: Settings, name: str) -> Any:
    value: Any = settings
    for part in name.split("."):
        value = getattr(value, part)
    return value


def _with(settings: Settings, changes: dict[str, Any]) -> Settings:
    """``settings`` with the fields changed (``validation.level``: a field of a field)."""
    inner: dict[str, dict[str, Any]] = {}
    outer: dict[str, Any] = {}
    for name, value in changes.items():
        head, _, rest = name.partition(".")
        if rest:
            inner.setdefault(head, {})[rest] = value
        else:
            outer[name] = value
    for head, fields in inner.items():
        outer[head] = replace(outer.get(head, getattr(settings, head)), **fields)
    return replace(settings, **outer)


def _read_keys(reader: "ValueReader", data: Mapping[str, Any], settings: Settings, source: str,
               tables: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """The simple settings of the schema (not its tables, nor [validation]'s
    keys, read as a table) that ``source`` (toml, editor) has: field -> value."""
    changes: dict[str, Any] = {}
    for setting in SETTINGS:
        key = setting.toml if source == "toml" else setting.editor
        if key is None or setting.check not in CHECKS or key.startswith("validation."):
            continue
        table, _, name = key.rpartition(".")
        holder = tables[table] if table else data
        changes[setting.field] = CHECKS[setting.check](reader, holder, name, setting, _field(settings, setting.field))
    return changes


def load_project(root: str | os.PathLike[str] | None,
                 base: Settings | None = None) -> tuple[Settings, list[ConfigProblem]]:
    """Settings from the project file over ``base`` (defaults).

    One project file is read: ``annoscore.toml`` if the root has one, else
    the ``[tool.annoscore]`` table of its ``pyproject.toml``; both hold the
    same keys and tables (in pyproject.toml under ``tool.annoscore``:
    ``[[tool.annoscore.pair]]``, ``[tool.annoscore.validation]``).  A
    pyproject.toml table that is not read because an annoscore.toml is
    beside it is reported, so that nobody edits settings that do nothing."""
    settings, problems = _load_project(root, base)
    shadowed = shadowed_pyproject(root)
    if shadowed is not None and _annoscore_table(shadowed[1]):
        path, text = shadowed
        header = header_pattern(PYPROJECT_TABLE).search(text) or re.search(r"(?m)^.*tool\s*\.\s*annoscore", text)
        problems.append(ConfigProblem(
            "pyproject.toml: [tool.annoscore] is not read: annoscore.toml beside it is the project file "
            "(move the settings into one of them)", str(path), text.count("\n", 0, header.start()) if header else 0))
    return settings, problems


def _annoscore_table(text: str) -> bool:
    try:
        tool = tomllib.loads(text).get("tool")
    except tomllib.TOMLDecodeError:
        return False
    return isinstance(tool, dict) and "annoscore" in tool


def _load_project(root: str | os.PathLike[str] | None,
                  base: Settings | None = None) -> tuple[Settings, list[ConfigProblem]]:
    settings = base or Settings()
    source = project_source(root)
    if source is None:
        return settings, []
    path, text = source
    if not isinstance(text, str):
        return settings, [ConfigProblem(f"{path.name}: cannot be read: {getattr(text, 'strerror', None) or text}; "
                                        "using the defaults", str(path), 0)]
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        match = re.search(r"line (\d+)", str(error))
        line = int(match.group(1)) - 1 if match else 0
        return settings, [ConfigProblem(f"{path.name}: {excerpt(str(error), 200)}; using the defaults",
                                        str(path), line)]
    except RecursionError:
        return settings, [ConfigProblem(f"{path.name}: nested too deeply to be read; using the defaults",
                                        str(path), 0)]
    if path.name == "pyproject.toml":
        tool = data.get("tool", {})
        data = tool.get("annoscore", {}) if isinstance(tool, dict) else None
        if not isinstance(data, dict):
            return settings, [ConfigProblem("pyproject.toml: [tool.annoscore] must be a table", str(path), 0)]
    reader = ValueReader(path.name, str(path), text, PYPROJECT_TABLE if path.name == "pyproject.toml" else (),
                     root=str(path.parent), allow_outside=settings.allow_outside_project)
    if "allow_outside_project" in data:
        reader.problem("allow_outside_project", f"only the user can allow paths outside the project (the "
                       f"command line's {FLAG}, the editor setting {EDITOR_SETTING}), not the project file",
                       "; ignored")
    # (allow_outside_project is known, to be refused above: only the user may set it)
    for key in sorted(set(data) - project_keys() - {"allow_outside_project"}):
        reader.problem(key, "unknown key (ignored)")
    changes = _read_keys(reader, data, settings, "toml", {})
    validation = reader.validation(data, "validation", settings.validation, PROJECT_VALIDATION_KEYS,
                                   str(path.parent))
    changes.update({f"validation.{name}": getattr(validation, name) for name in PROJECT_VALIDATION_KEYS})
    changes.update(pairs=reader.pairs(data), splits=reader.splits(data), agreement=reader.agreement(data))
    settings = _with(settings, changes)
    return settings, reader.problems


def apply_editor_settings(settings: Settings, data: Any) -> tuple[Settings, list[ConfigProblem]]:
    """The editor's ``annoscore`` section over ``settings``; keys it leaves out keep their value."""
    if data is None:
        return settings, []
    reader = ValueReader("editor settings")
    if not isinstance(data, dict):
        reader.problem("annoscore", f"must be an object, not {shown(data)}")
        return settings, reader.problems
    files = data.get("files", {})
    if not isinstance(files, dict):
        reader.problem("files", "must be an object with segmentation and labels")
        files = {}
    for key in sorted(set(data) - editor_keys()):
        reader.problem(key, "unknown setting (ignored)")
    changes = _read_keys(reader, data, settings, "editor", {"files": files})
    validation = reader.validation(data, "validation", settings.validation, EDITOR_VALIDATION_KEYS)
    changes.update({f"validation.{name}": getattr(validation, name) for name in EDITOR_VALIDATION_KEYS})
    updated = _with(settings, changes)
    return updated, reader.problems


def read_setting(key: str, value: Any, source: str) -> tuple[Any, list[ConfigProblem]]:
    """One setting of the schema (`settings_schema.BY_KEY`) given elsewhere,
    such as a command-line option (``source``: ``--lang``), checked as the
    project file's and the editor's values are: (its value, or the default
    when it is invalid; the problems)."""
    setting = BY_KEY[key]
    reader = ValueReader(source)
    checked = CHECKS[setting.check](reader, {source: value}, source, setting, _field(Settings(), setting.field))
    return checked, reader.problems



def severity_for(settings: Settings, code: str, default: Severity) -> Severity | None:
    """The severity a diagnostic gets: its code's setting, else its prefix's
    (``format-``), else its default.  None: turned off."""
    severities = settings.severities
    if code in severities:
        return severities[code]
    prefix = code.split("-", 1)[0] + "-"
    if prefix in severities:
        return severities[prefix]
    return default
