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

from scorer.validation.block import BlockValidation, validate_block
from scorer.validation.document import FileFacts, blank_sentence_lines, validate_document
from scorer.validation.incident import CLASSES, TESTS, Incident
from scorer.validation.langdata import DataError, guess_language, installed_data_dir, language_data
from scorer.validation.settings import Prepared, ValidationSettings, prepare
from scorer.validation.text import ValidationResult, cut, validate_file, validate_text

__all__ = [
    "BlockValidation", "CLASSES", "DataError", "FileFacts", "Incident", "Prepared", "TESTS",
    "ValidationResult", "ValidationSettings", "blank_sentence_lines", "cut", "guess_language",
    "installed_data_dir", "language_data", "prepare", "validate_block", "validate_document",
    "validate_file", "validate_text",
]
