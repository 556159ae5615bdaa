"""The formats annoscore reads: CoNLL-U, segmentation as spaces or tabs
between words, labelled items (``ID<TAB>LABEL``, ``TEXT<TAB>LABEL`` or CSV)."""

FORMATS = ("conllu", "space", "tsv", "labels")

# The format a file's extension says, when none is given.
EXTENSIONS = {".conllu": "conllu", ".conll": "conllu", ".txt": "space", ".tsv": "tsv", ".csv": "labels"}
