"""Calendar feeds (issue #27): the iCalendar file (feed.py), and who may fetch which (service.py)."""
