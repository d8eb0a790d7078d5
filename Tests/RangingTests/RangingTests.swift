// Tests for Ranging.
import Testing
