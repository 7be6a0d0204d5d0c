/// What `idle` can wait for: the part of the player or library that changed. The raw values are
/// the protocol's names, sent as `changed: NAME`.
public enum MPDSubsystem: String, Sendable, Hashable, CaseIterable {
    case database, update
    case storedPlaylist = "stored_playlist"
    case playlist, player, mixer, output, options, partition, sticker, subscription, message, neighbor, mount
}

extension MPDSubsystem {
    /// The order MPD lists changes in (its `idle_names`), so an answer reads as a real server's.
    public static let protocolOrder: [MPDSubsystem] = [
        .database, .storedPlaylist, .playlist, .player, .mixer, .output, .options, .sticker, .update, .subscription,
        .message, .neighbor, .mount, .partition,
    ]

    /// The subsystem a client named in `idle`; MPD compares names without regard to ASCII case.
    public init?(protocolName: String) {
        guard let match = Self.allCases.first(where: { $0.rawValue == protocolName.lowercased() }) else { return nil }
        self = match
    }
}
