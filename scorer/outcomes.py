"""Per-item right/wrong lists, saved by ``evaluate --save-errors`` and read by ``compare``.

A list records, for each gold item in gold order (a word for CoNLL-U and
segmentation, an item for labels), whether the system got it right, for one
metric.  Items the metric does not score (CLAS skips function words) are
kept as "not scored" so that two lists for the same gold always line up.
The gold file's SHA-256 travels with the list: two lists can only be
compared when they were made against the same gold.

File format (JSON, one object)::

    {"annoscore_outcomes": 1, "format": "conllu", "metric": "LAS",
     "gold": {"path": "...", "sha256": "..."}, "system": {"path": ..., "sha256": ...},
     "items": 25094, "right": 21040,
     "outcomes": "1101-11..."}      # '1' right, '0' wrong, '-' not scored
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Sequence

from . import __version__
from .reading import DATA_LIMIT, read_named

FORMAT_VERSION = 1


class OutcomeListError(ValueError):
    """A file that is not a readable outcome list."""


@dataclass
class OutcomeList:
    format: str
    metric: str
    gold_path: str
    gold_sha256: str
    system_path: str
    system_sha256: str
    outcomes: str  # '1', '0', '-' per gold item

    @classmethod
    def from_bools(cls, outcomes: Sequence[bool | None], **fields) -> "OutcomeList":
        text = "".join("-" if o is None else ("1" if o else "0") for o in outcomes)
        return cls(outcomes=text, **fields)

    @property
    def scored(self) -> int:
        return len(self.outcomes) - self.outcomes.count("-")

    @property
    def right(self) -> int:
        return self.outcomes.count("1")

    def to_json(self) -> dict:
        return {
            "annoscore_outcomes": FORMAT_VERSION,
            "annoscore": __version__,
            "format": self.format,
            "metric": self.metric,
            "gold": {"path": self.gold_path, "sha256": self.gold_sha256},
            "system": {"path": self.system_path, "sha256": self.system_sha256},
            "items": len(self.outcomes),
            "right": self.right,
            "outcomes": self.outcomes,
        }

    def save(self, path: str | os.PathLike[str]) -> None:
        with open(path, "w", encoding="utf-8") as f:
            json.dump(self.to_json(), f)
            f.write("\n")

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> "OutcomeList":
        try:
            data = json.loads(read_named(path, DATA_LIMIT).decode("utf-8"))
        except (OSError, UnicodeDecodeError) as error:
            raise OutcomeListError(f"{path}: cannot be read: {getattr(error, 'strerror', None) or error}") from None
        except RecursionError:
            raise OutcomeListError(f"{path}: not an outcome list (made by annoscore evaluate --save-errors): "
                                   "nested too deeply") from None
        except json.JSONDecodeError as error:
            raise OutcomeListError(f"{path}:{error.lineno}:{error.colno}: not an outcome list "
                                   f"(made by annoscore evaluate --save-errors): {error.msg}") from None
        if not isinstance(data, dict) or data.get("annoscore_outcomes") != FORMAT_VERSION:
            raise OutcomeListError(f"{path}: not an outcome list made by annoscore evaluate --save-errors")
        try:
            outcomes = data["outcomes"]
            if not isinstance(outcomes, str) or set(outcomes) - set("01-"):
                raise OutcomeListError(f"{path}: 'outcomes' must be a string of 1, 0 and -")
            return cls(format=str(data["format"]), metric=str(data["metric"]),
                       gold_path=str(data["gold"]["path"]), gold_sha256=str(data["gold"]["sha256"]),
                       system_path=str(data["system"]["path"]), system_sha256=str(data["system"]["sha256"]),
                       outcomes=outcomes)
        except (KeyError, TypeError) as error:
            raise OutcomeListError(f"{path}: outcome list without {error}") from None
