/// What a client may do, in MPD's four permission bits. A command needs all of its bits; `[]` is
/// a command anyone may send (`password` itself, `ping`, `close`, `commands`, `notcommands`).
///
/// A connection holds every bit or none: none before its password when one is set (what MPD's
/// `default_permissions` gives then), all after it or when there is no password. The bits are
/// still kept per command, so `commands` and `notcommands` say what MPD's would.
public struct MPDPermission: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Reading the status, the queue and the library.
    public static let read = MPDPermission(rawValue: 1 << 0)
    /// Adding songs to the queue.
    public static let add = MPDPermission(rawValue: 1 << 1)
    /// Controlling playback, the queue's order and its options.
    public static let control = MPDPermission(rawValue: 1 << 2)
    /// The outputs and the server's own configuration.
    public static let admin = MPDPermission(rawValue: 1 << 3)

    /// Every bit: what a client holds after `password`, or always when no password is set.
    public static let all: MPDPermission = [.read, .add, .control, .admin]
}
