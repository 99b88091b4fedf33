"""The admin command line, `sideline` (main.py): one module per feature's subcommands, each adding its parsers.

`run` (run.py), `health` (health.py), `db upgrade|backup` (database.py), `check-config` and
`init-config` (config.py), `import` (imports.py), `rules`, `standings`, `season`, `relays`, `discipline`,
`reminders`, `leagues` and `calendar`; what they share is in common.py, and how each expected failure
reads (one line, its exit code) in failures.py.
"""
