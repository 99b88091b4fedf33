"""The league's core: leagues, divisions, teams, players, rosters and games."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import CheckConstraint, ForeignKey, Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from bot.league.vocabulary import GAME_KINDS, GAME_STATUSES, GENDERS, POSITIONS, GameKind, GameStatus, Gender, Position
from storage.models.base import Base, Snowflake, UTCDateTime, utcnow


class League(Base):
    __tablename__ = "leagues"

    id: Mapped[int] = mapped_column(primary_key=True)
    key: Mapped[str] = mapped_column(String(64), unique=True)
    guild_id: Mapped[int] = mapped_column(Snowflake, unique=True)
    name: Mapped[str] = mapped_column(String(200))
    preset: Mapped[str] = mapped_column(String(64))
    # The public league page's address (/setup web; bot/services/league_page): None while it is off;
    # a new random one each time it is turned on, so turning it off revokes the old link for good.
    public_slug: Mapped[str | None] = mapped_column(String(64), unique=True, index=True)
    # How the public page names players without a Discord account (juniors, managed by guardians):
    # None or "initials" ("J. D."; the default, they are minors), "full" (their full name like everyone else).
    public_names: Mapped[str | None] = mapped_column(String(16))


class Division(Base):
    __tablename__ = "divisions"
    __table_args__ = (UniqueConstraint("league_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(100))


class Team(Base):
    __tablename__ = "teams"
    __table_args__ = (UniqueConstraint("league_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"), index=True)
    division_id: Mapped[int | None] = mapped_column(ForeignKey("divisions.id", ondelete="SET NULL"))
    name: Mapped[str] = mapped_column(String(100))
    channel_id: Mapped[int | None] = mapped_column(Snowflake)

    # Not loaded with the team: every game loads its two teams, and only a few paths need the
    # captains (core.captain_ids). Loading it by accident fails loudly instead of querying.
    captains: Mapped[list[TeamCaptain]] = relationship(
        cascade="all, delete-orphan", lazy="raise_on_sql", order_by="TeamCaptain.discord_id"
    )
    division: Mapped[Division | None] = relationship(lazy="joined")


class TeamCaptain(Base):
    __tablename__ = "team_captains"
    # (discord_id, league_id): "whom does this person captain here", asked by every command, is a
    # seek, and a lookup by person alone still uses it.
    __table_args__ = (UniqueConstraint("team_id", "discord_id"),
                      Index("ix_team_captains_discord_id_league_id", "discord_id", "league_id"))

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"), index=True)
    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"))
    discord_id: Mapped[int] = mapped_column(Snowflake)


class Player(Base):
    """A person in one league; the same Discord user in another league is another row.

    ``discord_id`` is NULL for a player without a Discord account (a junior under Discord's minimum
    age): their guardians (``PlayerGuardian``) answer and hear reminders for them.
    """

    __tablename__ = "players"
    __table_args__ = (
        UniqueConstraint("league_id", "discord_id"),
        CheckConstraint(f"gender IN {GENDERS!r}", name="gender"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"), index=True)
    discord_id: Mapped[int | None] = mapped_column(Snowflake)
    name: Mapped[str] = mapped_column(String(100))
    gender: Mapped[Gender | None] = mapped_column(String(32))


class PlayerGuardian(Base):
    """A member who manages a player without a Discord account: checks in and hears reminders for them."""

    __tablename__ = "player_guardians"
    # (discord_id, league_id): "whom does this member manage here", asked by /checkin, is a seek.
    __table_args__ = (UniqueConstraint("player_id", "discord_id"),
                      Index("ix_player_guardians_discord_id_league_id", "discord_id", "league_id"))

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    discord_id: Mapped[int] = mapped_column(Snowflake)
    added_by: Mapped[int] = mapped_column(Snowflake)
    added_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class RosterEntry(Base):
    """One team per player per league: the unique key on (league, player) enforces it."""

    __tablename__ = "roster_entries"
    __table_args__ = (
        UniqueConstraint("league_id", "player_id"),
        CheckConstraint(f"position IN {POSITIONS!r}", name="position"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"))
    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    position: Mapped[Position] = mapped_column(String(16), default="skater")
    added_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)

    player: Mapped[Player] = relationship(lazy="joined")


class Game(Base):
    __tablename__ = "games"
    __table_args__ = (
        UniqueConstraint("league_id", "code"),
        CheckConstraint(f"kind IN {GAME_KINDS!r}", name="kind"),
        CheckConstraint(f"status IN {GAME_STATUSES!r}", name="status"),
        CheckConstraint("home_team_id <> away_team_id", name="distinct_teams"),
        Index("ix_games_league_starts", "league_id", "starts_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"))
    code: Mapped[str] = mapped_column(String(64))  # the game_id operators and players type
    home_team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"), index=True)
    away_team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"), index=True)
    starts_at: Mapped[datetime] = mapped_column(UTCDateTime)
    venue: Mapped[str] = mapped_column(String(200), default="")
    kind: Mapped[GameKind] = mapped_column(String(16), default="regular")
    status: Mapped[GameStatus] = mapped_column(String(16), default="scheduled")
    # Calendar feeds (bot/services/calendar): SEQUENCE rises and DTSTAMP moves each time the game's
    # time, place, teams or status change, so subscribed calendars replace their copy.
    sequence: Mapped[int] = mapped_column(default=0, server_default="0")
    revised_at: Mapped[datetime | None] = mapped_column(UTCDateTime)

    home: Mapped[Team] = relationship(foreign_keys=[home_team_id], lazy="joined")
    away: Mapped[Team] = relationship(foreign_keys=[away_team_id], lazy="joined")

    def team_ids(self) -> tuple[int, int]:
        return (self.home_team_id, self.away_team_id)


class RosterDeparture(Base):
    """A player leaving a team's roster: one stint on the team, the roster's history.

    With the player's current roster entry it says which team they were on at any time, so a
    suspension is served in the games of the team they are on when each game is played (youth 1.20.1),
    and ``/roster show season:`` lists who was on a team during an earlier season. ``joined_at`` and
    ``position`` are the stint's (NULL for departures recorded before they were kept: such a stint is
    taken to start when the player's previous one ended). ``reason`` says how it ended: ``removed``
    (/roster remove), ``moved`` (a CSV import put them on another team) or ``season`` (cleared when a
    season started); NULL before it was kept.
    """

    __tablename__ = "roster_departures"
    __table_args__ = (Index("ix_roster_departures_player", "league_id", "player_id", "left_at"),
                      Index("ix_roster_departures_team", "league_id", "team_id", "left_at"))

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"))
    left_at: Mapped[datetime] = mapped_column(UTCDateTime)
    joined_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    position: Mapped[str | None] = mapped_column(String(16))
    reason: Mapped[str | None] = mapped_column(String(16))
