public import Logging
import NearbySupport

/// The HCI layer of the host: commands, events and ACL data over one ``HCITransport``.
///
/// - **Commands**: ``execute(_:timeout:)`` honours the controller's command credits
///   (Num_HCI_Command_Packets), matches Command Complete / Command Status by opcode, and gives
///   every command a deadline: a controller that never answers yields a
///   ``BluetoothError/timeout(operation:timeout:hint:)`` naming the command, and the credit is
///   restored so later commands still go out.
/// - **Events**: everything but Command Complete / Status and Number Of Completed Packets is
///   published on ``events`` in arrival order (single consumer: ``BLEHost``).
/// - **ACL data**: ``sendACL(handle:pdu:)`` fragments L2CAP PDUs to the controller's LE
///   buffer size and never has more packets outstanding than the controller has buffers
///   (credits come back with Number Of Completed Packets). Incoming fragments are reassembled
///   per connection into L2CAP PDUs (whole or fragmented packets both work), available from
///   ``inboundPDUs(handle:)`` from the moment the connection completed.
public actor HCIHost {
    /// The transport.
    public nonisolated let transport: any HCITransport
    /// Events other than command completions and buffer credits, in arrival order.
    public nonisolated let events: AsyncStream<HCIEvent>
    private let eventContinuation: AsyncStream<HCIEvent>.Continuation
    private let logger: Logger

    /// Default deadline for a command's Command Complete / Command Status.
    public var commandTimeout: Duration

    private enum CommandReply: Sendable {
        case complete([UInt8])
        case status(HCIStatus)
    }

    private struct PendingCommand {
        let id: UInt64
        let promise: Promise<CommandReply>
    }

    private var commandCredits = 1
    private var creditWaiters: [(id: UInt64, promise: Promise<Void>)] = []
    private var inFlight: [HCIOpcode: [PendingCommand]] = [:]
    private var nextID: UInt64 = 0

    /// LE ACL data packet length the controller accepts, bytes.
    public private(set) var aclPacketLength = 27
    /// Number of LE ACL buffers in the controller.
    public private(set) var aclPacketCount = 1
    /// The controller's supported commands, once read (``BLEHost/start()``).
    public private(set) var supportedCommands: SupportedCommands?
    private var aclCredits = 1
    private var aclInFlight: [UInt16: Int] = [:]
    private var aclWaiters: [Promise<Void>] = []
    private let aclSendLock = AsyncLock()
    private var reassemblers: [UInt16: ACLReassembler] = [:]
    private var inbound: [UInt16: AsyncStream<[UInt8]>.Continuation] = [:]
    private var inboundStreams: [UInt16: AsyncStream<[UInt8]>] = [:]

    private var readTask: Task<Void, Never>?
    private var closedError: BluetoothError?

    /// Creates the HCI layer over `transport`; call ``start()`` to begin reading.
    public init(transport: any HCITransport, commandTimeout: Duration = .seconds(2), logger: Logger) {
        self.transport = transport
        self.commandTimeout = commandTimeout
        self.logger = logger
        (events, eventContinuation) = AsyncStream<HCIEvent>.makeStream(bufferingPolicy: .unbounded)
    }

    /// Starts reading packets from the transport. Idempotent.
    public func start() {
        guard readTask == nil else { return }
        let packets = transport.packets
        readTask = Task {
            do {
                for try await packet in packets {
                    self.handle(packet)
                }
                self.transportEnded(nil)
            } catch {
                self.transportEnded(error)
            }
        }
    }

    /// Closes the transport; pending commands fail and ``events`` finishes.
    public func close() async {
        await transport.close()
        if closedError == nil {
            transportEnded(BluetoothError.transportClosed(transport: transport.name, reason: "closed by this host"), byHost: true)
        }
    }

    /// Why the transport ended, once it did.
    public var closeReason: BluetoothError? { closedError }

    // MARK: - Commands

    /// Sends `command` and waits for its Command Complete (returns the return parameters after
    /// the status byte) or Command Status (returns `[]`; the outcome comes in a later event).
    /// - Parameters:
    ///   - command: the HCI command.
    ///   - timeout: deadline for the answer, including the wait for a command credit;
    ///     ``commandTimeout`` if `nil`.
    /// - Throws: ``BluetoothError/commandFailed(command:status:)`` for a non-zero status,
    ///   ``BluetoothError/timeout(operation:timeout:hint:)`` if the controller does not answer,
    ///   ``BluetoothError/transportClosed(transport:reason:)``,
    ///   ``BluetoothError/cancelled(operation:)`` if the task is cancelled while waiting.
    @discardableResult
    public func execute(_ command: HCICommand, timeout: Duration? = nil) async throws(BluetoothError) -> [UInt8] {
        if let closedError { throw closedError }
        let timeout = timeout ?? commandTimeout
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        let operation = "waiting for the controller's answer to \(command.opcode)"

        while commandCredits <= 0 {
            let waiter = Promise<Void>()
            let id = makeID()
            creditWaiters.append((id, waiter))
            do {
                try await waiter.value(timeout: max(.zero, deadline - clock.now), operation: operation)
            } catch {
                creditWaiters.removeAll { $0.id == id }
                throw mapWaitError(error, operation: "\(command.opcode)", timeout: timeout)
            }
            if let closedError { throw closedError }
        }
        commandCredits -= 1
        let promise = Promise<CommandReply>()
        let id = makeID()
        inFlight[command.opcode, default: []].append(PendingCommand(id: id, promise: promise))
        // Commands that carry a key are logged without their parameters, even at trace level.
        logger.trace("HCI command \(command.opcode): \(command.carriesKey ? "‹\(command.parameters.count) bytes with a key›" : hexDump(command.parameters))")
        do {
            try await transport.send(command.packet)
        } catch {
            removeInFlight(command.opcode, id: id)
            commandCredits += 1
            wakeCreditWaiter()
            throw error
        }
        let reply: CommandReply
        do {
            reply = try await promise.value(timeout: max(.zero, deadline - clock.now), operation: operation)
        } catch {
            // No answer: take the credit back so later commands still go out (as BlueZ does).
            removeInFlight(command.opcode, id: id)
            commandCredits = max(commandCredits, 1)
            wakeCreditWaiter()
            let mapped = mapWaitError(error, operation: "\(command.opcode)", timeout: timeout)
            if case .timeout = mapped {
                logger.warning("\(command.opcode) was never answered within \(format(timeout))")
            }
            throw mapped
        }
        switch reply {
        case .complete(let parameters):
            if let status = parameters.first, status != 0 {
                throw .commandFailed(command: command.opcode.description, status: HCIStatus(rawValue: status))
            }
            return Array(parameters.dropFirst())
        case .status(let status):
            guard status == .success else {
                throw .commandFailed(command: command.opcode.description, status: status)
            }
            return []
        }
    }

    private func mapWaitError(_ error: any Error, operation: String, timeout: Duration) -> BluetoothError {
        if let error = error as? BluetoothError { return error }
        if error is TimeoutError {
            return .timeout(operation: "waiting for the controller's answer to \(operation)", timeout: timeout,
                            hint: "the controller may not support this command, or it hung (reset or replug it)")
        }
        return .cancelled(operation: operation)
    }

    private func makeID() -> UInt64 {
        defer { nextID += 1 }
        return nextID
    }

    private func removeInFlight(_ opcode: HCIOpcode, id: UInt64) {
        inFlight[opcode]?.removeAll { $0.id == id }
        if inFlight[opcode]?.isEmpty == true { inFlight[opcode] = nil }
    }

    private func wakeCreditWaiter() {
        var available = commandCredits
        while available > 0, !creditWaiters.isEmpty {
            let waiter = creditWaiters.removeFirst()
            if waiter.promise.fulfill(()) { available -= 1 }
        }
    }

    // MARK: - ACL

    /// Records the controller's supported commands (from Read Local Supported Commands).
    public func configureSupportedCommands(_ commands: SupportedCommands?) {
        supportedCommands = commands
    }

    /// `true` if the controller lists `opcode` as supported; `false` when it does not, or when
    /// the list was never read.
    public func supports(_ opcode: HCIOpcode) -> Bool {
        supportedCommands?.contains(opcode) == true
    }

    /// Sets the controller's LE ACL buffers (from LE Read Buffer Size or Read Buffer Size).
    public func configureACL(packetLength: Int, packetCount: Int) {
        aclPacketLength = max(1, packetLength)
        aclPacketCount = max(1, packetCount)
        let outstanding = aclInFlight.values.reduce(0, +)
        aclCredits = max(0, aclPacketCount - outstanding)
        wakeACLWaiters()
    }

    /// Free LE ACL buffers in the controller right now (for diagnostics and tests).
    public var availableACLBuffers: Int { aclCredits }

    /// Sends one L2CAP PDU on connection `handle`, fragmented to ``aclPacketLength`` and paced
    /// by the controller's free buffers. PDUs are sent whole, one after another.
    /// - Throws: ``BluetoothError/disconnected(reason:)`` if the connection is gone,
    ///   transport errors, ``BluetoothError/timeout(operation:timeout:hint:)`` if the controller
    ///   frees no buffer for 10 s.
    public func sendACL(handle: UInt16, pdu: [UInt8]) async throws(BluetoothError) {
        if let closedError { throw closedError }
        guard inbound[handle] != nil else { throw .disconnected(reason: .unknownConnectionIdentifier) }
        do {
            try await aclSendLock.lock()
        } catch {
            throw .cancelled(operation: "sending ACL data on handle 0x\(hex(handle))")
        }
        defer { aclSendLock.unlock() }
        // Once the first fragment is out, the PDU is finished regardless of cancellation:
        // a half-sent PDU would corrupt the link.
        for fragment in ACLPacket.fragments(of: pdu, handle: handle, maximumLength: aclPacketLength) {
            while aclCredits <= 0 {
                let waiter = Promise<Void>()
                aclWaiters.append(waiter)
                let result = await Task {
                    do {
                        try await waiter.value(timeout: .seconds(10), operation: "waiting for a free ACL buffer")
                        return nil as (any Error)?
                    } catch {
                        return error
                    }
                }.value
                if let error = result {
                    aclWaiters.removeAll { $0 === waiter }
                    if let error = error as? BluetoothError { throw error }
                    throw .timeout(operation: "waiting for the controller to free an ACL buffer", timeout: .seconds(10),
                                   hint: "the controller stopped reporting completed packets (Number Of Completed Packets); reset or replug it")
                }
                if let closedError { throw closedError }
                guard inbound[handle] != nil else { throw .disconnected(reason: .unknownConnectionIdentifier) }
            }
            aclCredits -= 1
            aclInFlight[handle, default: 0] += 1
            try await transport.send(fragment.packet)
        }
    }

    private func wakeACLWaiters() {
        var available = aclCredits
        while available > 0, !aclWaiters.isEmpty {
            let waiter = aclWaiters.removeFirst()
            if waiter.fulfill(()) { available -= 1 }
        }
    }

    /// The reassembled L2CAP PDUs of connection `handle`, buffered since the connection
    /// completed. Returns the stream once (single consumer); `nil` afterwards or for an unknown
    /// handle. Finishes when the connection ends.
    public func inboundPDUs(handle: UInt16) -> AsyncStream<[UInt8]>? {
        inboundStreams.removeValue(forKey: handle)
    }

    // MARK: - Receiving

    private func handle(_ packet: HCIPacket) {
        switch packet.type {
        case .event:
            let event: HCIEvent
            do {
                event = try HCIEvent(decoding: packet.bytes)
            } catch {
                logger.warning("\(error)")
                return
            }
            handle(event)
        case .acl:
            let acl: ACLPacket
            do {
                acl = try ACLPacket(decoding: packet.bytes)
            } catch {
                logger.warning("\(error)")
                return
            }
            guard var reassembler = reassemblers[acl.handle] else {
                logger.warning("ACL data for unknown connection handle 0x\(hex(acl.handle)) dropped (\(acl.data.count) bytes)")
                return
            }
            let outcome = reassembler.append(acl)
            reassemblers[acl.handle] = reassembler
            if let problem = outcome.problem { logger.warning("\(problem)") }
            if let pdu = outcome.pdu { inbound[acl.handle]?.yield(pdu) }
        default:
            logger.debug("ignoring \(packet.type) packet from the controller")
        }
    }

    private func handle(_ event: HCIEvent) {
        switch event {
        case .commandComplete(let credits, let opcode, let parameters):
            commandCredits = Int(credits)
            if opcode.rawValue != 0 { settle(opcode, .complete(parameters)) }
            wakeCreditWaiter()
        case .commandStatus(let status, let credits, let opcode):
            commandCredits = Int(credits)
            if opcode.rawValue != 0 { settle(opcode, .status(status)) }
            wakeCreditWaiter()
        case .numberOfCompletedPackets(let entries):
            for entry in entries {
                let outstanding = aclInFlight[entry.handle] ?? 0
                let freed = min(Int(entry.count), outstanding)
                if freed < Int(entry.count) {
                    logger.debug("controller completed \(entry.count) packets on 0x\(hex(entry.handle)) with \(outstanding) outstanding")
                }
                aclInFlight[entry.handle] = outstanding - freed
                aclCredits = min(aclPacketCount, aclCredits + freed)
            }
            wakeACLWaiters()
        case .le(.connectionComplete(let complete)) where complete.status == .success:
            openInbound(complete.handle)
            eventContinuation.yield(event)
        case .disconnectionComplete(let status, let handle, _) where status == .success:
            closeInbound(handle)
            eventContinuation.yield(event)
        case .dataBufferOverflow:
            logger.error("the controller reports an ACL data buffer overflow (host flow control broken)")
            eventContinuation.yield(event)
        default:
            eventContinuation.yield(event)
        }
    }

    private func settle(_ opcode: HCIOpcode, _ reply: CommandReply) {
        guard var pending = inFlight[opcode], !pending.isEmpty else {
            logger.debug("answer to \(opcode) that nobody waits for (late or unsolicited)")
            return
        }
        let first = pending.removeFirst()
        inFlight[opcode] = pending.isEmpty ? nil : pending
        first.promise.fulfill(reply)
    }

    private func openInbound(_ handle: UInt16) {
        closeInbound(handle)
        let (stream, continuation) = AsyncStream<[UInt8]>.makeStream(bufferingPolicy: .unbounded)
        inbound[handle] = continuation
        inboundStreams[handle] = stream
        reassemblers[handle] = ACLReassembler()
        aclInFlight[handle] = 0
    }

    private func closeInbound(_ handle: UInt16) {
        inbound.removeValue(forKey: handle)?.finish()
        inboundStreams[handle] = nil
        reassemblers[handle] = nil
        // The controller flushes a closed connection's packets and frees their buffers.
        if let outstanding = aclInFlight.removeValue(forKey: handle), outstanding > 0 {
            aclCredits = min(aclPacketCount, aclCredits + outstanding)
            wakeACLWaiters()
        }
    }

    private func transportEnded(_ error: (any Error)?, byHost: Bool = false) {
        guard closedError == nil else { return }
        let failure = (error as? BluetoothError)
            ?? .transportClosed(transport: transport.name, reason: error.map { "\($0)" } ?? "the controller closed the connection")
        closedError = failure
        if error != nil && !byHost { logger.error("\(failure)") }
        for pending in inFlight.values.flatMap({ $0 }) { pending.promise.fail(failure) }
        inFlight.removeAll()
        for waiter in creditWaiters { waiter.promise.fail(failure) }
        creditWaiters.removeAll()
        for waiter in aclWaiters { waiter.fail(failure) }
        aclWaiters.removeAll()
        for handle in Array(inbound.keys) { closeInbound(handle) }
        eventContinuation.finish()
    }
}
