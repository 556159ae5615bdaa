"""Everything that runs: the command line, and (later) the engine, LSP server and daemon."""
