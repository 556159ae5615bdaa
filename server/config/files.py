"""What a file is to annoscore: its format and its gold (the ``[[pair]]``
rules, else ``NAME.gold.EXT`` beside it), the other annotations
``[agreement]`` names for it, and the split ``[splits]`` declares it in."""

from __future__ import annotations

import fnmatch
import os
from dataclasses import replace
from pathlib import Path, PurePosixPath

from annoscore.scorer.excerpt import printable_name
from annoscore.scorer.hygiene.splits import SPLITS
from annoscore.scorer.reading import refusal

from ..workspace import is_inside, outside_message, walk_glob
from .settings import EXTENSION_FORMATS, DocumentSetup, Settings


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


# Which split a file is ([splits])


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
