"""The settings' values: `Settings` and the tables it holds, each frozen,
with its defaults; what a document is (`DocumentSetup`) and a problem found
in a settings source (`ConfigProblem`).  Which keys set which field: the one
table of settings, `server.settings_schema`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from annoscore.scorer.hygiene.near import DEFAULT as DEFAULT_NEAR
from annoscore.scorer.hygiene.normalize import DEFAULT as DEFAULT_NORMALIZATION
from annoscore.scorer.problems import Severity

from .. import workspace
from ..settings_schema import BY_KEY

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

