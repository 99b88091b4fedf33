"""Registration use cases: windows and forms (forms.py), dues and the waiting list (waiting.py)."""
