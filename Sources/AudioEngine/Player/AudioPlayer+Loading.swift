import Foundation
import Media
import PlayerCore

/// Loading a deck: opening its source on a loader thread of its own, then handing it to the render thread.
extension AudioPlayer {
    /// Opens the source on a loader thread (opening may block on disk or network), decodes a
    /// little ahead, then hands the deck to the render thread.
    ///
    /// A network track sounds only once `network.startSeconds` of audio are buffered; meanwhile
    /// the fill is reported (`bufferProgress`). How long that may take is the machine's decision
    /// (its still-connecting and opening timers), not the loader's.
    func load(_ id: LoadID, deck node: DeckID, track: Track, from: Double) {
        loads.removeValue(forKey: node)?.load.cancel()
        if node == machine.activeDeck { decodedAhead = nil }
        deckTracks[node] = track.id
        chapters.keep(only: Set(deckTracks.values))
        askChapters(for: track)
        transcripts.keep(only: Set(deckTracks.values))
        askTranscript(for: track)
        let mailbox = connections
        let wakeUps = connectionWakeUps
        let clock = self.clock
        mailbox.begin(node, load: id)
        let connection = ConnectionLink(answersDrops: true) { fact in
            if mailbox.post(fact, deck: node, load: id, at: PlayerTime(seconds: clock.now())) { wakeUps.yield(node) }
        }
        let cancellation = LoadCancellation(connection: connection)
        loads[node] = (id, cancellation)
        engine.enqueue(.expectLoad(node, id))
        let engine = self.engine
        let decoders = self.decoders
        let realtime = options.mode == .realtime
        let network = options.network
        // A network deck must be able to hold its refill threshold, with room to spare.
        let seconds = realtime && track.isRemote ? max(options.lookahead, max(network.refillSeconds, network.startSeconds) + 1) : options.lookahead
        let lookahead = Int(seconds * Double(AudioFormat.sampleRate))
        let executor = self.executor
        let report: @Sendable (PlayerEvent) -> Void = { [weak self] event in
            Task(executorPreference: executor) { await self?.apply(event) }
        }
        let store = options.loudnessStore
        let levelling = machine.loudness.isOn
        Thread.detachNewThread { [weak self] in
            do throws(PlaybackError) {
                var track = track
                let decoder = try decoders.makeDecoder(for: track, load: cancellation)
                let embedded = decoder.chapters
                if !embedded.isEmpty {
                    let list = ChapterList(trackID: track.id, origin: .embedded, chapters: embedded)
                    Task(executorPreference: executor) { await self?.learned(list) }
                }
                // An album's gain tag stands for the loudness of the whole it belongs to, when the
                // request gave none: session levelling (ReplayGain's album mode) then keeps an
                // album's tracks as loud as each other as they were mastered. Without a tag, the
                // album's loudness measured song by song, when the request knew it.
                let measuredAlbum = track.measuredAlbumLoudness
                if track.sessionLoudness == nil, !track.isLive, let album = Loudness.fromTags(decoder.tags, scope: .album) ?? measuredAlbum {
                    track.sessionLoudness = album
                    Task(executorPreference: executor) { [track] in await self?.learned(albumLoudness: album, of: track) }
                }
                // Known before the first frame: a kept measurement, else the file's own tag. A file
                // without either is measured: in the background in real time, at once when
                // rendering (nothing waits to hear it, and every frame gets its gain).
                if track.loudness == nil, !track.isLive, let found = store?.loudness(of: track) ?? Loudness.fromTags(decoder.tags) {
                    track.loudness = found
                    Task(executorPreference: executor) { await self?.learned(found, of: track, .found) }
                } else if levelling, track.loudness == nil, track.url.isFileURL {
                    if realtime {
                        Task(executorPreference: executor) { await self?.measureInBackground(track) }
                    } else if let measured = try? FileLoudness.measure(track.url) {
                        track.loudness = measured
                        Task(executorPreference: executor) { await self?.learned(measured, of: track, .measuredBeforeTheDeck) }
                    }
                }
                let deck = Deck(node: node, loadID: id, track: track, decoder: decoder, startAt: from, lookaheadFrames: lookahead)
                connection.onDecodedAhead { [weak deck] in
                    deck.map { Double($0.bufferedFrames) / Double(AudioFormat.sampleRate) } ?? 0
                }
                cancellation.onCancel { deck.stop() }
                deck.start(initialSeek: from > 0 ? from : nil)
                if realtime {
                    try Self.fill(deck, network: network, cancellation: cancellation, report: report)
                }
                guard !cancellation.isCancelled else { return }
                engine.enqueue(.install(deck))
            } catch {
                guard !cancellation.isCancelled else { return }
                engine.enqueue(.loadFailed(id, error))
            }
        }
    }

    /// Seconds of audio a real-time file deck holds before it is reported loaded.
    static let fileFillSeconds = 0.25

    /// Waits on the loader thread until the deck holds enough to start: a quarter second for a
    /// file, `network.startSeconds` for a network track (reporting the fill). It waits on the deck's
    /// queue, woken by every decoded chunk, the end of the source and cancellation.
    static func fill(
        _ deck: Deck, network: NetworkBuffering, cancellation: LoadCancellation, report: @Sendable (PlayerEvent) -> Void
    ) throws(PlaybackError) {
        let target = Int(AudioFormat.frames(forSeconds: deck.isNetwork ? network.startSeconds : fileFillSeconds))
        var lastReported = -1
        var buffered = deck.bufferedFrames
        while buffered < target && !deck.sourceEnded && !deck.isStopped && !cancellation.isCancelled {
            if deck.isNetwork {
                // Whole percents: enough for a progress bar, and few enough events.
                let percent = min(99, buffered * 100 / max(1, target))
                if percent != lastReported {
                    lastReported = percent
                    report(.bufferProgress(deck.node, fill: Float(percent) / 100))
                }
            }
            buffered = deck.waitForBuffered(moreThan: buffered)
        }
        // A source that failed before giving any audio is a failed load, not a track that plays.
        if deck.bufferedFrames == 0, let error = deck.sourceError {
            deck.stop()
            throw error
        }
    }
}
