"""One class per LSP feature; `server.lsp.server.create_server` wires them.

Each feature has ``register()`` (its handlers) and may have the lifecycle
hooks ``initialize(params)``, ``initialized()`` and ``stop()``, which the
server calls in order from its single handler for each of those messages.
"""
