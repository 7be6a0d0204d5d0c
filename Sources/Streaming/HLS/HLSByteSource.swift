import Foundation
import Logging
import PlayerCore

/// A live HLS stream as one continuous byte stream for the decoder: the media playlist is loaded
/// (through a master playlist's audio variant: the highest the downloads show the line carries,
/// one step lower after the player underran; `HLSVariantChoice`), and followed as
/// `HLSPlaylistFollower` says: playback starts near the live edge, each new segment is fetched in
/// order and its bytes follow the last ones, and the playlist is loaded again after a target
/// duration (half of it when the last load brought nothing new), waiting on the injected clock.
/// MPEG-TS and ADTS segments join as they are; a fragmented-MP4 stream gets its initialisation
/// section first, and again when it changes. Song titles come from the segments' timed metadata
/// (ID3, `HLSTimedMetadata`) or `#EXTINF`. The bytes go through the reader every network source
/// shares (`ByteRingStream`).
///
/// Facts, not verdicts, as for `HTTPByteSource`: a reader that waits with room in the ring tells
/// `dry`, bytes tell `receiving`, each load of a live playlist that brought no new segment tells
/// `playlistUnchanged` with how many loads in a row did (whether the stream has stalled is the
/// player's decision), and a playlist or segment that cannot be fetched (after one more try for a
/// segment) is a `dropped` connection. The player answers a drop, or a playlist that stopped
/// growing, with `reopen()` (the loop starts again from the playlist, at the segment after the last
/// one delivered, or at the live edge when that one is gone) or `abandon(cause:)`; meanwhile a
/// reader that reaches the end of what was fetched waits. A playlist with `#EXT-X-ENDLIST` ends
/// the stream after its last segment.
///
/// `@unchecked Sendable`: every mutable field is guarded by the stream's lock.
package final class HLSByteSource: ByteSource, @unchecked Sendable {
    /// Titles of segments fetched and not yet reached that are kept (the ring holds a few).
    static let maxPendingTitles = 64

    private let url: URL
    private let network: NetworkClient
    private let clock: any Clock<Duration>
    private let logger: Logger
    private let stream: ByteRingStream
    private var connection: ConnectionLink { stream.connection }

    // Guarded by the stream's lock.
    private var task: Task<Void, Never>?
    /// The loop's own thread: it fetches and waits between reloads off the shared pool, so a busy
    /// process does not starve a live stream of its segments.
    private let loopExecutor = ThreadExecutor(name: "tonearm.hls")
    /// The next segment to deliver, once known; kept across reopens.
    private var nextSequence: Int?
    /// The variant played, when the address is a master playlist; kept across reopens.
    private var variants: HLSVariantChoice?
    private var _formatHint: String?
    private var _finishedPlaylist: HLSMediaPlaylist?

    /// - Parameters:
    ///   - capacity: bytes held ahead of the reader (a few segments).
    ///   - startSequence: the segment to begin with (a seek in a finished playlist); nil starts
    ///     a live playlist near its edge and a finished one at its beginning.
    ///   - clock: the player's clock: the waits between loads of the playlist, and a segment's
    ///     download time (for the variant choice).
    ///   - onTitle: a segment's title when the reader reaches its bytes (sanitised): from its
    ///     timed metadata (ID3), else its `#EXTINF`. Called on the reading thread.
    package init(
        url: URL, network: NetworkClient, connection: ConnectionLink = ConnectionLink(), capacity: Int = 512 * 1024,
        startSequence: Int? = nil, clock: any Clock<Duration>,
        logger: Logger = Logger(label: "tonearm.hls", factory: { _ in SwiftLogNoOpLogHandler() }),
        onTitle: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.nextSequence = startSequence
        self.url = url
        self.network = network
        self.clock = clock
        self.logger = logger
        // Every title whose segment a read reached, in order: one read may cross several segments
        // (the decoder's first probe does), and each song still counts (the history keeps them
        // all; the screen ends on the newest). A title is told when its bytes are reached, so it
        // changes near when its song is heard, not when a segment seconds ahead is fetched.
        self.stream = ByteRingStream(
            capacity: capacity, connection: connection, endOfStream: nil, maxLabels: Self.maxPendingTitles, onLabel: onTitle)
    }

    deinit {
        task?.cancel()
    }

    /// The demuxer the segments need (`mpegts`, `aac`, `mp4`, `mp3`), known once the first
    /// segment is fetched; nil lets FFmpeg probe.
    package var formatHint: String? { stream.peek { _ in _formatHint } }

    /// The media playlist when it was already finished (`#EXT-X-ENDLIST`) at the first load: a
    /// recording with a length, which can seek. Known once the first bytes arrived; nil for a
    /// live playlist.
    package var finishedPlaylist: HLSMediaPlaylist? { stream.peek { _ in _finishedPlaylist } }

    /// Starts fetching (idempotent) and registers the player's answers on the link.
    package func start() {
        guard let number = stream.start(onAbandon: { [weak self] in self?.abandon($0) }, onReopen: { [weak self] in self?.reopen() })
        else { return }
        connection.onUnderrun { [weak self] in self?.underrun() }
        launch(number)
    }

    /// Blocks until the first segment's bytes arrived (true), the stream failed (throws) or was
    /// closed or ended empty (false).
    package func waitForFirstBytes() throws(PlaybackError) -> Bool {
        start()
        switch try stream.waitForAnswer(tellsDry: false, clock: clock) {
        case .answered: return true
        case .ended, .closed, .timedOut: return false
        }
    }

    package var bufferedBytes: Int { stream.bufferedBytes }

    package func read(into buffer: UnsafeMutableRawBufferPointer) throws(PlaybackError) -> Int {
        guard buffer.count > 0 else { return 0 }
        start()
        return try stream.read(into: buffer)
    }

    package func close() {
        stopLoop { $0.close() }
    }

    // MARK: - The player's answers

    /// Asked for again: after a drop, or because the playlist stopped growing (the loop is still
    /// running then). The loop starts again from the playlist.
    private func reopen() {
        let number: Int? = stream.locked { state in
            switch state.phase {
            case .failed, .connecting, .answered: return state.reconnect()
            case .idle, .ended, .closed: return nil
            }
        }
        guard let number else { return }
        logger.debug("HLS stream asked for again", metadata: ["host": .string(LogRedaction.host(url) ?? "?")])
        launch(number)
    }

    /// The player's audio ran out: the variant played is not sustained.
    private func underrun() {
        stream.locked { _ in
            guard variants != nil else { return }
            variants?.underran()
            logger.info("HLS underrun at the player: a lower variant next", metadata: ["bandwidth": .string(variants?.current.bandwidth.map(String.init) ?? "?")])
        }
    }

    private func abandon(_ cause: PlaybackError) {
        stopLoop { $0.abandon(cause) }
    }

    /// Ends the loop with what `change` does to the stream, which wakes a reader and lets a write
    /// waiting for room go.
    private func stopLoop(_ change: (inout ByteRingStream.State) -> Void) {
        let running: Task<Void, Never>? = stream.locked { state in
            change(&state)
            let running = task
            task = nil
            return running
        }
        running?.cancel()
    }

    // MARK: - The loop

    /// Starts connection `number`'s loop, ending an earlier one.
    private func launch(_ number: Int) {
        let previous: Task<Void, Never>? = stream.locked { state in
            guard state.isCurrent(number) else { return nil }
            let running = task
            task = Task(executorPreference: loopExecutor) { [weak self] in await self?.run(number) }
            return running
        }
        previous?.cancel()
    }

    private func isCurrent(_ number: Int) -> Bool {
        stream.peek { $0.isCurrent(number) }
    }

    private func run(_ number: Int) async {
        let elapsed = clock.stopwatch()
        var follower = HLSPlaylistFollower(startingAt: stream.peek { _ in nextSequence })
        do throws(PlaybackError) {
            var (mediaURL, media) = try await mediaPlaylist()
            if media.ended { stream.locked { _ in _finishedPlaylist = media } }
            var initialization: URL?
            while isCurrent(number) {
                var switchedTo: HLSVariant?
                for segment in follower.segments(in: media) {
                    guard isCurrent(number) else { return }
                    if segment.discontinuity || segment.initialization != initialization, let section = segment.initialization,
                        section != initialization
                    {
                        try await deliver(try await fetch(section, what: "hlsInit"), from: section, number)
                        initialization = section
                    }
                    let bytes = try await fetchSegment(segment)
                    let title = Self.timedTitle(in: bytes, from: segment.url) ?? segment.title
                    try await deliver(bytes, from: segment.url, title: title, number)
                    follower.delivered(segment)
                    let next = follower.next
                    switchedTo = stream.locked { _ -> HLSVariant? in
                        nextSequence = next
                        // Fragmented MP4 is not switched: FFmpeg reads one initialisation section per stream.
                        guard segment.initialization == nil, let previous = variants?.current, let chosen = variants?.next(), chosen != previous
                        else { return nil }
                        return chosen
                    }
                    if switchedTo != nil { break }
                }
                if let variant = switchedTo {
                    // Sequence numbers are aligned across variants (RFC 8216 6.2.4): on from the next one.
                    logger.info(
                        "HLS variant switched", metadata: ["bandwidth": .string(variant.bandwidth.map(String.init) ?? "?")])
                    guard case .media(let switched) = try await playlist(variant.url) else {
                        throw PlaybackError(.malformedData, underlying: "an HLS variant is a master playlist itself")
                    }
                    (mediaURL, media) = (variant.url, switched)
                    initialization = nil
                    continue
                }
                switch follower.passEnded(over: media, at: elapsed()) {
                case .finish:
                    stream.locked { state in state.end(number) }
                    return
                case .reload(let at, let unchangedLoads):
                    if unchangedLoads > 0 { connection.tell(.playlistUnchanged(loads: unchangedLoads)) }
                    // The protocol's own pace, the one wait this source keeps.
                    try? await clock.sleep(for: at - elapsed())
                }
                guard isCurrent(number) else { return }
                guard case .media(let reloaded) = try await playlist(mediaURL) else {
                    throw PlaybackError(.malformedData, underlying: "an HLS media playlist became a master playlist")
                }
                media = reloaded
            }
        } catch {
            failed(error, number)
        }
    }

    /// The media playlist: the one at `url`, or the best audio variant's of a master playlist.
    private func mediaPlaylist() async throws(PlaybackError) -> (URL, HLSMediaPlaylist) {
        switch try await playlist(url) {
        case .media(let media):
            return (url, media)
        case .master(let listed):
            let variant = stream.locked { _ in
                if variants == nil { variants = HLSVariantChoice(variants: listed) }
                return variants?.current ?? listed[0]
            }
            guard case .media(let media) = try await playlist(variant.url) else {
                throw PlaybackError(.malformedData, underlying: "an HLS variant is a master playlist itself")
            }
            return (variant.url, media)
        }
    }

    private func playlist(_ address: URL) async throws(PlaybackError) -> HLSPlaylist {
        try HLSPlaylist.parse(try await fetch(address, what: "hlsPlaylist", maxBytes: HLSLimits.maxPlaylistBytes), url: address)
    }

    /// A segment, with one more try: a live server may not have it in place the first moment.
    private func fetchSegment(_ segment: HLSSegment) async throws(PlaybackError) -> Data {
        do throws(PlaybackError) {
            let took = clock.stopwatch()
            let bytes = try await fetch(segment.url, what: "hlsSegment")
            let seconds = took() / .seconds(1)
            stream.locked { _ in variants?.downloaded(bytes: bytes.count, seconds: seconds) }
            return bytes
        } catch {
            guard error.isRetryable || error.code == .httpNotFound else { throw error }
            logger.debug("HLS segment asked for again", metadata: ["sequence": .string(String(segment.sequence))])
            return try await fetch(segment.url, what: "hlsSegment")
        }
    }

    private func fetch(_ address: URL, what: String, maxBytes: Int = HLSLimits.maxSegmentBytes) async throws(PlaybackError) -> Data {
        // A reopen in the background that finds nobody listening is not held against the host
        // (as for Icecast streams): those attempts are few, quick and bounded by the buffer, and
        // an open breaker would keep the visible reconnect from the server for half a minute
        // after it is back.
        var network = self.network
        if stream.peek(\.reopening) { network.breakers = nil }
        var options = NetworkClient.Options(timeout: ResilienceDefaults.connectTimeout, maxBytes: maxBytes, policy: .once)
        if what != "hlsPlaylist" { options.countsAs = .stream }
        return try await network.data(from: address, operation: what, options: options).body
    }

    /// Puts `data` into the ring, waiting for room; the first bytes of a connection are its answer.
    private func deliver(_ data: Data, from address: URL, title: String? = nil, _ number: Int) async throws(PlaybackError) {
        guard !data.isEmpty else { return }
        let bytes = [UInt8](data)
        let taken = await withCheckedContinuation { (waiter: CheckedContinuation<Bool, Never>) in
            let outcome = stream.locked { state -> ByteRingStream.WriteOutcome in
                guard state.isCurrent(number) else { return .refused }
                if _formatHint == nil { _formatHint = Self.formatHint(for: address) }
                state.answered(number)
                return state.write(bytes, of: number, label: title) { result in
                    if case .success = result { waiter.resume(returning: true) } else { waiter.resume(returning: false) }
                }
            }
            switch outcome {
            case .taken: waiter.resume(returning: true)
            case .refused: waiter.resume(returning: false)
            case .held: break
            }
        }
        guard taken else { throw PlaybackError(.cancelled, underlying: "HLS loop left") }
    }

    /// The loop failed: a drop the player answers (`reopen`, `abandon`); readers wait for it when
    /// the player answers drops, and fail once the ring is empty otherwise.
    private func failed(_ error: PlaybackError, _ number: Int) {
        guard stream.locked({ state in state.fail(error, of: number, asDrop: true) }) else { return }
        logger.mappedError(error, level: .info, "HLS stream dropped")
    }

    /// The song title a station put in a segment's timed metadata (ID3 tags at the start of
    /// packed audio, or in a metadata stream of MPEG-TS); nil when there is none.
    static func timedTitle(in segment: Data, from address: URL) -> String? {
        switch formatHint(for: address) {
        case "mpegts": HLSTimedMetadata.title(in: segment, container: .mpegTS)
        case "aac", "mp3": HLSTimedMetadata.title(in: segment, container: .packedAudio)
        default: nil
        }
    }

    /// The demuxer a segment's address names by its extension.
    static func formatHint(for address: URL) -> String? {
        switch address.pathExtension.lowercased() {
        case "ts", "tsa", "tsv": "mpegts"
        case "aac", "adts": "aac"
        case "mp4", "m4s", "m4a", "cmfa": "mp4"
        case "mp3": "mp3"
        default: nil
        }
    }
}
