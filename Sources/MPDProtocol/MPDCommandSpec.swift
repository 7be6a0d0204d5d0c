/// One row of a command table as the server checks it before the command runs: the name clients
/// send, how many arguments it takes and the permission it needs. What the command then does is
/// its handler's, kept beside this by whoever runs it (the connection itself, or the backend).
public struct MPDCommandSpec: Sendable, Hashable {
    public let name: String
    public let arity: MPDArity
    public let permission: MPDPermission

    public init(_ name: String, _ arguments: ClosedRange<Int>, _ permission: MPDPermission) {
        self.name = name
        self.arity = MPDArity(arguments)
        self.permission = permission
    }

    public init(_ name: String, _ arguments: PartialRangeFrom<Int>, _ permission: MPDPermission) {
        self.name = name
        self.arity = MPDArity(arguments)
        self.permission = permission
    }

    /// The names in the order MPD keeps its table and lists `commands`: by bytes, as `strcmp`.
    public static func sortedNames(_ specs: some Sequence<MPDCommandSpec>) -> [String] {
        specs.map(\.name).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }
}
