"""The ten columns of a CoNLL-U token line: their numbers and names, as in
the CoNLL-U specification (one definition for the readers, the scorer and
the validator)."""

from __future__ import annotations

ID, FORM, LEMMA, UPOS, XPOS, FEATS, HEAD, DEPREL, DEPS, MISC = range(10)
COLUMN_NAMES = ("ID", "FORM", "LEMMA", "UPOS", "XPOS", "FEATS", "HEAD", "DEPREL", "DEPS", "MISC")
