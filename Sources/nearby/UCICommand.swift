import ArgumentParser

/// `nearby uci`: tools for the FiRa UCI protocol spoken by UWB dev kits.
///
/// (The type is not called `UCICommand`: that name belongs to the UCI module's command message.)
struct UCIGroupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "uci",
        abstract: "FiRa UCI protocol tools.",
        subcommands: [UCIDecodeCommand.self]
    )
}
