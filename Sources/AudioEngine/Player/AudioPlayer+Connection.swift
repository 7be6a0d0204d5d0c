import PlayerCore

/// A live stream's connection: the facts its source reports, handed to the machine in order, and
/// the quality published about once a second of audio.
extension AudioPlayer {
    /// Hands the machine what a deck's connection did since the last delivery: drops in order,
    /// then whether the source is dry (and since when) or receiving. News of a load no longer on
    /// the deck is dropped.
    func deliverConnectionNews(_ deck: DeckID) {
        guard let news = connections.take(deck), loads[deck]?.id == news.load else { return }
        for (cause, at) in news.drops { apply(.streamDropped(deck, cause: cause, at: at), at: at) }
        if let unchanged = news.unchangedPlaylist {
            apply(.playlistUnchanged(deck, loads: unchanged.loads, at: unchanged.at), at: unchanged.at)
        }
        guard let flow = news.flow else { return }
        switch flow {
        case .dry(let since): apply(.stalled(deck, at: since), at: since)
        case .receiving(let at): apply(.receiving(deck, at: at), at: at)
        }
    }

    /// Audio seconds between two connection updates while a live stream plays.
    static let connectionInterval = 1.0

    /// A live stream's connection quality, about once a second of audio (`force`: at once, as when
    /// a reconnect in the background begins or ends). Counting and rating are the machine's and
    /// `ConnectionQuality`'s; this adds what only the I/O side can measure: the bitrate and the
    /// audio buffered (decoded on the deck, plus compressed bytes in the source).
    func publishConnection(force: Bool = false) {
        guard let track = machine.state.currentTrack, track.isLive else { return }
        if !force, let last = connectionPublishedAt, audioTime - last < Self.connectionInterval { return }
        connectionPublishedAt = audioTime
        var quality = machine.connectionQuality(at: PlayerTime(seconds: clock.now()))
        let link = loads[machine.activeDeck]?.load.connection
        let bitRate = link?.bitRate
        quality.bitrate = bitRate.map { Int((Double($0) / 1000).rounded()) }
        let compressed: Double? = bitRate.flatMap { rate in link?.bufferedBytes().map { Double($0) * 8 / Double(rate) } }
        // Unknown until the deck has reported what it holds: the ring alone would understate it.
        if let decodedAhead {
            quality.bufferedSeconds = ((decodedAhead + (compressed ?? 0)) * 100).rounded() / 100
        }
        continuation.yield(.connection(quality, audioTime: audioTime))
    }
}
