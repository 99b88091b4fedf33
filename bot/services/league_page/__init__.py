"""The public league page: opt-in, read-only, served by the feed server."""
