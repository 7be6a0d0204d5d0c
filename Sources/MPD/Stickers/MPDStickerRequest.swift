import Library
import MPDProtocol

/// One `sticker` command read from its arguments, checked as mpd 0.23 checks them: the domain
/// first (only `song`), then the subcommand with its exact count, then `find`'s operator.
/// Pure, so every refusal is decided without a database.
enum MPDStickerRequest: Sendable, Equatable {
    case get(uri: String, name: String)
    case set(uri: String, name: String, value: String)
    /// `name` nil deletes every sticker of the song.
    case delete(uri: String, name: String?)
    case list(uri: String)
    /// `directory` is a folder URI ("" for every song).
    case find(directory: String, name: String, comparison: StickerComparison)

    /// `arguments` are the command's, after `sticker`: `SUBCOMMAND TYPE URI ...` (at least three,
    /// which the command table checks before this runs).
    init(_ arguments: [String]) throws(MPDAck) {
        guard arguments.count >= 3 else { throw MPDAck(.argument, "too few arguments for \"sticker\"") }
        guard arguments[1] == StickerType.song.rawValue else { throw MPDAck(.argument, "unknown sticker domain") }
        let uri = arguments[2]
        switch (arguments[0], arguments.count) {
        case ("get", 4): self = .get(uri: uri, name: arguments[3])
        case ("list", 3): self = .list(uri: uri)
        case ("set", 5): self = .set(uri: uri, name: arguments[3], value: arguments[4])
        case ("delete", 3): self = .delete(uri: uri, name: nil)
        case ("delete", 4): self = .delete(uri: uri, name: arguments[3])
        case ("find", 4): self = .find(directory: uri, name: arguments[3], comparison: .exists)
        case ("find", 6):
            let value = arguments[5]
            let comparison: StickerComparison
            switch arguments[4] {
            case "=": comparison = .equals(value)
            case "<": comparison = .lessThan(value)
            case ">": comparison = .greaterThan(value)
            default: throw MPDAck(.argument, "bad operator")
            }
            self = .find(directory: uri, name: arguments[3], comparison: comparison)
        default:
            throw MPDAck(.argument, "bad request")
        }
    }

    /// Whether it changes stickers (and so wakes `idle sticker` when it did).
    var changes: Bool {
        switch self {
        case .set, .delete: true
        case .get, .list, .find: false
        }
    }
}
