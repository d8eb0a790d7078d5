// Accessories: discovery descriptors, the picker model, the store of set-up accessories,
// migration of accessories the system already knows, and the setup flow (specs/accessories.md).
