"""Tests of bot/delivery/: the courier, its pace and claims, and the scheduler."""
