/// What CORE_GET_DEVICE_INFO_RSP reports about the UWBS.
public struct UCIDeviceInfo: Sendable, Hashable {
    /// The UCI specification version; decides 1.1 vs 2.0 behaviour.
    public var uciVersion: UCIVersion
    /// The FiRa MAC specification version.
    public var macVersion: UCIVersion
    /// The FiRa PHY specification version.
    public var phyVersion: UCIVersion
    /// The UCI test specification version.
    public var testVersion: UCIVersion
    /// Vendor-specific information (firmware version and the like), raw.
    public var vendorInfo: [UInt8]

    /// Creates device information.
    public init(uciVersion: UCIVersion, macVersion: UCIVersion, phyVersion: UCIVersion, testVersion: UCIVersion, vendorInfo: [UInt8] = []) {
        self.uciVersion = uciVersion
        self.macVersion = macVersion
        self.phyVersion = phyVersion
        self.testVersion = testVersion
        self.vendorInfo = vendorInfo
    }
}

/// The result for one parameter of SESSION_SET_APP_CONFIG_RSP.
public struct UCIAppConfigStatus: Sendable, Hashable {
    /// The parameter.
    public var id: UCIAppConfigID
    /// Why the UWBS refused it.
    public var status: UCIStatus

    /// Creates a parameter result.
    public init(id: UCIAppConfigID, status: UCIStatus) {
        self.id = id
        self.status = status
    }
}

/// The result for one parameter of CORE_SET_CONFIG_RSP.
public struct UCIDeviceConfigStatus: Sendable, Hashable {
    /// The parameter.
    public var id: UCIDeviceConfigID
    /// Why the UWBS refused it.
    public var status: UCIStatus

    /// Creates a parameter result.
    public init(id: UCIDeviceConfigID, status: UCIStatus) {
        self.id = id
        self.status = status
    }
}

/// A controlee in SESSION_UPDATE_CONTROLLER_MULTICAST_LIST_CMD.
public struct UCIControlee: Sendable, Hashable {
    /// The controlee's short MAC address.
    public var shortAddress: UInt16
    /// The sub-session ID.
    public var subSessionID: UInt32
    /// The sub-session key: empty, or 16 / 32 bytes with the keyed add actions (UCI 2.0).
    public var subSessionKey: [UInt8]

    /// Creates a controlee entry.
    public init(shortAddress: UInt16, subSessionID: UInt32 = 0, subSessionKey: [UInt8] = []) {
        self.shortAddress = shortAddress
        self.subSessionID = subSessionID
        self.subSessionKey = subSessionKey
    }
}

/// The per-controlee result of a multicast-list update.
public struct UCIControleeStatus: Sendable, Hashable {
    /// The controlee's short MAC address.
    public var shortAddress: UInt16
    /// The sub-session ID: present in the UCI 1.1 notification only.
    public var subSessionID: UInt32?
    /// The result.
    public var status: UCIMulticastUpdateStatus

    /// Creates a controlee result.
    public init(shortAddress: UInt16, subSessionID: UInt32? = nil, status: UCIMulticastUpdateStatus) {
        self.shortAddress = shortAddress
        self.subSessionID = subSessionID
        self.status = status
    }
}

/// SESSION_UPDATE_CONTROLLER_MULTICAST_LIST_NTF: the outcome of a multicast-list update.
///
/// UCI 1.1 layout: `session u32, remaining_list_size u8, n, {address u16, sub_session u32,
/// status}`; UCI 2.0: `session u32, n, {address u16, status}`. The form is kept:
/// ``remainingListSize`` is non-`nil` exactly for the 1.1 form, whose entries all have a
/// ``UCIControleeStatus/subSessionID``.
public struct UCIMulticastListUpdate: Sendable, Hashable {
    /// The session ID (UCI 1.1) or handle (2.0).
    public var session: UInt32
    /// UCI 1.1 only: how many more controlees the list can hold.
    public var remainingListSize: UInt8?
    /// The per-controlee results.
    public var controlees: [UCIControleeStatus]

    /// Creates a multicast-list notification; give `remainingListSize` for the UCI 1.1 form.
    public init(session: UInt32, remainingListSize: UInt8? = nil, controlees: [UCIControleeStatus]) {
        self.session = session
        self.remainingListSize = remainingListSize
        self.controlees = controlees
    }
}

/// SESSION_DATA_TRANSFER_STATUS_NTF (UCI 2.0): what happened to a data message the host sent.
///
/// AOSP sends a 2-byte sequence number (8-byte payload); pica sends one byte (7-byte payload).
/// Both decode; ``hasOneByteSequenceNumber`` keeps the form so it round-trips.
public struct UCIDataTransferStatus: Sendable, Hashable {
    /// The session ID or handle.
    public var session: UInt32
    /// The UCI sequence number of the DATA_MESSAGE_SND this reports on.
    public var sequenceNumber: UInt16
    /// The outcome.
    public var status: UCIDataTransferStatusCode
    /// How many times the data was transmitted.
    public var transmitCount: UInt8
    /// `true` for pica's form with a one-byte sequence number.
    public var hasOneByteSequenceNumber: Bool

    /// Creates a data-transfer status.
    public init(session: UInt32, sequenceNumber: UInt16, status: UCIDataTransferStatusCode, transmitCount: UInt8 = 1, hasOneByteSequenceNumber: Bool = false) {
        self.session = session
        self.sequenceNumber = sequenceNumber
        self.status = status
        self.transmitCount = transmitCount
        self.hasOneByteSequenceNumber = hasOneByteSequenceNumber
    }
}
