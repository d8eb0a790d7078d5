import LowEnergy
import NearbyInteraction
import Ranging
import Simulation
import Testing
import UCI
import UWBDevice
import NIProtocol
import NearbySupport

/// The session orchestration against the in-process simulator: virtual accessories over
/// in-memory data channels, each on its own virtual dev kit, the host on another.
@Suite(.serialized) struct SessionOrchestrationTests {
    @Test func happyPathRangesAtTheScenariosDistance() async throws {
        let harness = try await SessionHarness.make()
        try await harness.addAll()
        let updates = try await harness.recorder.waitForUpdates(10, of: "sim-1")
        // The stand scenario: 2 m ahead, ideal noise.
        for update in updates.suffix(5) {
            #expect(abs((update.distance ?? 0) - 2.0) < 0.01, "\(update)")
        }
        let states = harness.recorder.states(of: "sim-1")
        #expect(states.prefix(4) == [.initializing, .configuring, .starting(cached: false), .ranging], "\(states)")
        let configured = try #require(harness.recorder.configurations(of: "sim-1").first)
        #expect(configured.0.hostParameters.deviceType == .controller)
        #expect(configured.0.accessoryAddress == 0x0A01)
        let accessory = harness.demo.accessories[0].accessory
        #expect(await accessory.received == [.initialize, .configureAndStart])
        #expect(await accessory.runningSessionID == configured.0.sessionID)
        print("latency (in-process simulator): \(configured.1)")
        // The latency is measured and split (its < 5 ms budget is checked by the SessionBenchmarks
        // package-benchmark, not by wall-clock bounds in a loaded test run).
        let latency = configured.1
        #expect(latency.ownWork > .zero && latency.uwbConfiguration > .zero, "\(latency)")
        #expect(latency.ownWork + latency.uwbConfiguration + latency.send == latency.total)
        #expect(harness.recorder.events.contains { event in
            guard case .update(let update) = event.kind else { return false }
            return update.events.zoneEntered?.to.name == "mid"
        })
        await harness.shutdown()
        #expect(await accessory.received.last == .stop, "stop (0x0C) sent on the way out")
        #expect(harness.recorder.states(of: "sim-1").last == .stopped)
    }

    @Test func aSlowAccessoryWithinTheTimeoutIsServed() async throws {
        let harness = try await SessionHarness.make(configuration: fastSessionConfiguration(configurationTimeout: .seconds(3)))
        await harness.demo.accessories[0].accessory.setFault(.slowConfiguration(.milliseconds(300)))
        try await harness.addAll()
        try await harness.recorder.waitForUpdates(3, of: "sim-1")
        #expect(harness.recorder.retries(of: "sim-1").isEmpty)
        await harness.shutdown()
    }

    @Test func aSlowAccessoryOverTheTimeoutIsRetriedThenGivenUp() async throws {
        let harness = try await SessionHarness.make(configuration: fastSessionConfiguration(maxAttempts: 2, configurationTimeout: .milliseconds(200)))
        await harness.demo.accessories[0].accessory.setFault(.slowConfiguration(.seconds(60)))  // never within the test: no late answer is taken
        try await harness.addAll()
        let events = try await harness.recorder.waitFor("failed") { if case .state(.failed) = $0.kind { true } else { false } }
        let retries = harness.recorder.retries(of: "sim-1")
        #expect(retries.map(\.attempt) == [1, 2])
        #expect(retries.allSatisfy { $0.reason == .accessoryDidNotAnswer(timeout: .milliseconds(200)) && $0.action == .startOver })
        let error = try #require(harness.recorder.errors(of: "sim-1").last)
        #expect(error.code == .gaveUp)
        #expect(error.reason == "gave up after 2 tries: the accessory did not answer initialize with its configuration data within 0.2 s", "\(error)")
        #expect(error.remedy?.contains("NI accessory firmware") == true)
        guard case .state(.failed(let reason)) = events.last?.kind else { Issue.record("\(String(describing: events.last))"); return }
        #expect(reason == error.reason)
        await harness.shutdown()
    }

    /// Configuration data that cannot be used gets one fresh initialize; refused twice, the
    /// session ends naming the field, with no retry and no UWB session opened.
    @Test func unusableConfigurationDataEndsTheSessionNamingTheField() async throws {
        let harness = try await SessionHarness.make()
        await harness.demo.accessories[0].accessory.setFault(.invalidConfiguration)
        try await harness.addAll()
        try await harness.recorder.waitFor("failed") { if case .state(.failed) = $0.kind { true } else { false } }
        let errors = harness.recorder.errors(of: "sim-1")
        #expect(errors.count == 2, "the first refusal is reported, the second ends the session: \(errors)")
        let error = try #require(errors.last)
        #expect(error.code == .invalidConfigurationData)
        #expect(error.protocolError?.field == "uwbConfigDataLength")
        #expect(error.protocolError?.reason == .invalidLength(
            value: 12, allowed: "19...64 (19 v1.0, 21 v1.1, 32 v2.0; bytes past the layout are kept as extra bytes)"))
        #expect(error.description.contains("uwbConfigDataLength 12 is not one of 19...64"), "\(error)")
        #expect(harness.recorder.retries(of: "sim-1").isEmpty, "malformed data is not retried")
        #expect(await harness.demo.accessories[0].accessory.received == [.initialize, .initialize], "one fresh 0x0A")
        #expect(await harness.client.openSessionIDs.isEmpty, "no UWB session was opened")
        await harness.shutdown()
    }

    @Test func aRefusedConfigurationIsAskedForOnceMoreAndThenRanges() async throws {
        let harness = try await SessionHarness.make()
        await harness.demo.accessories[0].accessory.setFault(.invalidConfigurationOnce)
        try await harness.addAll()
        try await harness.recorder.waitForUpdates(3, of: "sim-1")
        #expect(await harness.demo.accessories[0].accessory.received == [.initialize, .initialize, .configureAndStart])
        #expect(harness.recorder.errors(of: "sim-1").map(\.code) == [.invalidConfigurationData])
        #expect(harness.recorder.retries(of: "sim-1").isEmpty)
        await harness.shutdown()
    }

    /// Longer UWB config data (Qorvo's 64-byte buffer) and trailing bytes are accepted.
    @Test func longerConfigurationDataRanges() async throws {
        let harness = try await SessionHarness.make { _ in
            VirtualNIAccessoryConfiguration(address: 0x0A01, extraConfigurationBytes: 43, trailingBytes: 3)
        }
        try await harness.addAll()
        try await harness.recorder.waitForUpdates(3, of: "sim-1")
        let plan = try #require(harness.recorder.configurations(of: "sim-1").first?.0)
        guard case .apple(let acd) = plan.accessory else { Issue.record("not Apple"); return }
        #expect(acd.uwbConfiguration.byteCount == 64 && acd.trailingBytes.count == 3)
        guard case .apple(let shareable) = plan.shared else { Issue.record("not Apple"); return }
        #expect(shareable.version == .v1_1, "the spec version (1.1) names the layout: answered with Qorvo's 30 bytes")
        #expect(harness.recorder.errors(of: "sim-1").isEmpty)
        await harness.shutdown()
    }

    /// accessoryUwbDidStop (0x03) mid-session: start over (0x0C, its 0x03, 0x0A, a fresh 0x01, a
    /// new plan, 0x0B), as Apple's sample does and as Qorvo's firmware needs (a 0x0B without a
    /// fresh 0x0A after a stop is answered 0x02 but never ranges).
    @Test func accessoryUWBDidStopMidSessionStartsOver() async throws {
        let harness = try await SessionHarness.make()
        try await harness.addAll()
        try await harness.recorder.waitForUpdates(3, of: "sim-1")
        let accessory = harness.demo.accessories[0].accessory
        await accessory.stopRanging()
        try await harness.recorder.waitFor("second configuration") { _ in harness.recorder.configurations(of: "sim-1").count == 2 }
        let before = harness.recorder.updates(of: "sim-1").count
        try await harness.recorder.waitForUpdates(before + 3, of: "sim-1")
        let retries = harness.recorder.retries(of: "sim-1")
        #expect(retries.count == 1, "the 0x03 answering the stop is no rejection: \(retries)")
        #expect(retries.first?.reason == .accessoryStopped && retries.first?.action == .startOver)
        let ids = harness.recorder.configurations(of: "sim-1").map(\.0.sessionID)
        #expect(ids[0] != ids[1], "planned from the fresh 0x01")
        #expect(await accessory.received == [.initialize, .configureAndStart, .stop, .initialize, .configureAndStart])
        #expect(await accessory.staleStarts == 0)
        #expect(await accessory.startedSessionIDs == ids)
        #expect(await harness.client.openSessionIDs == [ids[1]], "the old local session is closed")
        await harness.shutdown()
    }

    @Test func aSilentAccessoryIsGivenUpWithAClearReason() async throws {
        let harness = try await SessionHarness.make(configuration: fastSessionConfiguration(maxAttempts: 3, lostAfter: 1))
        try await harness.addAll()
        try await harness.recorder.waitForUpdates(3, of: "sim-1")
        await harness.demo.accessories[0].accessory.setFault(.silent)
        try await harness.recorder.waitFor("failed") { if case .state(.failed) = $0.kind { true } else { false } }
        let retries = harness.recorder.retries(of: "sim-1")
        #expect(retries.map(\.attempt) == [1, 2, 3])
        #expect(retries.first.map { if case .noRange = $0.reason { true } else { false } } == true, "\(retries)")
        #expect(retries.map(\.action) == [.startOver, .startOver, .startOver], "a ranging loss starts over: \(retries)")
        #expect(retries.map(\.delay) == [.milliseconds(20), .milliseconds(40), .milliseconds(80)])
        let error = try #require(harness.recorder.errors(of: "sim-1").last)
        #expect(error.code == .gaveUp)
        #expect(error.reason.hasPrefix("gave up after 3 tries: the accessory did not answer initialize"), "\(error)")
        #expect(await harness.client.openSessionIDs.isEmpty, "the local session is closed")
        await harness.shutdown()
    }

    @Test func linkLossIsReconnectedAndTheSessionStartsOver() async throws {
        let harness = try await SessionHarness.make()
        try await harness.addAll()
        try await harness.recorder.waitForUpdates(3, of: "sim-1")
        await harness.demo.accessories[0].accessory.loseLink()
        try await harness.recorder.waitFor("second configuration") { _ in harness.recorder.configurations(of: "sim-1").count == 2 }
        let before = harness.recorder.updates(of: "sim-1").count
        try await harness.recorder.waitForUpdates(before + 3, of: "sim-1")
        let retry = try #require(harness.recorder.retries(of: "sim-1").first)
        #expect(retry.reason == .linkLost(.connectionTimeout) && retry.action == .reconnect)
        let states = harness.recorder.states(of: "sim-1")
        #expect(states.contains(.connecting(attempt: 1)), "\(states)")
        #expect(harness.recorder.events.contains { if case .link(.disconnected(.connectionTimeout)) = $0.kind { true } else { false } })
        #expect(harness.recorder.events.contains { if case .link(.reconnected) = $0.kind { true } else { false } })
        await harness.shutdown()
    }

    @Test func threeAccessoriesRangeAtOnce() async throws {
        let harness = try await SessionHarness.make(scenario: .stand, accessories: 3)
        try await harness.addAll()
        for id in ["sim-1", "sim-2", "sim-3"] {
            let updates = try await harness.recorder.waitForUpdates(5, of: id)
            #expect(abs((updates.last?.distance ?? 0) - 2.0) < 0.01, "\(id): \(String(describing: updates.last))")
        }
        let ids = Set(["sim-1", "sim-2", "sim-3"].compactMap { harness.recorder.configurations(of: $0).first?.0.sessionID })
        #expect(ids.count == 3, "one session each")
        #expect(Set(await harness.client.openSessionIDs) == ids)
        await harness.shutdown()
    }

    @Test func theDevKitsSessionLimitFailsTheExtraAccessoryOnly() async throws {
        let harness = try await SessionHarness.make(
            accessories: 3, hostUWBS: VirtualUWBSConfiguration(maximumSessions: 2),
            configuration: fastSessionConfiguration())
        for accessory in harness.demo.accessories.prefix(2) {
            try await harness.manager.add(accessory.identity, channel: accessory.hostChannel)
            try await harness.recorder.waitForUpdates(2, of: accessory.identity.id)
        }
        let third = harness.demo.accessories[2]
        try await harness.manager.add(third.identity, channel: third.hostChannel)
        try await harness.recorder.waitFor("failed") { $0.accessory?.id == "sim-3" && { if case .state(.failed) = $0.kind { true } else { false } }($0) }
        let error = try #require(harness.recorder.errors(of: "sim-3").first)
        #expect(error.code == .sessionLimit)
        #expect(error.uwbError?.code == .sessionLimit)
        #expect(error.description.contains("runs at most 2 sessions"), "\(error)")
        #expect(harness.recorder.retries(of: "sim-3").isEmpty)
        #expect(await third.accessory.received == [.initialize], "nothing configured on the extra accessory")
        for id in ["sim-1", "sim-2"] {
            let before = harness.recorder.updates(of: id).count
            try await harness.recorder.waitForUpdates(before + 3, of: id)
        }
        await harness.shutdown()
    }

    @Test func aDevKitErrorIsRecoveredByTheClientAndReported() async throws {
        let harness = try await SessionHarness.make()
        try await harness.addAll()
        try await harness.recorder.waitForUpdates(3, of: "sim-1")
        try await harness.demo.world.inject(.deviceError, into: harness.demo.hostTransport.deviceID)
        try await harness.recorder.waitFor("recovered") { if case .device(.recovered) = $0.kind { true } else { false } }
        let before = harness.recorder.updates(of: "sim-1").count
        try await harness.recorder.waitForUpdates(before + 3, of: "sim-1")
        let events = harness.recorder.events
        #expect(events.contains { if case .uwb(.interrupted(.deviceError)) = $0.kind { $0.accessory?.id == "sim-1" } else { false } })
        #expect(events.contains { if case .uwb(.restored(.active)) = $0.kind { true } else { false } })
        #expect(events.contains { if case .device(.deviceErrorReported) = $0.kind { $0.accessory == nil } else { false } })
        #expect(harness.recorder.retries(of: "sim-1").isEmpty, "the client's recovery is not a session retry")
        await harness.shutdown()
    }

    @Test(arguments: [
        (ConfigurationDataVersion.v1_0, NIRangingRole.responder, UWBKeyByteOrder.vendorFirst),
        (.v1_1, .initiator, .vendorSwapped),
        (.v2_0, .responder, .vendorSwapped),
    ])
    func everyLayoutAndRoleRanges(layout: ConfigurationDataVersion, role: NIRangingRole, order: UWBKeyByteOrder) async throws {
        var configuration = fastSessionConfiguration(rangingIntervalMS: nil)
        configuration.planning.keyByteOrder = order
        let harness = try await SessionHarness.make(configuration: configuration) { _ in
            VirtualNIAccessoryConfiguration(layout: layout, role: role, address: 0x0B0B, keyByteOrder: order)
        }
        try await harness.addAll()
        let updates = try await harness.recorder.waitForUpdates(3, of: "sim-1")
        #expect(abs((updates.last?.distance ?? 0) - 2.0) < 0.01)
        let plan = try #require(harness.recorder.configurations(of: "sim-1").first?.0)
        guard case .apple(let shareable) = plan.shared else { Issue.record("not Apple"); return }
        #expect(shareable.version == layout)
        #expect(plan.hostParameters.deviceType == (role == .initiator ? .controlee : .controller))
        // v2.0: the accessory's request (120 ms) is used; otherwise 198 ms for "automatic".
        #expect(plan.hostParameters.rangingInterval == (layout == .v2_0 ? 120 : 198))
        let accessory = try #require(await harness.demo.accessories[0].accessory.lastParameters)
        #expect(accessory.staticSTSIV == plan.hostParameters.staticSTSIV && accessory.vendorID == plan.hostParameters.vendorID)
        await harness.shutdown()
    }

    /// A one-antenna kit (its capabilities report no angles): the session is planned without
    /// AOA_RESULT_REQ, ranges, and its updates carry no angles.
    @Test func aKitWithoutAnglesIsNotAskedForThem() async throws {
        let harness = try await SessionHarness.make(hostUWBS: VirtualUWBSConfiguration(measuresAngles: false))
        try await harness.addAll()
        let updates = try await harness.recorder.waitForUpdates(3, of: "sim-1")
        #expect(abs((updates.last?.distance ?? 0) - 2.0) < 0.01)
        #expect(updates.allSatisfy { $0.sample.azimuth == nil && $0.sample.elevation == nil })
        let plan = try #require(harness.recorder.configurations(of: "sim-1").first?.0)
        #expect(plan.hostParameters.aoaResultRequest == .disabled)
        let host = try #require(await harness.demo.world.snapshot(harness.demo.hostTransport.deviceID)?.sessions.first)
        #expect(host.configuration.explicit[.aoaResultRequest] == nil, "AOA_RESULT_REQ was not sent")
        await harness.shutdown()
    }

    @Test func theAndroidDialectRanges() async throws {
        var configuration = fastSessionConfiguration()
        configuration.dialect = .android
        let harness = try await SessionHarness.make(configuration: configuration)
        try await harness.addAll()
        let updates = try await harness.recorder.waitForUpdates(3, of: "sim-1")
        #expect(abs((updates.last?.distance ?? 0) - 2.0) < 0.01)
        let plan = try #require(harness.recorder.configurations(of: "sim-1").first?.0)
        #expect(plan.dialect == .android && plan.configureMessage.encoded().count == 15)
        #expect(plan.hostParameters.slotsPerRangingRound == 10 && plan.hostParameters.rangingInterval == 240, "NXP's table for ID 1")
        let accessory = harness.demo.accessories[0].accessory
        #expect(await accessory.received == [.androidInitialize, .configureAndStart])
        // Both sides program the same two MAC bytes (UCI order).
        let theirs = try #require(await accessory.lastParameters)
        #expect(theirs.deviceMACAddress == plan.hostParameters.destinationMACAddresses.first)
        #expect(theirs.destinationMACAddresses.first == plan.hostParameters.deviceMACAddress)

        // A stop from the accessory starts over with 0xA5.
        await accessory.stopRanging()
        try await harness.recorder.waitFor("second configuration") { _ in harness.recorder.configurations(of: "sim-1").count == 2 }
        // The host records its plan before the accessory has read the message: wait for it.
        let deadline = ContinuousClock.now.advanced(by: .seconds(30))
        while await accessory.received.count < 5, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(await accessory.received == [.androidInitialize, .configureAndStart, .stop, .androidInitialize, .configureAndStart])
        await harness.shutdown()
    }

    @Test(arguments: [UInt8(2), 3])
    func androidConfigIDs2And3Range(id: UInt8) async throws {
        var configuration = fastSessionConfiguration()
        configuration.dialect = .android
        configuration.planning.androidConfigIDs = [id]
        let harness = try await SessionHarness.make(configuration: configuration)
        try await harness.addAll()
        let updates = try await harness.recorder.waitForUpdates(3, of: "sim-1")
        #expect(abs((updates.last?.distance ?? 0) - 2.0) < 0.01)
        let plan = try #require(harness.recorder.configurations(of: "sim-1").first?.0)
        guard case .android(let phone) = plan.shared else { Issue.record("not Android"); return }
        #expect(phone.profileID == id)
        let theirs = try #require(await harness.demo.accessories[0].accessory.lastParameters)
        #expect(theirs.multiNodeMode == plan.hostParameters.multiNodeMode && theirs.rangingInterval == plan.hostParameters.rangingInterval)
        #expect(theirs.aoaResultRequest == (id == 3 ? .disabled : .enabled))
        await harness.shutdown()
    }

    @Test func anUnpluggedDevKitIsWaitedForAndRangingResumes() async throws {
        let harness = try await SessionHarness.make()
        try await harness.addAll()
        try await harness.recorder.waitForUpdates(3, of: "sim-1")
        try await harness.demo.world.inject(.disconnect(reconnectAfter: .milliseconds(1500)), into: harness.demo.hostTransport.deviceID)
        try await harness.recorder.waitFor("recovered") { if case .device(.recovered(sessions: _)) = $0.kind { true } else { false } }
        let before = harness.recorder.updates(of: "sim-1").count
        try await harness.recorder.waitForUpdates(before + 3, of: "sim-1")
        let events = harness.recorder.events
        #expect(events.contains { if case .device(.transportLost) = $0.kind { true } else { false } })
        #expect(events.contains { if case .uwb(.interrupted(.transportLost)) = $0.kind { true } else { false } })
        #expect(harness.recorder.retries(of: "sim-1").isEmpty, "the ranging timeout waits while the dev kit is away")
        #expect(harness.recorder.configurations(of: "sim-1").count == 1)
        // Our own kit restarted a session the accessory still runs: the cached configuration,
        // nothing sent to the accessory.
        #expect(await harness.demo.accessories[0].accessory.received == [.initialize, .configureAndStart])
        await harness.shutdown()
    }

    @Test func theDevKitStoppingTheSessionStartsOver() async throws {
        let harness = try await SessionHarness.make()
        try await harness.addAll()
        try await harness.recorder.waitForUpdates(3, of: "sim-1")
        let id = try #require(harness.recorder.configurations(of: "sim-1").first?.0.sessionID)
        try await harness.demo.world.inject(.stopSession(id: id, reason: .maxRangingRoundRetryCountReached), into: harness.demo.hostTransport.deviceID)
        try await harness.recorder.waitFor("retry") { if case .retry = $0.kind { true } else { false } }
        let before = harness.recorder.updates(of: "sim-1").count
        try await harness.recorder.waitForUpdates(before + 3, of: "sim-1")
        let retry = try #require(harness.recorder.retries(of: "sim-1").first)
        #expect(retry.reason == .uwbStopped(.maxRangingRoundRetryCountReached) && retry.action == .startOver)
        #expect(harness.recorder.configurations(of: "sim-1").count == 2)
        #expect(await harness.demo.accessories[0].accessory.received == [.initialize, .configureAndStart, .stop, .initialize, .configureAndStart])
        await harness.shutdown()
    }

    @Test func stopWhileWaitingForTheAccessoryEndsAtOnce() async throws {
        let harness = try await SessionHarness.make(configuration: fastSessionConfiguration(configurationTimeout: .seconds(30)))
        await harness.demo.accessories[0].accessory.setFault(.silent)
        try await harness.addAll()
        try await harness.recorder.waitFor("initializing") { if case .state(.initializing) = $0.kind { true } else { false } }
        await harness.shutdown()
        // The stop ended the 30 s wait for the configuration data: no timeout, no retry.
        #expect(harness.recorder.retries(of: "sim-1").isEmpty)
        #expect(harness.recorder.states(of: "sim-1").last == .stopped)
    }

    @Test func anAccessoryThatIsNotAdvertisingIsNotReconnectedAndGivenUp() async throws {
        var configuration = fastSessionConfiguration(maxAttempts: 2)
        configuration.advertisingSeenRecently = { false }
        let harness = try await SessionHarness.make(configuration: configuration)
        try await harness.addAll()
        try await harness.recorder.waitForUpdates(3, of: "sim-1")
        await harness.demo.accessories[0].accessory.loseLink()
        try await harness.recorder.waitFor("failed") { if case .state(.failed) = $0.kind { true } else { false } }
        let retries = harness.recorder.retries(of: "sim-1")
        #expect(retries.map(\.reason) == [.linkLost(.connectionTimeout), .notNearby])
        #expect(retries.allSatisfy { $0.action == .reconnect })
        #expect(!harness.recorder.states(of: "sim-1").contains { if case .connecting = $0 { true } else { false } }, "never tried")
        let error = try #require(harness.recorder.errors(of: "sim-1").last)
        #expect(error.reason == "gave up after 2 tries: the accessory is not advertising")
        #expect(error.remedy == "Bring the accessory closer (or power it on) and start again.")
        await harness.shutdown()
    }
}

/// Overload: sessions that produce faster than the consumer reads keep bounded memory and
/// account for every update.
@Suite struct SessionOverloadTests {
    @Test func anUnreadOutputQueueKeepsItsBoundAndCountsEveryDroppedUpdate() async throws {
        let configuration = fastSessionConfiguration(rangingIntervalMS: 100)
        let demo = try DemoEnvironment(
            scenario: .stand, accessories: 1, noise: .ideal, seed: 7, clock: .realTime(speed: 10), logger: sessionTestLogger)
        try await demo.start()
        let client = UCIClient(transport: demo.hostTransport, logger: sessionTestLogger)
        try await client.open()
        let manager = NearbySessionManager(client: client, configuration: configuration, eventCapacity: 32, logger: sessionTestLogger)
        let session = try await manager.add(demo.accessories[0].identity, channel: demo.accessories[0].hostChannel)
        // Nobody reads the manager's events while about 100 updates are produced.
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(60)
        while await session.samplesProcessed < 100, clock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
        let waiting = manager.events.count
        await manager.stop()
        var updates = 0
        var kept = 0
        for await event in manager.events {
            if case .update(let update) = event.kind {
                updates += 1
                if !update.events.isEmpty { kept += 1 }
            } else {
                kept += 1
            }
        }
        #expect(waiting <= 32 + kept, "bounded: \(waiting) waiting, at most 32 droppable updates + \(kept) other events")
        let processed = await session.samplesProcessed
        #expect(processed >= 100)
        #expect(manager.droppedUpdates > 0)
        #expect(updates + manager.droppedUpdates == processed, "received \(updates) + dropped \(manager.droppedUpdates) = processed \(processed)")
        #expect(session.droppedSamples == 0, "the session itself kept up with the dev kit (its inbox holds 1024)")
        await client.close()
        await demo.shutdown()
    }
}
