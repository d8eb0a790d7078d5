// NearbyRuntime: runs ranging for the commands and for library users. A run takes events from a
// source (live NI sessions on a dev kit, the simulator, a recorded trace), keeps the per-accessory
// status and the summary, runs the zone-trigger hooks, and fans every event out to outputs
// (the CLI's screen, JSON lines, the trace recorder, MQTT, the web view). It prints nothing itself.
//
//   source (NearbySessionManager.events / a trace) ─► RangingRun ─► StatusBoard, RunSummary
//                                                               ├─► HookRunner (hooks)
//                                                               └─► RunOutput... (screen, JSON, recorder)
