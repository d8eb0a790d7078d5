// NearbyWeb: the live web view of a run (`--web [ADDRESS:]PORT`, specs/web.md). A read-only HTTP
// server on SwiftNIO (NIOHTTP1) serves one page (HTML, CSS, JavaScript embedded in the binary)
// and the run's state: `GET /api/state` (JSON) and `GET /api/events` (server-sent events).
//
//   RangingRun ─► WebOutput (RunOutput: never blocks) ─► WebHub (state, event history, clients)
//                                                          └─► WebStreamClient (bounded, coalescing)
//                                                               └─► NIO channel ─► the browser
