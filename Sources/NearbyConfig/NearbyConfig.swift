// NearbyConfig: the TOML configuration file (zones, filter, hooks, transports, retry policy, output).
