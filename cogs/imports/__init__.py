"""/import teams, players and games: the file, checked against the server, then the import service."""
