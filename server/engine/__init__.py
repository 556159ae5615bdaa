"""The editor-independent engine behind the LSP server, the daemon and ``annoscore check``."""

from annoscore.scorer.lazy import lazy_exports

# Imported when first used: a helper process that needs one module of the
# engine (validation_parts) does not load the rest.
__getattr__ = lazy_exports(__name__, {"Document": "annoscore.server.engine.engine", "Engine": "annoscore.server.engine.engine"},
                           globals())

__all__ = ["Document", "Engine"]
