import Foundation
import Library
import LibraryKit
import PlayerCore
import PlayerKit

/// `tonearm sync`: podcast subscriptions and positions shared with other devices through a
/// gpodder.net-compatible server (`PodcastSync`), and the quiet sync after a refresh and when an
/// episode stops playing.
package enum SyncCommands {
    /// Checks the account, lists its devices, links this library with them (or joins one) as
    /// `linking` says, asking on a terminal when it says nothing, runs the first (full) sync and
    /// says what came over; exits 1 with the typed error (a wrong password, a server that is not
    /// one, a device the account does not have) otherwise.
    package static func setUp(
        server: String, username: String, device: String?, linking: PodcastSync.Linking?, library: LibraryContext
    ) async {
        guard let url = WebAddress.parse(server) else {
            CommandFailure.exit(PlaybackError(.streamUnavailable, underlying: "the sync server must be an http(s) URL"))
        }
        let sync = PodcastSync(library: library.podcasts, password: password(), network: library.network, logger: CommandLog.logger)
        let name = device ?? PodcastSync.newDeviceID()
        var choice = linking
        if choice == nil, isatty(STDIN_FILENO) != 0, isatty(STDOUT_FILENO) != 0 {
            let devices = await library.attempt("syncDevices") { () async throws(PlaybackError) in
                try await sync.accountDevices(server: url, username: username)
            }
            choice = SyncLinkPrompt.ask(devices: (devices ?? []).filter { $0.id != name })
        }
        let report: PodcastSync.SetUpReport
        do throws(PlaybackError) {
            report = try await sync.setUp(server: url, username: username, device: name, linking: choice ?? .all)
        } catch {
            await library.analytics.record(error, operation: "syncSetUp")
            // "Not in your library" alone would not say which device the account lacks.
            CommandFailure.exit(error, detail: error.code == .notInLibrary ? error.underlying : nil)
        }
        print(setUpSummary(report, host: url.host ?? server, all: (choice ?? .all) == .all))
        print("Tonearm syncs after a refresh and when an episode stops; `tonearm sync now` syncs at once.")
    }

    /// One sync run, printed; exits 1 when it failed.
    package static func now(library: LibraryContext, full: Bool, json: Bool) async {
        let sync = PodcastSync(library: library.podcasts, password: password(), network: library.network, logger: CommandLog.logger)
        let report = await library.attempt("syncNow") { () async throws(PlaybackError) in try await sync.syncNow(full: full) }
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
        let (account, pending, held) = CommandFailure.orExit { () throws(PlaybackError) -> (SyncAccount?, PendingSync?, Int) in
            guard let account = try library.store.syncAccount() else { return (nil, nil, 0) }
            return (account, try library.store.pendingSync(device: account.device), try library.store.heldSyncActionCount())
        }
        if json {
            JSONOutput.print(Status(account: account, waitingSubscriptionChanges: pending.map { $0.added.count + $0.removed.count } ?? 0,
                waitingActions: pending?.actions.count ?? 0, waitingForEpisodes: held))
            return
        }
        guard let account, let pending else {
            print("Sync is not set up: tonearm sync setup URL USER (the password in \(SyncPassword.environmentVariable) or config.toml).")
            return
        }
        print("Server: \(account.server.absoluteString)")
        print("User: \(account.username), this library: \(account.device)")
        print("Linked with: \(account.linkedDevices.isEmpty ? "no other device (its own subscription list)" : account.linkedDevices.joined(separator: ", "))")
        print("Last sync: \(account.lastSyncAt.map { ISO8601DateFormatter().string(from: $0) } ?? "never")")
        print("Waiting to be sent: \(pending.added.count + pending.removed.count) subscription changes, \(pending.actions.count) episode actions")
        if held > 0 { print("Waiting for episodes to appear: \(counted(held, "place")) from other devices") }
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
            "Synced\(report.fullSync ? " (everything since the beginning)" : ""): \(report.sentSubscriptionChanges) subscription changes and "
                + "\(report.sentActions) episode actions sent; \(report.receivedActions) actions received, \(report.appliedActions) applied."
        ]
        if report.subscribed + report.unsubscribed > 0 {
            lines.append("From other devices: \(counted(report.subscribed, "podcast")) subscribed, \(report.unsubscribed) removed.")
        }
        if report.changedNothing {
            lines.append(
                report.heldActions > 0
                    ? "Nothing changed here yet: places in \(counted(report.heldActions, "episode")) wait for them to appear here."
                    : "Nothing new from other devices.")
        } else if report.heldActions > 0 {
            lines.append(waiting(report.heldActions))
        }
        if report.droppedActions > 0 { lines.append("\(report.droppedActions) actions could not be used (no place given) and were skipped.") }
        if report.subscriptionFailures > 0 {
            lines.append("\(report.subscriptionFailures) podcasts added elsewhere could not be fetched here; they are tried again next sync.")
        }
        return lines.joined(separator: "\n")
    }

    /// What set-up did, as the listener reads it: which devices, and what came over.
    static func setUpSummary(_ report: PodcastSync.SetUpReport, host: String, all: Bool) -> String {
        var lines = ["Sync set up on \(host); this library is device \(report.device)."]
        let sync = report.firstSync
        let cameOver = "\(counted(sync.subscribed, "subscription")) and \(counted(sync.appliedActions, "place")) came over"
        if let joined = report.joined {
            lines.append("Joined device \(joined): \(cameOver).")
        } else if !report.linked.isEmpty {
            let devices = report.linked.joined(separator: ", ")
            lines.append("Linked with \(counted(report.linked.count, "device")) (\(devices))\(all ? ", all the account has" : ""); \(cameOver).")
        } else if report.devices == nil {
            lines.append("This server shares subscriptions between all devices; \(cameOver).")
        } else if report.devices?.isEmpty == true {
            lines.append("The first device on this account; \(cameOver).")
        } else {
            lines.append("Not linked: this library keeps its own subscriptions (positions are shared); \(cameOver).")
        }
        if sync.heldActions > 0 { lines.append(waiting(sync.heldActions)) }
        if sync.subscriptionFailures > 0 {
            lines.append("\(counted(sync.subscriptionFailures, "podcast")) could not be fetched now; tried again next sync.")
        }
        return lines.joined(separator: "\n")
    }

    /// Places for episodes this library does not have: why they wait, and what brings them.
    static func waiting(_ count: Int) -> String {
        "Places in \(counted(count, "episode")) this library does not have yet are kept, and applied when they appear "
            + "(a refresh, a subscription)."
    }

    /// "1 place", "2 places".
    static func counted(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }

    struct Status: Encodable {
        var account: SyncAccount?
        var waitingSubscriptionChanges: Int
        var waitingActions: Int
        var waitingForEpisodes: Int
    }
}
