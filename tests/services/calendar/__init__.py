"""Tests of bot/services/calendar/: the feed and its links."""
