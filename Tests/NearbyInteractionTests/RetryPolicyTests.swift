import NearbyInteraction
import Testing

@Suite struct RetryPolicyTests {
    @Test func backoffDoublesFromTheInitialWaitUpToTheCap() {
        let policy = RetryPolicy(maxAttempts: 7, initialBackoff: .milliseconds(250), maxBackoff: .seconds(4), multiplier: 2)
        #expect(policy.schedule == [.milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(4), .seconds(4)])
        #expect(policy.backoff(beforeAttempt: 0) == .milliseconds(250), "below 1 counts as 1")
        #expect(policy.backoff(beforeAttempt: 10_000) == .seconds(4), "no overflow")
    }

    @Test func otherMultipliersAndZeroWaits() {
        #expect(RetryPolicy(maxAttempts: 3, initialBackoff: .milliseconds(100), maxBackoff: .seconds(1), multiplier: 1.5).schedule
            == [.milliseconds(100), .milliseconds(150), .milliseconds(225)])
        #expect(RetryPolicy(maxAttempts: 3, initialBackoff: .milliseconds(100), maxBackoff: .seconds(1), multiplier: 1).schedule
            == [.milliseconds(100), .milliseconds(100), .milliseconds(100)])
        #expect(RetryPolicy(maxAttempts: 2, initialBackoff: .zero, maxBackoff: .zero).schedule == [.zero, .zero])
    }

    @Test func attemptsAreLimited() {
        let policy = RetryPolicy(maxAttempts: 2)
        #expect(!policy.allows(attempt: 0) && policy.allows(attempt: 1) && policy.allows(attempt: 2) && !policy.allows(attempt: 3))
        #expect(!RetryPolicy(maxAttempts: 0).allows(attempt: 1), "0 gives up at once")
        #expect(RetryPolicy(maxAttempts: 0).schedule.isEmpty)
    }

    @Test func defaultsAreDocumented() throws {
        let policy = RetryPolicy.default
        #expect(policy.maxAttempts == 5 && policy.initialBackoff == .milliseconds(250) && policy.maxBackoff == .seconds(8))
        #expect(policy.multiplier == 2)
        #expect(policy.schedule == [.milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2), .seconds(4)])
        try policy.validate()
    }

    @Test func invalidValuesNameTheField() {
        #expect(throws: RetryPolicyError(field: "maxAttempts", problem: "is -1, must be ≥ 0")) { try RetryPolicy(maxAttempts: -1).validate() }
        #expect(throws: RetryPolicyError(field: "multiplier", problem: "is 0.5, must be a finite number ≥ 1")) {
            try RetryPolicy(multiplier: 0.5).validate()
        }
        #expect(throws: RetryPolicyError.self) { try RetryPolicy(multiplier: .nan).validate() }
        #expect(throws: RetryPolicyError.self) { try RetryPolicy(initialBackoff: .seconds(2), maxBackoff: .seconds(1)).validate() }
        #expect(RetryPolicyError(field: "multiplier", problem: "is 0.5, must be a finite number ≥ 1").description
            == "retry policy: multiplier is 0.5, must be a finite number ≥ 1")
    }
}
