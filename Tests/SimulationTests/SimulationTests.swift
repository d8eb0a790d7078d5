// Tests for Simulation.
import Testing
