"""MISC items that belong to the token rather than to a word (``SpaceAfter``):
moved between a multiword range line and its words."""

from __future__ import annotations

# Items that describe the surface after a token: a word inside a multiword
# token must not carry them, its range line does.
TOKEN_ITEMS = ("SpaceAfter", "SpacesAfter")


def items(misc: str) -> list[str]:
    return [] if misc == "_" else misc.split("|")


def joined(parts: list[str]) -> str:
    return "|".join(parts) if parts else "_"


def token_items(misc: str) -> list[str]:
    return [item for item in items(misc) if item.partition("=")[0] in TOKEN_ITEMS]


def without_token_items(misc: str) -> str:
    return joined([item for item in items(misc) if item.partition("=")[0] not in TOKEN_ITEMS])


def with_items(misc: str, added: list[str]) -> str:
    """``misc`` with ``added`` put where they sort (case-insensitively, as
    treebanks order MISC), replacing items of the same name."""
    names = {item.partition("=")[0] for item in added}
    out = [item for item in items(misc) if item.partition("=")[0] not in names]
    for item in added:
        key = item.partition("=")[0].lower()
        at = next((i for i, old in enumerate(out) if old.partition("=")[0].lower() > key), len(out))
        out.insert(at, item)
    return joined(out)


def no_space_after(misc: str) -> bool:
    return "SpaceAfter=No" in items(misc)
