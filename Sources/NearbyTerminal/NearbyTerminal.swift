// NearbyTerminal: the terminal front-ends of nearby, shared by the `nearby` commands and by
// programs that want the same screens and prompts: the live range screen (`RangeScreen`), the
// replay's text (`ReplayText`), the accessory picker front-ends (`TerminalPicker`, `LinePicker`,
// `ScriptedFrontEnd`), the pairing prompts (`TerminalPairingDelegate`), the swift-log handler for
// standard error (`StderrLogHandler`), signals as streams (`SignalStream`, `waitForSignalOr`)
// and unbuffered lines (`Console`).
//
// Everything here writes to the terminal (standard output / standard error) or reads standard
// input; the work itself (ranging, picking, pairing) stays in the libraries below.
