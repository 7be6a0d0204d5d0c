import MPDProtocol

/// `config` as mpd 0.23 answers it: the music directory's path, the one setting it tells. mpd
/// 0.23 does not tell its `playlist_directory` (later versions do), so neither does this. The
/// server answers only clients on the local socket; this is what it tells them.
extension MPDPlayerBackend {
    package nonisolated var localConfiguration: MPDResponse {
        guard let directory = catalog.musicDirectory else { return .empty }
        return MPDResponse([.init("music_directory", directory.standardizedFileURL.path)])
    }
}
