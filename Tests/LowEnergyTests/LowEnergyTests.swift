// Tests for LowEnergy.
import Testing
