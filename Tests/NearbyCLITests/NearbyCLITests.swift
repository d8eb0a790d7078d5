// Tests for NearbyCLI.
import Testing
