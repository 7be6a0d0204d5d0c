import Foundation
import Logging
import PlayerCore

/// A live HLS stream as one continuous byte stream for the decoder: the media playlist is loaded
/// (through a master playlist's audio variant: the highest the downloads show the line carries,
/// one step lower after the player underran; `HLSVariantChoice`), playback starts near the live edge
/// (`liveEdgeSegments` from the end), each new segment is fetched in order and its bytes follow
/// the last ones, and the playlist is reloaded as RFC 8216 says (after a target duration, half of
/// it when the last reload brought nothing new). MPEG-TS and ADTS segments join as they are; a
/// fragmented-MP4 stream gets its initialisation section first, and again when it changes. Song
/// titles come from the segments' timed metadata (ID3, `HLSTimedMetadata`) or `#EXTINF`.
///
/// Facts, not verdicts, as for `HTTPByteSource`: a reader that waits with room in the ring tells
/// `dry` (a playlist that stops growing therefore ends as a stall the player decides on), bytes
/// tell `receiving`, and a playlist or segment that cannot be fetched (after one more try for a
/// segment), or a live playlist that has not grown for three target durations (counted in
/// reloads that brought nothing), is a `dropped` connection. The player answers a drop with `reopen()` (the loop starts
/// again from the playlist, at the segment after the last one delivered, or at the live edge when
/// that one is gone) or `abandon(cause:)`; meanwhile a reader that reaches the end of what was
/// fetched waits. A playlist with `#EXT-X-ENDLIST` ends the stream after its last segment.
///
/// `@unchecked Sendable`: every mutable field is guarded by `condition`.
public final class HLSByteSource: ByteSource, @unchecked Sendable {
    /// Segments from the end of a live playlist where playback starts (RFC 8216 6.3.3 asks for
    /// at least three target durations from the end).
    public static let liveEdgeSegments = 3
    /// Reloads in a row that bring no new segment after which a live playlist counts as stalled:
    /// the first comes a target duration after the last new segment, the next four half a target
    /// duration apart, so five are three target durations without a new segment.
    static let barrenReloadsBeforeStall = 5
    /// Titles of segments fetched and not yet reached that are kept (the ring holds a few).
    static let maxPendingTitles = 64

    private let url: URL
    private let network: NetworkClient
    private let connection: ConnectionLink
    private let logger: Logger
    private let onTitle: @Sendable (String) -> Void

    private enum Phase {
        case idle, running
        /// The last segment of an ended playlist was delivered.
        case ended
        case failed(PlaybackError)
        case closed
    }

    private let condition = NSCondition()
    private var phase = Phase.idle
    private var ring: ByteRing
    private var task: Task<Void, Never>?
    /// Counts loops; a loop that is not the latest stops at its next step.
    private var generation = 0
    /// The next segment to deliver, once known; kept across reopens.
    private var nextSequence: Int?
    /// The producer waiting for room in the ring.
    private var waitingForRoom: CheckedContinuation<Void, Never>?
    /// A drop was told and the player has not answered yet: readers wait.
    private var awaitingAnswer = false
    /// Asked for again in the background after a drop, and no segment delivered since.
    private var reopening = false
    /// The variant played, when the address is a master playlist; kept across reopens.
    private var variants: HLSVariantChoice?
    private var _formatHint: String?
    private var _finishedPlaylist: HLSMediaPlaylist?
    private var delivered = false
    /// Bytes put into the ring and taken from it since the start, and the titles of segments
    /// whose first byte the reader has not reached yet (told when it does, so a title changes
    /// near when its song is heard, not when a segment seconds ahead is fetched).
    private var written = 0
    private var taken = 0
    private var pendingTitles: [(at: Int, title: String)] = []

    /// - Parameters:
    ///   - capacity: bytes held ahead of the reader (a few segments).
    ///   - startSequence: the segment to begin with (a seek in a finished playlist); nil starts
    ///     a live playlist near its edge and a finished one at its beginning.
    ///   - onTitle: a segment's title when the reader reaches its bytes (sanitised): from its
    ///     timed metadata (ID3), else its `#EXTINF`. Called on the reading thread.
    public init(
        url: URL, network: NetworkClient, connection: ConnectionLink = ConnectionLink(), capacity: Int = 512 * 1024,
        startSequence: Int? = nil, logger: Logger = Logger(label: "tonearm.hls", factory: { _ in SwiftLogNoOpLogHandler() }),
        onTitle: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.nextSequence = startSequence
        self.url = url
        self.network = network
        self.connection = connection
        self.logger = logger
        self.onTitle = onTitle
        self.ring = ByteRing(capacity: capacity)
    }

    deinit {
        task?.cancel()
    }

    /// The demuxer the segments need (`mpegts`, `aac`, `mp4`, `mp3`), known once the first
    /// segment is fetched; nil lets FFmpeg probe.
    public var formatHint: String? { condition.withLock { _formatHint } }

    /// The media playlist when it was already finished (`#EXT-X-ENDLIST`) at the first load: a
    /// recording with a length, which can seek. Known once the first bytes arrived; nil for a
    /// live playlist.
    public var finishedPlaylist: HLSMediaPlaylist? { condition.withLock { _finishedPlaylist } }

    /// Starts fetching (idempotent) and registers the player's answers on the link.
    public func start() {
        condition.lock()
        defer { condition.unlock() }
        guard case .idle = phase else { return }
        connection.onAbandon { [weak self] cause in self?.abandon(cause) }
        connection.onReopen { [weak self] in self?.reopen() }
        connection.onBufferedBytes { [weak self] in self?.bufferedBytes ?? 0 }
        connection.onUnderrun { [weak self] in self?.underrun() }
        phase = .running
        launch()
    }

    /// Blocks until the first segment's bytes arrived (true), the stream failed (throws) or was
    /// closed or ended empty (false).
    public func waitForFirstBytes() throws(PlaybackError) -> Bool {
        start()
        condition.lock()
        defer { condition.unlock() }
        while true {
            if delivered { return true }
            switch phase {
            case .failed(let error): throw error
            case .closed, .ended: return false
            case .idle, .running: condition.wait()
            }
        }
    }

    public var bufferedBytes: Int { condition.withLock { ring.count } }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(PlaybackError) -> Int {
        guard buffer.count > 0 else { return 0 }
        start()
        condition.lock()
        while true {
            if !ring.isEmpty {
                let count = ring.read(into: buffer)
                taken += count
                // Every title whose segment this read reached, in order: one read may cross
                // several segments (the decoder's first probe does), and each song still counts
                // (the history keeps them all; the screen ends on the newest).
                var reached: [String] = []
                while let first = pendingTitles.first, first.at < taken {
                    reached.append(first.title)
                    pendingTitles.removeFirst()
                }
                let waiter = waitingForRoom
                waitingForRoom = nil
                condition.unlock()
                waiter?.resume()
                reached.forEach(onTitle)
                return count
            }
            switch phase {
            case .failed where awaitingAnswer:
                condition.wait()
            case .failed(let error):
                condition.unlock()
                throw error
            case .closed:
                condition.unlock()
                throw PlaybackError(.cancelled, underlying: "source closed")
            case .ended:
                condition.unlock()
                return 0
            case .idle, .running:
                connection.tell(.dry)
                condition.wait()
            }
        }
    }

    public func close() {
        stopLoop { $0 = .closed }
    }

    // MARK: - The player's answers

    private func reopen() {
        condition.lock()
        defer { condition.unlock() }
        guard case .failed = phase else { return }
        awaitingAnswer = true
        reopening = true
        phase = .running
        logger.debug("HLS stream asked for again after a drop", metadata: ["host": .string(LogRedaction.host(url) ?? "?")])
        launch()
    }

    /// The player's audio ran out: the variant played is not sustained.
    private func underrun() {
        condition.withLock {
            guard variants != nil else { return }
            variants?.underran()
            logger.info("HLS underrun at the player: a lower variant next", metadata: ["bandwidth": .string(variants?.current.bandwidth.map(String.init) ?? "?")])
        }
    }

    private func abandon(_ cause: PlaybackError) {
        stopLoop { phase in
            if case .running = phase { phase = .failed(cause) }
        }
    }

    /// Ends the loop with the phase `change` makes: no answer is awaited any more, and a reader
    /// and the producer waiting for room are woken.
    private func stopLoop(_ change: (inout Phase) -> Void) {
        condition.lock()
        change(&phase)
        awaitingAnswer = false
        task?.cancel()
        task = nil
        let waiter = waitingForRoom
        waitingForRoom = nil
        condition.broadcast()
        condition.unlock()
        waiter?.resume()
    }

    // MARK: - The loop

    /// Starts a new loop. Call with the lock held.
    private func launch() {
        generation += 1
        let mine = generation
        task?.cancel()
        task = Task { [weak self] in
            await self?.run(mine)
        }
    }

    private func isCurrent(_ mine: Int) -> Bool {
        condition.withLock {
            guard case .running = phase else { return false }
            return generation == mine
        }
    }

    private func run(_ mine: Int) async {
        do throws(PlaybackError) {
            var (mediaURL, media) = try await mediaPlaylist()
            if media.ended { condition.withLock { _finishedPlaylist = media } }
            var next = condition.withLock { nextSequence } ?? Self.startSequence(of: media)
            var initialization: URL?
            var barrenReloads = 0
            while isCurrent(mine) {
                if next < media.firstSequence {
                    // Fell behind the playlist's window (a long reconnect): on from the live edge.
                    next = Self.startSequence(of: media)
                }
                var brought = false
                var switchedTo: HLSVariant?
                for segment in media.segments where segment.sequence >= next {
                    guard isCurrent(mine) else { return }
                    if segment.discontinuity || segment.initialization != initialization, let section = segment.initialization,
                        section != initialization
                    {
                        try await deliver(try await fetch(section, what: "hlsInit"), from: section, mine)
                        initialization = section
                    }
                    let bytes = try await fetchSegment(segment)
                    let title = Self.timedTitle(in: bytes, from: segment.url) ?? segment.title
                    try await deliver(bytes, from: segment.url, title: title, mine)
                    next = segment.sequence + 1
                    condition.withLock { nextSequence = next }
                    brought = true
                    // Fragmented MP4 is not switched: FFmpeg reads one initialisation section per stream.
                    switchedTo = segment.initialization != nil ? nil : condition.withLock { () -> HLSVariant? in
                        guard let previous = variants?.current, let chosen = variants?.next(), chosen != previous else { return nil }
                        return chosen
                    }
                    if switchedTo != nil { break }
                }
                if let variant = switchedTo {
                    // Sequence numbers are aligned across variants (RFC 8216 6.2.4): on from `next`.
                    logger.info(
                        "HLS variant switched", metadata: ["bandwidth": .string(variant.bandwidth.map(String.init) ?? "?")])
                    guard case .media(let switched) = try await playlist(variant.url) else {
                        throw PlaybackError(.malformedData, underlying: "an HLS variant is a master playlist itself")
                    }
                    (mediaURL, media) = (variant.url, switched)
                    initialization = nil
                    continue
                }
                if media.ended {
                    finish(mine)
                    return
                }
                barrenReloads = brought ? 0 : barrenReloads + 1
                if barrenReloads >= Self.barrenReloadsBeforeStall {
                    // Reconnected in the background while the buffer still plays.
                    throw PlaybackError(.stalled, underlying: "the HLS playlist has not grown for three target durations")
                }
                // RFC 8216 6.3.4: reload after the target duration, or half of it when the last
                // reload brought no new segment.
                let wait = brought ? media.targetDuration : media.targetDuration / 2
                try? await Task.sleep(for: .milliseconds(Int(max(0.1, wait) * 1000)))
                guard isCurrent(mine) else { return }
                guard case .media(let reloaded) = try await playlist(mediaURL) else {
                    throw PlaybackError(.malformedData, underlying: "an HLS media playlist became a master playlist")
                }
                media = reloaded
            }
        } catch {
            failed(error, mine)
        }
    }

    /// The media playlist: the one at `url`, or the best audio variant's of a master playlist.
    private func mediaPlaylist() async throws(PlaybackError) -> (URL, HLSMediaPlaylist) {
        switch try await playlist(url) {
        case .media(let media):
            return (url, media)
        case .master(let listed):
            let variant = condition.withLock {
                if variants == nil { variants = HLSVariantChoice(variants: listed) }
                return variants?.current ?? listed[0]
            }
            guard case .media(let media) = try await playlist(variant.url) else {
                throw PlaybackError(.malformedData, underlying: "an HLS variant is a master playlist itself")
            }
            return (variant.url, media)
        }
    }

    /// Where a first load starts: an ended playlist at its beginning, a live one near its edge.
    static func startSequence(of media: HLSMediaPlaylist) -> Int {
        guard !media.ended, let last = media.segments.last?.sequence else { return media.firstSequence }
        return max(media.firstSequence, last - (liveEdgeSegments - 1))
    }

    private func playlist(_ address: URL) async throws(PlaybackError) -> HLSPlaylist {
        try HLSPlaylist.parse(try await fetch(address, what: "hlsPlaylist", maxBytes: HLSLimits.maxPlaylistBytes), url: address)
    }

    /// A segment, with one more try: a live server may not have it in place the first moment.
    private func fetchSegment(_ segment: HLSSegment) async throws(PlaybackError) -> Data {
        do throws(PlaybackError) {
            let started = ContinuousClock.now
            let bytes = try await fetch(segment.url, what: "hlsSegment")
            let took = started.duration(to: .now)
            let seconds = Double(took.components.seconds) + Double(took.components.attoseconds) / 1e18
            condition.withLock { variants?.downloaded(bytes: bytes.count, seconds: seconds) }
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
        if condition.withLock({ reopening }) { network.breakers = nil }
        return try await network.data(
            from: address, operation: what, options: .init(timeout: ResilienceDefaults.connectTimeout, maxBytes: maxBytes, policy: .once)
        ).body
    }

    /// Puts `data` into the ring, waiting for room; tells `receiving`.
    private func deliver(_ data: Data, from address: URL, title: String? = nil, _ mine: Int) async throws(PlaybackError) {
        let bytes = [UInt8](data)
        var offset = 0
        var title = title
        while offset < bytes.count {
            let wrote: Int? = condition.withLock {
                guard case .running = phase, generation == mine else { return nil }
                if _formatHint == nil { _formatHint = Self.formatHint(for: address) }
                // Once per segment, at its first byte (a ring that is full takes nothing on a try).
                if let pending = title, pendingTitles.count < Self.maxPendingTitles { pendingTitles.append((written, pending)) }
                title = nil
                let count = ring.write(bytes, from: offset)
                written += count
                if count > 0 {
                    delivered = true
                    awaitingAnswer = false
                    reopening = false
                    condition.broadcast()
                }
                return count
            }
            guard let wrote else { throw PlaybackError(.cancelled, underlying: "HLS loop left") }
            if wrote > 0 { connection.tell(.receiving) }
            offset += wrote
            if offset < bytes.count {
                await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                    let resumeNow: Bool = condition.withLock {
                        guard case .running = phase, generation == mine, ring.freeSpace == 0 else { return true }
                        waitingForRoom = waiter
                        return false
                    }
                    if resumeNow { waiter.resume() }
                }
            }
        }
    }

    private func finish(_ mine: Int) {
        condition.withLock {
            guard case .running = phase, generation == mine else { return }
            phase = .ended
            condition.broadcast()
        }
    }

    /// The loop failed: a drop the player answers (`reopen`, `abandon`); readers wait for it when
    /// the player answers drops, and fail once the ring is empty otherwise.
    private func failed(_ error: PlaybackError, _ mine: Int) {
        let told: Bool = condition.withLock {
            guard case .running = phase, generation == mine else { return false }
            phase = .failed(error)
            awaitingAnswer = connection.answersDrops
            condition.broadcast()
            return true
        }
        guard told else { return }
        logger.mappedError(error, level: .info, "HLS stream dropped")
        connection.tell(.dropped(error))
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
