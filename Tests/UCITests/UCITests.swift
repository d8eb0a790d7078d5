// Tests for UCI.
import Testing
