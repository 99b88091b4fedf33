"""/help: what the caller can do here, in pages, and the welcome on joining a server."""
