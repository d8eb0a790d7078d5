// Tests for Hooks.
import Testing
