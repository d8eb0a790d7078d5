// Tests for UWBDevice.
import Testing
