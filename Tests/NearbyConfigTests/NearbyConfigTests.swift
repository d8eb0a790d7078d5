// Tests for NearbyConfig.
import Testing
