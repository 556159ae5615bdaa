"""The editor-independent engine behind the LSP server, the daemon and ``annoscore check``."""

from .engine import Document, Engine

__all__ = ["Document", "Engine"]
