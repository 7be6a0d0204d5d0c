import AudioEngine
import Foundation
import Logging
import PlayerCore
import Services
import Streaming

/// The player with every layer plugged in: files and network sources (`StreamingDecoderFactory`),
/// ICY titles through the metadata and artwork services into `.notice(.metadata)`, an episode's
/// JSON chapters through the chapters service (`ChapterSource`), and the connectivity monitor
/// into reconnect pausing. Front ends (the CLI, the terminal UI, MPRIS) use
/// `player` for everything else.
public final class TonearmPlayer: Sendable {
    /// How the services are set up.
    public struct Services: Sendable {
        public var network: NetworkClient
        public var metadata: MetadataService.Configuration
        public var artwork: ArtworkService.Configuration
        /// An episode's JSON chapters: the same address rules as artwork.
        public var chapters: ChaptersService.Configuration
        public var streaming: StreamingDecoderFactory.Options
        /// Nil: assume online (no monitor).
        public var connectivity: ConnectivityMonitor?
        /// Where errors and their resolutions are recorded (local only; no personal data).
        public var analytics: ErrorAnalytics?
        /// Where the player and its network sources tell what they do (silent by default). The
        /// `network` client takes its own logger, as it is shared with the library.
        public var logger: Logger
        /// Where measured loudness is kept between runs (the library's); nil measures every run.
        public var loudnessStore: (any LoudnessStore)?
        /// An episode's transcript: the same address rules as its chapters.
        public var transcripts: TranscriptService.Configuration
        /// Where fetched transcripts are kept between runs (the library's); nil fetches every run.
        public var transcriptStore: (any TranscriptStore)?
        /// Chapters known without a fetch (those an episode's feed writes in); nil knows none.
        public var knownChapters: (any KnownChapters)?
        /// How much of a network track is held before it sounds (`--buffer`).
        public var buffering: NetworkBuffering

        public init(
            network: NetworkClient = .shared, metadata: MetadataService.Configuration = .init(),
            artwork: ArtworkService.Configuration = .init(), chapters: ChaptersService.Configuration? = nil,
            streaming: StreamingDecoderFactory.Options = .init(),
            connectivity: ConnectivityMonitor? = nil, analytics: ErrorAnalytics? = nil, logger: Logger = .silent,
            loudnessStore: (any LoudnessStore)? = nil, buffering: NetworkBuffering = NetworkBuffering(),
            transcriptStore: (any TranscriptStore)? = nil, knownChapters: (any KnownChapters)? = nil
        ) {
            self.transcriptStore = transcriptStore
            self.knownChapters = knownChapters
            self.buffering = buffering
            self.loudnessStore = loudnessStore
            self.logger = logger
            self.analytics = analytics
            self.network = network
            self.metadata = metadata
            self.artwork = artwork
            // Unless told otherwise, chapters may come from where artwork may.
            self.chapters = chapters ?? ChaptersService.Configuration(allowPrivateAddresses: artwork.allowPrivateAddresses)
            self.transcripts = TranscriptService.Configuration(allowPrivateAddresses: self.chapters.allowPrivateAddresses)
            self.streaming = streaming
            self.connectivity = connectivity
        }
    }

    public let player: AudioPlayer
    /// This player's retry budget for the requests of its services (metadata, artwork, status
    /// API). Reconnects of the stream spend the state machine's own budget of the same size
    /// (`PlayerStateMachine.Configuration.reconnectBudgetCapacity`): the machine is pure, so it
    /// keeps its bucket in its state rather than share this object.
    public let retryBudget: RetryBudget
    private let tasks: [Task<Void, Never>]
    private let streamEvents: AsyncStream<StreamEvent>.Continuation

    public init(
        output: any AudioSink, options: AudioPlayer.Options = .init(), services: Services = .init(),
        clock: any Clock<Duration> = SystemClock(), random: SeededRandom = .systemSeeded()
    ) {
        var services = services
        let budget = services.network.retryBudget ?? RetryBudget(clock: clock)
        services.network.retryBudget = budget
        retryBudget = budget
        let (events, continuation) = AsyncStream.makeStream(of: StreamEvent.self, bufferingPolicy: .unbounded)
        streamEvents = continuation
        let factory = StreamingDecoderFactory(network: services.network, options: services.streaming, clock: clock, logger: services.logger) {
            continuation.yield($0)
        }
        let player = AudioPlayer(
            output: output, options: options, decoders: factory, clock: clock, random: random, analytics: services.analytics,
            logger: services.logger,
            chapterSource: FeedChapters(
                service: ChaptersService(network: services.network, configuration: services.chapters, analytics: services.analytics),
                known: services.knownChapters),
            transcriptSource: PlayerTranscripts(
                service: TranscriptService(network: services.network, configuration: services.transcripts), store: services.transcriptStore,
                maxSidecarBytes: ServiceLimits.maxTranscriptBytes))
        self.player = player
        let pipeline = NowPlayingPipeline(
            metadata: MetadataService(network: services.network, configuration: services.metadata, analytics: services.analytics),
            artwork: ArtworkService(network: services.network, configuration: services.artwork, analytics: services.analytics))
        // Titles, artwork and the network's comings and goings are told on a thread of their own:
        // a busy pool delays neither what Now Playing shows nor a reconnect when the network is back.
        let told = ThreadExecutor(name: "tonearm.nowplaying")
        var tasks = [
            Task(executorPreference: told) {
                for await event in events {
                    let output = await pipeline.handle(event)
                    if let metadata = output.metadata { await player.publish(metadata) }
                    if let problem = output.problem { await player.publishProblem(problem) }
                }
            }
        ]
        if let monitor = services.connectivity {
            tasks.append(
                Task(executorPreference: told) {
                    for await online in await monitor.updates() { await player.connectivityChanged(online: online) }
                })
        }
        self.tasks = tasks
    }

    /// Stops the player and the service tasks.
    public func shutdown() async {
        streamEvents.finish()
        tasks.forEach { $0.cancel() }
        await player.shutdown()
    }
}

/// Chapters known for a track without fetching anything (an episode's chapters written into its
/// feed); the library provides them.
public protocol KnownChapters: Sendable {
    func chapters(for track: Track) -> [Chapter]?
}

/// An episode's chapters from its feed, for the player: its JSON chapters document when it names
/// one (the richer source), else, or when that cannot be had, the chapters written into the feed.
struct FeedChapters: ChapterSource {
    let service: ChaptersService
    let known: (any KnownChapters)?

    func chapters(for track: Track) async -> Result<ChapterList, PlaybackError>? {
        let written = known?.chapters(for: track).map { ChapterList(trackID: track.id, origin: .feed, chapters: $0) }
        guard let url = track.chaptersURL else { return written.map { .success($0) } }
        let fetched = await service.chapters(at: url, trackID: track.id)
        if case .failure = fetched, let written, !written.isEmpty { return .success(written) }
        return fetched
    }
}
