public import Logging
public import UWBDevice

/// What a command's `--device` / `--uwb` names: a UWB subsystem of the UWBDevice module
/// (`UWBDeviceSpec`: USB, serial, TCP) or `sim`, an in-process virtual UWBS of a
/// ``VirtualUWBSWorld``.
///
/// The simulator is this module's concept, so its spelling lives here: ``init(parsing:)``
/// accepts `sim` and hands everything else to `UWBDeviceSpec.init(parsing:alsoAccepting:)`,
/// whose errors then list `sim` among the valid forms.
///
/// ```swift
/// let target = try UWBDeviceTarget(parsing: "sim")             // or "usb:1915:520f", "tcp:127.0.0.1:7000"
/// let client = UCIClient(transport: target.makeTransport(world: .shared))
/// ```
public enum UWBDeviceTarget: Sendable, Hashable, CustomStringConvertible {
    /// A real (or emulated over TCP) UWB subsystem.
    case device(UWBDeviceSpec)
    /// The built-in simulator: a new virtual UWBS of a world.
    case simulator

    /// The valid forms, for help texts: `"usb:VID:PID[@BUS.ADDR], serial:PATH[@BAUD], tcp:HOST:PORT or sim"`.
    public static let forms = UWBDeviceSpec.forms(including: ["sim"])

    /// Parses `sim` or any `UWBDeviceSpec` form (surrounding spaces ignored).
    /// - Throws: `UWBDeviceError` code `invalidSpec` naming what is wrong and every
    ///   valid form, `sim` included.
    public init(parsing text: String) throws(UWBDeviceError) {
        if text.split(whereSeparator: \.isWhitespace) == ["sim"] {
            self = .simulator
        } else {
            self = .device(try UWBDeviceSpec(parsing: text, alsoAccepting: ["sim"]))
        }
    }

    /// Makes the transport (nothing is opened yet): for ``simulator`` a new in-process virtual
    /// UWBS of `world` (``VirtualUWBSWorld/shared`` for the CLI), named `sim`; otherwise
    /// UWBDevice's transport (`UWBDeviceSpec.makeTransport(configuration:logger:)`).
    /// - Parameters:
    ///   - world: the world a simulated device joins.
    ///   - virtualUWBS: the simulated device's configuration (UCI version, limits).
    ///   - configuration: the transport's timeouts (a real device's).
    ///   - logger: where the transport logs.
    public func makeTransport(
        world: VirtualUWBSWorld, virtualUWBS: VirtualUWBSConfiguration = .default,
        configuration: UCITransportConfiguration = .init(), logger: Logger = Logger(label: "nearby.uwb")
    ) -> any UCITransport {
        switch self {
        case .device(let spec): spec.makeTransport(configuration: configuration, logger: logger)
        case .simulator: world.makeTransport(configuration: virtualUWBS, name: description)
        }
    }

    /// `"sim"`, or the device's canonical spec (both parse back to the same value).
    public var description: String {
        switch self {
        case .device(let spec): spec.description
        case .simulator: "sim"
        }
    }
}
