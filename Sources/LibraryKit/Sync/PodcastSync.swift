import Foundation
import Library
import Logging
import PlayerCore
import PlayerKit
import Streaming

/// Podcast sync with a gpodder.net-compatible server (gpodder.net, oPodSync, and the other servers
/// of that API that AntennaPod, Kasts and gPodder use): subscriptions and episode actions go both
/// ways, so an episode heard to 12:34 on one device resumes at 12:34 on another.
///
/// One run (`syncNow`) is, in this order: register this device once; read which devices its
/// subscriptions are linked with; take the server's subscription changes and apply them (a feed
/// added elsewhere is subscribed here and fetched, one removed is removed, unless the listener
/// changed it here since); send this library's own changes; take the episode actions and apply
/// them (`EpisodeActionMerge`; those whose episode is not here yet are held until it appears);
/// send this library's outbox, oldest first, in batches, each marked sent as the server takes it.
/// A new library's first run asks for everything (a full sync); `full` asks for everything again.
/// What could not be sent stays queued in the library and goes next time; requests go through the
/// program's `NetworkClient`, so they spend its retry budget and stop at the host's circuit
/// breaker like every other request.
///
/// Which "since" to ask from is decided here, not taken on trust: servers answer subscription
/// changes by upload time in whole seconds (a change uploaded in the second of the last answer
/// would be missed, so one second is asked again), and many (Nextcloud GPodder Sync, the FastAPI
/// router) answer episode actions by the action's own time, so a device that was offline for a
/// week uploads actions older than the last answer; `actionLookback` asks for them again. What is
/// asked twice is harmless: the merge takes each action once.
///
/// The password is given by the caller for each run (from the environment or the configuration
/// file) and is only ever put in the `Authorization` header: never stored in the library, never
/// logged, never in an error message. The user's name is in the API's paths, so requests are
/// logged by host only.
package struct PodcastSync: Sendable {
    /// What one run did; printed by `tonearm sync now`.
    package struct Report: Sendable, Equatable, Codable {
        /// Feeds subscribed here because another device did.
        package var subscribed = 0
        /// Feeds removed here because another device did.
        package var unsubscribed = 0
        /// Feeds another device added that could not be fetched here (tried again next run).
        package var subscriptionFailures = 0
        package var sentSubscriptionChanges = 0
        package var sentActions = 0
        package var receivedActions = 0
        /// Received actions that moved an episode here.
        package var appliedActions = 0
        /// Received actions for episodes this library does not have.
        package var unmatchedActions = 0
        /// Received actions that could not be used (no place, an unknown action).
        package var droppedActions = 0
        /// Episodes other devices played that this library does not have yet, after the run:
        /// their places are held and applied when the episodes appear.
        package var heldActions = 0
        /// Whether the run asked for everything since the beginning.
        package var fullSync = false
        /// The devices this library's subscriptions are linked with, as the server said.
        package var linkedDevices: [String] = []

        package init() {}

        /// Whether the run changed nothing in this library.
        package var changedNothing: Bool { subscribed == 0 && unsubscribed == 0 && appliedActions == 0 }
    }

    /// How requests behave: a sync the listener asked for waits out a slow server; one that runs
    /// by itself (after a playback ends) is quick, so a command is never held up by a server
    /// that is down.
    package struct Options: Sendable {
        package var timeout: Double
        package var policy: BackoffPolicy

        package init(timeout: Double = 20, policy: BackoffPolicy = .network) {
            self.timeout = timeout
            self.policy = policy
        }

        /// For the sync that runs by itself: 8 s a request, two tries.
        package static let background = Options(timeout: ResilienceDefaults.connectTimeout, policy: .quick)
    }

    package let library: PodcastLibrary
    private let options: Options
    private let password: String
    private var network: NetworkClient
    let logger: Logger
    let hostName: String

    /// - Parameter password: the account's password; only ever sent in the `Authorization` header.
    package init(
        library: PodcastLibrary, password: String, network: NetworkClient = .shared, logger: Logger = .silent,
        hostName: String = ProcessInfo.processInfo.hostName, options: Options = Options()
    ) {
        self.options = options
        self.library = library
        self.password = password
        self.network = network
        self.logger = logger
        self.hostName = hostName
        if self.network.retryBudget == nil { self.network.retryBudget = RetryBudget() }
    }

    var store: LibraryStore { library.store }

    /// A device id for this library: `tonearm-` and eight random hex digits (the API allows
    /// letters, digits, `.`, `-` and `_`).
    package static func newDeviceID() -> String {
        "tonearm-" + String(format: "%08x", UInt32.random(in: 0...UInt32.max))
    }

    /// One sync run; see the type's documentation for its steps.
    /// - Parameter full: ask for every subscription and action since the beginning, as a new
    ///   library's first run does (what is already here is kept: the merge never goes back).
    /// - Throws: `notInLibrary` when no account is set up; the first request's error when the
    ///   server cannot be reached or refuses (what waits stays queued).
    package func syncNow(full: Bool = false) async throws(PlaybackError) -> Report {
        guard var account = try store.syncAccount() else {
            throw PlaybackError(.notInLibrary, underlying: "sync is not set up")
        }
        let api = GpodderEndpoints(server: account.server, username: account.username, device: account.device)
        let stopwatch = Stopwatch()
        var report = Report()
        if full { (account.subscriptionsSince, account.actionsSince) = (0, 0) }
        report.fullSync = account.subscriptionsSince == 0 && account.actionsSince == 0
        if !account.deviceRegistered {
            try await registerDevice(api, username: account.username)
            try store.markSyncDeviceRegistered()
        }
        if let groups = try await syncGroups(api, username: account.username) {
            report.linkedDevices = groups.linked(with: account.device)
            try store.recordLinkedDevices(report.linkedDevices)
        }
        let subscriptionsSince = try await syncSubscriptions(api, since: account.subscriptionsSince, account: account, report: &report)
        try store.recordSync(subscriptionsSince: subscriptionsSince)
        let actionsSince = try await syncActions(api, since: account.actionsSince, account: account, report: &report)
        try store.recordSync(actionsSince: actionsSince)
        report.heldActions = try store.heldSyncActionCount()
        logger.info(
            "sync done",
            metadata: [
                "full": "\(report.fullSync)", "linkedDevices": "\(report.linkedDevices.count)",
                "subscribed": "\(report.subscribed)", "unsubscribed": "\(report.unsubscribed)", "sentActions": "\(report.sentActions)",
                "receivedActions": "\(report.receivedActions)", "appliedActions": "\(report.appliedActions)",
                "unmatchedActions": "\(report.unmatchedActions)", "heldActions": "\(report.heldActions)",
                "droppedActions": "\(report.droppedActions)", "subscriptionFailures": "\(report.subscriptionFailures)",
                "ms": "\(stopwatch.milliseconds)",
            ])
        return report
    }

    // MARK: - Steps

    func registerDevice(_ api: GpodderEndpoints, username: String) async throws(PlaybackError) {
        let caption = "Tonearm on \(TextSanitizer.singleLine(hostName, maxLength: 64))"
        _ = try await send(api.deviceRegistration, body: try encode(GpodderWire.DeviceUpload(caption: caption)), operation: "syncDevice", username: username)
    }

    /// Applies the server's changes, then sends this library's; returns the timestamp to ask from next time.
    private func syncSubscriptions(
        _ api: GpodderEndpoints, since: Int64, account: SyncAccount, report: inout Report
    ) async throws(PlaybackError) -> Int64 {
        let asked = since > 0 ? max(0, since - Self.subscriptionOverlap) : 0
        let response = try await send(api.subscriptions(since: asked), body: nil, operation: "syncSubscriptions", username: account.username)
        let changes: GpodderWire.SubscriptionChanges = try decode(response.body)
        let mine = try store.pendingSubscriptionChanges()
        let podcasts = try store.podcasts()
        // A feed in both lists was added and removed within the window asked again: which came
        // last is not said, so this library keeps what it has.
        let both = Set(changes.add).intersection(changes.remove)
        var added: [String] = []
        for address in changes.add
        where mine[address] != "remove" && !both.contains(address) && !podcasts.contains(where: { $0.feedURL.absoluteString == address }) {
            guard let url = URL(string: address) else { continue }
            do throws(PlaybackError) {
                _ = try await library.add(feedURL: url)
                added.append(address)
                report.subscribed += 1
            } catch where error.code == .alreadyInLibrary {
                added.append(address)
            } catch {
                report.subscriptionFailures += 1
                logger.notice("sync could not subscribe to a feed", metadata: ["error": .string(error.errorType)])
            }
        }
        try store.dropSubscriptionChanges(added, change: "add")
        var removed: [String] = []
        for address in changes.remove where mine[address] != "add" && !both.contains(address) {
            guard let podcast = try store.podcasts().first(where: { $0.feedURL.absoluteString == address }) else { continue }
            try store.removePodcast(id: podcast.id)
            removed.append(address)
            report.unsubscribed += 1
        }
        try store.dropSubscriptionChanges(removed, change: "remove")
        // Next time, ask from this answer's time: not from the upload's, which would skip what
        // another device sent in between (this library's own changes come back as no-ops). After
        // a feed that could not be fetched, ask for the same changes again.
        let next = report.subscriptionFailures > 0 ? since : changes.timestamp
        let pending = try store.pendingSync(device: account.device)
        guard !pending.added.isEmpty || !pending.removed.isEmpty else { return next }
        let upload = GpodderWire.SubscriptionUpload(add: pending.added, remove: pending.removed)
        let answer = try await send(
            api.subscriptionUpload, body: try encode(upload), operation: "syncSubscriptionUpload", username: account.username)
        let _: GpodderWire.UploadResult = try decode(answer.body)
        try store.markSent(added: pending.added, removed: pending.removed)
        report.sentSubscriptionChanges = pending.added.count + pending.removed.count
        return next
    }

    /// Subscription changes uploaded in the second of the last answer are asked for again.
    static let subscriptionOverlap: Int64 = 1

    /// Applies the episode actions, then sends this library's outbox; returns the timestamp to
    /// ask from next time.
    private func syncActions(
        _ api: GpodderEndpoints, since: Int64, account: SyncAccount, report: inout Report
    ) async throws(PlaybackError) -> Int64 {
        let asked = since > 0 ? max(0, since - Self.actionLookback) : 0
        let response = try await send(api.episodeActions(since: asked), body: nil, operation: "syncEpisodeActions", username: account.username)
        let received: GpodderWire.EpisodeActions = try decode(response.body)
        report.receivedActions = received.actions.count + received.dropped
        report.droppedActions = received.dropped
        let outcome = try store.applyEpisodeActions(received.actions)
        report.appliedActions = outcome.updates.count
        report.unmatchedActions = outcome.unmatched
        let pending = try store.pendingSync(device: account.device)
        if !pending.unsendable.isEmpty { try store.markSent([], unsendable: pending.unsendable) }
        // Oldest first; each batch is marked sent when the server has taken it, so a failure
        // halfway sends only the rest next time.
        for start in stride(from: 0, to: pending.outbox.count, by: Self.actionsPerRequest) {
            let batch = Array(pending.outbox[start..<min(start + Self.actionsPerRequest, pending.outbox.count)])
            let answer = try await send(
                api.episodeUpload, body: try encode(batch.map(\.action)), operation: "syncEpisodeUpload", username: account.username)
            let _: GpodderWire.UploadResult = try decode(answer.body)
            try store.markSent(batch)
            report.sentActions += batch.count
        }
        return received.timestamp
    }

    /// How far before the last answer episode actions are asked for again: servers that answer
    /// by the action's own time would otherwise never show actions a device made offline and
    /// uploaded later. Two weeks covers a holiday without a network.
    static let actionLookback: Int64 = 14 * 86_400

    /// Actions sent in one request.
    static let actionsPerRequest = 500

    // MARK: - Requests

    func send(_ url: URL, body: Data?, operation: String, username: String) async throws(PlaybackError) -> NetworkResponse {
        let credentials = Data("\(username):\(password)".utf8).base64EncodedString()
        var options = NetworkClient.Options(
            timeout: self.options.timeout, maxBytes: Self.maxAnswerBytes, policy: self.options.policy, accept: "application/json",
            headers: ["Authorization": "Basic \(credentials)"])
        options.post = body.map { NetworkClient.PostBody(data: $0) }
        options.hidesPathInLog = true
        return try await network.data(from: url, operation: operation, options: options)
    }

    /// The largest answer read: a full resync of a heavy listener's years of actions.
    static let maxAnswerBytes = 32 * 1024 * 1024

    func decode<T: Decodable>(_ data: Data) throws(PlaybackError) -> T {
        try GpodderWire.decode(T.self, from: data)
    }

    func encode<T: Encodable>(_ value: T) throws(PlaybackError) -> Data {
        do {
            return try JSONEncoder().encode(value)
        } catch {
            throw PlaybackError(.malformedData, underlying: "could not encode a sync request")
        }
    }

    // MARK: - Checks

    /// An http(s) server; plain http only on this machine.
    static func checkServer(_ server: URL) throws(PlaybackError) {
        guard let scheme = server.scheme?.lowercased(), scheme == "https" || scheme == "http", let host = server.host, !host.isEmpty else {
            throw PlaybackError(.streamUnavailable, underlying: "the sync server must be an http(s) address")
        }
        guard server.user == nil, server.password == nil else {
            throw PlaybackError(.streamUnavailable, underlying: "the sync server's address must not carry a user or password")
        }
        if scheme == "http" && !["127.0.0.1", "localhost", "::1", "[::1]"].contains(host.lowercased()) {
            throw PlaybackError(.streamUnavailable, underlying: "a sync server on another machine must be https: the password would cross the network in the clear")
        }
    }

    /// The API's names: letters, digits, `.`, `-`, `_`, `@` and `+`, 1 to 64 of them.
    static func checkName(_ name: String, what: String) throws(PlaybackError) {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_@+")
        guard (1...64).contains(name.count), name.allSatisfy(allowed.contains) else {
            throw PlaybackError(.malformedData, underlying: "the \(what) may hold letters, digits and . - _ @ + (1-64 of them)")
        }
    }
}
