import Foundation
import Testing

@testable import Simulation

/// The real-time scheduler's own thread (`VirtualUWBSSchedulerThread`): the loop task and the
/// world's steps run on it, its timed sleep ends at the deadline or at a wake, and it ends after
/// `stop()` without stranding a job (specs/runtime.md §6.1, issue 25).
@Suite struct SchedulerThreadTests {
    /// The thread the calling code runs on.
    private static func currentThread() -> UInt { UInt(bitPattern: Int(bitPattern: UInt(pthread_self()))) }

    @Test func theLoopTaskAndTheActorsItCallsRunOnTheSchedulersThread() async {
        let thread = VirtualUWBSSchedulerThread()
        thread.startThread()
        let probe = ThreadProbe()
        let threads = await Task(executorPreference: thread) {
            let first = Self.currentThread()
            let inActor = await probe.thread()  // a default actor runs on the preferred executor
            await thread.sleep(seconds: 0.001)
            let afterSleep = Self.currentThread()
            return [first, inActor, afterSleep]
        }.value
        #expect(Set(threads).count == 1, "one thread for the task, the actor and after the sleep")
        #expect(threads[0] != Self.currentThread())
        thread.stop()
    }

    @Test func aSleepLastsUntilItsDeadlineAndAWakeEndsItEarly() async {
        let thread = VirtualUWBSSchedulerThread()
        thread.startThread()
        defer { thread.stop() }
        let clock = ContinuousClock()
        let started = clock.now
        await Task(executorPreference: thread) { await thread.sleep(seconds: 0.02) }.value
        #expect(clock.now - started >= .milliseconds(20), "not before the deadline")

        // A wake while no sleep is under way ends the next sleep at once; beginStep forgets it.
        thread.wake()
        let woken = await Task(executorPreference: thread) { () -> Bool in
            let sleeper = Task(executorPreference: thread) { await thread.sleep(seconds: 0.5) }
            await sleeper.value
            return true
        }.value
        #expect(woken)
        thread.wake()
        thread.beginStep()
        // A sleeping loop, woken from another thread: the wake's resumption runs on the
        // scheduler's thread (the sleep of half a second need not pass for this to return).
        let sleeping = Task(executorPreference: thread) { () -> UInt in
            await thread.sleep(seconds: 0.5)
            return Self.currentThread()
        }
        try? await Task.sleep(for: .milliseconds(5))
        thread.wake()
        #expect(await sleeping.value != Self.currentThread())
    }

    @Test func afterStopTheThreadEndsAndLaterJobsStillRun() async {
        let thread = VirtualUWBSSchedulerThread()
        thread.startThread()
        let sleeping = Task(executorPreference: thread) { await thread.sleep(seconds: 0.5) }
        try? await Task.sleep(for: .milliseconds(5))
        thread.stop()
        await sleeping.value  // stop ends the sleep under way
        await Task(executorPreference: thread) { await thread.sleep(seconds: 0.5) }.value  // ends at once
        let ran = await Task(executorPreference: thread) { 42 }.value
        #expect(ran == 42, "a job after the thread ended runs on the global executor")
    }
}

private actor ThreadProbe {
    func thread() -> UInt { UInt(bitPattern: Int(bitPattern: UInt(pthread_self()))) }
}
