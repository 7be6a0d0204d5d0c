import Foundation
import Library
import PlayerCore
import PlayerKit

/// `tonearm sync`: podcast subscriptions and positions shared with other devices through a
/// gpodder.net-compatible server (`PodcastSync`), and the quiet sync after a refresh and when an
/// episode stops playing.
package enum SyncCommands {
    /// Checks the account, registers this device and keeps the account; exits 1 with the typed
    /// error (a wrong password, a server that is not one) otherwise.
    package static func setUp(server: String, username: String, device: String?, library: LibraryContext) async {
        guard let url = WebAddress.parse(server) else {
            CommandFailure.exit(PlaybackError(.streamUnavailable, underlying: "the sync server must be an http(s) URL"))
        }
        let sync = PodcastSync(library: library.podcasts, password: password(), network: library.network, logger: CommandLog.logger)
        let name = device ?? PodcastSync.newDeviceID()
        await library.attempt("syncSetUp") { () async throws(PlaybackError) in
            try await sync.setUp(server: url, username: username, device: name)
        }
        print("Sync set up: \(username) on \(url.host ?? server), this library is device \(name).")
        print("Run `tonearm sync now`; Tonearm also syncs after a refresh and when an episode stops.")
    }

    /// One sync run, printed; exits 1 when it failed.
    package static func now(library: LibraryContext, json: Bool) async {
        let sync = PodcastSync(library: library.podcasts, password: password(), network: library.network, logger: CommandLog.logger)
        let report = await library.attempt("syncNow") { () async throws(PlaybackError) in try await sync.syncNow() }
        json ? JSONOutput.print(report) : print(summary(report))
    }

    /// The password, or exit 1 saying where to put it.
    private static func password() -> String {
        do throws(PlaybackError) {
            return try SyncPassword.find()
        } catch {
            CommandFailure.exit(error, detail: error.underlying)
        }
    }

    /// The account and what waits to be sent.
    package static func status(library: LibraryContext, json: Bool) {
        let (account, pending) = CommandFailure.orExit { () throws(PlaybackError) -> (SyncAccount?, PendingSync?) in
            guard let account = try library.store.syncAccount() else { return (nil, nil) }
            return (account, try library.store.pendingSync(device: account.device))
        }
        if json {
            JSONOutput.print(Status(account: account, waitingSubscriptionChanges: pending.map { $0.added.count + $0.removed.count } ?? 0,
                waitingActions: pending?.actions.count ?? 0))
            return
        }
        guard let account, let pending else {
            print("Sync is not set up: tonearm sync setup URL USER (the password in \(SyncPassword.environmentVariable) or config.toml).")
            return
        }
        print("Server: \(account.server.absoluteString)")
        print("User: \(account.username), this library: \(account.device)")
        print("Last sync: \(account.lastSyncAt.map { ISO8601DateFormatter().string(from: $0) } ?? "never")")
        print("Waiting to be sent: \(pending.added.count + pending.removed.count) subscription changes, \(pending.actions.count) episode actions")
    }

    /// Stops syncing; the library stays.
    package static func forget(library: LibraryContext) {
        CommandFailure.orExit { () throws(PlaybackError) in try library.store.forgetSync() }
        print("Sync forgotten: this library no longer syncs (the server keeps what it has).")
    }

    /// The sync after a refresh or when an episode stops: only when an account is set up and a
    /// password is there; a failure is one line on stderr (what waits goes next time), never the
    /// command's failure.
    package static func quietly(library: LibraryContext, after reason: String) async {
        let outcome = await library.syncIfSetUp(password: try? SyncPassword.find(), logger: CommandLog.logger)
        if case .failure(let error) = outcome {
            let text = error.text(in: .current)
            FileHandle.standardError.write(Data("tonearm: sync after \(reason): \(text.title): \(text.message) (what waits goes next time)\n".utf8))
        }
    }

    static func summary(_ report: PodcastSync.Report) -> String {
        var lines = [
            "Synced: \(report.sentSubscriptionChanges) subscription changes and \(report.sentActions) episode actions sent; "
                + "\(report.receivedActions) actions received, \(report.appliedActions) applied."
        ]
        if report.subscribed + report.unsubscribed > 0 {
            lines.append("From other devices: \(report.subscribed) podcasts subscribed, \(report.unsubscribed) removed.")
        }
        if report.unmatchedActions > 0 { lines.append("\(report.unmatchedActions) actions were for episodes this library does not have.") }
        if report.droppedActions > 0 { lines.append("\(report.droppedActions) actions could not be used (missing or negative fields) and were skipped.") }
        if report.subscriptionFailures > 0 {
            lines.append("\(report.subscriptionFailures) podcasts added elsewhere could not be fetched here; they are tried again next sync.")
        }
        return lines.joined(separator: "\n")
    }

    struct Status: Encodable {
        var account: SyncAccount?
        var waitingSubscriptionChanges: Int
        var waitingActions: Int
    }
}
