import MPDProtocol

/// One command the backend runs: its row as the server checks it (name, arguments, permission)
/// and the handler that then does it. The handler sees only what the row lets through, so it
/// reads its arguments without counting them again.
struct MPDCommandEntry: Sendable {
    typealias Handler = @Sendable (isolated MPDPlayerBackend, MPDArguments) async throws(MPDAck) -> MPDResponse

    let spec: MPDCommandSpec
    let handler: Handler

    init(_ name: String, _ arguments: ClosedRange<Int>, _ permission: MPDPermission, _ handler: @escaping Handler) {
        spec = MPDCommandSpec(name, arguments, permission)
        self.handler = handler
    }

    init(_ name: String, _ arguments: PartialRangeFrom<Int>, _ permission: MPDPermission, _ handler: @escaping Handler) {
        spec = MPDCommandSpec(name, arguments, permission)
        self.handler = handler
    }
}

/// Every command of the backend as data, one entry per command, gathered from the groups
/// (playback, queue, information) and checked once when built: a name in two entries would make
/// one of them unreachable, so it stops the program at its first use rather than hide a command.
struct MPDCommandTable: Sendable {
    /// The entries in the order of their groups, as written.
    let entries: [MPDCommandEntry]
    private let byName: [String: MPDCommandEntry]

    init(_ groups: [[MPDCommandEntry]]) {
        entries = groups.flatMap(\.self)
        byName = Dictionary(entries.map { ($0.spec.name, $0) }) { first, _ in
            preconditionFailure("the MPD command \"\(first.spec.name)\" is in the table twice")
        }
    }

    /// What the server checks before a command reaches the backend, and lists in `commands`.
    var specs: [MPDCommandSpec] { entries.map(\.spec) }

    func entry(named name: String) -> MPDCommandEntry? { byName[name] }
}
