"""Sample files for `annoscore demo` (written for annoscore; not from any treebank)."""
