import Testing
import UCI

@Suite("UCI descriptions, fields and JSON")
struct DescriptionTests {
    @Test("messages describe themselves on one line, naming vendor GID/OIDs")
    func oneLine() throws {
        #expect(
            UCINotification.sessionStatus(session: 1, state: .idle, reason: .stateChangeWithSessionManagementCommands).description
                == "SESSION_STATUS_NTF {session: 0x00000001, session state: SESSION_STATE_IDLE (0x03), "
                + "reason: STATE_CHANGE_WITH_SESSION_MANAGEMENT_COMMANDS (0x00)}")
        #expect(UCICommand.getDeviceInfo.description == "CORE_GET_DEVICE_INFO_CMD")
        #expect(
            UCINotification.vendor(UCIOpcode(gid: UCIGroupID(rawValue: 0xE), oid: 1), payload: [1, 2]).description
                == "VENDOR_NTF {gid: 0xE, oid: 0x01, payload: 01 02}")
        #expect(
            UCIResponse.setAppConfig(.invalidParameter, [UCIAppConfigStatus(id: .rangingDuration, status: .invalidRange)]).description
                == "SESSION_SET_APP_CONFIG_RSP {status: INVALID_PARAM (0x04), rejected: {ranging duration: INVALID_RANGE (0x05)}}")
        #expect(UCIAppConfig.slotDuration(rstu: 2400).description == "SLOT_DURATION (0x08) = 2400 RSTU (2 ms)")
        #expect(UCIAppConfig.other(id: UCIAppConfigID(rawValue: 0xE3), value: [1]).description == "vendor-specific (0xE3) = 01")
        #expect(UCIMACAddress.extended(0x0807_0605_0403_0201).description == "0x0807060504030201")
        #expect(UCIRangingRoundControl(rawValue: 0x83).description == "0x83 (RRRM, CM, MRM)")
        #expect(UCIRawMessage(messageType: .notification, opcode: .sessionStatus, payload: [1, 0]).description == "SESSION_STATUS_NTF (NTF 1/02, 2 bytes): 01 00")
    }

    @Test("fields render as indented text and as JSON with units in the keys")
    func fieldsRender() throws {
        let message = try UCIMessage(packet: WireVectorTests.sessionInfoPacket)
        let text = UCIField.text(message.fields)
        #expect(text.contains("current ranging interval: 200 ms\n"))
        #expect(text.contains("measurements: 1 item\n  [1]\n    mac address: 0x0201\n    status: OK (0x00)\n    distance: 1.5 m\n"))
        #expect(text.contains("    azimuth: -30°\n"))
        #expect(text.contains("    rssi: -72 dBm"))
        let json = UCIField.json(message.fields)
        #expect(json.hasPrefix(#"{"sequence_number":7,"session":16909060,"rcr_indicator":0,"current_ranging_interval_ms":200,"#))
        #expect(json.contains(#""distance_m":1.5,"line_of_sight":"LoS","azimuth_deg":-30.0,"azimuth_fom":100,"elevation_deg":10.5"#))
        #expect(json.hasSuffix(#""slot_index":1,"rssi_dbm":-72.0}]}"#))
        let failed = UCIField.json(UCITwoWayMeasurementFields.failed)
        #expect(failed == #"{"mac_address":2,"status":"RANGING_RX_TIMEOUT"}"#)
    }

    @Test("JSON strings are escaped")
    func jsonEscapes() {
        let fields = [UCIField("country_code", .text("a\"b\\c\n\u{01}"))]
        #expect(UCIField.json(fields) == #"{"country_code":"a\"b\\c\n\u0001"}"#)
    }
}

/// Fields of a failed measurement, through a notification (the measurement's own fields are
/// internal).
enum UCITwoWayMeasurementFields {
    static var failed: [UCIField] {
        let info = UCISessionInfo(
            sequenceNumber: 1, session: 1, currentRangingInterval: 1,
            measurements: .twoWay([UCITwoWayMeasurement(macAddress: .short(2), status: .rangingRXTimeout, distance: 0)]))
        guard case .list(let items) = UCINotification.sessionInfo(info).fields.first(where: { $0.name == "measurements" })?.value,
            case .group(let fields) = items.first
        else { return [] }
        return fields
    }
}
