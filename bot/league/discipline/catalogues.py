"""Each preset's penalty catalogue, one line per infraction.

A row is (key, name, rulebook citation[, what a repeat in the same game is called as]), grouped under
the costs its category carries.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.league.discipline.infractions import Category, Infraction

#: "If any infraction of the rules is severe enough, intentional, or repeated, the offending player will be
#: written up by the head ref."
COED_WRITTEN_UP = "Co-ed rules: Penalties 4"
_MINOR = "Co-ed rules: Minor offenses"
_MAJOR = "Co-ed rules: Major offenses"
_SEVERE = "Co-ed rules: Major offenses, severe offenses"
_EXTREME = "Co-ed rules: Extreme offenses"
_COED_PROHIBITED = "Co-ed rules: Prohibited actions"


def _group(
    category: Category,
    minutes: int,
    *,
    ejection: bool = False,
    suspension_games: tuple[int, int] | None = None,
    rows: Iterable[tuple[str, str, str] | tuple[str, str, str, str]],
) -> tuple[Infraction, ...]:
    """Catalogue rows (key, name, citation[, repeat_becomes]) with their category's costs."""
    return tuple(
        Infraction(key=row[0], name=row[1], category=category, minutes=minutes, citation=row[2],
                   ejection=ejection, suspension_games=suspension_games,
                   repeat_becomes=row[3] if len(row) > 3 else None)
        for row in rows
    )


_COED_CATALOGUE: tuple[Infraction, ...] = (
    # "Minor offenses (warning)"
    *_group("warning", 0, rows=(
        ("holding", "Holding", f"{_MINOR} (1)"),
        ("hooking", "Hooking", f"{_MINOR} (2)"),
        ("lofting", "Lofting", f"{_MINOR} (3)"),
        ("goalie_covering_out_of_crease", "Goalie covering out of the crease", f"{_MINOR} (4)"),
        ("goalie_delay_of_game", "Goalie delay of game", f"{_MINOR} (5)"),
    )),
    # "Major offenses (sit for 2 minutes)"
    *_group("major", 2, rows=(
        ("high_sticking", "High sticking", f"{_MAJOR} (1)"),
        ("slapshot", "Slapshot", f"{_MAJOR} (2)"),
    )),
    # "3. Severe offenses (1 game – 5 game suspensions)", listed under the 2-minute majors.
    *_group("severe", 2, suspension_games=(1, 5), rows=(
        ("slashing", "Slashing", f"{_SEVERE} (1)"),
        ("throwing_smashing_stick", "Throwing or smashing a stick", f"{_SEVERE} (2); No stick throwing/smashing"),
        ("tripping", "Tripping", f"{_SEVERE} (3)"),
        ("verbal_abuse", "Verbal abuse", f"{_SEVERE} (4)"),
    )),
    # "Extreme offenses": no consequence stated; ejected, the league decides the rest.
    *_group("extreme", 0, ejection=True, rows=(
        ("ref_abuse", "Referee abuse", f"{_EXTREME} (1)"),
        ("pushing_roughing_fighting", "Pushing, roughing or fighting", f"{_EXTREME} (2); Prohibited actions (11)"),
    )),
    # "A 5-minute misconduct penalty can be given to any player based on referee discretion."
    *_group("misconduct_5", 5, rows=(
        ("penalty_on_breakaway", "Penalty against a player on a breakaway", f"{_EXTREME} 1 (the 5-minute misconduct)"),
        ("verbal_abuse_misconduct", "Verbal abuse of refs or other players (misconduct)", f"{_EXTREME} 1 (the 5-minute misconduct)"),
    )),
    # "sit the rest of the game (a game misconduct)"
    *_group("game_misconduct", 0, ejection=True, rows=(
        ("game_misconduct", "Game misconduct: sits the rest of the game (referee's option)",
         f"{_EXTREME} 2 (a game misconduct)"),
    )),
    # "PROHIBITED ACTIONS ... This is a non-contact game": the ones no offence list above names (slashing,
    # tripping, hooking, high sticking, verbal abuse and fighting are there already). The rulebook gives
    # them no cost: they are recorded as the 2-minute major, the co-ed rulebook's sit-out for a call,
    # and the referee adds a game misconduct or a suspension (`suspend:`) when it deserves one.
    *_group("major", 2, rows=(
        ("intentional_contact", "Intentional physical contact (body or stick)", f"{_COED_PROHIBITED} (1)"),
        ("checking", "Checking", f"{_COED_PROHIBITED} (2)"),
        ("chopping", "Chopping (stick brought down on, or holding down, a stick)", f"{_COED_PROHIBITED} (3)"),
        ("hacking", "Hacking (shin-slapping)", f"{_COED_PROHIBITED} (4)"),
        ("spearing", "Spearing", f"{_COED_PROHIBITED} (7)"),
        ("stick_end_butting", "Stick end-butting", f"{_COED_PROHIBITED} (8)"),
        ("verbal_taunts", "Verbal taunts", f"{_COED_PROHIBITED} (10)"),
    )),
)

_YOUTH_CATALOGUE: tuple[Infraction, ...] = (
    *_group("warning", 0, rows=(
        ("goalie_holding_ball_outside_crease", "Goalie holding the ball outside the crease", "Youth 3.2 (1)", "delay_of_game_goalie_outside_crease"),
        ("heckling_referee_warning", "Heckling the referee / arguing a call", "Youth 3.2 (2)"),
        ("illegal_faceoff_technique", "Illegal face-off technique", "Youth 3.2 (3)"),
        ("illegal_faceoff_lineup", "Lining up illegally for a face-off", "Youth 3.2 (4)"),
        ("corralling_ball", "Corralling the ball", "Youth 3.2 (5)", "delay_of_game_corralling"),
        ("holding_up_play", "Holding up play", "Youth 3.2 (6)", "delay_of_game_holding_up_play"),
        ("stepping_on_ball", "Stepping on the ball deliberately", "Youth 3.2 (7)", "delay_of_game_stepping_on_ball"),
        ("improper_equipment", "Not wearing proper equipment", "Youth 3.2 (8)", "equipment_infraction"),
    )),
    *_group("faceoff_ejection", 0, rows=(
        ("faceoff_ejection_lineup", "Lining up illegally, second time on the same face-off", "Youth 3.3 (1)"),
        ("faceoff_ejection_technique", "Illegal face-off technique, second time on the same face-off", "Youth 3.3 (2)"),
    )),
    *_group("bench_minor", 2, rows=(
        ("bench_minor_uniform", "Bench minor: players not in proper uniform", "Youth 3.7 (1)"),
        ("bench_minor_too_many_players", "Bench minor: too many players", "Youth 3.7 (2)"),
        ("bench_minor_equipment_from_bench", "Bench minor: stick or equipment from the bench obstructing play", "Youth 3.7 (3)"),
        ("bench_minor_heckling", "Bench minor: heckling the referee / arguing a call", "Youth 3.7 (4)"),
        ("bench_minor_throwing_from_bench", "Bench minor: throwing something from the bench", "Youth 3.7 (5)"),
        ("bench_minor_setup_cleanup", "Bench minor: failing to set up or clean up", "Youth 3.7 (6), 2.15"),
        ("bench_minor_not_ready", "Bench minor: team not ready at start", "Youth 3.7 (7), 2.4"),
        ("bench_minor_dangerous_equipment", "Bench minor: dangerous equipment (jewellery, watches)", "Youth 3.7 (8)"),
    )),
    *_group("minor", 2, rows=(
        ("cross_checking", "Cross-checking", "Youth 3.7"),
        ("delay_of_game_closing_hand", "Delay of game: closing the hand on the ball", "Youth 3.7 delay of game (1)"),
        ("delay_of_game_goalie_outside_crease", "Delay of game: goalie holding the ball outside the crease (second time)", "Youth 3.7 delay of game (2)"),
        ("delay_of_game_corralling", "Delay of game: corralling the ball", "Youth 3.7 delay of game (3)"),
        ("delay_of_game_hand_in_crease", "Delay of game: holding the ball with the hands in the crease", "Youth 3.7 delay of game (4)"),
        ("delay_of_game_shooting_out", "Delay of game: deliberately shooting the ball out", "Youth 3.7 delay of game (5)"),
        ("delay_of_game_stepping_on_ball", "Delay of game: stepping on the ball", "Youth 3.7 delay of game (6)"),
        ("delay_of_game_holding_up_play", "Delay of game: holding up play", "Youth 3.7 delay of game (7)"),
        ("elbowing", "Elbowing", "Youth 3.7"),
        ("high_sticking", "High sticking (ball above the waist / blade above the shoulder)", "Youth 3.7"),
        ("high_sticking_contact", "High sticking (accidental contact with a player)", "Youth 3.7"),
        ("holding", "Holding", "Youth 3.7"),
        ("hooking", "Hooking", "Youth 3.7"),
        ("instigating", "Instigating", "Youth 3.7"),
        ("interference", "Interference", "Youth 3.7"),
        ("leaving_penalty_box_early", "Leaving the penalty box early", "Youth 3.7"),
        ("referee_abuse_minor", "Referee abuse, physical or verbal (minor)", "Youth 3.7"),
        ("roughing", "Roughing", "Youth 3.7"),
        ("slashing", "Slashing", "Youth 3.7"),
        ("equipment_infraction", "Equipment infraction: no goggles, shin pads or gloves", "Youth 3.7"),
        ("throwing_stick_at_ball", "Throwing a stick or equipment to knock the ball away", "Youth 3.7"),
        ("throwing_stick_at_net", "Throwing a stick or equipment to stop a goal (goalie in net)", "Youth 3.7"),
        ("tripping", "Tripping", "Youth 3.7"),
        ("unsportsmanlike_conduct", "Unsportsmanlike conduct", "Youth 3.7"),
        ("not_on_game_sheet", "Player not on the game sheet", "Youth 3.4 (1)"),
    )),
    *_group("double_minor", 4, rows=(
        ("cross_checking_flagrant", "Cross-checking, flagrant", "Youth 3.8 (1)"),
        ("elbowing_vicious", "Elbowing, vicious", "Youth 3.8 (2)"),
        ("punching", "Punching with gloves on", "Youth 3.8 (3)"),
        ("referee_abuse_double_minor", "Referee abuse, physical or verbal (double minor)", "Youth 3.8 (4)"),
        ("roughing_excessive", "Roughing, excessive", "Youth 3.8 (5)"),
        ("slashing_flagrant", "Slashing, flagrant", "Youth 3.8 (6)"),
        ("unsportsmanlike_conduct_double_minor", "Unsportsmanlike conduct (double minor)", "Youth 3.8 (7)"),
    )),
    # "Majors (five minutes/ejection/possible suspension)"; 3.1: majors entail ejection.
    *_group("major", 5, ejection=True, rows=(
        ("vicious_play", "Deliberately vicious, dangerous play", "Youth 3.9 (1)"),
        ("boarding", "Boarding", "Youth 3.9 (2)"),
        ("butt_ending", "Butt-ending", "Youth 3.9 (3)"),
        ("fighting", "Fighting", "Youth 3.9 (4)"),
        ("head_butting", "Head-butting", "Youth 3.9 (5)"),
        ("high_sticking_blood", "High-sticking (drawing blood)", "Youth 3.9 (6)"),
        ("hitting_from_behind", "Hitting from behind", "Youth 3.9 (7)"),
        ("intent_to_injure", "Intent to injure", "Youth 3.9 (8)"),
        ("kicking", "Kicking", "Youth 3.9 (9)"),
        ("kneeing", "Kneeing", "Youth 3.9 (10)"),
        ("leaving_bench_for_fight", "Leaving the bench or box to join a fight or argument", "Youth 3.9 (11)"),
        ("shooting_ball_at_player", "Shooting the ball at a player", "Youth 3.9 (12)"),
        ("spearing", "Spearing", "Youth 3.9 (13)"),
        ("spitting", "Spitting at or towards a player", "Youth 3.9 (14)"),
        ("third_man_in", "Third man in", "Youth 3.9 (15)"),
    )),
    *_group("misconduct_10", 10, rows=(
        ("unsportsmanlike_misconduct", "Unsportsmanlike conduct (10-minute misconduct)", "Youth 3.10"),
        ("referee_abuse_verbal_misconduct", "Verbal referee abuse (10-minute misconduct)", "Youth 3.10"),
    )),
    *_group("game_misconduct", 0, ejection=True, suspension_games=(15, 15), rows=(
        ("referee_abuse_physical", "Physical referee abuse", "Youth 3.11 (4)"),
    )),
    *_group("game_misconduct", 0, ejection=True, rows=(
        ("referee_abuse_verbal_game_misconduct", "Verbal referee abuse (game misconduct)", "Youth 3.11 (5)"),
    )),
)

_INDOOR = "Indoor soccer rules: General"
_INDOOR_CATALOGUE: tuple[Infraction, ...] = (
    *_group("yellow_card", 2, rows=(
        ("slide_tackle", "Slide tackling", _INDOOR),
        ("jewelry", "Wearing jewellery after the game started", _INDOOR),
        ("yellow_card", "Yellow card (other)", _INDOOR),
    )),
    *_group("game_misconduct", 0, ejection=True, rows=(
        ("ejection", "Ejection (red card)", "Indoor soccer rules: Substitutions"),
    )),
)

PENALTY_CATALOGUES: dict[str, tuple[Infraction, ...]] = {
    "coed-ball-hockey": _COED_CATALOGUE,
    "youth-ball-hockey": _YOUTH_CATALOGUE,
    "indoor-soccer": _INDOOR_CATALOGUE,
}
