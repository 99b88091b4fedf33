"""Spares: the league's spare pool, and requests that offer a short team's missing spots."""
