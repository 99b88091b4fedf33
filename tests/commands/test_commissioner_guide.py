"""docs/commissioner.md: every command in it is one the tree has, typed with options it takes."""

from __future__ import annotations

import re
from pathlib import Path

from discord import app_commands

from cogs.help._pages import leaf_commands
from tests.harness import Harness

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "commissioner.md"
INLINE = re.compile(r"`([^`\n]+)`")
OPTION = re.compile(r" ([a-z][a-z_-]*):")


def typed_commands(text: str) -> list[str]:
    """Each command as the guide has it typed: inline code and the lines of code blocks."""
    blocks = re.findall(r"```\n(.*?)```", text, flags=re.DOTALL)
    prose = re.sub(r"```\n.*?```", "", text, flags=re.DOTALL)
    typed = [line.strip() for block in blocks for line in block.splitlines() if line.strip()]
    return typed + [span for span in INLINE.findall(prose) if span.startswith("/")]


def test_every_command_in_the_guide_is_in_the_tree_with_its_real_options(harness: Harness) -> None:
    commands = {c.qualified_name: c for c in leaf_commands(harness.bot.tree)}
    groups = {f"/{g.name}" for g in harness.bot.tree.get_commands() if isinstance(g, app_commands.Group)}
    problems = []
    for typed in typed_commands(GUIDE.read_text(encoding="utf-8")):
        if typed in groups:  # the group as a whole, e.g. "/setup"
            continue
        name = max((n for n in commands if f"{typed} ".startswith(f"/{n} ")), key=len, default=None)
        if name is None:
            problems.append(f"{typed}: no such command")
            continue
        options = {p.display_name: p for p in commands[name].parameters}
        marks = list(OPTION.finditer(typed))
        given = [m[1] for m in marks]
        problems += [f"{typed}: /{name} has no option {o}" for o in given if o not in options]
        missing = [o for o, p in options.items() if p.required and o not in given]
        if given and missing:
            problems.append(f"{typed}: lacks {missing}")
        ends = [*[m.start() for m in marks[1:]], len(typed)] if marks else []
        for mark, end in zip(marks, ends, strict=True):
            option = options.get(mark[1])
            value = typed[mark.end():end]
            if option is not None and option.choices and value not in [c.name for c in option.choices]:
                problems.append(f"{typed}: {mark[1]}:{value} is not one of its choices")
            if option is not None and option.type.name == "integer" and not value.lstrip("-").isdigit():
                problems.append(f"{typed}: {mark[1]}:{value} is not a number")
    assert problems == []
    assert len(typed_commands(GUIDE.read_text(encoding="utf-8"))) > 30


def test_the_readme_links_the_guide_on_its_first_screen() -> None:
    first_screen = "\n".join(ROOT.joinpath("README.md").read_text(encoding="utf-8").splitlines()[:15])
    assert "(docs/commissioner.md)" in first_screen
