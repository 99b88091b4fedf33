"""Away ranges and guests."""
