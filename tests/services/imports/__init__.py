"""Tests of bot/services/imports/: CSV and spreadsheet imports."""
