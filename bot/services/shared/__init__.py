"""What several features read alike: a game by the id people type, who is on its sides and who
answered, its spares, and whether a suspension keeps a player out. Features import these, not each
other's insides, so their dependencies run one way."""
