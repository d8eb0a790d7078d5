extension VirtualUWBSWorld {
    /// One device of the world, as the registry keeps it: its UCI state machine, where its
    /// packets go, its pump and its place.
    struct Device {
        let id: VirtualUWBSDeviceID
        var name: String
        var uwbs: VirtualUWBS
        var output: VirtualUWBSOutput?
        var inbox: VirtualUWBSInbox?
        var pump: Task<Void, Never>?
        var generation: UInt64
        var placement: VirtualUWBSPlacement
        var peerScenario: Scenario?
        var sceneID: SceneDeviceID?
        /// The scenario accessory it was placed as, if any.
        var accessoryIndex: Int?
        var isPeer: Bool
        var spawnedBy: (device: VirtualUWBSDeviceID, sessionID: UInt32)?
        /// The device's one radio: busy with session `token`'s round until `until` (world time).
        var radio: (until: Double, token: UInt32)?
    }
}
