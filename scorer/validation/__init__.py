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
"""

from __future__ import annotations

from ..lazy import lazy_exports

# Imported when first used (scorer.lazy): importing one module of the package loads no other.
_WHERE = {
    'BlockValidation': 'scorer.validation.block',
    'validate_block': 'scorer.validation.block',
    'FileFacts': 'scorer.validation.document',
    'blank_sentence_lines': 'scorer.validation.document',
    'validate_document': 'scorer.validation.document',
    'CLASSES': 'scorer.validation.incident',
    'TESTS': 'scorer.validation.incident',
    'Incident': 'scorer.validation.incident',
    'DataError': 'scorer.validation.langdata',
    'guess_language': 'scorer.validation.langdata',
    'installed_data_dir': 'scorer.validation.langdata',
    'language_data': 'scorer.validation.langdata',
    'Prepared': 'scorer.validation.settings',
    'ValidationSettings': 'scorer.validation.settings',
    'prepare': 'scorer.validation.settings',
    'ValidationResult': 'scorer.validation.text',
    'cut': 'scorer.validation.text',
    'validate_file': 'scorer.validation.text',
    'validate_text': 'scorer.validation.text',
}


__getattr__ = lazy_exports(__name__, _WHERE, globals())


__all__ = [
    "BlockValidation", "CLASSES", "DataError", "FileFacts", "Incident", "Prepared", "TESTS",
    "ValidationResult", "ValidationSettings", "blank_sentence_lines", "cut", "guess_language",
    "installed_data_dir", "language_data", "prepare", "validate_block", "validate_document",
    "validate_file", "validate_text",
]
