import Logging
import NearbySupport
import Synchronization
import NearbyBase

/// The ATT client side of one LE connection's fixed channel 4 (Core Vol 3 Part F).
///
/// - One request at a time (ATT's sequential protocol); a request waits for its response, an
///   Error Response, or the transaction timeout. After a timeout the bearer is dead (the spec
///   forbids further requests on it) and every later request fails with that timeout.
/// - Notifications and indications go to the ``NotificationRouter``; every indication is
///   confirmed after its value was delivered.
/// - Requests from the peer's ATT client are answered: Exchange MTU with our MTU, everything
///   else with an Error Response (this host serves no attributes); commands are ignored.
final class ATTBearer: Sendable {
    typealias Sender = @Sendable ([UInt8]) async throws(BluetoothError) -> Void
    /// Raises the link's security for an ATT error; `true`: retry the request.
    typealias SecurityHandler = @Sendable (ATTErrorCode) async throws(BluetoothError) -> Bool

    private struct Pending {
        let request: ATTRequest
        let promise: Promise<ATTResponse>
    }

    private struct State {
        var mtu = attDefaultMTU
        var pending: Pending?
        var failure: BluetoothError?
        var securityHandler: SecurityHandler?
        var timeoutHandler: (@Sendable () -> Void)?
    }

    private let sender: Sender
    private let lock = AsyncLock()
    private let state = Mutex(State())
    private let logger: Logger
    /// How long a request waits for its response.
    let transactionTimeout: Duration
    /// The MTU this host can receive (offered in MTU exchanges).
    let localMTU: UInt16
    /// Where notification and indication values go.
    let router = NotificationRouter()

    init(localMTU: UInt16, transactionTimeout: Duration, logger: Logger, send: @escaping Sender) {
        self.localMTU = localMTU
        self.transactionTimeout = transactionTimeout
        self.logger = logger
        self.sender = send
    }

    /// The current ATT_MTU (23 until an exchange raised it).
    var mtu: Int { state.withLock { $0.mtu } }

    /// Sets what raises security when a request is refused for Insufficient Authentication,
    /// Insufficient Encryption or Encryption Key Size Too Short.
    func setSecurityHandler(_ handler: @escaping SecurityHandler) {
        state.withLock { $0.securityHandler = handler }
    }

    /// Sets what runs after a transaction timeout (the connection ends the link).
    func setTimeoutHandler(_ handler: @escaping @Sendable () -> Void) {
        state.withLock { $0.timeoutHandler = handler }
    }

    /// Sends `request` and waits for its response; a refusal for lack of security raises it
    /// (encrypt or pair, through the security handler) and retries the request once.
    /// - Throws: as ``requestOnce(_:)``, or ``BluetoothError/security(_:)`` when raising the
    ///   security failed.
    func request(_ request: ATTRequest) async throws(BluetoothError) -> ATTResponse {
        do {
            return try await requestOnce(request)
        } catch .attError(let code, let name, let handle)
            where code == .insufficientAuthentication || code == .insufficientEncryption || code == .encryptionKeySizeTooShort {
            guard let handler = state.withLock({ $0.securityHandler }), try await handler(code) else {
                throw .attError(code: code, request: name, handle: handle)
            }
            return try await requestOnce(request)
        }
    }

    /// Sends `request` and waits for its response.
    ///
    /// Not cancellable once sent: ATT has no way to abandon a request, and a late response
    /// would be taken for the next request's. A waiting caller's cancellation takes effect once
    /// the response (or the timeout) arrives.
    /// - Throws: ``BluetoothError/attError(code:request:handle:)`` for an Error Response,
    ///   ``BluetoothError/timeout(operation:timeout:hint:)`` after ``transactionTimeout``,
    ///   ``BluetoothError/disconnected(reason:)`` if the link ends meanwhile,
    ///   ``BluetoothError/invalidResponse(detail:)`` for a malformed response.
    func requestOnce(_ request: ATTRequest) async throws(BluetoothError) -> ATTResponse {
        do {
            try await lock.lock()
        } catch {
            throw .cancelled(operation: "ATT \(request)")
        }
        defer { lock.unlock() }
        let promise = Promise<ATTResponse>()
        let failure: BluetoothError? = state.withLock { state in
            if let failure = state.failure { return failure }
            state.pending = Pending(request: request, promise: promise)
            return nil
        }
        if let failure { throw failure }
        do {
            try await sender(request.bytes)
        } catch {
            state.withLock { $0.pending = nil }
            throw error
        }
        let timeout = transactionTimeout
        let operation = "ATT \(request) (handle 0x\(hex(request.handle)))"
        let result = await Task { () -> Result<ATTResponse, any Error> in
            do {
                return .success(try await promise.value(timeout: timeout, operation: operation))
            } catch {
                return .failure(error)
            }
        }.value
        state.withLock { $0.pending = nil }
        switch result {
        case .success(let response):
            return response
        case .failure(let error as BluetoothError):
            throw error
        case .failure(let error as TimeoutError):
            let failure = BluetoothError.timeout(operation: error.operation, timeout: error.timeout,
                                                 hint: "the accessory stopped answering; the link is closed so it can be reconnected")
            let handler = state.withLock { state in
                state.failure = failure
                return state.timeoutHandler
            }
            logger.warning("\(operation) timed out; the ATT bearer is unusable until reconnection")
            handler?()
            throw failure
        case .failure(let error):
            throw .invalidResponse(detail: "\(error)")
        }
    }

    /// Sends a Write Command (no response).
    /// - Throws: ``BluetoothError/messageTooLong(length:maximum:)`` if `value` exceeds
    ///   ATT_MTU - 3; transport and disconnection errors.
    func writeCommand(handle: UInt16, value: [UInt8]) async throws(BluetoothError) {
        let (maximum, failure) = state.withLock { ($0.mtu - 3, $0.failure) }
        if let failure { throw failure }
        guard value.count <= maximum else { throw .messageTooLong(length: value.count, maximum: maximum) }
        try await sender(ATTPDU.writeCommand(handle: handle, value: value))
    }

    /// Records the MTU from an Exchange MTU Response: min(our MTU, the server's), at least 23.
    func negotiated(serverMTU: UInt16) -> Int {
        let mtu = max(attDefaultMTU, Int(min(localMTU, serverMTU)))
        state.withLock { $0.mtu = mtu }
        return mtu
    }

    /// Handles one ATT PDU from the peer. Returns a PDU to send back (a confirmation or an
    /// answer to the peer's request), if any.
    func receive(_ pdu: [UInt8]) -> [UInt8]? {
        guard let first = pdu.first else { return nil }
        var reader = ByteReader(pdu, offset: 1)
        switch ATTOpcode(rawValue: first) {
        case .handleValueNotification, .handleValueIndication:
            guard let handle = reader.u16() else {
                logger.warning("malformed ATT \(first == 0x1B ? "notification" : "indication"): \(hexDump(pdu))")
                return nil
            }
            if !router.deliver(handle: handle, value: reader.rest()) {
                logger.debug("ATT value on handle 0x\(hex(handle)) with no subscriber")
            }
            return first == ATTOpcode.handleValueIndication.rawValue ? ATTPDU.confirmation : nil
        case .multipleHandleValueNotification:
            while !reader.isAtEnd {
                guard let handle = reader.u16(), let length = reader.u16(), let value = reader.bytes(Int(length)) else {
                    logger.warning("malformed ATT Multiple Handle Value Notification: \(hexDump(pdu))")
                    return nil
                }
                router.deliver(handle: handle, value: value)
            }
            return nil
        case .exchangeMTURequest:
            // The peer's client asks; we answer as a server with our receive MTU.
            if let clientMTU = reader.u16() {
                let mtu = max(attDefaultMTU, Int(min(localMTU, clientMTU)))
                state.withLock { $0.mtu = mtu }
            }
            return ATTPDU.exchangeMTUResponse(mtu: localMTU)
        case .handleValueConfirmation, .writeCommand, .signedWriteCommand:
            return nil
        default:
            break
        }
        if first == ATTOpcode.errorResponse.rawValue || Self.isResponse(first) {
            deliverResponse(pdu)
            return nil
        }
        if first & 0x40 != 0 {
            return nil  // an unknown command: never answered
        }
        // A request from the peer's ATT client: this host has no attributes to serve.
        let handle = reader.u16() ?? 0
        let code: ATTErrorCode
        switch ATTOpcode(rawValue: first) {
        case .findInformationRequest, .findByTypeValueRequest, .readByTypeRequest, .readByGroupTypeRequest:
            code = .attributeNotFound
        case .readRequest, .readBlobRequest, .writeRequest, .prepareWriteRequest:
            code = .invalidHandle
        default:
            code = .requestNotSupported
        }
        return ATTPDU.errorResponse(to: first, handle: handle, code: code)
    }

    private static func isResponse(_ opcode: UInt8) -> Bool {
        switch ATTOpcode(rawValue: opcode) {
        case .exchangeMTUResponse, .findInformationResponse, .findByTypeValueResponse, .readByTypeResponse,
             .readResponse, .readBlobResponse, .readMultipleResponse, .readByGroupTypeResponse, .writeResponse,
             .prepareWriteResponse, .executeWriteResponse, .readMultipleVariableResponse:
            return true
        default:
            return false
        }
    }

    private func deliverResponse(_ pdu: [UInt8]) {
        guard let pending = state.withLock({ $0.pending }) else {
            logger.warning("unexpected ATT response with no request pending: \(hexDump(pdu))")
            return
        }
        do {
            if let response = try ATTResponse.decode(pdu, for: pending.request) {
                pending.promise.fulfill(response)
            } else {
                logger.warning("ATT response \(hexDump(pdu)) does not answer the pending \(pending.request)")
            }
        } catch {
            pending.promise.fail(error)
        }
    }

    /// Fails the pending request and every later one with `error` (on disconnection).
    func fail(_ error: BluetoothError) {
        let pending = state.withLock { state -> Pending? in
            state.failure = error
            return state.pending
        }
        pending?.promise.fail(error)
        router.finishAll()
    }
}
