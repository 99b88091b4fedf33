"""Tests of bot/web/: the calendar feed and metrics servers."""
