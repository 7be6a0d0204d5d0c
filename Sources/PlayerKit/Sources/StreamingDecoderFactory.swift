import AudioEngine
import Foundation
import Logging
import Media
import PlayerCore
import Synchronization
import Streaming

/// What a network source reports besides audio, for the now-playing pipeline.
package enum StreamEvent: Sendable, Equatable {
    /// The response head arrived: the station's `icy-*` headers.
    case connected(Track, IcyStationInfo)
    /// An ICY metadata block (titles), in stream order, with the station's headers.
    case metadata(Track, IcyMetadata, IcyStationInfo)
}

/// Opens every kind of track: local files with FFmpeg (and built-in sounds), live http(s) streams through an
/// `HTTPByteSource` into FFmpeg's custom I/O, episodes (every remote track that is not live)
/// through a `ResumableHTTPSource` (seekable, and resuming a dropped connection at the same byte),
/// and playlist URLs (.pls, .m3u, .m3u8) by trying their entries in order, so a dead first entry
/// falls back to the next.
///
/// It makes one attempt per call: retrying is the reconnect supervisor's job (the state machine),
/// which shows every attempt to the listener. The one exception is an episode whose connection
/// drops mid-body: its source asks for the rest once, at once, so nothing is heard of a single
/// drop; only when that fails does the supervisor reconnect.
public struct StreamingDecoderFactory: DecoderFactory {
    /// Knobs of the network path. How long a connection may stay silent is not one of them: the
    /// sources report their connections' facts on the load's `connection` link, and the player's
    /// state machine decides (`PlayerStateMachine.Configuration.stallTimeout`).
    public struct Options: Sendable {
        /// Compressed bytes held between the socket and the decoder. Small on purpose: the decoded
        /// buffer holds the seconds, and a stall must reach the player while it still matters.
        public var ringCapacity: Int = 64 * 1024
        /// Bytes FFmpeg may read to identify a live stream (about 32 KB; FFmpeg's 5 MB default costs seconds).
        public var probeSize: Int = 32 * 1024
        /// Entries of one playlist tried before giving up.
        public var maxEntriesTried: Int = 5
        /// The per-host breakers asked before every stream and episode connection (the process's
        /// shared registry by default); a host whose breaker is open fails the load with
        /// `circuitOpen`, whose `retryAfter` is when the host may be tried again.
        public var breakers: HostCircuitBreakers? = .shared
        /// Where every stream's and episode's received bytes are counted (the process's counters).
        package var transfers: TransferCounters? = .shared

        public init() {}
    }

    private let files = FileDecoderFactory()
    private let network: NetworkClient
    private let clock: any Clock<Duration>
    private let options: Options
    private let events: @Sendable (StreamEvent) -> Void
    private let logger: Logger

    /// - Parameters:
    ///   - clock: the player's clock, on which an HLS source waits between loads of its playlist.
    ///   - logger: passed to every byte source, which records its requests (URLs redacted).
    ///   - events: receives station details and ICY titles (on network threads, in order per
    ///     stream); the now-playing pipeline turns them into metadata.
    package init(
        network: NetworkClient = .shared, options: Options = Options(), clock: any Clock<Duration>, logger: Logger = .silent,
        events: @escaping @Sendable (StreamEvent) -> Void = { _ in }
    ) {
        self.clock = clock
        self.logger = logger
        self.network = network
        self.options = options
        self.events = events
    }

    package func makeDecoder(for track: Track, load: LoadCancellation) throws(PlaybackError) -> any AudioDecoder {
        if FileDecoderFactory.opens(track.url) { return try files.makeDecoder(for: track, load: load) }
        if !track.alternates.isEmpty, !track.isLive { return try openFirstSource(of: track, load: load) }
        return try open(track.url, track: track, load: load, depth: 0)
    }

    /// An episode with alternate sources: its address, then each alternate in order (at most
    /// `maxEntriesTried` in all), until one opens. A source that fails is logged by host; when none
    /// opens, the first one's error is the load's (the feed's own address says most).
    private func openFirstSource(of track: Track, load: LoadCancellation) throws(PlaybackError) -> any AudioDecoder {
        var firstError: PlaybackError?
        for (index, url) in ([track.url] + track.alternates).prefix(max(1, options.maxEntriesTried)).enumerated() {
            do throws(PlaybackError) {
                let decoder = try open(url, track: track, load: load, depth: 0)
                if index > 0 {
                    logger.info("playing from an alternate source", metadata: ["host": .string(LogRedaction.host(url) ?? "?"), "source": "\(index + 1)"])
                }
                return decoder
            } catch {
                if load.isCancelled || error.code == .cancelled { throw error }
                logger.warning(
                    "source failed", metadata: ["host": .string(LogRedaction.host(url) ?? "?"), "source": "\(index + 1)", "error": .string(error.errorType)])
                if firstError == nil { firstError = error }
            }
        }
        throw firstError ?? PlaybackError(.missingAudioURL)
    }

    /// Opens `url`: a stream, or a playlist whose entries are tried in order (one level of nesting).
    private func open(_ url: URL, track: Track, load: LoadCancellation, depth: Int) throws(PlaybackError) -> any AudioDecoder {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw PlaybackError(.unsupportedFormat, underlying: "no byte source for scheme \(url.scheme ?? "none")")
        }
        if PlaylistKind.detect(contentType: nil, url: url, firstBytes: []) != nil {
            return try openPlaylist(url, track: track, load: load, depth: depth)
        }
        if !track.isLive { return try openEpisode(url, track: track, load: load, depth: depth) }
        // Titles arrive on the body task, possibly before this thread reports the connection: each
        // carries the station's headers (read before any body byte).
        let current = SourceReference()
        let source = HTTPByteSource(
            url: url, connection: load.connection, capacity: options.ringCapacity,
            endOfBodyIsEnd: !track.isLive, logger: logger, breakers: options.breakers, transfers: options.transfers,
            onMetadata: { [events] metadata in
                events(.metadata(track, metadata, current.source?.stationInfo ?? IcyStationInfo(headers: [:])))
            })
        current.source = source
        load.onCancel { source.close() }
        do throws(PlaybackError) {
            guard try source.waitForResponse() else {
                throw PlaybackError(track.isLive ? .connectionLost : .malformedData, underlying: "the response ended before any audio")
            }
            // A playlist behind an address without an extension: the content type tells.
            if PlaylistKind.detect(contentType: source.contentType, url: nil, firstBytes: []) != nil {
                source.close()
                return try openPlaylist(url, track: track, load: load, depth: depth)
            }
            events(.connected(track, source.stationInfo))
            let decoder = try FFmpegDecoder(source: source, formatHint: source.contentType, probeSize: options.probeSize)
            // The decoder's figure (from the frames) first; the station's own claim otherwise.
            load.connection.bitRate = decoder.bitRate ?? source.stationInfo.bitrate.map { $0 * 1000 }
            return StreamDecoder(decoder: decoder, source: source)
        } catch {
            source.close()
            throw load.isCancelled ? PlaybackError(.cancelled, underlying: "load abandoned") : error
        }
    }

    /// Opens a finite file (an episode) through a seekable, resuming source. ICY metadata is never
    /// asked for; `.connected` carries empty station details, as a file has none.
    private func openEpisode(_ url: URL, track: Track, load: LoadCancellation, depth: Int) throws(PlaybackError) -> any AudioDecoder {
        var configuration = ResumableHTTPSource.Configuration()
        configuration.capacity = options.ringCapacity
        configuration.breakers = options.breakers
        configuration.transfers = options.transfers
        let source = ResumableHTTPSource(url: url, configuration: configuration, connection: load.connection, logger: logger)
        load.onCancel { source.close() }
        do throws(PlaybackError) {
            try source.open()
            if PlaylistKind.detect(contentType: source.contentType, url: nil, firstBytes: []) != nil {
                source.close()
                return try openPlaylist(url, track: track, load: load, depth: depth)
            }
            events(.connected(track, IcyStationInfo(headers: [:])))
            let decoder = try FFmpegDecoder(source: source, formatHint: source.contentType, probeSize: options.probeSize)
            return StreamDecoder(decoder: decoder, source: source)
        } catch {
            source.close()
            throw load.isCancelled ? PlaybackError(.cancelled, underlying: "load abandoned") : error
        }
    }

    /// An HLS playlist rather than a list of streams: `#EXTM3U` first, and an `#EXT-X-` tag.
    static func isHLS(_ body: Data) -> Bool {
        let text = String(decoding: body.prefix(64 * 1024), as: UTF8.self)
        return text.hasPrefix("#EXTM3U") && text.contains("#EXT-X-")
    }

    /// Opens an HLS stream: its segments become one byte stream (`HLSByteSource`), decoded as
    /// their extension says; `#EXTINF` titles are told like ICY titles. A playlist that is
    /// already finished is a recording with a length that can seek (`HLSRecordingDecoder`).
    private func openHLS(_ url: URL, track: Track, load: LoadCancellation) throws(PlaybackError) -> any AudioDecoder {
        let first = try openHLSStream(url, track: track, load: load, at: nil)
        guard let playlist = (first.source as? HLSByteSource)?.finishedPlaylist else { return first }
        return HLSRecordingDecoder(playlist: playlist, first: first) { sequence throws(PlaybackError) in
            try openHLSStream(url, track: track, load: load, at: sequence)
        }
    }

    /// The HLS stream at `url` as one decoder, from `sequence` (nil: where a first load starts).
    private func openHLSStream(_ url: URL, track: Track, load: LoadCancellation, at sequence: Int?) throws(PlaybackError) -> StreamDecoder {
        let events = self.events
        let source = HLSByteSource(
            url: url, network: network, connection: load.connection, startSequence: sequence, clock: clock, logger: logger,
            onTitle: { title in events(.metadata(track, IcyMetadata(title: title, url: nil), IcyStationInfo(headers: [:]))) })
        // Weakly: a recording opens a source per seek, and the decoder holds the one in use.
        load.onCancel { [weak source] in source?.close() }
        do throws(PlaybackError) {
            guard try source.waitForFirstBytes() else {
                throw PlaybackError(track.isLive ? .connectionLost : .malformedData, underlying: "the HLS stream ended before any audio")
            }
            if sequence == nil { events(.connected(track, IcyStationInfo(headers: [:]))) }
            let decoder = try FFmpegDecoder(source: source, formatHint: source.formatHint, probeSize: options.probeSize)
            load.connection.bitRate = decoder.bitRate
            return StreamDecoder(decoder: decoder, source: source)
        } catch {
            source.close()
            throw load.isCancelled ? PlaybackError(.cancelled, underlying: "load abandoned") : error
        }
    }

    /// Fetches and parses a playlist, then tries its entries in order. The first entry's error is
    /// the one reported when none plays (it is the station's main address).
    private func openPlaylist(_ url: URL, track: Track, load: LoadCancellation, depth: Int) throws(PlaybackError) -> any AudioDecoder {
        guard depth < 2 else { throw PlaybackError(.malformedData, underlying: "playlists nested too deep") }
        let network = self.network
        let response = try BlockingAsync.run(cancellation: load) { () async throws(PlaybackError) -> NetworkResponse in
            // One try: the reconnect supervisor owns retries and shows them.
            try await network.data(
                from: url, operation: "playlist",
                options: .init(timeout: ResilienceDefaults.connectTimeout, maxBytes: StreamingLimits.maxPlaylistBytes, policy: .once))
        }
        let bytes = [UInt8](response.body.prefix(PlaylistKind.sniffLength))
        if Self.isHLS(response.body) { return try openHLS(url, track: track, load: load) }
        let kind = PlaylistKind.detect(contentType: response.headers["content-type"], url: url, firstBytes: bytes) ?? .m3u
        let entries = try PlaylistParser.parse(response.body, kind: kind, baseURL: url)
        var firstError: PlaybackError?
        for entry in entries.prefix(options.maxEntriesTried) {
            if load.isCancelled { throw PlaybackError(.cancelled, underlying: "load abandoned") }
            do throws(PlaybackError) {
                return try open(entry.url, track: track, load: load, depth: depth + 1)
            } catch {
                if error.code == .cancelled { throw error }
                firstError = firstError ?? error
            }
        }
        throw firstError ?? PlaybackError(.malformedData, underlying: "the playlist has no playable entry")
    }
}

/// A late-bound, weak reference to the source a metadata callback belongs to.
private final class SourceReference: Sendable {
    private struct Weak {
        weak var source: HTTPByteSource?
    }

    private let reference = Mutex(Weak())

    var source: HTTPByteSource? {
        get { reference.withLock { $0.source } }
        set { reference.withLock { $0.source = newValue } }
    }
}
