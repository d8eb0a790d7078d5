public import LowEnergy

/// An accessory kind an app offers in the picker, like AccessorySetupKit's `ASPickerDisplayItem`:
/// the name shown to the user, the descriptor that finds it, and an optional image.
public struct DisplayItem: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The name shown in the picker and stored as the accessory's display name ("Kitchen tag").
    /// Empty: each accessory's advertised name (else its address) is used instead.
    public var name: String
    /// Which advertisements belong to this kind of accessory.
    public var descriptor: DiscoveryDescriptor
    /// A picture of the accessory (a file path; shown by graphical front ends, kept in the store).
    public var imagePath: String?

    /// Creates a display item.
    public init(name: String, descriptor: DiscoveryDescriptor, imagePath: String? = nil) {
        self.name = name
        self.descriptor = descriptor
        self.imagePath = imagePath
    }

    /// The first of `items` whose descriptor matches `advertisement` (items are tried in order,
    /// so put the most specific first), or `nil`.
    public static func firstMatch(in items: [DisplayItem], for advertisement: Advertisement) -> DisplayItem? {
        items.first { $0.descriptor.matches(advertisement) }
    }

    /// `"Kitchen tag (service 6E400001-…)"`.
    public var description: String { "\(name) (\(descriptor))" }

    enum CodingKeys: String, CodingKey {
        case name, descriptor
        case imagePath = "image_path"
    }
}
