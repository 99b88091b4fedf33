"""The sports-rules lexicon `/rule` search reads: chat spellings, synonyms, aliases, stopwords (data)."""

from __future__ import annotations


def _word_set(text: str) -> frozenset[str]:
    """A set of words written as one block of text (easier to read and edit than a list)."""
    return frozenset(text.split())


# fmt: off
# Chat spelling -> words, applied before anything else so slang is never "typo-corrected".
SPELLINGS: dict[str, str] = {
    "wat": "what", "wut": "what", "wht": "what", "whats": "what", "wen": "when", "hw": "how",
    "enuf": "enough", "enuff": "enough", "u": "you", "ya": "you", "ur": "your", "r": "are",
    "y": "why", "cuz": "because", "coz": "because", "bc": "because", "b4": "before",
    "ppl": "people", "thru": "through", "tho": "though", "pls": "please", "plz": "please",
    "im": "i am", "ive": "i have", "dont": "do not", "cant": "can not", "wont": "will not",
    "didnt": "did not", "doesnt": "does not", "isnt": "is not", "arent": "are not",
    "shouldnt": "should not", "wasnt": "was not", "gonna": "going to", "wanna": "want to",
    "gotta": "have to", "hafta": "have to", "kinda": "kind of", "abt": "about", "n": "and",
    "nd": "and", "da": "the", "teh": "the", "hav": "have", "shud": "should", "cud": "could",
    "wud": "would", "sec": "second", "secs": "seconds", "mins": "minutes", "yr": "year",
    "yrs": "years", "pts": "points", "vs": "versus", "w": "with", "wo": "without",
    "theres": "there is", "thats": "that is", "whos": "who is", "hows": "how is",
}

# Groups of interchangeable phrases: a query phrase also finds the others (at a lower weight).
SYNONYM_GROUPS: tuple[tuple[str, ...], ...] = (
    ("puck", "ball"),
    ("ot", "overtime", "over time", "extra time"),
    ("sudden death", "golden goal", "next goal wins"),
    ("tie", "tied", "draw", "tie game", "no winner", "still tied"),
    ("pp", "power play", "man advantage", "up a man", "man up"),
    ("pk", "penalty kill", "short handed", "shorthanded", "man down", "down a man",
     "play short", "play down", "playing down", "a player down"),
    ("fight", "fighting", "drop the gloves", "drop gloves", "scrap", "fisticuffs",
     "throw punches", "punch", "punching", "brawl"),
    ("line change", "change lines", "substitution", "substitute", "sub", "change on the fly",
     "shift"),
    ("ringer", "guest", "guest player", "not on the roster", "not on roster", "not rostered",
     "unregistered player", "spare", "pickup player", "fill in"),
    ("ref", "referee", "official", "zebra", "umpire", "ump", "linesman"),
    ("goalie", "goalkeeper", "keeper", "goal keeper", "goaltender", "tender", "netminder", "gk"),
    ("girl", "woman", "female", "lady", "gal", "non-binary", "nonbinary", "nb"),
    ("guy", "man", "male", "dude"),
    ("card", "yellow card", "yellow", "booking", "booked", "caution"),
    ("red card", "ejection", "ejected", "sent off", "kicked out", "tossed", "thrown out",
     "game misconduct", "disqualified"),
    ("sin bin", "penalty box", "the box", "bin"),
    ("high stick", "high sticking", "stick above the waist", "stick too high"),
    ("slapshot", "slap shot", "slapper", "clapper", "wind up"),
    ("shootout", "shoot out", "penalty shootout"),
    ("breakaway", "in the clear", "hauled down"),
    ("penalty shot", "free shot"),
    ("suspension", "suspended", "ban", "banned", "suspend"),
    ("appeal", "dispute", "contest", "challenge", "protest"),
    ("swear", "swearing", "cursing", "cuss", "trash talk", "chirp", "chirping", "taunt",
     "heckle", "heckling", "verbal abuse", "mouthing off"),
    ("equipment", "gear", "pads", "protective equipment", "eye protection", "goggles",
     "helmet", "shin pads", "shin guards"),
    ("jewelry", "jewellery", "ring", "earring", "necklace", "watch", "piercing", "bracelet",
     "wedding ring"),
    ("slide tackle", "slide tackling", "sliding tackle", "slide"),
    ("faceoff", "face off", "draw", "puck drop", "ball drop"),
    ("timeout", "time out"),
    ("halftime", "half time", "intermission", "break between halves", "between periods"),
    ("period", "half"),
    ("game", "match"),
    ("playoff", "postseason", "final", "semifinal", "semi", "bracket", "elimination"),
    ("standings", "table", "ranking", "league table"),
    ("tiebreaker", "tie breaker", "tiebreak", "break the tie", "tie break"),
    ("seeding", "seed", "seeded", "ranking"),
    ("forfeit", "no show", "default", "not enough players"),
    ("show up", "showed up", "present", "absent", "absence", "arrive", "attend", "no show",
     "missing"),
    ("offside", "offsides", "off side"),
    ("icing", "iced", "ice the ball"),
    ("crease", "goal crease", "goal area", "blue paint", "paint"),
    ("hand pass", "hand passing", "glove pass"),
    ("catch", "grab", "glove"),
    ("body check", "body checking", "bodycheck", "hitting", "physical contact",
     "physical force"),
    ("touch", "touched", "contact", "bump", "make contact"),
    ("penalty", "offense", "offence", "infraction", "foul", "violation"),
    ("next season", "following season", "subsequent season", "next year"),
    ("push", "shove", "roughing", "rough"),
    ("slash", "hack", "chop", "chopping"),
    ("spear", "butt end"),
    ("injury", "injured", "hurt", "bleeding", "blood", "medical"),
    ("water break", "water", "drink", "hydration"),
    ("spectator", "fan", "parent", "crowd", "supporter", "audience"),
    ("inbound", "in bounds", "inbounding", "throw in", "kick in", "out of bounds"),
    ("ceiling", "roof", "rafters"),
    ("corner", "corner kick"),
    ("free kick", "direct kick", "indirect kick", "set piece"),
    ("coach", "captain", "manager"),
    ("trade", "traded", "trading", "swap players"),
    ("draft", "picks", "draft order", "snake draft"),
    ("roster", "team list", "lineup", "game sheet", "squad"),
    ("register", "registration", "sign up", "signup", "fees", "payment"),
    ("clean up", "cleanup", "cleaning up", "clearing", "tear down"),
    ("setup", "set up", "setting up"),
    ("stats", "statistics", "stat"),
    ("change the rules", "rule change", "rule modification", "modify the rules", "amend"),
    ("empty net", "goalie pulled", "pulled goalie", "pull the goalie", "extra attacker"),
    ("delay of game", "stalling", "time wasting", "wasting time"),
    ("too many men", "too many players", "too many on the floor"),
    ("floor", "court", "field", "rink", "pitch", "surface"),
    ("clock", "timer", "stoppage", "stop time", "stopped clock", "running clock"),
    ("lift", "raise", "head high", "high ball", "in the air", "loft", "lofting", "chip"),
    ("freeze", "cover", "frozen", "smother"),
    ("win", "victory", "winner"),
    ("loss", "lose", "defeat"),
    ("point", "pt"),
    ("senior", "older", "adult"),
    ("junior", "younger", "kid"),
    ("twice", "two times", "again", "repeat", "more than once", "more than one"),
    ("back pass", "pass back", "footed by a teammate"),
    ("eligible", "eligibility", "qualify", "qualifies", "qualified"),
    ("ends in a tie", "finishes in a tie", "ends tied", "tied at the end", "tied after regulation",
     "ends in a draw"),
    ("mid season", "midseason", "during the season", "after the season has begun"),
)

# One-way: asking this suggests the rulebook words on the right (how players ask vs how rules say).
ALIASES: dict[str, tuple[str, ...]] = {
    "how long": ("minute", "second", "length", "duration"),
    # The game's shape: a game is as long as its periods or halves; a tie goes to overtime.
    "how long is game": ("period", "half", "minute", "game"),
    "how long is match": ("period", "half", "minute", "game"),
    "how long are games": ("period", "half", "minute", "game"),
    "how long does game last": ("period", "half", "minute", "game"),
    "how long do games last": ("period", "half", "minute", "game"),
    "game length": ("period", "half", "minute", "game"),
    "length of game": ("period", "half", "minute", "game"),
    "how many minutes is game": ("period", "half", "minute", "game"),
    "how many minutes in game": ("period", "half", "minute", "game"),
    "how long is period": ("period", "half", "minute", "game"),
    "how long is each period": ("period", "half", "minute", "game"),
    "how long are periods": ("period", "half", "minute", "game"),
    "how many periods": ("period", "half", "consist"),
    "how many halves": ("half", "period", "consist"),
    "what happens in tie": ("overtime", "shootout", "tie"),
    "what if tie": ("overtime", "shootout", "tie"),
    "tie": ("overtime", "shootout"),
    "ends in a tie": ("overtime", "shootout"),
    "is there overtime": ("overtime", "tie"),
    "play in playoffs": ("playoff", "qualify"),
    "make playoffs": ("playoff", "qualify"),
    "missed games": ("absent", "qualify"),
    "how old": ("age", "eligible", "eligibility"),
    "how big": ("size", "feet", "regulation"),
    "size": ("feet", "foot", "radius", "dimension", "regulation", "limited"),
    "how far": ("feet", "distance", "away"),
    "how many": ("maximum", "minimum", "max", "min"),
    "min": ("minimum", "minute"),
    "max": ("maximum", "limit", "limited"),
    "count": ("allowed", "disallowed", "counted"),
    "legal": ("allowed", "illegal", "permitted", "prohibited"),
    "allowed": ("permitted", "legal", "illegal", "prohibited", "forbidden"),
    "punishment": ("penalty", "suspension"),
    "kicked out": ("ejected", "ejection"),
    "wrong": ("illegal", "illegally"),
    "not enough": ("short", "minimum", "at least", "forfeit"),
    "not have enough": ("short", "minimum", "at least", "forfeit"),
    "foot": ("body part", "feet"),
    "leg": ("body part",),
    "skate": ("body part", "feet"),
}

# fmt: on

# An alias that opens with one of these is a way of asking ("how long", "what happens in tie"): its
# own words are not looked for in the rulebook, only what it points to ("long" found "Long-Term
# Injury" for "how long is a game").
QUESTION_OPENERS = frozenset({"how", "what", "is", "are", "can", "does", "do"})

STOPWORDS = _word_set(
    """
    a about above after again all also am an and any anyone anything are as at be because been
    being both but by can could did do does doing during each either else enough ever every for
    from get gets getting got had has have having he her here hers him his how i if in into is
    it its just know let like many may me might mine more most much must my need needs no nor
    not now of often ok okay on once only or other our ours please really said say says she
    should so some still such than that the their theirs them then there these they thing things
    this those though through to too u um under until us very want was we well were what
    whatever when where whether which while who whom whose why will with would yeah yes yet you
    your yours happen happens happened going kind people someone somebody rule rules
    """
)
# Words dropped before matching lexicon phrases ("drop the gloves" == "drop my gloves").
PHRASE_FILLERS = _word_set(
    """
    a an the my our your his her their its this that
    """
)

# Plurals the Snowball stemmer leaves apart from their singular.
# fmt: off
IRREGULAR_PLURALS: dict[str, str] = {
    "women": "woman", "men": "man", "feet": "foot", "halves": "half", "teeth": "tooth",
    "children": "child", "people": "person", "knives": "knife", "wives": "wife",
}
# fmt: on
