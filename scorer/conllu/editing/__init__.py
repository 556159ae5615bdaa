"""Structural edits of one CoNLL-U sentence (or two neighbours): insert,
delete, merge and split words, make and undo multiword tokens, split and
join sentences, reattach a word, renumber IDs written out of sequence.

Every operation reads the sentence into a `model.EditableSentence` whose heads are
the words themselves (not their numbers), changes it, and writes it back
numbered by position (`render`): so a word keeps the head it had however
the numbers around it move.  Lines an operation does not change come back
byte for byte (`model.read_sentence` refuses a sentence that would not).
"""

from .errors import EditError
from .model import ROOT, EmptyNode, MultiwordRange, EditableSentence, Word
from .read import read_sentence
from .render import render

__all__ = ["EditError", "ROOT", "EmptyNode", "MultiwordRange", "EditableSentence", "Word", "read_sentence", "render"]
