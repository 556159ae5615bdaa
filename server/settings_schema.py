"""Every setting of annoscore, once: its names, type, values, default and doc.

One row per setting, as jedi-language-server and esbonio declare theirs:

* ``key``: its name in the docs (the editor's name under ``annoscore.``, or
  the project file's for a project-only setting);
* ``toml``: its key in ``annoscore.toml`` / ``[tool.annoscore]``
  (snake_case; ``validation.data_dir`` is ``data_dir`` in ``[validation]``);
  None when the project file cannot set it;
* ``editor``: its key under ``annoscore.`` in the editor's settings
  (camelCase; initialization options and ``workspace/configuration``); None
  when an editor cannot set it;
* ``type``, ``values`` (the allowed values where a list says them,
  ``"auto"`` among them), ``default`` (as an editor writes it), ``doc`` (one
  line), ``applies`` (who reads it: ``server``, or ``extension`` for the VS
  Code client alone);
* ``check``: how `server.config.values` checks a value (``fraction``, ``choice``,
  ...), and ``field``: the attribute of `server.config.Settings` it sets;
* ``vscode``: what package.json declares beyond type, values and default
  (``markdownDescription``, ``scope``, ...); None for a setting VS Code does
  not declare.

`server.config` reads the project file and the editor's settings through
this table; ``scripts/write_settings.py`` writes from it package.json's
``contributes.configuration``, the VS Code extension's
``src/settingsSchema.ts``, the settings table of the Neovim help and
``docs/reference/settings.md`` (``tests/server/engine/test_settings_schema.py``
fails when one of them is stale).
"""

from __future__ import annotations

from dataclasses import dataclass, field as dataclass_field
from types import MappingProxyType
from typing import Any, Mapping

from annoscore.scorer.problems import Severity

SEVERITY_NAMES: Mapping[str, Severity | None] = MappingProxyType({
    "error": Severity.ERROR, "warning": Severity.WARNING, "information": Severity.INFORMATION,
    "hint": Severity.HINT, "off": None})
VALIDATION_LEVELS = ("auto", "off", 1, 2, 3, 4, 5)
LANGUAGE_PATTERN = "[a-z]{2,8}"  # UD's codes: ISO 639 (2-3 letters), 'ud', a few longer
_SEVERITY_ENUM = {"type": "string", "enum": list(SEVERITY_NAMES)}
# The codes VS Code's settings editor offers under annoscore.severities, as it words them.
SEVERITY_CODE_DOCS = {
    "unparsed": "`unparsed`: a sentence not parsed yet (HEAD `_`).",
    "missing-head": "`missing-head`: a word whose HEAD is missing or not a number.",
    "cycle": "`cycle`: words whose heads form a cycle (self-loops too).",
    "multiple-roots": "`multiple-roots`: a sentence with more than one root.",
    "no-root": "`no-root`: a sentence without a root.",
    "head-out-of-range": "`head-out-of-range`: a HEAD that names no word of the sentence.",
    "low-confidence": "`low-confidence`: a cell whose `Conf=` is below `annoscore.threshold`.",
    "text-mismatch": "`text-mismatch`: the words do not spell out `# text`.",
    "segmentation-mismatch": "`segmentation-mismatch`: the prediction segments differently from gold.",
    "gold-diff": "`gold-diff`: a predicted cell that differs from gold (with `annoscore.goldDiff`).",
    "disagreement": "`disagreement`: another annotation of the same text (`[agreement] others`, or **Compare with "
                    "Another Annotation…**) fills the cell otherwise.",
    "missing-sentence": "`missing-sentence`: a gold sentence missing from the prediction.",
    "label-mismatch": "`label-mismatch`: a label that differs from gold.",
    "unknown-label": "`unknown-label`: a label that gold never uses.",
    "missing-item": "`missing-item`: a gold item missing from the prediction.",
    "tag-mismatch": "`tag-mismatch`: the word is right but its tag differs from gold's (segmentation with `pos`).",
    "line-count": "`line-count`: prediction and gold have different numbers of lines and cannot be re-paired by "
                  "their text.",
    "extra-item": "`extra-item`: no gold item has this ID (not scored).",
    "config": "`config`: an invalid setting in `annoscore.toml` / `pyproject.toml`; the default is used instead.",
}


@dataclass(frozen=True)
class Setting:
    key: str
    type: str                     # number, integer, boolean, string, strings (a list), map, level, table
    default: Any
    doc: str
    toml: str | None = None
    editor: str | None = None
    values: tuple = ()
    applies: str = "server"       # server (the language server and the CLI) | extension (VS Code's client)
    check: str = ""               # server.config's check of a value; "" for a table read apart
    field: str = ""               # the attribute of server.config.Settings ("validation.level": nested)
    vscode: Mapping[str, Any] | None = dataclass_field(default=None, hash=False, compare=False)
    restarts: bool = False        # VS Code restarts the client when it changes

    @property
    def json_type(self) -> str | list[str]:
        return {"strings": "array", "map": "object", "level": ["string", "integer"]}.get(self.type, self.type)


def _s(*args: Any, **kwargs: Any) -> Setting:
    return Setting(*args, **kwargs)


SETTINGS: tuple[Setting, ...] = (
    _s("threshold", "number", 0.8,
       "Cells whose confidence (Conf= in MISC) is below it get a low-confidence diagnostic (0 to 1).",
       toml="threshold", editor="threshold", check="fraction", field="threshold",
       vscode={"minimum": 0, "maximum": 1, "markdownDescription":
               "Cells whose confidence (`Conf=` in MISC) is below this get a `low-confidence` diagnostic. "
               "From 0 to 1."}),
    _s("run", "string", "onSave", "When a file is rescored: when it is saved, or while you type.",
       editor="run", values=("onSave", "onType"), check="choice", field="run",
       vscode={"enumDescriptions": ["Rescore when the file is saved.",
                                    "Rescore while you type (after a short pause)."],
               "description": "When the server rescores a file and updates diagnostics and the score."}),
    _s("severities", "map", {}, "Severity per diagnostic code or code prefix (format-): error, warning, "
       "information, hint, or off.", editor="severities", values=tuple(SEVERITY_NAMES), check="severities",
       field="severities",
       vscode={"markdownDescription":
               "Severity per diagnostic code, overriding the server's choice: `error`, `warning`, `information`, "
               "`hint`, or `off` to hide that code. Example: `{\"low-confidence\": \"hint\", \"unparsed\": "
               "\"off\"}`. Reader problems have codes starting with `format-`.",
               "properties": {code: {**_SEVERITY_ENUM, "markdownDescription": doc}
                              for code, doc in SEVERITY_CODE_DOCS.items()},
               "patternProperties": {"^format-.*$": {
                   **_SEVERITY_ENUM, "description": "A reader (format) problem; `format-` alone sets all of them."}},
               "additionalProperties": {
                   **_SEVERITY_ENUM, "markdownDescription": "Any other code: `format-` and other prefixes, the UD "
                                                            "validator's test ids (`unknown-upos` …)."}}),
    _s("goldDiff", "boolean", False, "Mark every predicted cell that differs from gold (gold-diff).",
       editor="goldDiff", check="boolean", field="gold_diff",
       vscode={"markdownDescription": "Mark every predicted cell that differs from gold with a `gold-diff` "
                                      "diagnostic (only for files paired with gold)."}),
    _s("sentences", "string", "all", "Which sentences the score counts: all, predicted (those the prediction "
       "has) or annotated (of those, the parsed ones).", toml="sentences", editor="sentences",
       values=("all", "predicted", "annotated"), check="choice", field="sentences",
       vscode={"enumDescriptions": [
           "Every sentence counts: gold sentences missing from the prediction count against recall, and sentences "
           "not parsed yet (HEAD _) count as wrong attachments.",
           "Gold sentences missing from the prediction are left out of the score (like annoscore evaluate "
           "--predicted-only).",
           "Also leaves out predicted sentences not parsed yet (some HEAD _), e.g. the rest of a file after a "
           "parser run stopped early (like annoscore evaluate --annotated-only)."],
           "markdownDescription":
           "Which sentences of a CoNLL-U file the score counts: `all`, `predicted` (only the gold sentences the "
           "prediction has) or `annotated` (of those, only the ones already parsed). Only the score changes: "
           "missing and unparsed sentences are still marked in the file."}),
    _s("maxDiagnostics", "integer", 1000, "At most this many diagnostics of each code per file; then one summary.",
       toml="max_diagnostics", editor="maxDiagnostics", check="count", field="max_diagnostics",
       vscode={"minimum": 1, "markdownDescription":
               "At most this many diagnostics of each code are shown per file; the rest of that code are summed up "
               "in one more diagnostic. A whole number of at least 1; lower it if a large file makes the editor "
               "slow."}),
    _s("maxDiagnosticsPerDocument", "integer", 1000, "At most this many diagnostics per file in all, summaries "
       "included (errors first).", toml="max_diagnostics_per_document", editor="maxDiagnosticsPerDocument",
       check="count", field="max_diagnostics_per_document",
       vscode={"minimum": 1, "markdownDescription":
               "At most this many diagnostics are shown per file in all, the summaries included: errors first, "
               "then warnings, information and hints, each from the top of the file; every code with some left "
               "out gets one summary that says how many (a file with more kinds left out than that shows just "
               "their summaries). VS Code itself keeps at most 1,000 per file. `annoscore check` lists them all, "
               "and the *annoscore: Go to Next …* commands reach every one."}),
    _s("lowConfidence", "string", "word", "One low-confidence diagnostic per word, or one per cell.",
       editor="lowConfidence", values=("word", "cell"), check="choice", field="low_confidence"),
    _s("progressMarker", "string", "annotated", "The comment key that marks a sentence as done (# annotated); "
       "\"\" for none.", toml="progress_marker", editor="progressMarker", check="marker", field="progress_marker"),
    _s("allowOutsideProject", "boolean", False, "Use paths of the project file, and golds it or symlinks lead "
       "to, outside the project folder (the user's setting only).", editor="allowOutsideProject", check="boolean",
       field="allow_outside_project",
       vscode={"scope": "machine", "markdownDescription":
               "Use paths of the project file (`annoscore.toml`), and golds its rules or symlinks lead to, even "
               "outside the project folder. Off, they are refused with a message, so that a workspace someone "
               "else wrote cannot have its diagnostics quote other files of this machine. A machine setting: a "
               "workspace's own settings cannot turn it on."}),
    _s("maxFileSize", "string", "", "The largest file read, such as 8G or a number of bytes; \"\" for the "
       "default (4G).", editor="maxFileSize", check="size", field="max_file_size",
       vscode={"scope": "machine", "markdownDescription":
               "The largest file the server reads, such as `8G` or a number of bytes; empty for the default (4G). "
               "Larger files, and anything that is not a regular file (a FIFO, a device), are refused with a "
               "message."}),
    _s("cache", "boolean", True, "Keep large documents' UD validation, and what the editor showed of them, in "
       "the user's cache folder, so that a document opened again unchanged is not validated again and shows "
       "its diagnostics at once.", editor="cache", check="boolean", field="cache",
       vscode={"scope": "machine", "markdownDescription":
               "Keep the UD validation of large documents (600 blocks or more) in your cache folder "
               "(`$XDG_CACHE_HOME/annoscore`, else `~/.cache/annoscore`), found by the text's SHA-256, the "
               "settings and annoscore's version: a document opened again unchanged has its validator findings "
               "at once. The language server also keeps what such a document showed (1 MiB or more, scored "
               "without gold), and shows it again at once when the same text is opened with the same settings, "
               "before it has built the document anew. The findings are the same either way; the folder is "
               "safe to delete. A machine "
               "setting (`annoscore check --no-cache` on the command line)."}),
    _s("inlayHints", "boolean", True, "The head's FORM after each HEAD cell and DEPS item (inlay hints).",
       editor="inlayHints", check="boolean", field="inlay_hints",
       vscode={"markdownDescription": "Show the head word's FORM after each HEAD cell and DEPS item "
               "(`5 ▸ demir`, `0 ▸ root`). VS Code's own `editor.inlayHints.enabled` hides all inlay hints."}),
    _s("foldUnparsedFindings", "boolean", True, "In the editor, fold the UD validator's findings that follow from "
       "an unparsed sentence's missing HEADs (invalid-head, unknown-head …) under its unparsed diagnostic; false "
       "shows each (check always lists each).", toml="fold_unparsed_findings", editor="foldUnparsedFindings",
       check="boolean", field="fold_unparsed_findings",
       vscode={"markdownDescription":
               "A sentence not parsed yet (every HEAD `_`) shows one `unparsed` diagnostic, and the UD "
               "validator's findings that follow from the missing HEADs (`invalid-head`, `unknown-head` and the "
               "other tree tests: two errors a word) are folded under it, as its related information. Its other "
               "findings (FEATS, `# text` …) stay on their cells. Off: each finding is shown on its own. "
               "`annoscore check` always lists each, as the validator reports them."}),
    _s("docsUrl", "string", "", "The address of the diagnostic codes' reference page (its codes.md built as a "
       "site); diagnostics then link to their code's entry. \"\": no links.", toml="docs_url", editor="docsUrl",
       check="url", field="docs_url",
       vscode={"markdownDescription":
               "The address of the diagnostic codes' reference page (`docs/reference/codes.md` built with "
               "MkDocs), such as `https://annoscore.example/reference/codes/`. Each diagnostic's code then links "
               "to its entry there (`codeDescription`, the address followed by `#` and the code's anchor). Empty: "
               "no links."}),
    _s("files.segmentation", "strings", [], "Globs of word-segmentation files to score.",
       editor="files.segmentation", check="globs", field="segmentation_files", restarts=True,
       vscode={"items": {"type": "string"}, "markdownDescription":
               "Glob patterns of word-segmentation files to score (one sentence a line, words separated by spaces, "
               "or the `tsv`/`word/POS` forms), e.g. `[\"seg/*.txt\"]`. Relative patterns are relative to each "
               "workspace folder. Changing it restarts the server."}),
    _s("files.labels", "strings", [], "Globs of label files to score.", editor="files.labels", check="globs",
       field="label_files", restarts=True,
       vscode={"items": {"type": "string"}, "markdownDescription":
               "Glob patterns of label files to score (one item and its label a line), e.g. "
               "`[\"labels/*.tsv\"]`. Relative patterns are relative to each workspace folder. Changing it "
               "restarts the server."}),
    _s("validation.level", "level", "auto", "UD validation level: auto (5 when a language and the UD data are "
       "at hand, else 3), off, or 1-5.", toml="validation.level", editor="validation.level",
       values=VALIDATION_LEVELS, check="level", field="validation.level",
       vscode={"markdownDescription":
               "UD validation of CoNLL-U files, the official validator's checks (`udvalidate` levels 1–5): their "
               "findings are diagnostics whose code is the validator's test id. `auto` is level 5 when a language "
               "and the UD data are at hand, else 3 (and you are told once why 4–5 did not run).",
               "enumDescriptions": [
                   "Level 5 when the file's language and the UD language data are at hand (a UD file name such as "
                   "en_ewt-ud-dev.conllu and an installed udtools are enough), else level 3.",
                   "No UD validation.",
                   "Level 1: the CoNLL-U backbone (lines, columns, IDs, UTF-8 and NFC, LF line ends).",
                   "Level 2: UD format (UPOS, universal relations, FEATS and MISC syntax, trees, metadata).",
                   "Level 3: the universal guidelines (relations against UPOS, function words as leaves, "
                   "punctuation, enhanced graphs).",
                   "Level 4: the language's documented features, relation subtypes and words with spaces (needs a "
                   "language and the UD data).",
                   "Level 5: the language's auxiliaries and copulas too (needs a language and the UD data)."]}),
    _s("validation.lang", "string", "", "The language validated at levels 4-5 (en, cop); \"\": a UD file name's, "
       "else the project's lang.", editor="validation.lang", check="language", field="validation.lang",
       vscode={"pattern": f"^({LANGUAGE_PATTERN})?$", "markdownDescription":
               "The language validated at levels 4–5 (a UD code such as `en` or `cop`). Empty: the language of a "
               "UD file name (`cop_scriptorium-ud-test.conllu`), else `lang` in annoscore.toml."}),
    _s("lang", "string", "", "The language of files whose names do not say it (levels 4-5 of UD validation).",
       toml="lang", check="language", field="validation.project_lang"),
    _s("validation.dataDir", "string", "", "The UD tools' data/ folder for levels 4-5; \"\": the installed "
       "udtools'.", toml="validation.data_dir", editor="validation.dataDir", check="folder",
       field="validation.data_dir",
       vscode={"markdownDescription":
               "The UD tools' `data/` folder (`feats.json`, `deprels.json`, …) for levels 4–5. Empty: the `data` "
               "folder of the udtools package installed beside the server, read at run time."}),
    _s("validation.exclude", "strings", [], "Validator test ids or classes (MORPHO) not reported.",
       toml="validation.exclude", editor="validation.exclude", check="test_ids", field="validation.exclude",
       vscode={"items": {"type": "string"}, "markdownDescription":
               "Validator test ids (`misc-attr-typo`) or classes (`FORMAT`, `MORPHO`, `SYNTAX`, `ENHANCED`, "
               "`METADATA`, `UNICODE`) not reported."}),
    _s("validation.include_only", "strings", [], "Only these validator test ids or classes are reported.",
       toml="validation.include_only", check="test_ids", field="validation.include_only"),
    _s("server.command", "strings", [], "The whole command that starts the language server (VS Code).",
       editor="server.command", applies="extension", restarts=True,
       vscode={"items": {"type": "string"}, "scope": "machine-overridable", "markdownDescription":
               "The whole command that starts the language server, e.g. `[\"/home/me/venv/bin/annoscore\", "
               "\"lsp\"]` or `[\"uv\", \"run\", \"annoscore\", \"lsp\"]`. Empty: use `annoscore` from the Python "
               "environment selected in the Python extension (or `python.defaultInterpreterPath`), else from "
               "PATH. Changing it restarts the server."}),
    _s("trace.server", "string", "off", "How much of the protocol VS Code's language client logs.",
       editor="trace.server", values=("off", "messages", "verbose"), applies="extension"),
    _s("pair", "table", [], "[[pair]] rules: which files are scored against which gold (files, gold, format, "
       "pos).", toml="pair", field="pairs"),
    _s("splits", "table", {}, "[splits]: the files of each split (train, dev, test) and the leak check's rules "
       "(normalize, near, min_words).", toml="splits", field="splits"),
    _s("agreement", "table", {}, "[agreement]: other annotations of the same text (others) and the files they "
       "apply to (files).", toml="agreement", field="agreement"),
)

BY_KEY: Mapping[str, Setting] = MappingProxyType({s.key: s for s in SETTINGS})


def project_keys() -> set[str]:
    """The top-level keys and tables of the project file."""
    return {s.toml.split(".")[0] for s in SETTINGS if s.toml}


def editor_keys() -> set[str]:
    """The top-level keys of the editor's ``annoscore`` section."""
    return {s.editor.split(".")[0] for s in SETTINGS if s.editor}


def table_keys(table: str, source: str) -> dict[str, str]:
    """A table's settings: field name -> its key there (``source``: toml or editor)."""
    out = {}
    for s in SETTINGS:
        key = s.toml if source == "toml" else s.editor
        if key and key.startswith(table + ".") and s.field.startswith(table + "."):
            out[s.field.split(".", 1)[1]] = key.split(".", 1)[1]
    return out
