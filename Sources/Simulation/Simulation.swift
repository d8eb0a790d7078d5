// Simulation: a virtual UWB subsystem that speaks UCI, motion and noise scenarios, and a virtual
// accessory, so everything runs with no radio.
