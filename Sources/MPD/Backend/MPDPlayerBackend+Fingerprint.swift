import MPDProtocol

/// `getfingerprint`: a song's acoustic fingerprint, as mpd computes it with chromaprint.
extension MPDPlayerBackend {
    static let fingerprintCommands: [MPDCommandEntry] = []
}
