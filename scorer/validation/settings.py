"""What to validate: the level, the language, the data, the ids to leave out.

`ValidationSettings` is what a caller gives (hashable, so results can be
cached by it).  Its level may be ``"auto"``: level 5 when it can run, else
3, with notes that say "levels 4-5 need" (nobody asked for level 5).  `prepare` turns it into what the checks run with, as the
official validator's command line does: below level 4 the language is
``ud`` (no language-specific lists); levels 4-5 need a language and the UD
language data, and when either is missing, unknown or unusable validation
runs at level 3 and `Prepared.notes` says why (one message each; nothing is
printed).  ``exclude`` and ``include_only`` hold test ids, or class names
(``MORPHO``) that stand for every id of that class.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from annoscore.scorer.validation.incident import CLASSES, TESTS
from annoscore.scorer.validation.langdata import DataError, LanguageData, installed_data_dir, language_data


@dataclass(frozen=True)
class ValidationSettings:
    level: int | str = 3             # 1-5, or "auto"
    lang: str | None = None          # None: guess from the file name, else 'ud' behaviour
    data_dir: str | None = None      # the UD tools' data/ folder; None: udtools' if installed
    exclude: frozenset[str] = frozenset()
    include_only: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        # Accept any iterable of ids for the two filters; keep them hashable.
        object.__setattr__(self, "exclude", frozenset(self.exclude))
        object.__setattr__(self, "include_only", frozenset(self.include_only))


@dataclass(frozen=True)
class Prepared:
    """Settings as the checks use them."""

    level: int                       # 1-5, after any fallback
    lang: str                        # 'ud' below level 4
    data: LanguageData | None        # set at levels 4-5
    notes: tuple[str, ...] = ()      # why a level could not run, unknown ids, ...
    keep: frozenset[str] = field(default_factory=frozenset)  # the test ids reported


def _expand(names: frozenset[str], notes: list[str], what: str) -> frozenset[str]:
    ids = set()
    for name in names:
        if name in TESTS:
            ids.add(name)
        elif name.upper() in CLASSES:
            ids.update(t for t, (_, c, _) in TESTS.items() if c == name.upper())
        else:
            notes.append(f"{what}: '{name}' is neither a validator test id nor a class "
                         f"({', '.join(CLASSES)})")
    return frozenset(ids)


# How to get the data (the `ud` extra brings udtools, read as data only: its code never runs).
INSTALL_DATA = ("To get it: pip install 'annoscore[ud]' (the UD tools' data, as PyPI udtools), or "
                "git clone https://github.com/UniversalDependencies/tools and give --ud-data tools/data")


@lru_cache(maxsize=64)
def prepare(settings: ValidationSettings) -> Prepared:
    notes: list[str] = []
    auto = settings.level == "auto"
    level = 5 if auto else settings.level
    if not isinstance(level, int) or level < 1:
        notes.append(f"validation level {level!r} is not 1-5; using 1")
        level = 1
    elif level > 5:
        notes.append(f"validation level {level} is above 5 (coreference, level 6, is not "
                     "checked); using 5")
        level = 5
    lang = settings.lang or None
    data = None
    if level >= 4:
        if lang is None:
            notes.append(f"level {level} needs a language (--lang, validation.lang, or a UD "
                         "file name such as en_ewt-ud-train.conllu): validating at level 3")
            level = 3
        else:
            folder = settings.data_dir or installed_data_dir()
            if folder is None:
                notes.append(f"level {level} needs the UD language data (the data/ folder of "
                             f"the UD tools: --ud-data DIR or validation.dataDir), and none was "
                             f"found: validating at level 3. {INSTALL_DATA}")
                level = 3
            else:
                try:
                    data = language_data(Path(folder))
                    if not data.is_known_language(lang):
                        notes.append(f"language '{lang}' is not in the UD language data at "
                                     f"{data.folder}: validating at level 3")
                        level, data = 3, None
                    elif lang != "ud":
                        data.check_language(lang)
                except DataError as error:
                    notes.append(f"{error}: validating at level 3")
                    level, data = 3, None
    if level < 4:
        lang = "ud"
    keep = frozenset(t for t, (lvl, _, _) in TESTS.items() if lvl <= level)
    if settings.include_only:
        keep &= _expand(settings.include_only, notes, "include-only")
    if settings.exclude:
        keep -= _expand(settings.exclude, notes, "exclude")
    if auto:
        notes = [note.replace("level 5 needs", "levels 4-5 need", 1) for note in notes]
    return Prepared(level, lang, data, tuple(notes), keep)
