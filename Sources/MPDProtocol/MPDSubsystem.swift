/// What `idle` can wait for: the part of the player or library that changed. The raw values are
/// the protocol's names, sent as `changed: NAME`.
public enum MPDSubsystem: String, Sendable, Hashable, CaseIterable {
    case database, update
    case storedPlaylist = "stored_playlist"
    case playlist, player, mixer, output, options, partition, sticker, subscription, message, neighbor, mount
}
