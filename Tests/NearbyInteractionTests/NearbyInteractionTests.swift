// Tests for NearbyInteraction.
import Testing
