public import Logging
public import UWBDevice

extension UWBDeviceSpec {
    /// Makes the transport for this spec, `--device sim` included: ``UWBDevice/UWBDeviceSpec/simulator``
    /// is a new in-process virtual UWBS of `world` (``VirtualUWBSWorld/shared`` for the CLI);
    /// every other spec gets UWBDevice's transport
    /// (``UWBDevice/UWBDeviceSpec/makeTransport(configuration:logger:)``).
    /// - Parameters:
    ///   - world: the world a simulated device joins.
    ///   - virtualUWBS: the simulated device's configuration (UCI version, limits).
    /// - Throws: ``UWBDevice/UWBDeviceError`` as UWBDevice's factory does; never for `sim`.
    public func makeTransport(
        world: VirtualUWBSWorld, virtualUWBS: VirtualUWBSConfiguration = .default,
        configuration: UCITransportConfiguration = .init(), logger: Logger = Logger(label: "nearby.uwb")
    ) throws(UWBDeviceError) -> any UCITransport {
        guard self == .simulator else { return try makeTransport(configuration: configuration, logger: logger) }
        return world.makeTransport(configuration: virtualUWBS, name: description)
    }
}
