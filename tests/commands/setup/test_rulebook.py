"""A league set up in Discord answers /rule from its preset's rulebook at once; /setup rulebook file:
replaces it with an upload and reset:True goes back, all through the real command tree, with no
[[leagues]] in the config. A league from the config file keeps its `rulebook =` file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from bot.config.settings import Settings
from storage.models import Rulebook, RuleSection, SetupChange
from tests.commands.empty_server import Server, no_leagues, open_server
from tests.conftest import GUILD, league_config, make_settings
from tests.harness import Attachment, Harness, Reply
from tests.reliability.snapshot import changed_tables, snapshot

HOUSE_RULES = b"""\
# Thursday Night House Rules

## 7. Equipment
Every player wears a helmet with a full cage.
- Gloves are required for skaters.

## 8. Overtime
Overtime is ten minutes of three on three, then a shootout of five rounds.
"""

MARKDOWN = "text/markdown; charset=utf-8"


@pytest.fixture
def settings() -> Settings:
    return no_leagues()


def title_of(reply: Reply) -> str:
    (embed,) = reply.last.embeds
    return str(embed["title"])


def description_of(reply: Reply) -> str:
    (embed,) = reply.last.embeds
    return str(embed.get("description") or "")


async def league_of(harness: Harness, preset: str = "coed-ball-hockey") -> Server:
    server = open_server(harness)
    made = await server.slash("/setup league", as_=server.admin(), preset=preset, name="Thursday League",
                              timezone="America/Toronto")
    assert "is set up" in made.content, made.content
    assert "/rule answers from the preset's rulebook already" in made.content
    return server


def attachment_downloads(harness: Harness) -> list[Any]:
    return [c for c in harness.discord.calls if c.method == "GET" and "attachments" in c.path]


@pytest.mark.parametrize(("preset", "question", "citation", "quoted"), [
    ("coed-ball-hockey", "how long is ot", "Overtime 1", "5 minute"),
    ("youth-ball-hockey", "when is the trade deadline", "1.9 Trades", "deadline for trades"),
    ("indoor-soccer", "how many players to start", "Game", "at least 4 players"),
])
async def test_a_league_set_up_in_discord_answers_from_its_presets_rulebook(
        harness: Harness, preset: str, question: str, citation: str, quoted: str) -> None:
    server = await league_of(harness, preset)
    player = server.person("Pat Player")
    reply = await server.slash("/rule", as_=player, question=question)
    assert reply.ephemeral
    assert title_of(reply) == citation
    assert quoted in description_of(reply)
    looked_up = await server.slash("/rulebook section", as_=player, citation=citation.split(" ")[0]
                                   if preset == "youth-ball-hockey" else citation)
    assert title_of(looked_up) == citation
    typed = await harness.autocomplete("/rule", focused="question", as_=player, guild_id=server.guild_id,
                                       question=question.split()[-1])
    assert typed.autocomplete_choices, "suggestions come from the preset's rulebook too"
    async with harness.bot.sessions() as s:  # read as shipped: nothing copied per league
        assert await s.scalar(select(func.count()).select_from(RuleSection)) == 0


async def test_a_question_the_rulebook_leaves_to_the_league_is_answered_from_its_settings(harness: Harness) -> None:
    """Indoor soccer's rulebook says nothing of points or tiebreakers: the league's standings settings do."""
    server = await league_of(harness, "indoor-soccer")
    reply = await server.slash("/rule", as_=server.person("Pat Player"), question="how do ties in the standings work")
    assert reply.ephemeral
    assert title_of(reply) == "Your rulebook leaves that to the league"
    (embed,) = reply.last.embeds
    fields = {f["name"]: f["value"] for f in embed.get("fields") or []}
    assert fields["In this league"] == (
        "• The table is ordered by points; teams level on points go by goal differential (shootout goals excluded), "
        "then most goals scored.\n• 3 points for a win, 1 for a tie, 0 for a loss.")


async def test_an_upload_replaces_the_rulebook_and_reset_goes_back(harness: Harness) -> None:
    server = await league_of(harness)
    admin, player = server.admin(), server.person("Pat Player")

    shown = await server.slash("/setup rulebook", as_=admin)
    assert shown.content == (
        "Thursday League answers /rule from the coed-ball-hockey preset's rulebook, as shipped with Sideline "
        "(77 sections). Upload the league's own with /setup rulebook file: (a .txt or .md file), or go back to "
        "the preset's with /setup rulebook reset:True.")

    uploaded = await server.slash("/setup rulebook", as_=admin,
                                  file=Attachment("house-rules.md", HOUSE_RULES, MARKDOWN))
    assert uploaded.ephemeral
    assert uploaded.content == (
        "Read 4 sections from house-rules.md: /rule in Thursday League answers from it now, in place of the "
        "coed-ball-hockey preset's rulebook, as shipped with Sideline (77 sections). For example **7 Equipment**: "
        "see it with /rulebook section citation:7. Go back to the coed-ball-hockey preset's rulebook with "
        "/setup rulebook reset:True.")
    assert uploaded.last.allowed_mentions == {"parse": []}

    answer = await server.slash("/rule", as_=player, question="how long is overtime")
    assert title_of(answer) == "8 Overtime"
    assert "ten minutes of three on three" in description_of(answer)
    section = await server.slash("/rulebook section", as_=player, citation="Equipment 1")
    assert description_of(section) == "Gloves are required for skaters."
    async with harness.bot.sessions() as s:
        book = await s.scalar(select(Rulebook))
        assert book is not None
        assert (book.origin, book.imported_by, book.source, book.section_count) == ("upload", admin.id,
                                                                                    "house-rules.md", 4)
        audit = (await s.execute(select(SetupChange.changed_by, SetupChange.old_value, SetupChange.new_value)
                                 .where(SetupChange.key == "rulebook"))).all()
        assert [tuple(a) for a in audit] == [(admin.id, "preset coed-ball-hockey", "upload house-rules.md")]

    shown = await server.slash("/setup rulebook", as_=admin)
    assert shown.content.startswith(f"Thursday League answers /rule from house-rules.md, uploaded in Discord by "
                                    f"<@{admin.id}> on <t:")
    assert "(4 sections)" in shown.content

    back = await server.slash("/setup rulebook", as_=admin, reset=True)
    assert back.content == (
        "Thursday League answers /rule from the coed-ball-hockey preset's rulebook, as shipped with Sideline "
        f"(77 sections) again, in place of house-rules.md, uploaded in Discord by <@{admin.id}> on "
        f"{back.content.split(' on ', 1)[1].split(' (4 sections)')[0]} (4 sections). For example **Overtime "
        "1**: see it with /rulebook section citation:Overtime 1.")
    answer = await server.slash("/rule", as_=player, question="how long is ot")
    assert title_of(answer) == "Overtime 1"
    async with harness.bot.sessions() as s:
        assert await s.scalar(select(func.count()).select_from(Rulebook)) == 0
        assert await s.scalar(select(func.count()).select_from(RuleSection)) == 0

    again = await server.slash("/setup rulebook", as_=admin, reset=True)
    assert again.content.endswith("(77 sections); nothing changed.")


@pytest.mark.parametrize(("upload", "refusal", "downloaded"), [
    (Attachment("rules.pdf", b"%PDF-1.7 rules", "application/pdf"),
     "rules.pdf is not a text file: upload the rulebook as a .txt or .md file (in Word or Google Docs: download "
     "it as plain text). Nothing changed.", False),
    (Attachment("huge.txt", b"Rules\n" * 400_000, "text/plain"),
     "huge.txt is 2,400,000 bytes; a rulebook is plain text well under 2 MB. Is it the right file? "
     "Nothing changed.", False),
    (Attachment("empty.txt", b"", "text/plain"), "empty.txt is empty; there are no rules in it. Nothing changed.",
     False),
    (Attachment("blank.md", b"  \n\n\t\n", MARKDOWN), "blank.md is empty; there are no rules in it. Nothing changed.",
     True),
    (Attachment("latin1.txt", "Règles du jeu\n".encode("latin-1"), "text/plain"),
     "latin1.txt is not UTF-8 text (byte 1); save it as UTF-8 plain text or Markdown and try again. "
     "Nothing changed.", True),
])
async def test_an_unusable_upload_is_refused_in_one_line_and_changes_nothing(
        harness: Harness, upload: Attachment, refusal: str, downloaded: bool) -> None:
    server = await league_of(harness)
    before = await snapshot(harness.bot.sessions)
    reply = await server.slash("/setup rulebook", as_=server.admin(), file=upload)
    assert reply.ephemeral
    assert reply.content == refusal
    assert bool(attachment_downloads(harness)) == downloaded
    assert changed_tables(before, await snapshot(harness.bot.sessions)) == []
    answer = await server.slash("/rule", as_=server.person("Pat"), question="how long is ot")
    assert title_of(answer) == "Overtime 1"


async def test_a_member_without_manage_server_cannot_change_the_rulebook(harness: Harness) -> None:
    server = await league_of(harness)
    before = await snapshot(harness.bot.sessions)
    for options in ({"file": Attachment("house-rules.md", HOUSE_RULES, MARKDOWN)}, {"reset": True}):
        reply = await server.slash("/setup rulebook", as_=server.person("Pat Player"), **options)
        assert reply.ephemeral
        assert reply.content == "Only members with Manage Server or the league's commissioner role can use /setup."
    assert attachment_downloads(harness) == []
    assert changed_tables(before, await snapshot(harness.bot.sessions)) == []


async def test_a_file_and_reset_together_are_refused(harness: Harness) -> None:
    server = await league_of(harness)
    reply = await server.slash("/setup rulebook", as_=server.admin(), reset=True,
                               file=Attachment("house-rules.md", HOUSE_RULES, MARKDOWN))
    assert reply.content == ("Upload a file or go back to the preset's rulebook, not both: use /setup rulebook "
                             "file: or /setup rulebook reset:True. Nothing changed.")
    assert attachment_downloads(harness) == []


class TestAConfigFileLeague:
    """The file is the file's: its `rulebook =` stays what /rule reads, and /setup refuses to change it."""

    @pytest.fixture
    def settings(self, tmp_path: Path) -> Settings:
        path = tmp_path / "coed.txt"
        path.write_text("Section 1 - Play\n1.1 - Offsides There is no offside in this league.\n"
                        "1.2 - Icing There is no icing either.\n", encoding="utf-8")
        return make_settings(league_config(rulebook=str(path)))

    async def test_it_keeps_its_rulebook_file(self, harness: Harness) -> None:
        admin = harness.member("Ada Admin", manage_guild=True)
        reply = await harness.slash("/rule", as_=harness.member("Pat"), question="offside")
        assert title_of(reply) == "1.1 Offsides"
        before = await snapshot(harness.bot.sessions)
        refused = await harness.slash("/setup rulebook", as_=admin, file=Attachment("x.md", HOUSE_RULES, MARKDOWN))
        assert refused.content == ("Coed League is set up in the bot's config file; whoever runs the bot changes it "
                                   "there (/setup show still works).")
        assert attachment_downloads(harness) == []
        assert changed_tables(before, await snapshot(harness.bot.sessions)) == []
        shown = await harness.slash("/setup rulebook", as_=admin)
        assert shown.content.startswith("Coed League answers /rule from a file the bot's operator "
                                        "imported on <t:")
        assert str(GUILD) not in shown.content and "coed.txt" not in shown.content  # no file path in Discord
