"""CoNLL-U documents in the engine, one module per job:

- `analysis`: what one sentence shows without gold (`SentenceInfo`), per segment;
- `index`: a document's sentences in order, with the counts for its score;
- `goldsource`: the gold document's sentences, read as far as pairing needs;
- `units`, `score`: the score against gold, kept up to date (`IncrementalScore`);
- `pair_again`: pairing again around an edit (`LocalPairing`);
- `messages`: the wording and place of what is said against gold;
- `parts`: a large document's first scoring in two processes;
- `handler`: what the engine calls (`ConlluHandler`).
"""
