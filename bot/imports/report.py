"""What an import did, counted by row."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class ImportReport:
    kind: str
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    notes: list[str] = field(default_factory=list)

    def summary(self) -> str:
        return (f"{self.kind}: {self.created} created, {self.updated} updated, "
                f"{self.unchanged} unchanged")

    def count(self, created: bool, changed: bool) -> None:
        if created:
            self.created += 1
        elif changed:
            self.updated += 1
        else:
            self.unchanged += 1
