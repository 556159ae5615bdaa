"""CoNLL-U: the tolerant reader, tree checks, and the CoNLL 2018 metrics."""
