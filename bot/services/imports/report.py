"""What an import did, counted by row, with what the commissioner should look at."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.services.imports.csv_rows import DELIMITERS


@dataclass
class ImportReport:
    kind: str
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    notes: list[str] = field(default_factory=list)
    # The delimiter the file was read with: named when it isn't the comma, so a file Excel saved
    # with semicolons is seen to have been read as such.
    delimiter: str = ","
    # Imported, but probably not what was meant ("line 5: two players named Al Roy on Hawks").
    warnings: list[str] = field(default_factory=list)

    def summary(self) -> str:
        """One line of counts, then a line per note (a bracket moving on) and per warning."""
        read_as = f" (read as {DELIMITERS[self.delimiter]}-separated)" if self.delimiter != "," else ""
        counts = (f"{self.kind}: {self.created} created, {self.updated} updated, "
                  f"{self.unchanged} unchanged{read_as}")
        return "\n".join([counts, *self.notes, *(f"warning: {w}" for w in self.warnings)])

    def count(self, created: bool, changed: bool) -> None:
        if created:
            self.created += 1
        elif changed:
            self.updated += 1
        else:
            self.unchanged += 1
