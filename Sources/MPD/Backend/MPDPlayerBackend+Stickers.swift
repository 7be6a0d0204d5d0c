import MPDProtocol

/// Stickers: the values clients keep on songs (ratings, play counts), stored in the library
/// database.
extension MPDPlayerBackend {
    static let stickerCommands: [MPDCommandEntry] = []
}
