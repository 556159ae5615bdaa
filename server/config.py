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
written from it); the checks of each kind of value are `_Reader`'s.

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

from annoscore.scorer.codes import ALL as ALL_CODES
from annoscore.scorer.excerpt import excerpt, printable_name
from annoscore.scorer.formats import FORMATS
from annoscore.scorer.hygiene.near import DEFAULT as DEFAULT_NEAR
from annoscore.scorer.hygiene.normalize import DEFAULT as DEFAULT_NORMALIZATION
from annoscore.scorer.hygiene import rules_from
from annoscore.scorer.hygiene.splits import SPLITS
from annoscore.scorer.problems import Severity
from annoscore.scorer.reading import parse_size, refusal
from annoscore.scorer.validation.incident import CLASSES as VALIDATION_CLASSES
from annoscore.scorer.validation.incident import TESTS as VALIDATION_TESTS

from .project import CONFIG_FILES, project_root, project_source, shadowed_pyproject
from .settings_schema import BY_KEY, LANGUAGE_PATTERN, SETTINGS, SEVERITY_NAMES, editor_keys, project_keys, table_keys
from . import workspace
from .workspace import EDITOR_SETTING, FLAG, has_magic, is_inside, leaves, outside_message, walk_glob

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

# Where the settings are in pyproject.toml: [tool.annoscore].
PYPROJECT_TABLE = ("tool", "annoscore")
EXTENSION_FORMATS = {".conllu": "conllu", ".conll": "conllu", ".txt": "space", ".tsv": "tsv"}
RUN_MODES = BY_KEY["run"].values
LOW_CONFIDENCE_MODES = BY_KEY["lowConfidence"].values  # one low-confidence diagnostic per word, or per cell
SENTENCE_MODES = BY_KEY["sentences"].values


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
class AgreementSettings:
    """``[agreement]``: the other annotations of the same text, compared
    with a document as it is edited (see `server.engine.agreement`).
    ``others``: paths or templates relative to the root, with ``{name}``,
    ``{stem}`` and ``{dir}`` of the document as in ``[[pair]]``
    (``"bob/{name}"``); a template naming the document itself is skipped.
    ``files``: globs of the documents they apply to (default: every
    CoNLL-U file)."""

    others: tuple[str, ...] = ()
    files: tuple[str, ...] = ()


@dataclass(frozen=True)
class ValidationConfig:
    """What UD validation runs with (see `server.engine.conllu.validation`).

    ``level`` 0 turns it off; ``"auto"`` (the default) is level 5 when a
    language and the UD language data are at hand, else 3.  The language of a file is
    ``lang`` (the editor's setting, ``--lang``), else the one of a UD file
    name (``en_ewt-ud-dev.conllu``), else ``project_lang`` (``lang`` in
    annoscore.toml).  ``exclude`` / ``include_only``: validator test ids or
    classes (``MORPHO``)."""

    level: int | str = "auto"   # 1-5, 0 (off) or "auto"
    lang: str | None = None
    data_dir: str | None = None
    exclude: tuple[str, ...] = ()
    include_only: tuple[str, ...] = ()
    project_lang: str | None = None


VALIDATION_LEVELS = (0, 1, 2, 3, 4, 5)
_LANGUAGE_CODE = re.compile(LANGUAGE_PATTERN)


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
    # Whether paths of the project file, and the files its globs or symlinks
    # lead to, may be outside the project folder (server.workspace): set by
    # the user only (--allow-outside-project, annoscore.allowOutsideProject).
    allow_outside_project: bool = field(default_factory=lambda: workspace.allowed_by_command_line)
    # The largest file read (scorer.reading); None: its default.  The user's
    # too (--max-file-size, annoscore.maxFileSize), never the project file's.
    max_file_size: int | None = None
    agreement: AgreementSettings = AgreementSettings()
    # Inlay hints (the head word's FORM after HEAD and DEPS) in the editor.
    inlay_hints: bool = True
    # The cache of large documents' validation (server.engine.conllu.validation_cache):
    # the user's (annoscore.cache; check --no-cache), never the project file's.
    cache: bool = True
    # In the editor, the UD validator's findings that follow from an unparsed
    # sentence's missing HEADs fold under its diagnostic (server.engine.conllu.unparsed_fold).
    fold_unparsed_findings: bool = True
    # The codes' reference page (docs/reference/codes.md as a site): diagnostics link to it; "" for none.
    docs_url: str = ""


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
    refused: str | None = None  # why the gold the rules name is not read (outside the project)


# --------------------------------------------------------------------------
# Reading values
# --------------------------------------------------------------------------


# Where a key is, for the line of a problem.  The project file's tables are
# at the top of annoscore.toml and under ``tool.annoscore`` in pyproject.toml
# (``[[tool.annoscore.pair]]``, ``[tool.annoscore.validation]``): ``prefix``
# is that path, () or ("tool", "annoscore").


def _header(parts: tuple[str, ...], array: bool = False) -> re.Pattern:
    """A TOML table header ``[a.b]`` (``[[a.b]]`` for an array of tables),
    spaces allowed around the brackets and dots, as TOML allows."""
    dotted = r"\s*\.\s*".join(re.escape(p) for p in parts)
    return re.compile(rf"(?m)^[ \t]*\[\[[ \t]*{dotted}[ \t]*\]\]" if array
                      else rf"(?m)^[ \t]*\[[ \t]*{dotted}[ \t]*\]")


_ANY_HEADER = re.compile(r"(?m)^[ \t]*\[")


def _section(text: str, header: int | None) -> tuple[int, int]:
    """The text of a table: from its header (an offset; None for the keys
    before the first header) to the next header."""
    if header is None:
        start = 0
    else:
        start = text.find("\n", header) + 1 or len(text)
    following = _ANY_HEADER.search(text, start)
    return (start if header is None else header), following.start() if following else len(text)


def _key_line(text: str, start: int, end: int, key: str | None) -> int:
    if key:
        match = re.compile(rf"(?m)^\s*{re.escape(key)}\s*=").search(text, start, end)
        if match:
            return text.count("\n", 0, match.start())
    return text.count("\n", 0, start)


def _line_of(text: str, key: str, prefix: tuple[str, ...] = ()) -> int:
    """Line of a top-level key of the project's table (else of its header)."""
    if prefix:
        header = _header(prefix).search(text)
        if header is None:
            return 0
        return _key_line(text, *_section(text, header.start()), key)
    return _key_line(text, *_section(text, None), key)


def _table_line(text: str, name: str, nth: int, key: str | None, prefix: tuple[str, ...] = ()) -> int:
    """Line of the nth ``[[name]]`` table (or of ``key`` inside it)."""
    headers = [m.start() for m in _header((*prefix, name), array=True).finditer(text)]
    if len(headers) < nth:
        return 0
    start = headers[nth - 1]
    return _key_line(text, *_section(text, start), key)


def _key_in_table_line(text: str, table: str, key: str | None, prefix: tuple[str, ...] = ()) -> int:
    """Line of ``[table]`` (or of ``key`` inside it, before the next table)."""
    header = _header((*prefix, table)).search(text)
    if header is None:
        return _line_of(text, table, prefix)  # an inline table: the key's line
    return _key_line(text, *_section(text, header.start()), key)


def _shown(value: Any) -> str:
    """A value from a settings file in a message: its repr, cut short, with
    true, false and null as the editor's JSON and TOML write them."""
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    return excerpt(repr(value))


class _Reader:
    """Checks values one by one, collecting problems."""

    def __init__(self, source: str, path: str | None = None, text: str = "",
                 prefix: tuple[str, ...] = (), root: str | None = None,
                 allow_outside: bool = True) -> None:
        self.source, self.path, self.text, self.prefix = source, path, text, prefix
        self.problems: list[ConfigProblem] = []
        # The project folder that the project file's paths must stay in
        # (server.workspace), unless the user allows more.
        self.root, self.allow_outside = root, allow_outside

    def outside(self, value: str) -> bool:
        """Whether a path or glob of the project file leaves the project folder."""
        if self.allow_outside or self.root is None:
            return False
        if leaves(value):
            return True
        return not has_magic(value) and os.path.lexists(os.path.join(self.root, value)) \
            and not is_inside(os.path.join(self.root, value), [self.root])

    def problem(self, key: str, message: str, tail: str = "; using the default") -> None:
        match = re.match(r"pair #(\d+)(?:\.(\w+))?", key)
        if match:
            line = _table_line(self.text, "pair", int(match.group(1)), match.group(2), self.prefix)
        elif key.split(".")[0] in ("splits", "validation", "agreement"):
            table, _, inner = key.partition(".")
            line = _key_in_table_line(self.text, table, inner or None, self.prefix)
        else:
            line = _line_of(self.text, key.split(".")[-1], self.prefix)
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

    def size(self, data: Mapping[str, Any], key: str, default: int | None) -> int | None:
        """A size in bytes: a whole number, or a string such as "8G"; null for the default."""
        value = data.get(key, default)
        if value is None or value == "" or value == default:
            return default if value == "" else value
        try:
            if isinstance(value, bool) or not isinstance(value, (int, str)):
                raise ValueError
            return parse_size(str(value))
        except ValueError:
            self.problem(key, f"must be a size in bytes, such as 4294967296 or \"4G\", not {_shown(value)}")
            return default

    def marker(self, data: Mapping[str, Any], key: str, default: str) -> str:
        """A comment key such as ``annotated`` (a word, at most 40 characters), or "" for none."""
        value = data.get(key, default)
        if not isinstance(value, str) or len(value) > 40 or \
                (value and not re.fullmatch(r"[^\s=:#][^\s=:]*", value)):
            self.problem(key, f"must be a comment key such as \"annotated\" (one word, no = or :), "
                              f"or \"\" for none, not {_shown(value)}")
            return default
        return value

    def url(self, data: Mapping[str, Any], key: str, default: str) -> str:
        """An http(s) address (the documentation's), or "" for none."""
        value = data.get(key, default)
        if not isinstance(value, str) or (value and not re.fullmatch(r"https?://[^\s#]+", value)):
            self.problem(key, f"must be an http:// or https:// address without # (the codes' reference page), "
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

    def validation_level(self, data: Mapping[str, Any], key: str, default: int | str) -> int | str:
        value = data.get(key, default)
        if value is None or value == "auto":
            return "auto"
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
        if self.outside(value):
            self.problem(key, outside_message(value, os.path.realpath(os.path.join(self.root or "", value))))
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
                example = item["gold"].format(name="x.conllu", stem="x", dir="d")
            except (KeyError, IndexError, ValueError) as error:
                self.problem(f"{where}.gold", f"is not a usable template ({error!s}; the names are "
                             "{name}, {stem} and {dir}); pair ignored")
                continue
            if not self.allow_outside and leaves(example):
                self.problem(f"{where}.gold", outside_message(item["gold"]), "; pair ignored")
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

    def agreement(self, data: Mapping[str, Any], key: str = "agreement") -> AgreementSettings:
        value = data.get(key, {})
        if not isinstance(value, dict):
            self.problem(key, "must be a table: [agreement] with others = [paths or templates]")
            return AgreementSettings()
        for unknown in sorted(set(value) - {"others", "files"}):
            self.problem(f"{key}.{unknown}", "unknown key (the keys: others, files)", "; ignored")
        others = self.globs_in(value, "others", f"{key}.others")
        kept = []
        for other in others:
            try:
                other.format(name="x.conllu", stem="x", dir="d")
            except (KeyError, IndexError, ValueError) as error:
                self.problem(f"{key}.others", f"{_shown(other)} is not a usable template ({error!s}; the names are "
                             "{name}, {stem} and {dir})", "; left out")
                continue
            kept.append(other)
        return AgreementSettings(tuple(kept), self.globs_in(value, "files", f"{key}.files"))

    def globs_in(self, data: Mapping[str, Any], key: str, where: str) -> tuple[str, ...]:
        value = data.get(key, [])
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
            self.problem(where, f"must be a path or glob, or a list of them (none empty), not {_shown(value)}")
            return ()
        kept = []
        for pattern in value:
            if self.outside(pattern):
                real = None if has_magic(pattern) else os.path.realpath(os.path.join(self.root or "", pattern))
                self.problem(where, outside_message(pattern, real), "; left out")
            else:
                kept.append(pattern)
        return tuple(kept)

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
PROJECT_VALIDATION_KEYS = table_keys("validation", "toml")
EDITOR_VALIDATION_KEYS = table_keys("validation", "editor")

# How each kind of setting (`Setting.check`) is checked: (reader, the table
# holding it, its key there, the setting, its value so far) -> its value.
_CHECKS = {
    "fraction": lambda r, data, key, s, now: r.threshold(data, key, now),
    "choice": lambda r, data, key, s, now: r.choice(data, key, s.values, now),
    "boolean": lambda r, data, key, s, now: r.boolean(data, key, now),
    "count": lambda r, data, key, s, now: r.count(data, key, now),
    "size": lambda r, data, key, s, now: r.size(data, key, now),
    "marker": lambda r, data, key, s, now: r.marker(data, key, now),
    "url": lambda r, data, key, s, now: r.url(data, key, now),
    "globs": lambda r, data, key, s, now: r.globs(data, key) or now,
    "severities": lambda r, data, key, s, now: {**now, **r.severities(data, key)},
    "language": lambda r, data, key, s, now: r.language(data, key, now),
}


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


def _read_keys(reader: "_Reader", data: Mapping[str, Any], settings: Settings, source: str,
               tables: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """The simple settings of the schema (not its tables, nor [validation]'s
    keys, read as a table) that ``source`` (toml, editor) has: field -> value."""
    changes: dict[str, Any] = {}
    for setting in SETTINGS:
        key = setting.toml if source == "toml" else setting.editor
        if key is None or setting.check not in _CHECKS or key.startswith("validation."):
            continue
        table, _, name = key.rpartition(".")
        holder = tables[table] if table else data
        changes[setting.field] = _CHECKS[setting.check](reader, holder, name, setting, _field(settings, setting.field))
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
        header = _header(PYPROJECT_TABLE).search(text) or re.search(r"(?m)^.*tool\s*\.\s*annoscore", text)
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
    reader = _Reader(path.name, str(path), text, PYPROJECT_TABLE if path.name == "pyproject.toml" else (),
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
    reader = _Reader("editor settings")
    if not isinstance(data, dict):
        reader.problem("annoscore", f"must be an object, not {_shown(data)}")
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
    reader = _Reader(source)
    checked = _CHECKS[setting.check](reader, {source: value}, source, setting, _field(Settings(), setting.field))
    return checked, reader.problems


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
        return _contained(DocumentSetup(fmt, gold_path, rule.pos), settings, [base])
    fmt = _format_of(path, settings, root)
    if fmt is None:
        return None
    if is_gold_name(path):
        return DocumentSetup(fmt, None)
    stem, extension = os.path.splitext(path)
    candidate = f"{stem}.gold{extension}"
    if not os.path.exists(candidate):
        return DocumentSetup(fmt, None)
    return _contained(DocumentSetup(fmt, candidate), settings, [root, os.path.dirname(path)])


def _contained(setup: DocumentSetup, settings: Settings, folders: list[str | None]) -> DocumentSetup:
    """The setup with its gold, when the gold's real path is inside ``folders``
    (or the user allows more); else without it, saying why."""
    gold = setup.gold
    if gold is None or not os.path.lexists(gold):
        return setup
    why = refusal(gold)
    if why is not None:
        return replace(setup, gold=None, refused=f"its gold {printable_name(gold)} {why}: not read")
    if settings.allow_outside_project or is_inside(gold, folders):
        return setup
    return replace(setup, gold=None, refused=f"its gold {outside_message(gold, os.path.realpath(gold))}")


def agreement_others(path: str, settings: Settings, root: str | None) -> list[str]:
    """The other annotations ``[agreement]`` declares for a file (absolute
    paths, the file itself left out; whether they exist is not checked)."""
    rules = settings.agreement
    if not rules.others:
        return []
    relative = _relative(path, root)
    if rules.files and not any(_matches(relative, pattern) for pattern in rules.files):
        return []
    name = os.path.basename(path)
    stem = name.split(".", 1)[0] if name.count(".") > 1 else os.path.splitext(name)[0]
    base = root or os.path.dirname(path)
    out = []
    for template in rules.others:
        other = os.path.normpath(os.path.join(base, template.format(name=name, stem=stem,
                                                                   dir=os.path.dirname(relative))))
        if os.path.abspath(other) == os.path.abspath(path) or other in out:
            continue
        # (an annotation the workspace names is quoted in diagnostics: only
        # from inside the project, as a gold, unless the user allows more)
        if settings.allow_outside_project or root is None or is_inside(other, [root]):
            out.append(other)
    return out


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


def declared_files(settings: Settings, root: str, problems: list[str] | None = None) -> dict[str, list[str]]:
    """The files each split's paths and globs name under ``root`` (sorted;
    a file named by two splits stays in the later one).  Globs walk inside
    the project, a bounded number of entries (`server.workspace.walk_glob`);
    what they leave out is added to ``problems``."""
    owner: dict[str, str] = {}
    for split in SPLITS:
        for pattern in settings.splits.patterns(split):
            found = walk_glob(root, pattern, settings.allow_outside_project)
            if found.problem is not None and problems is not None:
                problems.append(f"[splits] {split}: {found.problem}")
            for match in found.files:
                owner[match] = split
    return {split: sorted(p for p, s in owner.items() if s == split) for split in SPLITS}
