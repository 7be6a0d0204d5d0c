import MPDProtocol

/// Commands about files in the music directory beyond the database's songs.
extension MPDPlayerBackend {
    static let fileCommands: [MPDCommandEntry] = []
}
