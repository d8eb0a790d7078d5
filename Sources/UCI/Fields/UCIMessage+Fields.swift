import NearbyBase

// The fields of every message, for readable dumps (`description`, `nearby uci decode`) and JSON.

/// The code types with a name and an explanation.
protocol UCICodeValue {
    var rawValue: UInt8 { get }
    var name: String? { get }
    var explanation: String { get }
}

extension UCIStatus: UCICodeValue {}
extension UCIReasonCode: UCICodeValue {}
extension UCIDeviceState: UCICodeValue {}
extension UCISessionState: UCICodeValue {}
extension UCISessionType: UCICodeValue {}
extension UCIMulticastAction: UCICodeValue {}
extension UCIMulticastUpdateStatus: UCICodeValue {}
extension UCIDataTransferStatusCode: UCICodeValue {}
extension UCIDataReceiveStatus: UCICodeValue {}
extension UCIRangingMeasurementType: UCICodeValue {}
extension UCICreditAvailability: UCICodeValue {}
extension UCIDeviceType: UCICodeValue {}
extension UCIRangingRoundUsage: UCICodeValue {}
extension UCISTSConfig: UCICodeValue {}
extension UCIMultiNodeMode: UCICodeValue {}
extension UCIMACFCSType: UCICodeValue {}
extension UCIAoAResultRequest: UCICodeValue {}
extension UCISessionInfoNotificationConfig: UCICodeValue {}
extension UCIDeviceRole: UCICodeValue {}
extension UCIRFrameConfig: UCICodeValue {}
extension UCIPreambleDuration: UCICodeValue {}
extension UCIScheduleMode: UCICodeValue {}
extension UCIMACAddressMode: UCICodeValue {}
extension UCISTSLength: UCICodeValue {}

extension UCIFieldValue {
    static func code(_ value: some UCICodeValue) -> UCIFieldValue {
        .code(value.name ?? value.explanation, raw: UInt64(value.rawValue))
    }

    static func session(_ token: UInt32) -> UCIFieldValue { .hex(UInt64(token), digits: 8) }

    static func address(_ address: UCIMACAddress) -> UCIFieldValue { .hex(address.value, digits: 2 * address.length) }

    static func angle(_ angle: UCIAngle) -> UCIFieldValue { .quantity(angle.degrees, .degrees, decimals: 7) }
}

extension UCIAppConfig {
    /// The parameter's field: its name in snake case and its typed value.
    var field: UCIField {
        let name = id.name?.lowercased() ?? "parameter_\(Hex.prefixed(id.rawValue).lowercased())"
        let value: UCIFieldValue =
            switch self {
            case .deviceType(let v): .code(v)
            case .rangingRoundUsage(let v): .code(v)
            case .stsConfig(let v): .code(v)
            case .multiNodeMode(let v): .code(v)
            case .channelNumber(let v), .numberOfControlees(let v), .rssiReporting(let v), .preambleCodeIndex(let v),
                .sfdID(let v), .slotsPerRangingRound(let v), .sessionPriority(let v), .hoppingMode(let v):
                .int(v)
            case .deviceMACAddress(let a): .address(a)
            case .destinationMACAddresses(let list): .list(list.map(UCIFieldValue.address))
            case .slotDuration(let v): .quantity(Double(v), .rstu, decimals: 0)
            case .rangingDuration(let v): .quantity(Double(v), .milliseconds, decimals: 0)
            case .macFCSType(let v): .code(v)
            case .rangingRoundControl(let v): .text(v.description)
            case .aoaResultRequest(let v): .code(v)
            case .sessionInfoNotificationConfig(let v): .code(v)
            case .nearProximity(let v), .farProximity(let v): .quantity(Double(v), .centimeters, decimals: 0)
            case .deviceRole(let v): .code(v)
            case .rframeConfig(let v): .code(v)
            case .preambleDuration(let v): .code(v)
            case .aoaBounds(let b):
                .group([
                    UCIField("minimum_azimuth", .angle(b.minimumAzimuth)), UCIField("maximum_azimuth", .angle(b.maximumAzimuth)),
                    UCIField("minimum_elevation", .angle(b.minimumElevation)), UCIField("maximum_elevation", .angle(b.maximumElevation)),
                ])
            case .scheduleMode(let v): .code(v)
            case .macAddressMode(let v): .code(v)
            case .vendorID(let v): .hex(UInt64(v), digits: 4)
            case .staticSTSIV(let v): .bytes(v)
            case .maxRangingRoundRetries(let v), .maxNumberOfMeasurements(let v): .int(v)
            case .uwbInitiationTime(.relative(let ms)): .quantity(Double(ms), .milliseconds, decimals: 0)
            case .uwbInitiationTime(.absolute(let us)): .quantity(Double(us), .microseconds, decimals: 0)
            case .resultReportConfig(let v): .text(v.description)
            case .stsLength(let v): .code(v)
            case .other(_, let value): .bytes(value)
            }
        return UCIField(name, value)
    }
}

extension UCIDeviceConfig {
    var field: UCIField {
        let name = id.name?.lowercased() ?? "parameter_\(Hex.prefixed(id.rawValue).lowercased())"
        switch self {
        case .deviceState(let state): return UCIField(name, .code(state))
        case .lowPowerMode(let on): return UCIField(name, .flag(on))
        case .other(_, let value): return UCIField(name, .bytes(value))
        }
    }
}

extension UCITwoWayMeasurement {
    var fields: [UCIField] {
        var fields = [
            UCIField("mac_address", .address(macAddress)),
            UCIField("status", .code(status)),
        ]
        guard isValid else { return fields }
        fields += [
            UCIField("distance", .quantity(distanceInMeters, .meters, decimals: 2)),
            UCIField("line_of_sight", .text(nlos == 0 ? "LoS" : nlos == 0xFF ? "unknown" : "NLoS (\(nlos))")),
            UCIField("azimuth", .angle(azimuth)),
            UCIField("azimuth_fom", .int(azimuthFigureOfMerit)),
            UCIField("elevation", .angle(elevation)),
            UCIField("elevation_fom", .int(elevationFigureOfMerit)),
            UCIField("destination_azimuth", .angle(destinationAzimuth)),
            UCIField("destination_azimuth_fom", .int(destinationAzimuthFigureOfMerit)),
            UCIField("destination_elevation", .angle(destinationElevation)),
            UCIField("destination_elevation_fom", .int(destinationElevationFigureOfMerit)),
            UCIField("slot_index", .int(slotIndex)),
        ]
        if let dBm = rssiInDBm {
            fields.append(UCIField("rssi", .quantity(dBm, .dBm, decimals: 1)))
        } else {
            fields.append(UCIField("rssi", .text("not reported")))
        }
        return fields
    }
}

extension UCIOWRAoAMeasurement {
    var fields: [UCIField] {
        var fields = [UCIField("mac_address", .address(macAddress)), UCIField("status", .code(status))]
        guard isValid else { return fields }
        fields += [
            UCIField("line_of_sight", .text(nlos == 0 ? "LoS" : nlos == 0xFF ? "unknown" : "NLoS (\(nlos))")),
            UCIField("frame_sequence_number", .int(frameSequenceNumber)),
            UCIField("block_index", .int(blockIndex)),
            UCIField("azimuth", .angle(azimuth)),
            UCIField("azimuth_fom", .int(azimuthFigureOfMerit)),
            UCIField("elevation", .angle(elevation)),
            UCIField("elevation_fom", .int(elevationFigureOfMerit)),
        ]
        return fields
    }
}

extension UCIDLTDoAMeasurement {
    var fields: [UCIField] {
        var fields = [
            UCIField("mac_address", .address(macAddress)), UCIField("status", .code(status)),
            UCIField("message_type", .int(messageType)),
        ]
        guard isValid else { return fields }
        fields += [
            UCIField("block_index", .int(blockIndex)),
            UCIField("round_index", .int(roundIndex)),
            UCIField("line_of_sight", .text(nlos == 0 ? "LoS" : nlos == 0xFF ? "unknown" : "NLoS (\(nlos))")),
            UCIField("azimuth", .angle(azimuth)),
            UCIField("azimuth_fom", .int(azimuthFigureOfMerit)),
            UCIField("elevation", .angle(elevation)),
            UCIField("elevation_fom", .int(elevationFigureOfMerit)),
            rssiInDBm.map { UCIField("rssi", .quantity($0, .dBm, decimals: 1)) } ?? UCIField("rssi", .text("not reported")),
            UCIField("tx_timestamp", .hex(txTimestamp, digits: txTimestampIs64Bit ? 16 : 10)),
            UCIField("tx_timestamp_type", .int(txTimestampType)),
            UCIField("rx_timestamp", .hex(rxTimestamp, digits: rxTimestampIs64Bit ? 16 : 10)),
            UCIField("anchor_cfo", .int(anchorCFO)),
            UCIField("cfo", .int(cfo)),
            UCIField("initiator_reply_time", .int(initiatorReplyTime)),
            UCIField("responder_reply_time", .int(responderReplyTime)),
            UCIField("initiator_responder_tof", .int(initiatorResponderTimeOfFlight)),
        ]
        if let wgs84Location { fields.append(UCIField("wgs84_location", .bytes(wgs84Location))) }
        if let location = relativeLocation {
            fields.append(UCIField("relative_location", .text("x \(location.x), y \(location.y), z \(location.z)")))
        }
        if !activeRangingRounds.isEmpty { fields.append(UCIField("active_ranging_rounds", .bytes(activeRangingRounds))) }
        return fields
    }
}

extension UCISessionInfo {
    var fields: [UCIField] {
        var fields = [
            UCIField("sequence_number", .int(sequenceNumber)),
            UCIField("session", .session(session)),
            UCIField("rcr_indicator", .int(rcrIndicator)),
            UCIField("current_ranging_interval", .quantity(Double(currentRangingInterval), .milliseconds, decimals: 0)),
            UCIField("measurement_type", .code(measurementType)),
            UCIField("mac_addresses", .text(usesExtendedAddresses ? "extended" : "short")),
        ]
        if hybridPrimarySession != 0 { fields.append(UCIField("hybrid_primary_session", .session(hybridPrimarySession))) }
        switch measurements {
        case .twoWay(let list):
            fields.append(UCIField("measurements", .list(list.map { .group($0.fields) })))
            if !vendorData.isEmpty { fields.append(UCIField("vendor_data", .bytes(vendorData))) }
        case .owrAoA(let list):
            fields.append(UCIField("measurements", .list(list.map { .group($0.fields) })))
            if !vendorData.isEmpty { fields.append(UCIField("vendor_data", .bytes(vendorData))) }
        case .dlTDoA(let list):
            fields.append(UCIField("measurements", .list(list.map { .group($0.fields) })))
        case .raw(let count, let bytes):
            fields.append(UCIField("measurement_count", .int(count)))
            fields.append(UCIField("measurement_data", .bytes(bytes)))
        }
        return fields
    }
}

extension UCICommand: CustomStringConvertible {
    /// The command's fields (not its name), for dumps and JSON.
    public var fields: [UCIField] {
        switch self {
        case .deviceReset(let config): [UCIField("reset_config", .int(config))]
        case .getDeviceInfo, .getCapabilities, .queryUWBSTimestamp, .getSessionCount: []
        case .setDeviceConfig(let configs): [UCIField("parameters", .group(configs.map(\.field)))]
        case .getDeviceConfig(let ids):
            [UCIField("parameters", .list(ids.map { .code($0.name ?? "unknown", raw: UInt64($0.rawValue)) }))]
        case .sessionInit(let id, let type): [UCIField("session_id", .session(id)), UCIField("session_type", .code(type))]
        case .sessionDeinit(let s), .getSessionState(let s), .sessionStart(let s), .sessionStop(let s), .getRangingCount(let s):
            [UCIField("session", .session(s))]
        case .setAppConfig(let s, let configs):
            [UCIField("session", .session(s)), UCIField("parameters", .group(configs.map(\.field)))]
        case .getAppConfig(let s, let ids):
            [
                UCIField("session", .session(s)),
                UCIField("parameters", .list(ids.map { .code($0.name ?? ($0.isVendorSpecific ? "vendor-specific" : "reserved"), raw: UInt64($0.rawValue)) })),
            ]
        case .updateMulticastList(let s, let action, let controlees):
            [
                UCIField("session", .session(s)), UCIField("action", .code(action)),
                UCIField(
                    "controlees",
                    .list(controlees.map { c in
                        .group(
                            [UCIField("short_address", .hex(UInt64(c.shortAddress), digits: 4)), UCIField("sub_session_id", .session(c.subSessionID))]
                                + (c.subSessionKey.isEmpty ? [] : [UCIField("sub_session_key", .bytes(c.subSessionKey))]))
                    })),
            ]
        case .setCountryCode(let code): [UCIField("country_code", .text(code))]
        case .vendor(let opcode, let payload), .unknown(let opcode, let payload):
            [UCIField("gid", .hex(UInt64(opcode.gid.rawValue), digits: 1)), UCIField("oid", .hex(UInt64(opcode.oid), digits: 2)), UCIField("payload", .bytes(payload))]
        }
    }

    /// `"SESSION_INIT_CMD {session id: 0x01020304, session type: FIRA_RANGING_SESSION (0x00)}"`.
    public var description: String { summary(name, fields) }
}

extension UCIResponse: CustomStringConvertible {
    /// The response's fields (not its name), for dumps and JSON.
    public var fields: [UCIField] {
        switch self {
        case .deviceReset(let s), .sessionDeinit(let s), .sessionStart(let s), .sessionStop(let s), .setCountryCode(let s),
            .statusOnly(_, let s):
            return [UCIField("status", .code(s))]
        case .getDeviceInfo(let s, let info):
            return [UCIField("status", .code(s))] + info.fields
        case .getCapabilities(let s, let capabilities):
            return [
                UCIField("status", .code(s)),
                UCIField(
                    "capabilities",
                    .list(capabilities.map { c in
                        .group([
                            UCIField("type", .hex(UInt64(c.id), digits: 2)),
                            UCIField("uci_1_1", .text(c.kind(for: .v1_1).description)),
                            UCIField("uci_2_0", .text(c.kind(for: .v2_0).description)),
                            UCIField("value", .bytes(c.value)),
                        ])
                    })),
            ]
        case .setDeviceConfig(let s, let results):
            return [
                UCIField("status", .code(s)),
                UCIField("rejected", .group(results.map { UCIField($0.id.name?.lowercased() ?? "parameter_\(Hex.prefixed($0.id.rawValue).lowercased())", .code($0.status)) })),
            ]
        case .getDeviceConfig(let s, let configs):
            return [UCIField("status", .code(s)), UCIField("parameters", .group(configs.map(\.field)))]
        case .queryUWBSTimestamp(let s, let time):
            return [UCIField("status", .code(s)), UCIField("timestamp", .quantity(Double(time), .microseconds, decimals: 0))]
        case .sessionInit(let s, let handle):
            var fields = [UCIField("status", .code(s))]
            if let handle { fields.append(UCIField("session_handle", .session(handle))) }
            return fields
        case .setAppConfig(let s, let results):
            return [
                UCIField("status", .code(s)),
                UCIField("rejected", .group(results.map { UCIField($0.id.name?.lowercased() ?? "parameter_\(Hex.prefixed($0.id.rawValue).lowercased())", .code($0.status)) })),
            ]
        case .getAppConfig(let s, let configs):
            return [UCIField("status", .code(s)), UCIField("parameters", .group(configs.map(\.field)))]
        case .getSessionCount(let s, let count):
            return [UCIField("status", .code(s)), UCIField("session_count", .int(count))]
        case .getSessionState(let s, let state):
            return [UCIField("status", .code(s)), UCIField("session_state", .code(state))]
        case .updateMulticastList(let s, let controlees):
            var fields = [UCIField("status", .code(s))]
            if let controlees { fields.append(UCIField("controlees", .list(controlees.map { .group($0.fields) }))) }
            return fields
        case .getRangingCount(let s, let count):
            return [UCIField("status", .code(s)), UCIField("ranging_count", .int(count))]
        case .vendor(let opcode, let payload), .unknown(let opcode, let payload):
            return [UCIField("gid", .hex(UInt64(opcode.gid.rawValue), digits: 1)), UCIField("oid", .hex(UInt64(opcode.oid), digits: 2)), UCIField("payload", .bytes(payload))]
        }
    }

    /// `"SESSION_INIT_RSP {status: OK (0x00), session handle: 0x00000001}"`.
    public var description: String { summary(name, fields) }
}

extension UCIControleeStatus {
    var fields: [UCIField] {
        [UCIField("short_address", .hex(UInt64(shortAddress), digits: 4))]
            + (subSessionID.map { [UCIField("sub_session_id", .session($0))] } ?? [])
            + [UCIField("status", .code(status))]
    }
}

extension UCINotification: CustomStringConvertible {
    /// The notification's fields (not its name), for dumps and JSON.
    public var fields: [UCIField] {
        switch self {
        case .deviceStatus(let state): return [UCIField("device_state", .code(state))]
        case .genericError(let status): return [UCIField("status", .code(status))]
        case .sessionStatus(let s, let state, let reason):
            return [UCIField("session", .session(s)), UCIField("session_state", .code(state)), UCIField("reason", .code(reason))]
        case .multicastListUpdate(let update):
            var fields = [UCIField("session", .session(update.session))]
            if let remaining = update.remainingListSize { fields.append(UCIField("remaining_list_size", .int(remaining))) }
            fields.append(UCIField("controlees", .list(update.controlees.map { .group($0.fields) })))
            return fields
        case .sessionInfo(let info): return info.fields
        case .dataCredit(let s, let availability):
            return [UCIField("session", .session(s)), UCIField("credit", .code(availability))]
        case .dataTransferStatus(let status):
            return [
                UCIField("session", .session(status.session)), UCIField("sequence_number", .int(status.sequenceNumber)),
                UCIField("status", .code(status.status)), UCIField("transmit_count", .int(status.transmitCount)),
            ]
        case .vendor(let opcode, let payload), .unknown(let opcode, let payload):
            return [UCIField("gid", .hex(UInt64(opcode.gid.rawValue), digits: 1)), UCIField("oid", .hex(UInt64(opcode.oid), digits: 2)), UCIField("payload", .bytes(payload))]
        }
    }

    /// `"SESSION_STATUS_NTF {session: 0x00000001, session state: SESSION_STATE_IDLE (0x03), ...}"`.
    public var description: String { summary(name, fields) }
}

extension UCIDataMessage: CustomStringConvertible {
    /// The data message's fields (not its name), for dumps and JSON.
    public var fields: [UCIField] {
        switch self {
        case .send(let m):
            [
                UCIField("session", .session(m.session)), UCIField("destination", .hex(m.destination, digits: 16)),
                UCIField("sequence_number", .int(m.sequenceNumber)), UCIField("data", .bytes(m.data)),
            ]
        case .receive(let m):
            [
                UCIField("session", .session(m.session)), UCIField("status", .code(m.status)),
                UCIField("source", .hex(m.source, digits: 16)), UCIField("sequence_number", .int(m.sequenceNumber)),
                UCIField("data", .bytes(m.data)),
            ]
        case .other(let format, let payload):
            [UCIField("data_packet_format", .hex(UInt64(format.rawValue), digits: 1)), UCIField("payload", .bytes(payload))]
        }
    }

    /// `"DATA_MESSAGE_RCV {session: ..., data: 01 02}"`.
    public var description: String { summary(name, fields) }
}

extension UCIMessage: CustomStringConvertible {
    /// The message's fields (not its name), for dumps and JSON.
    public var fields: [UCIField] {
        switch self {
        case .command(let m): m.fields
        case .response(let m): m.fields
        case .notification(let m): m.fields
        case .data(let m): m.fields
        case .reserved(let raw):
            [
                UCIField("message_type", .int(raw.messageType.rawValue)), UCIField("gid", .hex(UInt64(raw.groupOrFormat), digits: 1)),
                UCIField("oid", .hex(UInt64(raw.opcodeID), digits: 2)), UCIField("payload", .bytes(raw.payload)),
            ]
        }
    }

    /// A one-line summary: the name and every field.
    public var description: String { summary(name, fields) }
}

/// `"NAME {field: value, ...}"`, or just the name when there are no fields.
private func summary(_ name: String, _ fields: [UCIField]) -> String {
    fields.isEmpty ? name : "\(name) \(UCIFieldValue.group(fields).text)"
}
