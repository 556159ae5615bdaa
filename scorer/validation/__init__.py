"""Our own UD validator, levels 1-5, equal to the official one (udtools 0.2.9).

Same test ids, on the same lines, with the same error/warning type, and the
same rules about what is not checked further.  Three entry points, so that
an editor re-validates only what an edit touched:

* `validate_block` — one block of lines (a sentence, as the engine keeps
  it): its incidents, lines relative to the block, and the facts the
  document-wide checks need.  Pure: cache it by (text, settings).
* `validate_document` — the cross-sentence checks, from the blocks' facts
  in order (and `FileFacts`: blank lines, CR line ends).
* `validate_text` / `validate_file` — all of it for a whole file.

`ValidationSettings` says the level, the language and the ids to leave out;
`prepare` tells what will actually run and why not more (missing language
or data).  The language data for levels 4-5 is read at run time from the
UD tools' ``data/`` folder (`langdata`).

`RULES` maps each test id to its `Rule`: level, class, severity, the
function that checks it and that function's docstring, its explanation
(`rules`; each check declares its ids with `registry.checks`).
"""

from __future__ import annotations

from ..lazy import lazy_exports

# Imported when first used (scorer.lazy): importing one module of the package loads no other.
_WHERE = {
    'BlockValidation': 'annoscore.scorer.validation.block',
    'validate_block': 'annoscore.scorer.validation.block',
    'FileFacts': 'annoscore.scorer.validation.document',
    'blank_sentence_lines': 'annoscore.scorer.validation.document',
    'validate_document': 'annoscore.scorer.validation.document',
    'CLASSES': 'annoscore.scorer.validation.incident',
    'TESTS': 'annoscore.scorer.validation.incident',
    'Incident': 'annoscore.scorer.validation.incident',
    'DataError': 'annoscore.scorer.validation.langdata',
    'guess_language': 'annoscore.scorer.validation.langdata',
    'installed_data_dir': 'annoscore.scorer.validation.langdata',
    'language_data': 'annoscore.scorer.validation.langdata',
    'Prepared': 'annoscore.scorer.validation.settings',
    'ValidationSettings': 'annoscore.scorer.validation.settings',
    'prepare': 'annoscore.scorer.validation.settings',
    'RULES': 'annoscore.scorer.validation.rules',
    'Rule': 'annoscore.scorer.validation.rules',
    'ValidationResult': 'annoscore.scorer.validation.text',
    'cut': 'annoscore.scorer.validation.text',
    'validate_file': 'annoscore.scorer.validation.text',
    'validate_text': 'annoscore.scorer.validation.text',
}


__getattr__ = lazy_exports(__name__, _WHERE, globals())


__all__ = [
    "BlockValidation", "CLASSES", "DataError", "FileFacts", "Incident", "Prepared", "RULES", "Rule", "TESTS",
    "ValidationResult", "ValidationSettings", "blank_sentence_lines", "cut", "guess_language",
    "installed_data_dir", "language_data", "prepare", "validate_block", "validate_document",
    "validate_file", "validate_text",
]
