"""How the engine presents findings: as the editor shows them, or as the UD validator reports them.

Two behaviours belong to the editor and are one switch, `Engine.presentation`:

* ``explains_id_sequence``: a sentence whose IDs are out of sequence shows
  one cause, ``ids-out-of-sequence``, with its consequences related to it
  and the quick fix that renumbers (see `server.engine.id_sequence`);
* ``folds_unparsed``: an unparsed sentence's validation findings that follow
  from its missing HEADs fold under its ``unparsed`` diagnostic (unless the
  setting ``fold_unparsed_findings`` is off; see `conllu.unparsed_fold`).

`IN_EDITOR` (the language server) has both; `AS_REPORTED` (the default:
``annoscore check`` and ``check --json``) has neither, so every finding is
the validator's own.  `FIXING` (``annoscore fix``) explains the ID sequence,
whose one finding carries the fix that renumbers, and keeps every other
finding as reported.  The two stay separate fields so that a test can
exercise each alone (``Presentation(folds_unparsed=True)``).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Presentation:
    explains_id_sequence: bool = False
    folds_unparsed: bool = False


AS_REPORTED = Presentation()
IN_EDITOR = Presentation(explains_id_sequence=True, folds_unparsed=True)
FIXING = Presentation(explains_id_sequence=True)
