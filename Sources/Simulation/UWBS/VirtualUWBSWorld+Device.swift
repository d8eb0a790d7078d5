extension VirtualUWBSWorld {
    /// One device of the world, as the registry keeps it: its UCI state machine, where its
    /// packets go, its pump and its place. A class, owned by the world's actor: the scheduler
    /// reads every device at every round, and copying a struct this size (and releasing its
    /// copy) cost more than the round itself.
    final class Device {
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
        /// `false` once detached: a round holding this reference skips a device that its own
        /// reactions detached (as a lookup by identifier would).
        var isAttached = true

        init(
            id: VirtualUWBSDeviceID, name: String, uwbs: VirtualUWBS, output: VirtualUWBSOutput? = nil,
            inbox: VirtualUWBSInbox? = nil, pump: Task<Void, Never>? = nil, generation: UInt64,
            placement: VirtualUWBSPlacement, peerScenario: Scenario? = nil, isPeer: Bool,
            spawnedBy: (device: VirtualUWBSDeviceID, sessionID: UInt32)? = nil
        ) {
            self.id = id
            self.name = name
            self.uwbs = uwbs
            self.output = output
            self.inbox = inbox
            self.pump = pump
            self.generation = generation
            self.placement = placement
            self.peerScenario = peerScenario
            self.isPeer = isPeer
            self.spawnedBy = spawnedBy
        }
    }
}
