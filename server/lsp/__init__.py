"""The LSP adapter: pygls messages to and from the engine."""
