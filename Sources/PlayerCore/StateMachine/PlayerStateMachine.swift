import Foundation

/// The pure decision core of the player: `handle(_:)` takes an event and returns the effects the
/// I/O layers must perform, updating `state` on the way.
///
/// Same pattern as AsyncHTTPClient's connection-pool state machine: no audio, network, clock or
/// global randomness here (jitter comes from a seeded generator the machine owns), so every
/// decision is unit-testable and replayable.
///
/// Guarantees:
/// - An intent the current state does not allow throws `invalidTransition` and changes nothing.
/// - A fact that no longer applies changes nothing and returns no effects.
/// - Every state change is one of `PlayerState.transitionTable` and yields a valid state; a change
///   that would break this is refused (thrown, state kept) rather than applied silently.
public struct PlayerStateMachine: Sendable {
    /// Tunables, with the defaults Tonearm ships.
    public struct Configuration: Sendable, Hashable {
        /// Crossfade into the next item when the item does not say otherwise.
        public var defaultCrossfade: CrossfadeSpec
        /// Crossfade used when the user skips.
        public var skipCrossfade: CrossfadeSpec
        /// Stop's fade-out, 0.3...1.0 s.
        public var fadeOutDuration: TimeInterval
        /// How long before a crossfade the next item starts loading.
        public var preloadLead: TimeInterval
        /// The last item ends with the same gentle fade as stop (playing ->
        /// fadingOut -> finished).
        public var fadeOutAtEnd: Bool
        /// Backoff of automatic reconnects and how long they may go on.
        public var reconnectPolicy: BackoffPolicy
        public var reconnectGiveUpAfter: TimeInterval
        /// The playback session's retry budget for reconnects (`RetryBudget`'s sizes by default):
        /// each scheduled reconnect takes a token, and a spent budget ends the retries with the
        /// error that caused them, however many attempts the policy would still allow.
        public var reconnectBudgetCapacity: Double
        public var reconnectBudgetRefillPerSecond: Double
        /// A network item that has not delivered audio this long after its load began is shown as
        /// still connecting (told early; the connect timeout fails it later).
        public var stillConnectingAfter: TimeInterval
        /// Buffering (the opening fill of a network item, or an underrun) longer than this is given
        /// up and reconnected.
        public var bufferingTimeout: TimeInterval
        /// How long playback may wait for data before the state says `buffering`. Real time: 0, the
        /// listener hears the silence at once. Rendering as fast as possible waits for the decoder
        /// all the time and writes no silence, so only a longer wait (the network, not the CPU) is
        /// worth showing (`ResilienceDefaults.renderWaitShownAfter`).
        public var underrunGrace: TimeInterval
        /// A network source dry this long (its reader waiting, no bytes coming) has a dead
        /// connection, which is given up: an episode asks again at the same byte, a live stream
        /// reconnects. Opening, it is the connect timeout.
        public var stallTimeout: TimeInterval
        /// A live playlist loaded this many times in a row without a new segment has stalled at
        /// its origin: it is answered as a drop (`stalled`).
        public var unchangedPlaylistLoads: Int
        /// The listener's volume when the player starts (the saved setting, or `--volume`).
        public var volume: Volume
        /// A sleep timer set before playback starts (`--sleep`); its countdown begins with the sound.
        public var sleep: SleepRequest?
        /// How long the sleep timer's fade-out lasts.
        public var sleepFadeDuration: TimeInterval
        /// The speed files and episodes start at (the saved one, or `--speed`).
        public var speed: PlaybackSpeed
        /// Whether long silences of files and episodes start shortened (`--trim-silence`, or a
        /// podcast's setting).
        public var trimsSilence: Bool
        /// How loudness is levelled from the start (the saved setting, or `--loudness`).
        public var loudness: LoudnessLevelling

        public init(
            defaultCrossfade: CrossfadeSpec = CrossfadeSpec(duration: 0),
            skipCrossfade: CrossfadeSpec = CrossfadeSpec(duration: 2),
            fadeOutDuration: TimeInterval = 0.5,
            preloadLead: TimeInterval = 5,
            fadeOutAtEnd: Bool = true,
            reconnectPolicy: BackoffPolicy = .reconnect,
            reconnectGiveUpAfter: TimeInterval = ResilienceDefaults.reconnectGiveUpAfter,
            stillConnectingAfter: TimeInterval = ResilienceDefaults.stillConnectingAfter,
            bufferingTimeout: TimeInterval = ResilienceDefaults.bufferingTimeout,
            underrunGrace: TimeInterval = 0,
            stallTimeout: TimeInterval = ResilienceDefaults.stallTimeout,
            unchangedPlaylistLoads: Int = ResilienceDefaults.unchangedPlaylistLoads,
            reconnectBudgetCapacity: Double = RetryBudget.defaultCapacity,
            reconnectBudgetRefillPerSecond: Double = RetryBudget.defaultRefillPerSecond,
            volume: Volume = .full,
            sleep: SleepRequest? = nil,
            sleepFadeDuration: TimeInterval = 10,
            speed: PlaybackSpeed = .normal,
            trimsSilence: Bool = false,
            loudness: LoudnessLevelling = .off
        ) {
            self.defaultCrossfade = defaultCrossfade
            self.skipCrossfade = skipCrossfade
            self.fadeOutDuration = min(Self.fadeOutRange.upperBound, max(Self.fadeOutRange.lowerBound, fadeOutDuration))
            self.preloadLead = max(0, preloadLead)
            self.fadeOutAtEnd = fadeOutAtEnd
            self.reconnectPolicy = reconnectPolicy
            self.reconnectGiveUpAfter = reconnectGiveUpAfter
            self.stillConnectingAfter = stillConnectingAfter
            self.bufferingTimeout = bufferingTimeout
            self.underrunGrace = max(0, underrunGrace)
            self.stallTimeout = max(0.1, stallTimeout)
            self.unchangedPlaylistLoads = max(1, unchangedPlaylistLoads)
            self.reconnectBudgetCapacity = reconnectBudgetCapacity
            self.reconnectBudgetRefillPerSecond = reconnectBudgetRefillPerSecond
            self.volume = volume
            self.sleep = sleep
            self.speed = speed
            self.trimsSilence = trimsSilence
            self.loudness = loudness
            self.sleepFadeDuration = min(Self.sleepFadeRange.upperBound, max(Self.sleepFadeRange.lowerBound, sleepFadeDuration))
        }

        /// Stop fades over 0.3-1.0 s.
        public static let fadeOutRange: ClosedRange<TimeInterval> = 0.3...1.0
        /// The sleep timer fades over 1-60 s.
        public static let sleepFadeRange: ClosedRange<TimeInterval> = 1...60
    }

    public internal(set) var state: PlayerState = .idle
    public let configuration: Configuration
    /// The listener's volume, kept across items, pauses and reconnects.
    public internal(set) var volume: Volume
    /// The sleep timer, if one is set.
    public internal(set) var sleepTimer: SleepTimer?
    /// The listener's speed for files and episodes (live streams play at 1x whatever it is).
    public internal(set) var speed: PlaybackSpeed
    /// Long silences of files and episodes are shortened (never a live stream's).
    public internal(set) var trimsSilence: Bool
    /// How loudness is levelled; context like the volume.
    public internal(set) var loudness: LoudnessLevelling

    // MARK: Context the state does not show

    /// What to play, and which entry is current.
    var queue: [QueueItem] = []
    var index = 0
    /// The index the front end knows each queue entry by (see `currentItemIndex`), entry by entry.
    var itemIndices: [Int] = []
    /// The deck the current track plays on.
    public internal(set) var activeDeck: DeckID = .a
    /// Position and duration of the current track.
    var position: TimeInterval = 0
    var duration: TimeInterval?
    /// The load in flight, if any.
    var pendingLoad: PendingLoad?
    /// The next entry while a crossfade is prepared or runs.
    var next: NextItem?
    /// The crossfade that runs or is paused.
    var crossfade: CrossfadeRun?
    /// What a `replace` starts once the fade-out under way is over.
    var pendingReplacement: PlayerEvent.Replacement?
    /// The bed and bells of the session that plays (see `PlayerStateMachine+Layers`).
    var layers: LayersRun?
    /// The automatic recovery in progress.
    var recovery: RecoveryRun?
    /// The user's Retry from `failed`, reported as `recovered(by: .manualRetry)` once playing.
    var manualRetryOf: PlaybackError?
    /// A paused network stream lost its connection: resume must reconnect.
    var connectionLostWhilePaused = false
    /// The output went away while nothing was sounding: resume must reopen it.
    var outputMissing = false
    var online = true
    /// The session's reconnect budget, made full at the first reconnect.
    var reconnectBudget: TokenBucket?
    var random: SeededRandom
    var loadCounter: UInt64 = 0
    /// The latest instant the machine was told (a fact's instant, or `handle(_:at:)`'s); stamps
    /// crossfade-pause snapshots and starts timers.
    var lastKnownTime = PlayerTime.zero
    /// The timers the shell is running for the machine, by slot (see `reconcileTimers`).
    var armedTimers: [PlayerTimer.Slot: ArmedTimer] = [:]
    /// When the current underrun began (`buffering(.underrun)`), for the buffering timeout.
    var underrunSince: PlayerTime?
    /// Rendering has waited for data since then (an underrun not shown yet, see
    /// `Configuration.underrunGrace`); nil while data flows.
    var starvingSince: PlayerTime?
    /// When to look at the starvation again; the timer is not moved for every short wait.
    var starvationCheckAt: PlayerTime?
    /// Since when each deck's source has been dry (`stalled` without `receiving` since).
    var drySince: [DeckID: PlayerTime] = [:]
    /// When to look at the dry sources again; not moved for every short dry spell.
    var stallCheckAt: PlayerTime?
    /// The last count of unchanged loads each deck's live playlist reported, until bytes come.
    var unchangedPlaylistLoads: [DeckID: Int] = [:]
    /// A dropped live stream being asked for again while its buffer plays.
    var backgroundReconnect: BackgroundReconnect?
    /// Reconnects and stalls of the streams played, for the connection indicator.
    public internal(set) var connectionIncidents = ConnectionIncidents()
    /// The streams the listener was warned keep dropping (`DropWarning`), each once.
    var droppingWarned: Set<Track.ID> = []

    /// - Parameters:
    ///   - configuration: tunables.
    ///   - random: the source of reconnect jitter; pass a fixed seed in tests.
    public init(configuration: Configuration = Configuration(), random: SeededRandom = .systemSeeded()) {
        self.configuration = configuration
        self.volume = configuration.volume
        self.speed = configuration.speed
        self.trimsSilence = configuration.trimsSilence
        self.loudness = configuration.loudness
        self.random = random
        if let sleep = configuration.sleep { _ = setSleepTimer(sleep) }
    }

    /// The actions the machine accepts now: exactly `state.allowedActions`.
    public var allowedActions: [PlayerAction] { state.allowedActions }

    /// The current position of the current track, seconds.
    public var currentPosition: TimeInterval { position }

    /// The current track's duration, when known.
    public var currentDuration: TimeInterval? { duration }

    /// Handles one event and returns the effects to perform, in order.
    ///
    /// - Throws: `invalidTransition` for an intent the state does not allow (nothing changes), or for
    ///   a change that would leave the transition table (a bug: the state is kept).
    public mutating func handle(_ event: PlayerEvent) throws(PlaybackError) -> [PlayerEffect] {
        if let action = event.action, !state.allows(action) {
            throw PlaybackError.invalidTransition(action, in: state.name)
        }
        let saved = self
        var effects = apply(event)
        if let replacement = pendingReplacement, state.name == .finished {
            // The fade a replacement waited for is over (or ended early by an error).
            effects += start(replacement)
        }
        if saved.state != state || saved.state.name != state.name {
            guard saved.state.canTransition(to: state), state.isValid else {
                let refused = state.name
                self = saved
                throw PlaybackError(
                    .invalidTransition, rejectedAction: event.action, rejectedState: saved.state.name,
                    underlying: "refused internal change \(saved.state.name.rawValue) -> \(refused.rawValue)")
            }
        }
        effects += updateSleepTimer(from: saved)
        effects += reconcileTimers()
        effects += reconcileLayers()
        return effects
    }

    /// Handles `event`, which happened at `now` on the player's clock. The shell uses this form for
    /// every event, so timers started by an intent (a play starts the opening timeout) count from
    /// the right instant.
    public mutating func handle(_ event: PlayerEvent, at now: PlayerTime) throws(PlaybackError) -> [PlayerEffect] {
        let before = lastKnownTime
        if now > lastKnownTime { lastKnownTime = now }
        do {
            return try handle(event)
        } catch {
            lastKnownTime = before
            throw error
        }
    }
}

// MARK: - Context types

extension PlayerStateMachine {
    struct PendingLoad: Sendable, Hashable {
        enum Purpose: Sendable, Hashable { case current, next }
        let id: LoadID
        let deck: DeckID
        let purpose: Purpose
        let from: TimeInterval
        /// When the load began, for the still-connecting and opening timeouts.
        let startedAt: PlayerTime
    }

    /// A timer the shell runs: what fires, and when.
    struct ArmedTimer: Sendable, Hashable {
        let timer: PlayerTimer
        let at: PlayerTime
    }

    struct NextItem: Sendable, Hashable {
        /// Queue index of the incoming item.
        var index: Int
        var ready = false
        var duration: TimeInterval?
        var crossfadeScheduled = false
        var skipRequested = false
    }

    struct CrossfadeRun: Sendable, Hashable {
        let from: DeckID
        let to: DeckID
        let duration: TimeInterval
        let curve: FadeCurve
        var progress: Float = 0
        var fromPosition: TimeInterval
        var toPosition: TimeInterval = 0
    }

    struct RecoveryRun: Sendable, Hashable {
        enum Kind: Sendable, Hashable { case source, output }
        let kind: Kind
        let startedAt: PlayerTime
        var attempt: Int
        var lastDelay: Double?
        var cause: PlaybackError
        /// Where the source resumes (0 for live streams).
        let resumePosition: TimeInterval
        /// Seconds spent offline, which do not count towards giving up.
        var offlineSeconds: Double = 0
        var offlineSince: PlayerTime?
    }
}

// MARK: - Shared helpers

extension PlayerStateMachine {
    var currentItem: QueueItem? { queue.indices.contains(index) ? queue[index] : nil }

    /// The entry after the current one, skipping nothing.
    var followingIndex: Int? { queue.indices.contains(index + 1) ? index + 1 : nil }

    /// The rate the current item plays at: media seconds per second heard.
    var outgoingRate: Double { speed.rate(for: currentItem?.track) }

    /// The entry playback goes on to by itself when the current one ends: none when the sleep
    /// timer ends with this item.
    var automaticNextIndex: Int? { sleepTimer?.ending == .endOfItem ? nil : followingIndex }

    mutating func makeLoad(deck: DeckID, track: Track, from: TimeInterval, purpose: PendingLoad.Purpose) -> PlayerEffect {
        loadCounter += 1
        let id = LoadID(loadCounter)
        // A new source on this deck: the old one's silence says nothing about it.
        drySince[deck] = nil
        unchangedPlaylistLoads[deck] = nil
        if backgroundReconnect?.deck == deck { backgroundReconnect = nil }
        let start = track.isLive ? 0 : from
        pendingLoad = PendingLoad(id: id, deck: deck, purpose: purpose, from: start, startedAt: lastKnownTime)
        return .load(id, deck: deck, track: track, from: start)
    }

    /// The crossfade between the current entry and `nextIndex`, shortened for short tracks.
    func crossfadeSpec(into nextIndex: Int, skipping: Bool) -> (duration: TimeInterval, curve: FadeCurve) {
        let spec = skipping ? configuration.skipCrossfade : (currentItem?.crossfadeIntoNext ?? configuration.defaultCrossfade)
        let incoming = queue.indices.contains(nextIndex) ? queue[nextIndex].track.duration : nil
        let outgoing = skipping ? nil : duration
        return (spec.effectiveDuration(outgoing: outgoing, incoming: incoming), spec.curve)
    }

    func resumePoint(for track: Track?) -> ResumePoint? {
        guard let track else { return nil }
        let at = recovery?.resumePosition ?? position
        return ResumePoint(track: track, position: at, duration: duration ?? track.duration)
    }

    /// Position to save, for tracks where a position means something.
    func persist(_ track: Track?) -> [PlayerEffect] {
        guard let track, track.isSeekable, let point = resumePoint(for: track) else { return [] }
        return [.persistPosition(point)]
    }

    /// Releases every deck and forgets transient context.
    mutating func releaseAll() -> [PlayerEffect] {
        pendingLoad = nil
        next = nil
        crossfade = nil
        connectionLostWhilePaused = false
        starvingSince = nil
        starvationCheckAt = nil
        drySince = [:]
        stallCheckAt = nil
        unchangedPlaylistLoads = [:]
        let flagOver: [PlayerEffect] = backgroundReconnect != nil ? [.reconnectingInBackground(false)] : []
        backgroundReconnect = nil
        let layersOver: [PlayerEffect] = layers != nil ? [.stopLayers, .layersChanged(nil)] : []
        layers = nil
        return flagOver + [.unload(.a), .unload(.b)] + layersOver
    }

    /// Makes `index` current on `deck` from `position` (after a crossfade or a gap).
    mutating func promote(index newIndex: Int, deck: DeckID, position newPosition: TimeInterval, duration newDuration: TimeInterval?) {
        index = newIndex
        activeDeck = deck
        position = newPosition
        duration = newDuration ?? queue[newIndex].track.duration
        next = nil
        crossfade = nil
    }

    /// Goes to `failed`, keeping what a Retry needs.
    mutating func fail(_ error: PlaybackError, recoverable: Bool? = nil) -> [PlayerEffect] {
        let track = state.currentTrack
        let point = resumePoint(for: track)
        var effects = persist(track)
        effects += releaseAll()
        let canRetry = (recoverable ?? error.isRecoverable) && point != nil
        state = .failed(error: error, recoverable: canRetry, resumePoint: point)
        recovery = nil
        manualRetryOf = nil
        return effects
    }
}
