// NearbyConfig: the TOML configuration file (zones, filter, hooks, transports, retry policy,
// output). Schema, errors and precedence: specs/config.md.
//
// - ConfigurationFile: finds, reads and parses the file into a NearbyConfiguration; every
//   problem is a ConfigIssue with its line and key path.
// - NearbyConfiguration: the settings (each optional: unset = the command's default) and what
//   they build (ZoneMap, RangingPipeline, HookDefinitions); `overridden(by:)` applies flags.
