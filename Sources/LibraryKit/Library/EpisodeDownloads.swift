import Foundation
import Library
import Logging
import PlayerCore
import PlayerKit
import Services
import Streaming
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Podcast episodes kept on disk for listening without a network: fetched through the program's
/// `NetworkClient` (its retry preset, the host's circuit breaker, the run's retry budget), at most
/// `maxConcurrent` at once, into `episodes/` beside the library under hashed names.
///
/// A download writes `<name>.part` and renames it to `<name>` only once the file is whole and on
/// the disk, so nothing named as complete ever holds a part; what a failed or cut try fetched stays
/// for the next, which continues at the byte (`NetworkClient.download`). The store keeps where each
/// stands, so `tonearm podcast episodes`, the Episodes list and a later run all see it. One
/// episode is downloaded by one downloader at a time, across processes (`EpisodeFileLock`). An
/// episode's transcript comes with it.
///
/// A value type over shared, thread-safe parts, like `PodcastLibrary`.
package struct EpisodeDownloads: Sendable {
    /// What happens to downloads while they run, for progress bars and lines.
    package enum Event: Sendable, Equatable {
        case started(episodeID: Int64, title: String)
        case progress(episodeID: Int64, FileDownload.Progress)
        /// `seconds`: from the first request to the file named complete (0 when it was already whole).
        case finished(episodeID: Int64, bytes: Int64, seconds: Double)
        case failed(episodeID: Int64, PlaybackError)
        /// A download deleted to keep under the storage cap or the podcast's "keep the newest N".
        case removed(episodeID: Int64, title: String)
    }

    /// How one episode's download ended.
    package struct Outcome: Sendable {
        package var episode: EpisodeRecord
        package var result: Result<DownloadRecord, PlaybackError>
    }

    /// What keeping under the storage cap did.
    package struct CapOutcome: Sendable, Equatable {
        package var removed: [Int64] = []
        /// Bytes of downloads on disk afterwards.
        package var totalBytes: Int64 = 0
        /// Still over the cap: only partly played (or just downloaded) episodes are left, and those
        /// are never removed without the listener asking.
        package var overCap = false
    }

    /// The setting that holds the storage cap, in bytes (unset: no cap).
    package static let storageCapSetting = "downloads.storageCapBytes"
    /// Downloads at once, in a batch and per run.
    package static let maxConcurrent = 2

    package let store: LibraryStore
    /// The folder of the episodes' files.
    package let directory: URL
    private let network: NetworkClient
    private let analytics: ErrorAnalytics?
    private var options: FileDownload.Options
    private let logger: Logger
    /// When a podcast whose downloads keep failing is tried once, or left out of automatic downloads.
    package var learnedRetries: LearnedRetryRule = .standard
    /// The wall clock runs are dated by.
    package var now: @Sendable () -> Date = Date.init

    package init(
        store: LibraryStore, network: NetworkClient = .shared, directory: URL? = nil, analytics: ErrorAnalytics? = nil,
        options: FileDownload.Options = .init(), logger: Logger = .silent
    ) {
        self.store = store
        self.network = network
        self.directory = directory ?? store.databaseURL.deletingLastPathComponent().appendingPathComponent("episodes", isDirectory: true)
        self.analytics = analytics
        self.options = options
        self.logger = logger
    }

    // MARK: - Downloading

    /// Downloads each episode (duplicates once), at most `maxConcurrent` at once, then keeps the
    /// downloads under the storage cap without removing any of these. One failure does not stop
    /// the others; outcomes come back in the order asked.
    package func download(_ episodeIDs: [Int64], events: @escaping @Sendable (Event) -> Void = { _ in }) async -> [Outcome] {
        var seen = Set<Int64>()
        let ids = episodeIDs.filter { seen.insert($0).inserted }
        var outcomes = [Outcome?](repeating: nil, count: ids.count)
        await withTaskGroup(of: (Int, Outcome?).self) { group in
            var next = 0
            func launch() {
                guard next < ids.count else { return }
                let (index, id) = (next, ids[next])
                next += 1
                group.addTask { (index, await self.downloadOne(id, events: events)) }
            }
            for _ in 0..<Self.maxConcurrent { launch() }
            for await (index, outcome) in group {
                outcomes[index] = outcome
                launch()
            }
        }
        _ = try? keepUnderStorageCap(protecting: Set(ids), events: events)
        return outcomes.compactMap { $0 }
    }

    /// One episode: nil only when the library cannot say what the episode is (already reported).
    private func downloadOne(_ id: Int64, events: @escaping @Sendable (Event) -> Void) async -> Outcome? {
        let episode: EpisodeRecord
        do {
            episode = try store.episode(id: id)
        } catch {
            events(.failed(episodeID: id, error))
            return nil
        }
        events(.started(episodeID: id, title: episode.title))
        let stopwatch = Stopwatch()
        do throws(PlaybackError) {
            let record = try await fetch(episode, events: events)
            events(.finished(episodeID: id, bytes: record.receivedBytes, seconds: stopwatch.seconds))
            if episode.transcript != nil { await keepTranscript(of: episode) }
            return Outcome(episode: episode, result: .success(record))
        } catch {
            logger.failure(error, "episode download failed", fields: ["episode": String(id)])
            if let analytics { await analytics.record(error, operation: "downloadEpisode") }
            events(.failed(episodeID: id, error))
            return Outcome(episode: episode, result: .failure(error))
        }
    }

    /// A downloaded episode's transcript is fetched and kept with it: it reads offline, and
    /// search finds its words. One that cannot be had leaves the download as it is (the failure
    /// is in the analytics and the log).
    private func keepTranscript(of episode: EpisodeRecord) async {
        do throws(PlaybackError) {
            _ = try await EpisodeTranscripts(store: store, network: network, analytics: analytics).transcript(episodeID: episode.id)
        } catch {
            logger.failure(error, "transcript not kept with the download", fields: ["episode": String(episode.id)])
        }
    }

    private func fetch(_ episode: EpisodeRecord, events: @escaping @Sendable (Event) -> Void) async throws(PlaybackError) -> DownloadRecord {
        guard let audioURL = episode.audioURL, ["http", "https"].contains(audioURL.scheme?.lowercased() ?? "") else {
            throw PlaybackError(.missingAudioURL, underlying: "the episode has no http(s) enclosure")
        }
        let fileName = DownloadFileName.make(episodeID: episode.id, audioURL: audioURL, audioType: episode.audioType)
        try makeDirectory()
        let logger = self.logger
        let lock = try await EpisodeFileLock.acquire("episode-\(episode.id)", in: directory) {
            logger.notice("another download of this episode is running; waiting for it", metadata: ["episode": .string(String(episode.id))])
        }
        defer { lock.release() }
        // Checked under the lock: the download waited for may have finished the file.
        if let existing = try store.download(episodeID: episode.id), existing.state == .downloaded, existing.fileName == fileName,
            FileManager.default.fileExists(atPath: file(fileName).path)
        {
            return existing
        }
        let sources = AudioSource.order(
            enclosure: audioURL, alternates: episode.alternates, prefersLowBitrate: (try? prefersLowBitrate()) ?? false)
        var lastError = PlaybackError(.missingAudioURL, underlying: "the episode has no http(s) source")
        for (index, source) in sources.enumerated() {
            do throws(PlaybackError) {
                return try await fetch(episode, from: source, fileName: fileName, first: index == 0, events: events)
            } catch where error.code == .diskFull || error.code == .cancelled {
                throw error
            } catch {
                lastError = error
                if index + 1 < sources.count {
                    logger.notice(
                        "episode source failed; trying the next", metadata: ["episode": .string(String(episode.id)), "error": .string(error.errorType)])
                }
            }
        }
        throw lastError
    }

    /// One source of the episode. A source after the first starts from nothing: a part fetched
    /// elsewhere is not continued here. A file whose digest is not the feed's is deleted, never
    /// kept (`corruptData`).
    private func fetch(
        _ episode: EpisodeRecord, from source: AudioSource, fileName: String, first: Bool, events: @escaping @Sendable (Event) -> Void
    ) async throws(PlaybackError) -> DownloadRecord {
        let record = try store.beginDownload(episodeID: episode.id, fileName: fileName)
        let partial = file(record.partialFileName)
        if !first { try? FileManager.default.removeItem(at: partial) }
        let known = first && (record.etag != nil || record.lastModified != nil || record.totalBytes != nil)
        let validators = known ? FileDownload.Validators(etag: record.etag, lastModified: record.lastModified, length: record.totalBytes) : nil
        let store = self.store
        let id = episode.id
        let saved = ProgressSaver(store: store, episodeID: id)
        logger.info("episode download", metadata: ["episode": .string(String(id)), "from": .string(String(Self.size(of: partial)))])
        do throws(PlaybackError) {
            let outcome = try await network.download(
                source.url, to: partial, validators: validators, options: options,
                onValidators: { validators in
                    try? store.recordDownloadValidators(
                        episodeID: id, etag: validators.etag, lastModified: validators.lastModified, totalBytes: validators.length)
                },
                progress: { progress in
                    saved.offer(progress)
                    events(.progress(episodeID: id, progress))
                })
            if let integrity = source.integrity {
                do throws(PlaybackError) {
                    try FileIntegrity.verify(partial, against: integrity)
                } catch {
                    try? FileManager.default.removeItem(at: partial)
                    throw error
                }
            }
            try rename(partial, to: file(fileName))
            try store.completeDownload(episodeID: id, bytes: outcome.bytes)
            logger.info(
                "episode downloaded",
                metadata: [
                    "episode": .string(String(id)), "bytes": .string(String(outcome.bytes)),
                    "resumedFrom": .string(String(outcome.resumedFrom)), "restarts": .string(String(outcome.restarts)),
                    "checked": .string(source.integrity?.algorithm.rawValue ?? "no digest given"),
                ])
            return try store.download(episodeID: id) ?? record
        } catch {
            try? store.failDownload(episodeID: id, code: error.code, receivedBytes: Self.size(of: partial))
            throw error
        }
    }

    /// Whether downloads take an episode's lowest bitrate first (`podcast prefer-bitrate low`).
    package func prefersLowBitrate() throws(PlaybackError) -> Bool {
        try store.setting(Self.lowBitrateSetting) == "low"
    }

    package func setPrefersLowBitrate(_ low: Bool) throws(PlaybackError) {
        try store.setSetting(Self.lowBitrateSetting, low ? "low" : nil)
    }

    /// The setting behind `prefersLowBitrate`.
    static let lowBitrateSetting = "podcast.bitrate"

    // MARK: - Playing and removing

    /// The file of a downloaded episode when it is whole on disk; nil otherwise (then the episode
    /// streams). A download whose file has gone is forgotten, so the list stops claiming it.
    package func playableFile(episodeID: Int64) -> URL? {
        guard let record = try? store.download(episodeID: episodeID), record.state == .downloaded else { return nil }
        let url = file(record.fileName)
        guard FileManager.default.fileExists(atPath: url.path) else {
            logger.notice("downloaded episode's file is gone; it streams", metadata: ["episode": .string(String(episodeID))])
            try? store.removeDownload(episodeID: episodeID)
            return nil
        }
        return url
    }

    /// Deletes the episode's files (whole and partial) and forgets its download.
    package func remove(episodeID: Int64) throws(PlaybackError) {
        guard let record = try store.download(episodeID: episodeID) else {
            throw PlaybackError(.notInLibrary, underlying: "the episode is not downloaded")
        }
        deleteFiles(of: record)
        try store.removeDownload(episodeID: episodeID)
    }

    /// Deletes files in the episodes folder that no download of the library names (the podcast
    /// was removed, or the library was reset). Returns how many.
    @discardableResult
    package func removeOrphans() -> Int {
        guard let known = try? store.downloadFileNames(),
            let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path)
        else { return 0 }
        var removed = 0
        for name in names where !known.contains(name) && name.hasPrefix("episode-") {
            if (try? FileManager.default.removeItem(at: file(name))) != nil { removed += 1 }
        }
        return removed
    }

    // MARK: - Storage cap

    /// The storage cap in bytes, or nil when there is none.
    package func storageCap() throws(PlaybackError) -> Int64? {
        try store.setting(Self.storageCapSetting).flatMap(Int64.init).flatMap { $0 > 0 ? $0 : nil }
    }

    package func setStorageCap(_ bytes: Int64?) throws(PlaybackError) {
        try store.setSetting(Self.storageCapSetting, bytes.map(String.init))
    }

    /// Removes downloads until their bytes are under the cap: played episodes first, oldest
    /// first; then ones never started, oldest first. A partly played episode, or one in
    /// `protecting` (just downloaded), is never removed here.
    @discardableResult
    package func keepUnderStorageCap(protecting: Set<Int64> = [], events: @Sendable (Event) -> Void = { _ in }) throws(PlaybackError)
        -> CapOutcome
    {
        let downloads = try store.downloads()
        var outcome = CapOutcome(totalBytes: downloads.reduce(0) { $0 + $1.receivedBytes })
        guard let cap = try storageCap(), outcome.totalBytes > cap else { return outcome }
        let removable = downloads.filter { $0.state == .downloaded && !$0.isPartlyPlayed && !protecting.contains($0.episodeID) }
        let oldestFirst = removable.sorted { ($0.publishedAt ?? .distantPast, $0.episodeID) < ($1.publishedAt ?? .distantPast, $1.episodeID) }
        let order = oldestFirst.filter(\.played) + oldestFirst.filter { !$0.played }
        for record in order where outcome.totalBytes > cap {
            try removeForSpace(record, events: events)
            outcome.totalBytes -= record.receivedBytes
            outcome.removed.append(record.episodeID)
        }
        outcome.overCap = outcome.totalBytes > cap
        if outcome.overCap {
            logger.notice("downloads stay over the storage cap: the rest are partly played or new", metadata: ["bytes": .string(String(outcome.totalBytes))])
        }
        return outcome
    }

    // MARK: - New episodes by themselves

    /// For a podcast whose automatic downloads are on: downloads the newest `keepLatest` episodes
    /// not yet downloaded (never ones already played), and removes downloads older than those
    /// unless they are partly played. Nothing when it is off.
    ///
    /// The run's ending is remembered for the podcast's downloads (`ReachabilityRecord`): when
    /// they have failed for their last runs over days, the next run tries each file once, and
    /// runs before its daily try are skipped. One file that downloads resets it.
    package func autoDownload(podcastID: Int64, events: @escaping @Sendable (Event) -> Void = { _ in }) async throws(PlaybackError)
        -> [Outcome]
    {
        guard let keep = try store.autoDownload(podcastID: podcastID) else { return [] }
        let episodes = try store.episodes(podcastID: podcastID).filter { $0.audioURL != nil }
        let newest = Array(episodes.prefix(keep))
        let wanted = newest.filter { !$0.played && !$0.downloaded }
        let keptIDs = Set(newest.map(\.id))
        for record in try store.downloads(podcastID: podcastID)
        where !keptIDs.contains(record.episodeID) && !record.isPartlyPlayed && record.state == .downloaded {
            try removeForSpace(record, events: events)
        }
        guard let first = wanted.first?.audioURL else { return [] }
        let item = ReachabilityItem.downloads(podcastID: podcastID)
        var run = self
        switch learnedRetries.decide((try? store.reachability(item)) ?? ReachabilityRecord(), now: now(), automatic: true) {
        case .skip:
            logger.info("automatic downloads skipped: usually unreachable", metadata: ["podcast": .string(String(podcastID))])
            return []
        case .tryOnce:
            run.options.policy = .once
        case .retryAsUsual:
            break
        }
        let outcomes = await run.download(wanted.map(\.id), events: events)
        let failures = outcomes.compactMap { outcome -> PlaybackError? in
            if case .failure(let error) = outcome.result { error } else { nil }
        }
        let ending: RunEnding? = failures.count < outcomes.count ? .succeeded(tries: 1) : failures.last.flatMap(RunEnding.init(failure:))
        if let ending {
            let hostClass = HostCircuitBreakers.host(of: first).map(HostClass.init(breakerKey:)) ?? .internet
            do throws(PlaybackError) {
                try store.recordRun(item, hostClass: hostClass, ending: ending, at: now())
            } catch {
                logger.failure(error, "reachability not recorded", fields: [:])
            }
        }
        return outcomes
    }

    // MARK: - Files

    private func removeForSpace(_ record: DownloadRecord, events: @Sendable (Event) -> Void) throws(PlaybackError) {
        deleteFiles(of: record)
        try store.removeDownload(episodeID: record.episodeID)
        let title = (try? store.episode(id: record.episodeID).title) ?? ""
        logger.info("episode download removed", metadata: ["episode": .string(String(record.episodeID))])
        events(.removed(episodeID: record.episodeID, title: title))
    }

    private func deleteFiles(of record: DownloadRecord) {
        try? FileManager.default.removeItem(at: file(record.fileName))
        try? FileManager.default.removeItem(at: file(record.partialFileName))
    }

    private func file(_ name: String) -> URL { directory.appendingPathComponent(name, isDirectory: false) }

    private func makeDirectory() throws(PlaybackError) {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw PlaybackError(.permissionDenied, underlying: "cannot create the episodes folder")
        }
    }

    /// rename(2): atomic on one file system, so the final name appears with every byte behind it.
    private func rename(_ from: URL, to: URL) throws(PlaybackError) {
        guard Glibc.rename(from.path, to.path) == 0 else {
            throw PlaybackError.from(errno: errno, underlying: "cannot name the downloaded file")
        }
    }

    static func size(of url: URL) -> Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: url.path)[.size]) as? NSNumber)?.int64Value ?? 0
    }
}

/// Writes a download's progress to the store every few megabytes, not per chunk: the partial
/// file itself is the truth, the row only tells lists how far it got.
private final class ProgressSaver: Sendable {
    private let store: LibraryStore
    private let episodeID: Int64
    private let lastSaved = Mutex<Int64>(0)
    private static let step: Int64 = 2 << 20

    init(store: LibraryStore, episodeID: Int64) {
        self.store = store
        self.episodeID = episodeID
    }

    func offer(_ progress: FileDownload.Progress) {
        let due = lastSaved.withLock { last -> Bool in
            guard abs(progress.received - last) >= Self.step || progress.received == progress.total else { return false }
            last = progress.received
            return true
        }
        if due { try? store.recordDownloadProgress(episodeID: episodeID, receivedBytes: progress.received, totalBytes: progress.total) }
    }
}
