"""Calendar feeds: the iCalendar file (feed.py), and who may fetch which (service.py)."""
