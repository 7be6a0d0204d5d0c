import Foundation
import Library
import Logging
import PlayerCore
import PlayerKit
import Streaming
import Synchronization

/// Podcast subscriptions end to end: a feed is fetched through the program's one `NetworkClient`
/// (network retry preset, conditional GET with the validators the store kept), parsed by
/// `RSSParser` and written to the `LibraryStore`. Every failure is a typed `PlaybackError`, recorded
/// in the local error analytics (which keep no URL or title) and returned to the caller.
///
/// A value type over shared, thread-safe parts (the store, the client, the analytics actor), so
/// each command makes one and uses it from any task.
package struct PodcastLibrary: Sendable {
    /// How feeds are fetched.
    package struct Options: Sendable {
        /// Seconds for one attempt, from request to the last body byte: feeds are bigger than the
        /// status documents the default is for.
        package var timeout: Double = 20
        /// The retry preset for each feed (the network preset: 3 attempts from 1 s).
        package var policy: BackoffPolicy = .network
        /// The largest feed accepted.
        package var maxBytes: Int = LibraryLimits.maxFeedBytes
        /// When a feed that never answers is tried once, or left out of a refresh of all.
        package var learnedRetries: LearnedRetryRule = .standard
        /// The wall clock runs are dated by (tests move it on by days).
        package var now: @Sendable () -> Date = Date.init

        package init() {}
    }

    /// What refreshing one podcast did.
    package enum RefreshOutcome: Sendable, Equatable {
        /// The server said 304: nothing changed since the last fetch.
        case notModified
        case updated(RefreshResult)
        /// Not asked for: the feed is usually unreachable (`LearnedRetryRule`), and it is tried
        /// again at `nextTry` or when the listener refreshes it alone.
        case skipped(unreachableSince: Date, nextTry: Date)
    }

    /// What refreshing one podcast of `refreshAll` did.
    package struct RefreshReport: Sendable {
        /// The podcast as it was before the refresh.
        package var podcast: PodcastRecord
        package var outcome: Result<RefreshOutcome, PlaybackError>

        package init(podcast: PodcastRecord, outcome: Result<RefreshOutcome, PlaybackError>) {
            self.podcast = podcast
            self.outcome = outcome
        }
    }

    /// What importing one OPML subscription did.
    package enum ImportOutcome: Sendable {
        case added(PodcastRecord)
        case alreadyThere(URL)
        case failed(URL, PlaybackError)
    }

    package let store: LibraryStore
    /// When this library judges a feed usually unreachable.
    package var learnedRetries: LearnedRetryRule { options.learnedRetries }
    private var network: NetworkClient
    private let analytics: ErrorAnalytics?
    private let options: Options
    private let logger: Logger

    package init(
        store: LibraryStore, network: NetworkClient = .shared, analytics: ErrorAnalytics? = nil, options: Options = Options(),
        logger: Logger = .silent
    ) {
        self.logger = logger
        self.store = store
        self.network = network
        self.analytics = analytics
        self.options = options
    }

    /// Subscribes to the feed at `feedURL`. The same feed twice is `alreadyInLibrary`, and so is
    /// a feed that moved to one already subscribed (a permanent redirect or `itunes:new-feed-url`
    /// naming its address, or its `podcast:guid`). A feed that moved is kept at its new address.
    package func add(feedURL: URL) async throws(PlaybackError) -> PodcastRecord {
        try await recording("addPodcast") { () async throws(PlaybackError) -> PodcastRecord in
            guard try store.podcasts().first(where: { $0.feedURL == feedURL }) == nil else {
                throw PlaybackError(.alreadyInLibrary, underlying: "feed already subscribed")
            }
            let fetched = try await fetch(feedURL, validators: FeedValidators())
            guard let feed = fetched.feed else {
                throw PlaybackError(.invalidFeed, underlying: "an unconditional request was answered 304")
            }
            let movedTo = Set([fetched.permanentURL, feed.newFeedURL].compactMap { $0 })
            guard try store.podcasts().first(where: { movedTo.contains($0.feedURL) }) == nil else {
                throw PlaybackError(.alreadyInLibrary, underlying: "the feed moved to one already subscribed")
            }
            let added = try store.addPodcast(feedURL: feedURL, feed: feed, validators: fetched.validators)
            return follow(added, fetched: fetched, feed: feed) ?? added
        }
    }

    /// Fetches `podcast`'s feed again (conditionally) and merges new and changed episodes; saved
    /// positions and played marks stay.
    ///
    /// How the run ends is remembered for the feed (`ReachabilityRecord`): a feed that has not
    /// answered for its last runs over days is fetched once, without retries, and a refresh of
    /// all (`automatic`) leaves it out until its next daily try. A success resets it at once.
    package func refresh(_ podcast: PodcastRecord, automatic: Bool = false) async throws(PlaybackError) -> RefreshOutcome {
        let item = ReachabilityItem.feed(podcastID: podcast.id)
        let decision = options.learnedRetries.decide(known(item), now: options.now(), automatic: automatic)
        if case .skip(let since, let nextTry) = decision {
            logger.info("podcast feed skipped: usually unreachable", metadata: ["podcast": "\(podcast.id)"])
            return .skipped(unreachableSince: since, nextTry: nextTry)
        }
        let retries = Counter()
        do throws(PlaybackError) {
            let outcome = try await recording("refreshPodcast") { () async throws(PlaybackError) -> RefreshOutcome in
                let validators = FeedValidators(etag: podcast.etag, lastModified: podcast.lastModified)
                let fetched = try await fetch(
                    podcast.feedURL, validators: validators, once: decision != .retryAsUsual, onRetry: { _ in retries.add() })
                guard let feed = fetched.feed else {
                    try store.markChecked(podcastID: podcast.id, validators: fetched.validators)
                    _ = follow(podcast, fetched: fetched, feed: nil)
                    return .notModified
                }
                var result = try store.refreshPodcast(id: podcast.id, feed: feed, validators: fetched.validators)
                if let moved = follow(result.podcast, fetched: fetched, feed: feed) { result.podcast = moved }
                return .updated(result)
            }
            remember(item, url: podcast.feedURL, ending: .succeeded(tries: retries.value + 1))
            return outcome
        } catch {
            if let ending = RunEnding(failure: error) { remember(item, url: podcast.feedURL, ending: ending) }
            throw error
        }
    }

    /// What the library knows about reaching `item`; nothing when the store cannot say (an
    /// unreadable record must not stop the refresh).
    private func known(_ item: ReachabilityItem) -> ReachabilityRecord {
        do throws(PlaybackError) {
            return try store.reachability(item)
        } catch {
            logger.failure(error, "reachability not read", fields: [:])
            return ReachabilityRecord()
        }
    }

    /// Adds a run's ending to what the library knows about `item`. Best effort: a store that
    /// cannot write loses the lesson, not the refresh.
    private func remember(_ item: ReachabilityItem, url: URL, ending: RunEnding) {
        let hostClass = HostCircuitBreakers.host(of: url).map(HostClass.init(breakerKey:)) ?? .internet
        do throws(PlaybackError) {
            let record = try store.recordRun(item, hostClass: hostClass, ending: ending, at: options.now())
            if case .failed = ending, options.learnedRetries.decide(record, now: options.now(), automatic: false) != .retryAsUsual {
                logger.notice(
                    "podcast feed usually unreachable",
                    metadata: ["podcast": "\(item)", "failedRuns": "\(record.consecutiveFailures)", "hostClass": "\(hostClass.rawValue)"])
            }
        } catch {
            logger.failure(error, "reachability not recorded", fields: [:])
        }
    }

    /// Refreshes every subscription, each on its own (one dead feed is its outcome; the others
    /// still refresh), a few at a time the way `importOPML` fetches: at most
    /// `ResilienceDefaults.batchRequestsInFlight` feeds in flight and
    /// `ResilienceDefaults.batchRequestsPerHost` to one host, so a library of many feeds is not
    /// as slow as its slowest feeds added up, and one dead host's breaker still stops early.
    /// The run spends one retry budget (the client's, or its own when the client has none).
    ///
    /// - Returns: one report per podcast, in `LibraryStore.podcasts()` order.
    /// - Throws: only when the library cannot list its podcasts.
    package func refreshAll() async throws(PlaybackError) -> [RefreshReport] {
        let podcasts = try store.podcasts()
        let run = budgeted()
        return await Self.inLanes(podcasts.map(\.feedURL)) { index in
            do throws(PlaybackError) {
                return RefreshReport(podcast: podcasts[index], outcome: .success(try await run.refresh(podcasts[index], automatic: true)))
            } catch {
                return RefreshReport(podcast: podcasts[index], outcome: .failure(error))
            }
        }
    }

    /// Subscribes to every feed of an OPML document, each on its own: one dead feed is reported in
    /// its outcome and the others are still added. Feeds are fetched a few at a time, at most
    /// `ResilienceDefaults.batchRequestsPerHost` to one host (`HostLanes`), so a dead host's
    /// breaker stops the import's attempts on it early: the feeds not tried fail with
    /// `circuitOpen`, which names the host and when it is tried again. The import spends one
    /// retry budget (the client's, or its own when the client has none).
    package func importOPML(_ data: Data) async throws(PlaybackError) -> [ImportOutcome] {
        let subscriptions = try OPMLParser.parse(data)
        let run = budgeted()
        return await Self.inLanes(subscriptions.map(\.feedURL)) { index in
            let url = subscriptions[index].feedURL
            do throws(PlaybackError) {
                return .added(try await run.add(feedURL: url))
            } catch {
                return error.code == .alreadyInLibrary ? .alreadyThere(url) : .failed(url, error)
            }
        }
    }

    /// This library with a retry budget for one batch: its client's, or a fresh one.
    private func budgeted() -> PodcastLibrary {
        var budgeted = self
        if budgeted.network.retryBudget == nil { budgeted.network.retryBudget = RetryBudget() }
        return budgeted
    }

    /// Runs `work` for each of `urls`' indices in `HostLanes` lanes, a few lanes at a time, and
    /// returns the outcomes in `urls`' order.
    private static func inLanes<Outcome: Sendable>(
        _ urls: [URL], _ work: @escaping @Sendable (Int) async -> Outcome
    ) async -> [Outcome] {
        var outcomes = [Outcome?](repeating: nil, count: urls.count)
        let lanes = HostLanes.lanes(for: urls)
        await withTaskGroup(of: [(Int, Outcome)].self) { group in
            var next = 0
            func launch() {
                guard next < lanes.count else { return }
                let lane = lanes[next]
                next += 1
                group.addTask {
                    var done: [(Int, Outcome)] = []
                    for index in lane { done.append((index, await work(index))) }
                    return done
                }
            }
            for _ in 0..<ResilienceDefaults.batchRequestsInFlight { launch() }
            for await finished in group {
                for (index, outcome) in finished { outcomes[index] = outcome }
                launch()
            }
        }
        return outcomes.compactMap { $0 }
    }

    /// Every subscription as an OPML 2.0 document.
    package func exportOPML(dateCreated: Date = Date()) throws(PlaybackError) -> Data {
        let subscriptions = try store.podcasts().map { OPMLSubscription(title: $0.title, feedURL: $0.feedURL) }
        return OPMLWriter.write(subscriptions, title: "Tonearm podcasts", dateCreated: dateCreated)
    }

    // MARK: - Fetching

    /// A parsed feed and the validators to send next time; `feed` is nil for a 304.
    private struct Fetched {
        var feed: PodcastFeed?
        var validators: FeedValidators
        /// Where every redirect on the way permanently moved the feed (301, 308), if it did.
        var permanentURL: URL?
    }

    /// Moves `podcast` to where its feed says it now lives (`itunes:new-feed-url`), else to where
    /// a permanent redirect led, so later fetches go there directly; the old address may stop
    /// answering once apps have followed. The move is best effort: the refresh already succeeded,
    /// so an address another subscription holds, or a store failure, is logged and the podcast
    /// stays where it was. Returns the moved podcast.
    private func follow(_ podcast: PodcastRecord, fetched: Fetched, feed: PodcastFeed?) -> PodcastRecord? {
        guard let target = [feed?.newFeedURL, fetched.permanentURL].compactMap({ $0 }).first(where: { $0 != podcast.feedURL }) else {
            return nil
        }
        let fields: Logger.Metadata = ["podcast": "\(podcast.id)", "to": .string(WebAddress.display(target))]
        do throws(PlaybackError) {
            switch try store.moveFeed(podcastID: podcast.id, to: target) {
            case .moved(let moved):
                logger.notice("podcast feed moved", metadata: fields)
                return moved
            case .addressInUse:
                logger.warning("podcast feed moved to an address another subscription has; kept where it was", metadata: fields)
            case .refused:
                logger.warning("podcast feed moved to an address that is not http(s); kept where it was", metadata: fields)
            case .unchanged:
                break
            }
        } catch {
            logger.failure(error, "podcast feed move not kept", fields: ["podcast": "\(podcast.id)"])
        }
        return nil
    }

    /// - Parameters:
    ///   - once: one try, whatever `options.policy` says (a feed that is usually unreachable).
    ///   - onRetry: told of each retry.
    private func fetch(
        _ url: URL, validators: FeedValidators, once: Bool = false, onRetry: (@Sendable (RetryAttemptReport) -> Void)? = nil
    ) async throws(PlaybackError) -> Fetched {
        var headers: [String: String] = [:]
        if let etag = validators.etag { headers["If-None-Match"] = etag }
        if let lastModified = validators.lastModified { headers["If-Modified-Since"] = lastModified }
        var request = NetworkClient.Options(
            timeout: options.timeout, maxBytes: options.maxBytes, policy: once ? .once : options.policy,
            accept: "application/rss+xml, application/atom+xml, application/xml;q=0.9, text/xml;q=0.8, */*;q=0.1", headers: headers,
            tracksRedirects: true)
        request.onRetry = onRetry
        let response = try await network.data(from: url, operation: "podcastFeed", options: request)
        if response.status == 304 { return Fetched(feed: nil, validators: validators, permanentURL: response.permanentURL) }
        // Validators are opaque tokens the server gave; kept short and printable, never shown.
        let next = FeedValidators(
            etag: response.headers["etag"].map { TextSanitizer.singleLine($0, maxLength: 256) },
            lastModified: response.headers["last-modified"].map { TextSanitizer.singleLine($0, maxLength: 64) })
        return Fetched(feed: try RSSParser.parse(response.body, feedURL: response.url), validators: next, permanentURL: response.permanentURL)
    }

    /// Runs `body`, recording its failure (a typed error only: no URL, no title) in the analytics.
    private func recording<T>(
        _ operation: AnalyticsIdentifier, _ body: () async throws(PlaybackError) -> T
    ) async throws(PlaybackError) -> T {
        do {
            return try await body()
        } catch {
            logger.failure(error, "library operation failed", fields: ["operation": operation.rawValue])
            if let analytics { await analytics.record(error, operation: operation) }
            throw error
        }
    }
}

/// A count that tasks may add to (retries told on the network's threads).
private final class Counter: Sendable {
    private let count = Mutex(0)

    func add() { count.withLock { $0 += 1 } }

    var value: Int { count.withLock { $0 } }
}
