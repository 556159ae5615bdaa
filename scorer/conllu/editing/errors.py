"""The one exception the editing operations raise: an edit that cannot be
made, with a message for the annotator (no traceback, no partial edit)."""


class EditError(ValueError):
    """The operation is refused; ``str(error)`` says why, in the annotator's terms."""
