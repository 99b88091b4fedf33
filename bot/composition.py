"""The composition root: every service built once, with its collaborators, for the bot and the CLI alike.

Nothing registers itself by being imported or by a cog being constructed. A service that needs a
collaborator takes it in its constructor, so a missing one fails here, at start-up: in particular
everything that must refuse suspended players gets the discipline feature's check, or nothing starts.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.clock import Clock
from bot.config.settings import AllLeagues, Settings
from bot.services import outbox, rulevotes
from bot.services.announcements import AnnouncementService
from bot.services.availability.away import AwayService, away_stretches
from bot.services.availability.guests import GuestService
from bot.services.calendar.service import CalendarService
from bot.services.checkins.service import LATE_DROPOUT_WINDOW, CheckInService
from bot.services.deadlines import nudges as deadline_nudges
from bot.services.deadlines import service as deadlines
from bot.services.deadlines.service import DeadlineService
from bot.services.discipline.appeals import AppealService
from bot.services.discipline.cleanup import CleanupService
from bot.services.discipline.core import Discipline
from bot.services.discipline.penalties import PenaltyService
from bot.services.discipline.penalty_log import PenaltyLogService
from bot.services.discipline.reviews import SuspensionReviewService
from bot.services.discipline.suspensions import SuspensionService
from bot.services.discord_sync import events, team_roles
from bot.services.discord_sync.service import DiscordSyncService
from bot.services.draft import board as draft_board
from bot.services.draft.service import DraftService
from bot.services.games import GameService
from bot.services.gamesheets import late_start, officials
from bot.services.gamesheets.goals import GoalService
from bot.services.gamesheets.late_start import LateStartPrompts
from bot.services.gamesheets.officials import OfficialNotices
from bot.services.gamesheets.sheet import GameSheetService
from bot.services.imports.service import ImportService
from bot.services.league_page.service import LeaguePageService
from bot.services.messages import notes
from bot.services.messages.disputes import DisputeService
from bot.services.messages.notes import NoteService
from bot.services.messages.relays import RelayService
from bot.services.officials import GameCardService
from bot.services.outbox import OutboxKinds
from bot.services.playoffs import PlayoffService
from bot.services.profile import ProfileService
from bot.services.registration.forms import RegistrationFormService
from bot.services.registration.waiting import EXPIRY_KIND as REGISTRATION_OFFER_EXPIRY
from bot.services.registration.waiting import WaitingListService
from bot.services.reminders import messages as reminder_messages
from bot.services.reminders import plan as reminders
from bot.services.reminders.cards import GameReminders, ReminderEdits
from bot.services.reminders.late_dropouts import LateDropouts
from bot.services.reminders.plan import LineupAlerts
from bot.services.replacements.requests import ReplacementService
from bot.services.results import ResultHook, ResultService
from bot.services.rosters.roster import RosterService
from bot.services.rulebooks.choice import RulebookService
from bot.services.rulebooks.digest import DIGEST_KIND, RuleDigest
from bot.services.rulebooks.feedback import RuleFeedbackService
from bot.services.rulebooks.lookup import RulesLookupService
from bot.services.rulevotes import RuleVoteService
from bot.services.schedule import ScheduleService
from bot.services.schedule_builder import ScheduleBuilderService
from bot.services.seasons import SeasonService
from bot.services.setup.joins import JoinService
from bot.services.setup.league_setup import LeagueSetupService
from bot.services.setup.teams import TeamSetupService
from bot.services.shootouts.orders import ShootoutOrderService
from bot.services.shootouts.scoring import ShootoutScoringService
from bot.services.spares.pool import SparePoolService
from bot.services.spares.requests import WAVE_KIND, SpareRequestService
from bot.services.staff import StaffService
from bot.services.standings import StandingsService
from bot.services.stats import lines as stats_lines
from bot.services.stats import weekly as stats_weekly
from bot.services.stats.service import StatsService
from bot.services.stats.weekly import WeeklyStats
from bot.services.trades import EFFECT_KIND as TRADE_EFFECT
from bot.services.trades import TradeService


@dataclass(frozen=True)
class ResultSteps:
    """What follows a recorded result, in its transaction and in this order (bot/services/results.py's hook)."""

    steps: tuple[ResultHook, ...]

    async def __call__(self, session: AsyncSession, league_id: int, game_id: int) -> None:
        for step in self.steps:
            await step(session, league_id, game_id)


@dataclass(frozen=True)
class Services:
    """The league's use cases, as the cogs, the scheduler's courier and the CLI call them."""

    sessions: async_sessionmaker[AsyncSession]
    clock: Clock
    discipline: Discipline
    announcements: AnnouncementService
    appeals: AppealService
    away: AwayService
    calendar: CalendarService
    checkins: CheckInService
    cleanup: CleanupService
    deadlines: DeadlineService
    discord_sync: DiscordSyncService
    disputes: DisputeService
    draft: DraftService
    games: GameService
    gamesheets: GameSheetService
    goals: GoalService
    official_notices: OfficialNotices
    late_starts: LateStartPrompts
    guests: GuestService
    imports: ImportService
    joins: JoinService
    league_page: LeaguePageService
    notes: NoteService
    officials: GameCardService
    penalties: PenaltyService
    penalty_log: PenaltyLogService
    playoffs: PlayoffService
    profile: ProfileService
    registration: RegistrationFormService
    registration_waiting: WaitingListService
    relays: RelayService
    results: ResultService
    roster: RosterService
    rules: RulesLookupService
    rulebooks: RulebookService
    replacements: ReplacementService
    rule_feedback: RuleFeedbackService
    rulevotes: RuleVoteService
    schedule: ScheduleService
    schedule_builder: ScheduleBuilderService
    seasons: SeasonService
    setup: LeagueSetupService
    setup_teams: TeamSetupService
    shootout_orders: ShootoutOrderService
    shootout_scoring: ShootoutScoringService
    spare_pool: SparePoolService
    spare_requests: SpareRequestService
    staff: StaffService
    standings: StandingsService
    stats: StatsService
    weekly_stats: WeeklyStats
    suspensions: SuspensionService
    suspension_reviews: SuspensionReviewService
    trades: TradeService
    outbox_kinds: OutboxKinds


def build_services(settings: Settings, sessions: async_sessionmaker[AsyncSession], clock: Clock) -> Services:
    discipline = Discipline(AllLeagues(settings))
    note_service = NoteService(sessions, clock)
    league_setup = LeagueSetupService(sessions, clock, settings)
    rules = RulesLookupService(sessions, clock)
    spare_requests = SpareRequestService(sessions, clock, settings, suspensions=discipline)
    late_dropouts = LateDropouts(sessions, clock, settings)
    game_reminders = GameReminders(settings)
    game_cards = GameCardService(sessions, clock, settings)
    gamesheets = GameSheetService(sessions, clock, AllLeagues(settings), suspensions=discipline)
    notices = OfficialNotices(sessions, clock, settings)
    stats = StatsService(sessions, clock)
    waiting_list = WaitingListService(sessions, clock, settings)
    trades = TradeService(sessions, clock, settings)
    weekly = WeeklyStats(sessions, clock, settings, stats)
    rule_votes = RuleVoteService(sessions, clock, settings, league_setup)
    drafts = DraftService(sessions, clock, settings)
    draft_boards = draft_board.DraftBoards(sessions, clock, settings)

    # After a result is recorded: the game sheets are kept as they were (what "played" counts), then
    # suspended players have served one more game, the game's statistics are counted and the weekly post planned.
    on_result = ResultSteps((gamesheets.freeze_at_result, discipline.count_down, stats_lines.refresh_after_result,
                             weekly.after_result))
    late_starts = LateStartPrompts(sessions, clock, settings, suspensions=discipline, on_result=on_result)

    return Services(
        sessions=sessions,
        clock=clock,
        discipline=discipline,
        announcements=AnnouncementService(sessions, clock),
        appeals=AppealService(sessions, clock),
        away=AwayService(sessions, clock, on_late_dropout=late_dropouts, late_window=LATE_DROPOUT_WINDOW),
        calendar=CalendarService(sessions, clock, settings, away=away_stretches),
        checkins=CheckInService(sessions, clock, suspensions=discipline, on_late_dropout=late_dropouts),
        cleanup=CleanupService(sessions, clock, settings),
        deadlines=DeadlineService(sessions, clock),
        discord_sync=DiscordSyncService(sessions, clock, settings),
        disputes=DisputeService(sessions, clock),
        draft=drafts,
        games=GameService(sessions, clock),
        gamesheets=gamesheets,
        goals=GoalService(sessions, clock, suspensions=discipline),
        official_notices=notices,
        late_starts=late_starts,
        guests=GuestService(sessions, clock, suspensions=discipline),
        imports=ImportService(sessions, on_result=on_result),
        joins=JoinService(sessions, clock),
        league_page=LeaguePageService(sessions, clock, settings, stats),
        notes=note_service,
        officials=game_cards,
        penalties=PenaltyService(sessions, clock, on_penalty=stats_lines.refresh_game),
        penalty_log=PenaltyLogService(sessions, clock),
        playoffs=PlayoffService(sessions, clock),
        profile=ProfileService(sessions, clock),
        registration=RegistrationFormService(sessions, clock, waiting_list),
        registration_waiting=waiting_list,
        relays=RelayService(sessions, clock),
        results=ResultService(sessions, clock, on_result=on_result),
        roster=RosterService(sessions, clock),
        rules=rules,
        rulebooks=RulebookService(sessions, clock, settings, league_setup, rules),
        rule_feedback=RuleFeedbackService(sessions, clock, settings, rules),
        rulevotes=rule_votes,
        schedule=ScheduleService(sessions, clock),
        schedule_builder=ScheduleBuilderService(sessions),
        seasons=SeasonService(sessions, clock),
        setup=league_setup,
        setup_teams=TeamSetupService(sessions, clock, league_setup),
        shootout_orders=ShootoutOrderService(sessions, clock, suspensions=discipline),
        shootout_scoring=ShootoutScoringService(sessions, clock, suspensions=discipline,
                                                on_result=on_result),
        spare_pool=SparePoolService(sessions, clock, suspensions=discipline),
        spare_requests=spare_requests,
        staff=StaffService(sessions, clock),
        replacements=ReplacementService(sessions, clock),
        standings=StandingsService(sessions, clock),
        stats=stats,
        weekly_stats=weekly,
        suspensions=SuspensionService(sessions, clock),
        suspension_reviews=SuspensionReviewService(sessions, clock),
        trades=trades,
        outbox_kinds=OutboxKinds(
            renderers={
                outbox.TEXT_KIND: outbox.render_text,
                reminders.REMINDER_KIND: game_reminders.render,
                reminders.NOTICE_KIND: reminders.render_notice,
                reminders.ALERT_KIND: LineupAlerts(settings, discipline).render,
                reminders.CARD_KIND: game_cards.render,
                deadlines.NUDGE_KIND: deadline_nudges.render_nudge,
                notes.NOTE_KIND: notes.render_note,
                WAVE_KIND: spare_requests.render_wave,
                DIGEST_KIND: RuleDigest(settings).render,
                officials.NOTICE_KIND: notices.render,
                late_start.PROMPT_KIND: late_starts.render,
                stats_weekly.MESSAGE_KIND: outbox.render_text,
                draft_board.BOARD_KIND: draft_boards.render,
            },
            failure_hooks={notes.NOTE_KIND: note_service.dm_refused},
            actions={events.EVENT_KIND: events.EventSync(sessions, clock, settings),
                     team_roles.ROLE_KIND: team_roles.TeamRoleSync(sessions, clock, settings),
                     reminder_messages.EDIT_KIND: ReminderEdits(sessions, clock, game_reminders),
                     stats_weekly.WEEK_KIND: weekly,
                     REGISTRATION_OFFER_EXPIRY: waiting_list.expire_offer,
                     rulevotes.CLOSE_KIND: rule_votes.close_due,
                     TRADE_EFFECT: trades.take_effect,
                     draft_board.EDIT_KIND: draft_boards,
                     draft_board.CLOCK_KIND: drafts.clock_ran_out},
            sent_hooks={reminders.REMINDER_KIND: reminder_messages.message_sent,
                        stats_weekly.MESSAGE_KIND: stats_weekly.message_sent,
                        draft_board.BOARD_KIND: draft_board.message_sent},
        ),
    )
