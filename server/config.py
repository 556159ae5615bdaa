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
   initialization options): ``threshold``, ``run``, ``severities``,
   ``goldDiff``, ``sentences``, ``maxDiagnostics``, ``maxDiagnosticsPerDocument``,
   ``files.segmentation``, ``files.labels``, ``validation.level``, ``validation.lang``,
   ``validation.dataDir``, ``validation.exclude``.

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

import fnmatch
import json
import os
import re
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath
from typing import Any, Mapping

from scorer.codes import ALL as ALL_CODES
from scorer.excerpt import excerpt
from scorer.formats import FORMATS
from scorer.hygiene.near import DEFAULT as DEFAULT_NEAR
from scorer.hygiene.normalize import DEFAULT as DEFAULT_NORMALIZATION
from scorer.hygiene import rules_from
from scorer.hygiene.splits import SPLITS
from scorer.problems import Severity
from scorer.validation.incident import CLASSES as VALIDATION_CLASSES
from scorer.validation.incident import TESTS as VALIDATION_TESTS

from .project import CONFIG_FILES, project_root, project_source

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

# The project files, in the order they are looked for at the workspace root.
EXTENSION_FORMATS = {".conllu": "conllu", ".conll": "conllu", ".txt": "space", ".tsv": "tsv"}
RUN_MODES = ("onSave", "onType")
LOW_CONFIDENCE_MODES = ("word", "cell")  # one low-confidence diagnostic per word, or per cell
SENTENCE_MODES = ("all", "predicted", "annotated")
SEVERITY_NAMES = {"error": Severity.ERROR, "warning": Severity.WARNING,
                  "information": Severity.INFORMATION, "hint": Severity.HINT, "off": None}


@dataclass(frozen=True)
class PairRule:
    files: str
    gold: str
    format: str | None = None
    pos: bool = False


@dataclass(frozen=True)
class SplitSettings:
    """``[splits]``: the files of each split (globs relative to the root)
    and the rules of the leak check (see `scorer.hygiene`)."""

    train: tuple[str, ...] = ()
    dev: tuple[str, ...] = ()
    test: tuple[str, ...] = ()
    normalize: str = DEFAULT_NORMALIZATION
    near: str = DEFAULT_NEAR
    min_words: int = 0

    def patterns(self, split: str) -> tuple[str, ...]:
        return getattr(self, split)


@dataclass(frozen=True)
class ValidationConfig:
    """What UD validation runs with (see `server.engine.conllu.validation`).

    ``level`` 0 turns it off; None (the default) is level 5 when a language
    and the UD language data are at hand, else 3.  The language of a file is
    ``lang`` (the editor's setting, ``--lang``), else the one of a UD file
    name (``en_ewt-ud-dev.conllu``), else ``project_lang`` (``lang`` in
    annoscore.toml).  ``exclude`` / ``include_only``: validator test ids or
    classes (``MORPHO``)."""

    level: int | None = None
    lang: str | None = None
    data_dir: str | None = None
    exclude: tuple[str, ...] = ()
    include_only: tuple[str, ...] = ()
    project_lang: str | None = None


VALIDATION_LEVELS = (0, 1, 2, 3, 4, 5)
_LANGUAGE_CODE = re.compile(r"[a-z]{2,8}")  # UD's codes: ISO 639 (2-3 letters), 'ud', a few longer


@dataclass(frozen=True)
class Settings:
    threshold: float = 0.8
    run: str = "onSave"
    # Diagnostic code (or a prefix ending in "-", e.g. "format-") -> severity; None = off.
    severities: Mapping[str, Severity | None] = field(default_factory=dict)
    gold_diff: bool = False
    # "all": missing gold sentences count against recall; "predicted": they
    # are left out; "annotated": sentences not parsed yet are left out too.
    sentences: str = "all"
    max_diagnostics: int = 1000  # per code and document; then one summary
    # In all, summaries included (VS Code keeps at most 1,000 per file anyway).
    max_diagnostics_per_document: int = 1000
    low_confidence: str = "word"  # see LOW_CONFIDENCE_MODES
    # The comment that marks a sentence as done (see server.engine.conllu.progress); "" for none.
    progress_marker: str = "annotated"
    segmentation_files: tuple[str, ...] = ()
    label_files: tuple[str, ...] = ()
    pairs: tuple[PairRule, ...] = ()
    splits: SplitSettings = SplitSettings()
    validation: ValidationConfig = ValidationConfig()


@dataclass(frozen=True)
class ConfigProblem:
    message: str
    path: str | None = None  # the file it is in (annoscore.toml), None for editor settings
    line: int = 0            # 0-based

    def text(self) -> str:
        """The message with its line, for the command line."""
        return self.message if self.path is None else f"{self.message} (line {self.line + 1})"


@dataclass(frozen=True)
class DocumentSetup:
    """What a document is and what it is scored against."""

    format: str
    gold: str | None = None  # path
    pos: bool = False


# --------------------------------------------------------------------------
# Reading values
# --------------------------------------------------------------------------


def _line_of(text: str, key: str) -> int:
    match = re.search(rf"(?m)^\s*{re.escape(key)}\s*=", text)
    return text.count("\n", 0, match.start()) if match else 0


def _table_line(text: str, name: str, nth: int, key: str | None) -> int:
    """Line of the nth ``[[name]]`` table (or of ``key`` inside it)."""
    headers = [m.start() for m in re.finditer(rf"(?m)^\s*\[\[\s*{name}\s*\]\]", text)]
    if len(headers) < nth:
        return 0
    start = headers[nth - 1]
    if key:
        end = headers[nth] if nth < len(headers) else len(text)
        match = re.search(rf"(?m)^\s*{re.escape(key)}\s*=", text[start:end])
        if match:
            return text.count("\n", 0, start + match.start())
    return text.count("\n", 0, start)


def _key_in_table_line(text: str, table: str, key: str | None) -> int:
    """Line of ``[table]`` (or of ``key`` inside it, before the next table)."""
    header = re.search(rf"(?m)^\s*\[\s*{re.escape(table)}\s*\]", text)
    if header is None:
        return 0
    start = header.start()
    if key:
        following = re.search(r"(?m)^\s*\[", text[header.end():])
        end = header.end() + following.start() if following else len(text)
        match = re.search(rf"(?m)^\s*{re.escape(key)}\s*=", text[start:end])
        if match:
            return text.count("\n", 0, start + match.start())
    return text.count("\n", 0, start)


def _shown(value: Any) -> str:
    """A value from a settings file in a message: its repr, cut short, with
    true, false and null as the editor's JSON and TOML write them."""
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    return excerpt(repr(value))


class _Reader:
    """Checks values one by one, collecting problems."""

    def __init__(self, source: str, path: str | None = None, text: str = "") -> None:
        self.source, self.path, self.text = source, path, text
        self.problems: list[ConfigProblem] = []

    def problem(self, key: str, message: str, tail: str = "; using the default") -> None:
        match = re.match(r"pair #(\d+)(?:\.(\w+))?", key)
        if match:
            line = _table_line(self.text, "pair", int(match.group(1)), match.group(2))
        elif key.split(".")[0] in ("splits", "validation"):
            table, _, inner = key.partition(".")
            line = _key_in_table_line(self.text, table, inner or None)
        else:
            line = _line_of(self.text, key.split(".")[-1])
        self.problems.append(ConfigProblem(f"{self.source}: {excerpt(key)}: {message}{tail}",
                                           self.path, line))

    def threshold(self, data: Mapping[str, Any], key: str, default: float) -> float:
        value = data.get(key, default)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= value <= 1.0:
            self.problem(key, f"must be a number between 0 and 1, not {_shown(value)}")
            return default
        return float(value)

    def choice(self, data: Mapping[str, Any], key: str, choices: tuple[str, ...], default: str) -> str:
        value = data.get(key, default)
        if value not in choices:
            self.problem(key, f"must be one of {', '.join(choices)}, not {_shown(value)}")
            return default
        return value

    def boolean(self, data: Mapping[str, Any], key: str, default: bool) -> bool:
        value = data.get(key, default)
        if not isinstance(value, bool):
            self.problem(key, f"must be true or false, not {_shown(value)}")
            return default
        return value

    def count(self, data: Mapping[str, Any], key: str, default: int) -> int:
        value = data.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            self.problem(key, f"must be a whole number of at least 1, not {_shown(value)}")
            return default
        return value

    def marker(self, data: Mapping[str, Any], key: str, default: str) -> str:
        """A comment key such as ``annotated`` (a word, at most 40 characters), or "" for none."""
        value = data.get(key, default)
        if not isinstance(value, str) or len(value) > 40 or \
                (value and not re.fullmatch(r"[^\s=:#][^\s=:]*", value)):
            self.problem(key, f"must be a comment key such as \"annotated\" (one word, no = or :), "
                              f"or \"\" for none, not {_shown(value)}")
            return default
        return value

    def globs(self, data: Mapping[str, Any], key: str) -> tuple[str, ...]:
        value = data.get(key, [])
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
            self.problem(key, f"must be a list of glob patterns (none empty), not {_shown(value)}")
            return ()
        return tuple(value)

    def severities(self, data: Mapping[str, Any], key: str) -> dict[str, Severity | None]:
        value = data.get(key, {})
        if not isinstance(value, dict):
            self.problem(key, f"must map diagnostic codes to {', '.join(SEVERITY_NAMES)}")
            return {}
        out: dict[str, Severity | None] = {}
        for code, name in value.items():
            if not isinstance(name, str) or name.lower() not in SEVERITY_NAMES:
                self.problem(f"{key}.{code}", f"must be one of {', '.join(SEVERITY_NAMES)}, not {_shown(name)}")
                continue
            if not known_code(str(code)):
                self.problem(f"{key}.{code}", "is not a diagnostic code of annoscore's (nor a prefix such as "
                             "'format-'); ignored")
                continue
            out[str(code)] = SEVERITY_NAMES[name.lower()]
        return out

    def validation_level(self, data: Mapping[str, Any], key: str, default: int | None) -> int | None:
        value = data.get(key, default)
        if value is None or value == "auto":
            return None
        if value == "off":
            return 0
        if isinstance(value, bool) or value not in VALIDATION_LEVELS:
            self.problem(key, f"must be a validation level from 1 to 5, \"off\" (or 0) or \"auto\", not "
                         f"{_shown(value)}")
            return default
        return int(value)

    def language(self, data: Mapping[str, Any], key: str, default: str | None) -> str | None:
        value = data.get(key, default)
        if value is None or value == "":
            return None
        if not isinstance(value, str) or not _LANGUAGE_CODE.fullmatch(value):
            self.problem(key, f"must be a UD language code such as \"en\" or \"cop\", not {_shown(value)}")
            return default
        return value

    def folder(self, data: Mapping[str, Any], key: str, default: str | None, base: str | None = None) -> str | None:
        value = data.get(key, default)
        if value is None or value == "":
            return None
        if not isinstance(value, str):
            self.problem(key, f"must be a folder (a string), not {_shown(value)}")
            return default
        value = os.path.expanduser(value)
        return os.path.join(base, value) if base and not os.path.isabs(value) else value

    def test_ids(self, data: Mapping[str, Any], key: str, default: tuple[str, ...]) -> tuple[str, ...]:
        """Validator test ids or classes (a list, or one string of them
        separated by commas or spaces); unknown names are reported and left out."""
        value = data.get(key, default)
        if isinstance(value, str):
            value = value.replace(",", " ").split()
        if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
            self.problem(key, f"must be a list of validator test ids or classes, not {_shown(value)}")
            return default
        known = []
        for name in value:
            if name in VALIDATION_TESTS or name.upper() in VALIDATION_CLASSES:
                known.append(name)
            else:
                self.problem(key, f"{_shown(name)} is neither a validator test id (such as 'unknown-upos') "
                             f"nor a class ({', '.join(VALIDATION_CLASSES)})", "; left out")
        return tuple(known)

    def validation(self, data: Mapping[str, Any], key: str, config: ValidationConfig,
                   names: dict[str, str], base: str | None = None) -> ValidationConfig:
        """A table of validation settings over ``config``; ``names`` maps
        the field names to the keys used there (camelCase in an editor)."""
        value = data.get(key, {})
        if not isinstance(value, dict):
            self.problem(key, f"must be a table of {', '.join(names.values())}")
            return config
        for unknown in sorted(set(value) - set(names.values())):
            self.problem(f"{key}.{unknown}", f"unknown key (the keys: {', '.join(names.values())})", "; ignored")
        changes: dict[str, Any] = {}
        for field_name, name in names.items():
            if name not in value:
                continue
            where = f"{key}.{name}"
            current = getattr(config, field_name)
            sub = {where: value[name]}
            if field_name == "level":
                changes[field_name] = self.validation_level(sub, where, current)
            elif field_name == "lang":
                changes[field_name] = self.language(sub, where, current)
            elif field_name == "data_dir":
                changes[field_name] = self.folder(sub, where, current, base)
            else:
                changes[field_name] = self.test_ids(sub, where, current)
        return replace(config, **changes)

    def pairs(self, data: Mapping[str, Any], key: str = "pair") -> tuple[PairRule, ...]:
        value = data.get(key, [])
        if not isinstance(value, list):
            self.problem(key, "must be an array of tables: [[pair]]")
            return ()
        rules = []
        for k, item in enumerate(value, 1):
            where = f"pair #{k}"
            if not isinstance(item, dict) or not isinstance(item.get("files"), str) \
                    or not isinstance(item.get("gold"), str):
                self.problem(where, "needs files = \"GLOB\" and gold = \"TEMPLATE\"")
                continue
            fmt = item.get("format")
            if fmt is not None and fmt not in FORMATS:
                self.problem(f"{where}.format", f"must be one of {', '.join(FORMATS)}, not {_shown(fmt)}")
                fmt = None
            pos = item.get("pos", False)
            if not isinstance(pos, bool):
                self.problem(f"{where}.pos", f"must be true or false, not {_shown(pos)}")
                pos = False
            unknown = set(item) - {"files", "gold", "format", "pos"}
            if unknown:
                self.problem(where, f"unknown keys {excerpt(', '.join(sorted(map(str, unknown))), 80)} (ignored)")
            if not item["files"].strip():
                self.problem(f"{where}.files", "must not be empty (ignored)")
                continue
            try:  # the names a template may use; anything else would fail for every file
                item["gold"].format(name="x.conllu", stem="x", dir="d")
            except (KeyError, IndexError, ValueError) as error:
                self.problem(f"{where}.gold", f"is not a usable template ({error!s}; the names are "
                             "{name}, {stem} and {dir}); pair ignored")
                continue
            rules.append(PairRule(item["files"], item["gold"], fmt, pos))
        return tuple(rules)


    def splits(self, data: Mapping[str, Any], key: str = "splits") -> SplitSettings:
        value = data.get(key, {})
        default = SplitSettings()
        if not isinstance(value, dict):
            self.problem(key, "must be a table: [splits] with train, dev, test = paths or globs")
            return default
        for unknown in sorted(set(value) - {*SPLITS, "normalize", "near", "min_words"}):
            self.problem(f"{key}.{unknown}", "unknown key (the keys: train, dev, test, normalize, near, "
                         "min_words; ignored)")
        files: dict[str, tuple[str, ...]] = {}
        for split in SPLITS:
            files[split] = self.globs_in(value, split, f"{key}.{split}")
        owner: dict[str, str] = {}
        for split in SPLITS:
            for pattern in files[split]:
                if pattern in owner:
                    self.problem(f"{key}.{split}", f"{_shown(pattern)} is also declared as {owner[pattern]}: "
                                 f"a file is in one split (left out of {split})")
                else:
                    owner[pattern] = split
            files[split] = tuple(p for p in files[split] if owner[p] == split)
        normalize = self.rule_list(value, "normalize", key, default.normalize)
        near = self.rule_list(value, "near", key, default.near)
        try:
            rules_from(normalize, default.near)
        except ValueError as error:
            self.problem(f"{key}.normalize", str(error))
            normalize = default.normalize
        try:
            rules_from(normalize, near)
        except ValueError as error:
            self.problem(f"{key}.near", str(error))
            near = default.near
        min_words = value.get("min_words", 0)
        if isinstance(min_words, bool) or not isinstance(min_words, int) or min_words < 0:
            self.problem(f"{key}.min_words", f"must be a whole number of at least 0, not {_shown(min_words)}")
            min_words = 0
        return SplitSettings(files["train"], files["dev"], files["test"], normalize, near, min_words)

    def globs_in(self, data: Mapping[str, Any], key: str, where: str) -> tuple[str, ...]:
        value = data.get(key, [])
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
            self.problem(where, f"must be a path or glob, or a list of them (none empty), not {_shown(value)}")
            return ()
        return tuple(value)

    def rule_list(self, data: Mapping[str, Any], key: str, table: str, default: str) -> str:
        """A list of rules as one comma-separated string (given as a string or a list)."""
        value = data.get(key, default)
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            return ",".join(value) if value else "none"
        if isinstance(value, str):
            return value
        self.problem(f"{table}.{key}", f"must be a string or a list of strings, not {_shown(value)}")
        return default


# --------------------------------------------------------------------------
# The layers
# --------------------------------------------------------------------------


# The validation settings: field -> key, in annoscore.toml's [validation] and in the editor's section.
PROJECT_VALIDATION_KEYS = {"level": "level", "data_dir": "data_dir", "exclude": "exclude",
                           "include_only": "include_only"}
EDITOR_VALIDATION_KEYS = {"level": "level", "lang": "lang", "data_dir": "dataDir", "exclude": "exclude"}


def load_project(root: str | os.PathLike[str] | None,
                 base: Settings | None = None) -> tuple[Settings, list[ConfigProblem]]:
    """Settings from the project file over ``base`` (defaults)."""
    settings = base or Settings()
    source = project_source(root)
    if source is None:
        return settings, []
    path, text = source
    if not isinstance(text, str):
        return settings, [ConfigProblem(f"{path.name}: cannot be read: {text}", str(path), 0)]
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        match = re.search(r"line (\d+)", str(error))
        line = int(match.group(1)) - 1 if match else 0
        return settings, [ConfigProblem(f"{path.name}: {error}; using the defaults", str(path), line)]
    if path.name == "pyproject.toml":
        data = data.get("tool", {}).get("annoscore", {})
        if not isinstance(data, dict):
            return settings, [ConfigProblem("pyproject.toml: [tool.annoscore] must be a table", str(path), 0)]
    reader = _Reader(path.name, str(path), text)
    known = {"threshold", "pair", "sentences", "max_diagnostics", "max_diagnostics_per_document", "splits",
             "progress_marker", "lang", "validation"}
    for key in sorted(set(data) - known):
        reader.problem(key, "unknown key (ignored)")
    settings = replace(
        settings,
        threshold=reader.threshold(data, "threshold", settings.threshold),
        sentences=reader.choice(data, "sentences", SENTENCE_MODES, settings.sentences),
        max_diagnostics=reader.count(data, "max_diagnostics", settings.max_diagnostics),
        max_diagnostics_per_document=reader.count(data, "max_diagnostics_per_document",
                                                  settings.max_diagnostics_per_document),
        progress_marker=reader.marker(data, "progress_marker", settings.progress_marker),
        pairs=reader.pairs(data),
        splits=reader.splits(data),
        validation=replace(reader.validation(data, "validation", settings.validation, PROJECT_VALIDATION_KEYS,
                                             str(path.parent)),
                           project_lang=reader.language(data, "lang", settings.validation.project_lang)),
    )
    return settings, reader.problems


def apply_editor_settings(settings: Settings, data: Any) -> tuple[Settings, list[ConfigProblem]]:
    """The editor's ``annoscore`` section over ``settings``; keys it leaves out keep their value."""
    if data is None:
        return settings, []
    reader = _Reader("editor settings")
    if not isinstance(data, dict):
        reader.problem("annoscore", f"must be an object, not {_shown(data)}")
        return settings, reader.problems
    files = data.get("files", {})
    if not isinstance(files, dict):
        reader.problem("files", "must be an object with segmentation and labels")
        files = {}
    known = {"threshold", "run", "severities", "goldDiff", "sentences", "maxDiagnostics",
             "maxDiagnosticsPerDocument", "lowConfidence",
             "progressMarker", "files", "server", "trace", "validation"}
    for key in sorted(set(data) - known):
        reader.problem(key, "unknown setting (ignored)")
    updated = replace(
        settings,
        threshold=reader.threshold(data, "threshold", settings.threshold),
        run=reader.choice(data, "run", RUN_MODES, settings.run),
        severities={**settings.severities, **reader.severities(data, "severities")},
        gold_diff=reader.boolean(data, "goldDiff", settings.gold_diff),
        sentences=reader.choice(data, "sentences", SENTENCE_MODES, settings.sentences),
        max_diagnostics=reader.count(data, "maxDiagnostics", settings.max_diagnostics),
        max_diagnostics_per_document=reader.count(data, "maxDiagnosticsPerDocument",
                                                  settings.max_diagnostics_per_document),
        low_confidence=reader.choice(data, "lowConfidence", LOW_CONFIDENCE_MODES, settings.low_confidence),
        progress_marker=reader.marker(data, "progressMarker", settings.progress_marker),
        segmentation_files=reader.globs(files, "segmentation") or settings.segmentation_files,
        label_files=reader.globs(files, "labels") or settings.label_files,
        validation=reader.validation(data, "validation", settings.validation, EDITOR_VALIDATION_KEYS),
    )
    return updated, reader.problems


def known_code(code: str) -> bool:
    """A code of the registry (`scorer.codes`, the validator's test ids), or a
    prefix of some (``format-``)."""
    if code in ALL_CODES:
        return True
    return code.endswith("-") and any(name.startswith(code) for name in ALL_CODES)


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


# --------------------------------------------------------------------------
# Pairing a file with its gold
# --------------------------------------------------------------------------


def _matches(relative: str, pattern: str) -> bool:
    return PurePosixPath(relative).match(pattern) or fnmatch.fnmatchcase(relative, pattern)


def _format_of(path: str, settings: Settings, root: str | None) -> str | None:
    relative = _relative(path, root)
    if any(_matches(relative, p) for p in settings.label_files):
        return "labels"
    extension = os.path.splitext(path)[1].lower()
    if any(_matches(relative, p) for p in settings.segmentation_files):
        return "tsv" if extension == ".tsv" else "space"
    return EXTENSION_FORMATS.get(extension)


def _relative(path: str, root: str | None) -> str:
    if root:
        try:
            return Path(path).resolve().relative_to(Path(root).resolve()).as_posix()
        except ValueError:
            pass
    return Path(path).name


def is_gold_name(path: str) -> bool:
    """``NAME.gold.EXT``: a gold file by its name."""
    return ".gold." in os.path.basename(path)


def setup_for(path: str, settings: Settings, root: str | None) -> DocumentSetup | None:
    """The format of a file and its gold (None: not a file annoscore scores)."""
    relative = _relative(path, root)
    for rule in settings.pairs:
        if not _matches(relative, rule.files):
            continue
        name = os.path.basename(path)
        stem = name.split(".", 1)[0] if name.count(".") > 1 else os.path.splitext(name)[0]
        directory = os.path.dirname(relative)
        gold = rule.gold.format(name=name, stem=stem, dir=directory)
        base = root or os.path.dirname(path)
        gold_path = os.path.normpath(os.path.join(base, gold))
        fmt = rule.format or _format_of(path, settings, root)
        if fmt is None:
            return None
        if os.path.abspath(gold_path) == os.path.abspath(path):
            return DocumentSetup(fmt, None, rule.pos)
        return DocumentSetup(fmt, gold_path, rule.pos)
    fmt = _format_of(path, settings, root)
    if fmt is None:
        return None
    if is_gold_name(path):
        return DocumentSetup(fmt, None)
    stem, extension = os.path.splitext(path)
    candidate = f"{stem}.gold{extension}"
    return DocumentSetup(fmt, candidate if os.path.exists(candidate) else None)


# --------------------------------------------------------------------------
# Which split a file is ([splits])
# --------------------------------------------------------------------------


def declared_split(path: str, settings: Settings, root: str | None) -> str | None:
    """``train``, ``dev`` or ``test`` when ``[splits]`` declares the file
    (a path inside ``root`` matching one of the split's paths or globs);
    None otherwise.  A file declared twice is the later split (test wins):
    that is the one that must not be looked at."""
    if not root:
        return None
    try:
        relative = Path(path).resolve().relative_to(Path(root).resolve()).as_posix()
    except (ValueError, OSError):
        return None
    found = None
    for split in SPLITS:
        if any(_matches(relative, pattern) or relative == PurePosixPath(pattern).as_posix()
               for pattern in settings.splits.patterns(split)):
            found = split
    return found


def is_test_split(path: str, settings: Settings, root: str | None) -> bool:
    """True when ``[splits]`` declares ``path`` a test file: an editor
    shows no live score against it (`annoscore evaluate --final` scores it once)."""
    return declared_split(path, settings, root) == "test"


def declared_files(settings: Settings, root: str) -> dict[str, list[str]]:
    """The files each split's paths and globs name under ``root`` (sorted;
    a file named by two splits stays in the later one)."""
    owner: dict[str, str] = {}
    base = Path(root)
    for split in SPLITS:
        for pattern in settings.splits.patterns(split):
            matches = [base / pattern] if not any(c in pattern for c in "*?[") else sorted(base.glob(pattern))
            for match in matches:
                if match.is_file():
                    owner[str(match)] = split
    return {split: sorted(p for p, s in owner.items() if s == split) for split in SPLITS}
