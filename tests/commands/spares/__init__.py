"""The spare pool and requests through the command tree."""
