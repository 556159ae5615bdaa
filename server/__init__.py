"""Everything that runs: the engine (documents, their gold, incremental
rescoring), the language server, the daemon behind ``check`` and ``watch``,
and the command line."""
