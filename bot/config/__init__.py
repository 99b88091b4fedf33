"""The one typed settings object: the config file's reader, the environment, shard settings."""
