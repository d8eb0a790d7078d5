// Hooks: run user commands on ranging events (enter, exit, lost, found), argv only, event data in
// environment variables, off the ranging path. Contract: specs/hooks.md.
//
// - HookDefinition: what to run on which event (validated).
// - HookEvent: what happened, built from a RangingEvent (HookEvent+Ranging); its environment.
// - HookRunner: the actor that runs hooks without ever stalling the caller (bounded queue,
//   coalescing, per-hook timeout, cooldown) and reports HookOutcomes.
