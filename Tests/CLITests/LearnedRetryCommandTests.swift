import Foundation
import Synchronization
import TestProcesses
import Testing

/// Retries that learn, through the binary: a feed whose server stopped answering costs every
/// `tonearm podcast refresh` its full retries until it has failed the configured number of runs,
/// then the refresh of all leaves it out, `tonearm errors` says why, the listener's own refresh
/// of it asks once, and its first answer puts it back.
@Suite("tonearm: retries that learn", .serialized, .blocking)
struct LearnedRetryCommandTests {
    /// A config folder where two failed runs, with no span of days required, make an item
    /// usually unreachable.
    static func quickToLearn() throws -> URL {
        let config = LibraryCommandTests.dataHome()
        try FileManager.default.createDirectory(at: config.appendingPathComponent("tonearm"), withIntermediateDirectories: true)
        try "[retries]\nusuallyUnreachableAfter = 2\noverDays = 0\nprobeEveryHours = 24\n"
            .write(to: config.appendingPathComponent("tonearm/config.toml"), atomically: true, encoding: .utf8)
        return config
    }

    @Test func aDeadFeedStopsCostingRefreshTime() throws {
        let dead = Mutex(false)
        let server = try TestHTTPServer { request in
            switch request.path {
            case "/live.xml":
                return .complete(contentType: "application/rss+xml", body: LibraryCommandTests.feed(title: "Live Feed", items: [("l1", "On air", nil)]))
            case "/dead.xml" where !dead.withLock({ $0 }):
                return .complete(contentType: "application/rss+xml", body: LibraryCommandTests.feed(title: "Dead Feed", items: [("d1", "Last one", nil)]))
            default:
                return .init(status: 503, headers: [("Content-Length", "0")])
            }
        }
        defer { server.stop() }
        let home = LibraryCommandTests.dataHome()
        let config = try Self.quickToLearn()
        defer { [home, config].forEach { try? FileManager.default.removeItem(at: $0) } }
        let environment = ["XDG_CONFIG_HOME": config.path]
        func run(_ arguments: [String]) throws -> (status: Int32, out: String, err: String, deadRequests: Int) {
            let before = server.requests.filter { $0.path == "/dead.xml" }.count
            let r = try CLITests.run(arguments, dataHome: home, environment: environment)
            return (r.status, r.out, r.err, server.requests.filter { $0.path == "/dead.xml" }.count - before)
        }
        for feed in ["/live.xml", "/dead.xml"] {
            let added = try run(["podcast", "add", server.url(feed).absoluteString])
            #expect(added.status == 0, "stderr: \(added.err)")
        }
        dead.withLock { $0 = true }

        // Two refreshes of all: each asks the dead feed three times (the network preset) and fails.
        for _ in 0..<2 {
            let r = try run(["podcast", "refresh"])
            #expect(r.status == 1 && r.deadRequests == 3, "\(r)")
            #expect(r.out.contains("Live Feed: 0 new"), "\(r.out)")
        }
        // The third leaves it out: no request, no failure, and it says why.
        var r = try run(["podcast", "refresh"])
        #expect(r.status == 0 && r.deadRequests == 0, "\(r)")
        #expect(r.out.contains("Dead Feed: usually unreachable since "), "\(r.out)")
        #expect(r.out.contains("Live Feed: 0 new"), "\(r.out)")

        // `tonearm errors` names it, with how runs ended on this (loopback) server; the JSON by key only.
        r = try run(["errors"])
        #expect(r.status == 0, "stderr: \(r.err)")
        #expect(r.out.contains("feed of Dead Feed") && r.out.contains("serverUnavailable") && r.out.contains("loopback"), "\(r.out)")
        r = try run(["errors", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
        let learned = try #require(object["learnedRetries"] as? [String: Any], "\(r.out)")
        let unreachable = try #require(learned["usuallyUnreachable"] as? [[String: Any]])
        #expect(unreachable.count == 1, "\(unreachable)")
        let first = try #require(unreachable.first)
        let item = first["item"] as? String ?? ""
        #expect(item.hasPrefix("feed:"), "\(first)")
        #expect(first["failedRuns"] as? Int == 2, "\(first)")
        #expect(!r.out.contains("Dead Feed") && !r.out.contains("dead.xml"), "no title or address in the JSON")
        let endings = try #require((learned["runEndings"] as? [String: Any])?["loopback"] as? [String: Int])
        #expect(endings["never"] == 2 && endings["firstTry"] == 3, "\(endings)")

        // The listener asks for it alone: one request, no backoff.
        r = try run(["podcast", "refresh", "Dead Feed"])
        #expect(r.status == 1 && r.deadRequests == 1, "\(r)")
        // It answers again: back at once, and the next refresh of all asks it as usual.
        dead.withLock { $0 = false }
        r = try run(["podcast", "refresh", "Dead Feed"])
        #expect(r.status == 0 && r.deadRequests == 1, "\(r)")
        r = try run(["podcast", "refresh"])
        #expect(r.status == 0 && r.deadRequests == 1 && !r.out.contains("usually unreachable"), "\(r)")
    }
}
