/// The status of SESSION_DATA_TRANSFER_STATUS_NTF (UCI 2.0): what happened to a data message the
/// host sent with DATA_MESSAGE_SND.
///
/// Unknown raw values are kept (never trapping); ``name`` is `nil` for them.
public struct UCIDataTransferStatusCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The wire value.
    public let rawValue: UInt8

    /// Creates a status from its wire value.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// REPETITION_OK (0x00): one repetition of the data was sent.
    public static let repetitionOK = UCIDataTransferStatusCode(rawValue: 0x00)
    /// OK (0x01): the data was sent.
    public static let ok = UCIDataTransferStatusCode(rawValue: 0x01)
    /// ERROR_DATA_TRANSFER (0x02): the data could not be sent.
    public static let errorDataTransfer = UCIDataTransferStatusCode(rawValue: 0x02)
    /// ERROR_NO_CREDIT_AVAILABLE (0x03): the host sent data without a credit; wait for SESSION_DATA_CREDIT_NTF.
    public static let errorNoCreditAvailable = UCIDataTransferStatusCode(rawValue: 0x03)
    /// ERROR_REJECTED (0x04): the UWBS rejected the data.
    public static let errorRejected = UCIDataTransferStatusCode(rawValue: 0x04)
    /// SESSION_TYPE_NOT_SUPPORTED (0x05): the session type does not carry data.
    public static let sessionTypeNotSupported = UCIDataTransferStatusCode(rawValue: 0x05)
    /// ERROR_DATA_TRANSFER_IS_ONGOING (0x06): a data transfer is still going on.
    public static let errorDataTransferIsOngoing = UCIDataTransferStatusCode(rawValue: 0x06)
    /// INVALID_FORMAT (0x07): the data message is malformed.
    public static let invalidFormat = UCIDataTransferStatusCode(rawValue: 0x07)

    /// The specification's name (`"OK"`), or `nil` for a value without one.
    public var name: String? {
        switch rawValue {
        case 0x00: "REPETITION_OK"
        case 0x01: "OK"
        case 0x02: "ERROR_DATA_TRANSFER"
        case 0x03: "ERROR_NO_CREDIT_AVAILABLE"
        case 0x04: "ERROR_REJECTED"
        case 0x05: "SESSION_TYPE_NOT_SUPPORTED"
        case 0x06: "ERROR_DATA_TRANSFER_IS_ONGOING"
        case 0x07: "INVALID_FORMAT"
        default: nil
        }
    }

    /// What the value means, in words.
    public var explanation: String {
        switch rawValue {
        case 0x00: "one repetition of the data was sent"
        case 0x01: "the data was sent"
        case 0x02: "the data could not be sent"
        case 0x03: "the host sent data without a credit; wait for SESSION_DATA_CREDIT_NTF"
        case 0x04: "the UWBS rejected the data"
        case 0x05: "the session type does not carry data"
        case 0x06: "a data transfer is still going on"
        case 0x07: "the data message is malformed"
        default: "reserved data transfer status"
        }
    }

    /// `"OK (0x01)"`; values without a name are described by ``explanation``.
    public var description: String { codeDescription(name ?? explanation, rawValue) }
}
