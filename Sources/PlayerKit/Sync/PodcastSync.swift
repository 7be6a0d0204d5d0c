import Foundation
import Library
import Logging
import PlayerCore
import Streaming

/// Podcast sync with a gpodder.net-compatible server (gpodder.net, oPodSync, and the other servers
/// of that API that AntennaPod, Kasts and gPodder use): subscriptions and episode actions go both
/// ways, so an episode heard to 12:34 on one device resumes at 12:34 on another.
///
/// One run (`syncNow`) is, in this order: register this device once; take the server's
/// subscription changes since the last run and apply them (a feed added elsewhere is subscribed
/// here, one removed is removed, unless the listener changed it here since); send this library's
/// own changes; take the other devices' episode actions and apply them (`EpisodeActionMerge`);
/// send this library's. What could not be sent stays queued in the library and goes next time;
/// requests go through the program's `NetworkClient`, so they spend its retry budget and stop at
/// the host's circuit breaker like every other request.
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
        /// Received actions that could not be used (missing fields, -1, unknown action).
        package var droppedActions = 0

        package init() {}
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
    private let logger: Logger
    private let hostName: String

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

    private var store: LibraryStore { library.store }

    /// A device id for this library: `tonearm-` and eight random hex digits (the API allows
    /// letters, digits, `.`, `-` and `_`).
    package static func newDeviceID() -> String {
        "tonearm-" + String(format: "%08x", UInt32.random(in: 0...UInt32.max))
    }

    /// Checks the account on `server` (a wrong password is `httpUnauthorized` here, not at the
    /// first sync), registers this device and keeps the account in the library.
    /// - Throws: `streamUnavailable` for a plain-http server that is not on this machine (the
    ///   password would cross the network in the clear).
    package func setUp(server: URL, username: String, device: String) async throws(PlaybackError) {
        try Self.checkServer(server)
        try Self.checkName(username, what: "user name")
        try Self.checkName(device, what: "device id")
        let api = GpodderEndpoints(server: server, username: username, device: device)
        _ = try await send(api.login, body: Data(), operation: "syncLogin", username: username)
        try await registerDevice(api, username: username)
        try store.setUpSync(server: server, username: username, device: device)
        try store.markSyncDeviceRegistered()
        logger.info("sync set up", metadata: ["host": .string(LogRedaction.host(server) ?? "?")])
    }

    /// One sync run; see the type's documentation for its steps.
    /// - Throws: `notInLibrary` when no account is set up; the first request's error when the
    ///   server cannot be reached or refuses (what waits stays queued).
    package func syncNow() async throws(PlaybackError) -> Report {
        guard let account = try store.syncAccount() else {
            throw PlaybackError(.notInLibrary, underlying: "sync is not set up")
        }
        let api = GpodderEndpoints(server: account.server, username: account.username, device: account.device)
        let started = ContinuousClock.now
        var report = Report()
        if !account.deviceRegistered {
            try await registerDevice(api, username: account.username)
            try store.markSyncDeviceRegistered()
        }
        let subscriptionsSince = try await syncSubscriptions(api, since: account.subscriptionsSince, account: account, report: &report)
        try store.recordSync(subscriptionsSince: subscriptionsSince)
        let actionsSince = try await syncActions(api, since: account.actionsSince, account: account, report: &report)
        try store.recordSync(actionsSince: actionsSince)
        logger.info(
            "sync done",
            metadata: [
                "subscribed": "\(report.subscribed)", "unsubscribed": "\(report.unsubscribed)", "sentActions": "\(report.sentActions)",
                "receivedActions": "\(report.receivedActions)", "appliedActions": "\(report.appliedActions)",
                "unmatchedActions": "\(report.unmatchedActions)", "droppedActions": "\(report.droppedActions)",
                "subscriptionFailures": "\(report.subscriptionFailures)",
                "ms": "\(Self.milliseconds(started.duration(to: .now)))",
            ])
        return report
    }

    private static func milliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
    }

    // MARK: - Steps

    private func registerDevice(_ api: GpodderEndpoints, username: String) async throws(PlaybackError) {
        let caption = "Tonearm on \(TextSanitizer.singleLine(hostName, maxLength: 64))"
        _ = try await send(api.deviceRegistration, body: try encode(GpodderWire.DeviceUpload(caption: caption)), operation: "syncDevice", username: username)
    }

    /// Applies the server's changes, then sends this library's; returns the timestamp to ask from next time.
    private func syncSubscriptions(
        _ api: GpodderEndpoints, since: Int64, account: SyncAccount, report: inout Report
    ) async throws(PlaybackError) -> Int64 {
        let response = try await send(api.subscriptions(since: since), body: nil, operation: "syncSubscriptions", username: account.username)
        let changes: GpodderWire.SubscriptionChanges = try decode(response.body)
        var timestamp = changes.timestamp
        let mine = try store.pendingSubscriptionChanges()
        let podcasts = try store.podcasts()
        var added: [String] = []
        for address in changes.add where mine[address] != "remove" && !podcasts.contains(where: { $0.feedURL.absoluteString == address }) {
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
        for address in changes.remove where mine[address] != "add" {
            guard let podcast = try store.podcasts().first(where: { $0.feedURL.absoluteString == address }) else { continue }
            try store.removePodcast(id: podcast.id)
            removed.append(address)
            report.unsubscribed += 1
        }
        try store.dropSubscriptionChanges(removed, change: "remove")
        if report.subscriptionFailures > 0 {
            // Ask for the same changes again next time, so a feed that was down is subscribed later.
            timestamp = since
        }
        let pending = try store.pendingSync(device: account.device)
        guard !pending.added.isEmpty || !pending.removed.isEmpty else { return timestamp }
        let upload = GpodderWire.SubscriptionUpload(add: pending.added, remove: pending.removed)
        let answer = try await send(
            api.subscriptionUpload, body: try encode(upload), operation: "syncSubscriptionUpload", username: account.username)
        let result: GpodderWire.UploadResult = try decode(answer.body)
        try store.markSent(PendingSync(added: pending.added, removed: pending.removed))
        report.sentSubscriptionChanges = pending.added.count + pending.removed.count
        return report.subscriptionFailures > 0 ? since : max(timestamp, result.timestamp)
    }

    /// Applies the other devices' episode actions, then sends this library's; returns the
    /// timestamp to ask from next time.
    private func syncActions(
        _ api: GpodderEndpoints, since: Int64, account: SyncAccount, report: inout Report
    ) async throws(PlaybackError) -> Int64 {
        let response = try await send(api.episodeActions(since: since), body: nil, operation: "syncEpisodeActions", username: account.username)
        let received: GpodderWire.EpisodeActions = try decode(response.body)
        report.receivedActions = received.actions.count + received.dropped
        report.droppedActions = received.dropped
        let outcome = try store.applyEpisodeActions(received.actions)
        report.appliedActions = outcome.updates.count
        report.unmatchedActions = outcome.unmatched
        let pending = try store.pendingSync(device: account.device)
        let sendable = PendingSync(
            actions: pending.actions, actionRows: pending.actionRows, positions: pending.positions, unsendable: pending.unsendable)
        guard !sendable.actions.isEmpty else {
            try store.markSent(sendable)
            return received.timestamp
        }
        var last = received.timestamp
        // The API takes any number of actions at once; batches keep each request small.
        for batch in stride(from: 0, to: sendable.actions.count, by: Self.actionsPerRequest) {
            let slice = Array(sendable.actions[batch..<min(batch + Self.actionsPerRequest, sendable.actions.count)])
            let answer = try await send(api.episodeUpload, body: try encode(slice), operation: "syncEpisodeUpload", username: account.username)
            let result: GpodderWire.UploadResult = try decode(answer.body)
            last = max(last, result.timestamp)
        }
        try store.markSent(sendable)
        report.sentActions = sendable.actions.count
        return last
    }

    /// Actions sent in one request.
    static let actionsPerRequest = 500

    // MARK: - Requests

    private func send(_ url: URL, body: Data?, operation: String, username: String) async throws(PlaybackError) -> NetworkResponse {
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

    private func decode<T: Decodable>(_ data: Data) throws(PlaybackError) -> T {
        try GpodderWire.decode(T.self, from: data)
    }

    private func encode<T: Encodable>(_ value: T) throws(PlaybackError) -> Data {
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
