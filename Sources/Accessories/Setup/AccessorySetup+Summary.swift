import LowEnergy

extension AccessorySetup.Result {
    /// What the setup did, as a sentence: `set up Kitchen tag (F0:F1:F2:F3:F4:F5 random), data
    /// channel Nordic UART`, with `showingBond` also how it is paired: `, paired (LE Secure
    /// Connections, authenticated, 16-byte key)`, and `but not bonded: ...` for an accessory that
    /// keeps no keys.
    public func summary(showingBond: Bool) -> String {
        let verb: String
        switch outcome {
        case .added: verb = "set up"
        case .updated: verb = "set up again (id kept)"
        case .alreadyStored: verb = "already stored"
        }
        var paired = ""
        var made: Bond?
        if case .keys(let bond)? = pairing { made = bond }
        if case .keptByBlueZ(let summary)? = pairing, showingBond {
            paired = ", paired (\(summary))"
        } else if let bond = made ?? record.bond, showingBond {
            paired = ", paired (\(bond.secureConnections ? "LE Secure Connections" : "legacy pairing"), "
                + "\(bond.authenticated ? "authenticated" : "Just Works"), \(bond.keySize)-byte key)"
            if !bond.persistent {
                paired += " but not bonded: the accessory keeps no keys, so it pairs again when a link needs encryption"
            }
        }
        return "\(verb) \(record), data channel \(dataChannel)\(paired)"
    }
}

extension AccessoryRecord {
    /// The display item that finds this accessory again: its stored descriptor, else its data
    /// channel's service (Nordic UART when unknown), under its display name.
    public var displayItem: DisplayItem {
        get throws(DiscoveryDescriptorError) {
            if let descriptor { return DisplayItem(name: displayName, descriptor: descriptor) }
            let service = dataChannel?.service ?? DataChannelService.nordicUART.service
            return DisplayItem(name: displayName, descriptor: try DiscoveryDescriptor(serviceUUID: service))
        }
    }
}

extension DisplayItem {
    /// One item per known data-channel service (`DataChannelService.known` in LowEnergy: Nordic
    /// UART, Qorvo NI) under `name`: what a setup offers when no descriptor is given.
    public static func knownDataChannels(name: String) throws(DiscoveryDescriptorError) -> [DisplayItem] {
        var items: [DisplayItem] = []
        for service in DataChannelService.known {
            items.append(DisplayItem(name: name, descriptor: try DiscoveryDescriptor(serviceUUID: service.service)))
        }
        return items
    }
}
