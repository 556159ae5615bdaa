"""The checks of each kind of setting's value (`ValueReader`, one method a
kind; `CHECKS` maps a setting's ``check`` in `server.settings_schema` to
it).  An invalid value is reported as a `ConfigProblem`, with its line in
the project file, and replaced by the default: nothing here raises."""

from __future__ import annotations

import json
import os
import re
from dataclasses import replace
from typing import Any, Mapping

from annoscore.scorer.codes import ALL as ALL_CODES
from annoscore.scorer.excerpt import excerpt
from annoscore.scorer.formats import FORMATS
from annoscore.scorer.hygiene import rules_from
from annoscore.scorer.hygiene.splits import SPLITS
from annoscore.scorer.problems import Severity
from annoscore.scorer.reading import parse_size
from annoscore.scorer.validation.incident import CLASSES as VALIDATION_CLASSES
from annoscore.scorer.validation.incident import TESTS as VALIDATION_TESTS

from ..settings_schema import LANGUAGE_PATTERN, SEVERITY_NAMES
from ..workspace import has_magic, is_inside, leaves, outside_message
from .settings import (AgreementSettings, ConfigProblem, PairRule, SplitSettings, ValidationConfig,
                       VALIDATION_LEVELS)
from .toml_lines import array_table_line, table_key_line, top_key_line

_LANGUAGE_CODE = re.compile(LANGUAGE_PATTERN)


def known_code(code: str) -> bool:
    """A code of the registry (`scorer.codes`, the validator's test ids), or a
    prefix of some (``format-``)."""
    if code in ALL_CODES:
        return True
    return code.endswith("-") and any(name.startswith(code) for name in ALL_CODES)


def shown(value: Any) -> str:
    """A value from a settings file in a message: its repr, cut short, with
    true, false and null as the editor's JSON and TOML write them."""
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    return excerpt(repr(value))


class ValueReader:
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
            line = array_table_line(self.text, "pair", int(match.group(1)), match.group(2), self.prefix)
        elif key.split(".")[0] in ("splits", "validation", "agreement"):
            table, _, inner = key.partition(".")
            line = table_key_line(self.text, table, inner or None, self.prefix)
        else:
            line = top_key_line(self.text, key.split(".")[-1], self.prefix)
        self.problems.append(ConfigProblem(f"{self.source}: {excerpt(key)}: {message}{tail}",
                                           self.path, line))

    def threshold(self, data: Mapping[str, Any], key: str, default: float) -> float:
        value = data.get(key, default)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= value <= 1.0:
            self.problem(key, f"must be a number between 0 and 1, not {shown(value)}")
            return default
        return float(value)

    def choice(self, data: Mapping[str, Any], key: str, choices: tuple[str, ...], default: str) -> str:
        value = data.get(key, default)
        if value not in choices:
            self.problem(key, f"must be one of {', '.join(choices)}, not {shown(value)}")
            return default
        return value

    def boolean(self, data: Mapping[str, Any], key: str, default: bool) -> bool:
        value = data.get(key, default)
        if not isinstance(value, bool):
            self.problem(key, f"must be true or false, not {shown(value)}")
            return default
        return value

    def count(self, data: Mapping[str, Any], key: str, default: int) -> int:
        value = data.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            self.problem(key, f"must be a whole number of at least 1, not {shown(value)}")
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
            self.problem(key, f"must be a size in bytes, such as 4294967296 or \"4G\", not {shown(value)}")
            return default

    def marker(self, data: Mapping[str, Any], key: str, default: str) -> str:
        """A comment key such as ``annotated`` (a word, at most 40 characters), or "" for none."""
        value = data.get(key, default)
        if not isinstance(value, str) or len(value) > 40 or \
                (value and not re.fullmatch(r"[^\s=:#][^\s=:]*", value)):
            self.problem(key, f"must be a comment key such as \"annotated\" (one word, no = or :), "
                              f"or \"\" for none, not {shown(value)}")
            return default
        return value

    def url(self, data: Mapping[str, Any], key: str, default: str) -> str:
        """An http(s) address (the documentation's), or "" for none."""
        value = data.get(key, default)
        if not isinstance(value, str) or (value and not re.fullmatch(r"https?://[^\s#]+", value)):
            self.problem(key, f"must be an http:// or https:// address without # (the codes' reference page), "
                              f"or \"\" for none, not {shown(value)}")
            return default
        return value

    def globs(self, data: Mapping[str, Any], key: str) -> tuple[str, ...]:
        value = data.get(key, [])
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
            self.problem(key, f"must be a list of glob patterns (none empty), not {shown(value)}")
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
                self.problem(f"{key}.{code}", f"must be one of {', '.join(SEVERITY_NAMES)}, not {shown(name)}")
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
                         f"{shown(value)}")
            return default
        return int(value)

    def language(self, data: Mapping[str, Any], key: str, default: str | None) -> str | None:
        value = data.get(key, default)
        if value is None or value == "":
            return None
        if not isinstance(value, str) or not _LANGUAGE_CODE.fullmatch(value):
            self.problem(key, f"must be a UD language code such as \"en\" or \"cop\", not {shown(value)}")
            return default
        return value

    def folder(self, data: Mapping[str, Any], key: str, default: str | None, base: str | None = None) -> str | None:
        value = data.get(key, default)
        if value is None or value == "":
            return None
        if not isinstance(value, str):
            self.problem(key, f"must be a folder (a string), not {shown(value)}")
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
            self.problem(key, f"must be a list of validator test ids or classes, not {shown(value)}")
            return default
        known = []
        for name in value:
            if name in VALIDATION_TESTS or name.upper() in VALIDATION_CLASSES:
                known.append(name)
            else:
                self.problem(key, f"{shown(name)} is neither a validator test id (such as 'unknown-upos') "
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
                self.problem(f"{where}.format", f"must be one of {', '.join(FORMATS)}, not {shown(fmt)}")
                fmt = None
            pos = item.get("pos", False)
            if not isinstance(pos, bool):
                self.problem(f"{where}.pos", f"must be true or false, not {shown(pos)}")
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
                    self.problem(f"{key}.{split}", f"{shown(pattern)} is also declared as {owner[pattern]}: "
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
            self.problem(f"{key}.min_words", f"must be a whole number of at least 0, not {shown(min_words)}")
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
                self.problem(f"{key}.others", f"{shown(other)} is not a usable template ({error!s}; the names are "
                             "{name}, {stem} and {dir})", "; left out")
                continue
            kept.append(other)
        return AgreementSettings(tuple(kept), self.globs_in(value, "files", f"{key}.files"))

    def globs_in(self, data: Mapping[str, Any], key: str, where: str) -> tuple[str, ...]:
        value = data.get(key, [])
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
            self.problem(where, f"must be a path or glob, or a list of them (none empty), not {shown(value)}")
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
        self.problem(f"{table}.{key}", f"must be a string or a list of strings, not {shown(value)}")
        return default


# How each kind of setting (`Setting.check`) is checked: (reader, the table
# holding it, its key there, the setting, its value so far) -> its value.
CHECKS = {
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
