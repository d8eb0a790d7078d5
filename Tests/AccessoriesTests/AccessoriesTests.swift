// Tests for Accessories.
import Testing
