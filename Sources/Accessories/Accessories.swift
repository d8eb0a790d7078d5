// Accessories: discovery descriptors, the picker model and the store of set-up accessories.
