import Foundation

/// A loopback server for the gpodder.net API v2 as its documentation describes it (the API that
/// gpodder.net, oPodSync and the other servers of it answer), for sync tests: no server of that
/// API is packaged for Debian, so this follows the published specification and nothing else.
///
/// - Every `/api/2/` request needs HTTP Basic credentials of the one account, else 401; a name in
///   the path other than the authenticated user's is 400.
/// - `POST auth/USER/login.json`, `POST devices/USER/DEVICE.json` (JSON caption and type).
/// - Subscriptions are the account's, shared by its devices (as oPodSync and most servers keep
///   them): `GET subscriptions/USER/DEVICE.json?since=T` answers the changes after T, the last
///   per feed; `POST` takes `{"add": [...], "remove": [...]}` (a feed in both is 400).
/// - Episode actions: `POST episodes/USER.json` takes a list (an action without podcast, episode,
///   a known action or a timestamp is 400; a play's started/position/total are numbers);
///   `GET episodes/USER.json?since=T` answers the actions uploaded after T.
/// - Timestamps are a counter that moves with each upload: clients treat them as opaque, and a
///   counter keeps two uploads in one second apart.
///
/// Knobs replay what real servers do to clients: `down` (503 for everything), `answersHTML`
/// (a captive portal's page with 200), `rateLimited` (the next N requests get 429 with
/// `Retry-After`), and `inject` (another client's actions, raw, as a broken client wrote them).
package final class GpodderServer: @unchecked Sendable {
    package let username: String
    package let password: String
    private let lock = NSLock()
    private var clock: Int64 = 1000
    private var subscriptionLog: [(at: Int64, url: String, added: Bool)] = []
    private var actionLog: [(at: Int64, action: [String: Any])] = []
    private var _devices: [String: String] = [:]
    private var _down = false
    private var _answersHTML = false
    private var _rateLimited = 0
    private var http: TestHTTPServer!

    package var baseURL: URL { URL(string: http.baseURL)! }
    /// Requests received, in order.
    package var requests: [TestHTTPServer.Request] { http.requests }
    /// Registered devices and their captions.
    package var devices: [String: String] { lock.withLock { _devices } }
    /// The account's subscriptions now.
    package var subscriptions: Set<String> {
        lock.withLock {
            var current = Set<String>()
            for change in subscriptionLog { if change.added { current.insert(change.url) } else { current.remove(change.url) } }
            return current
        }
    }
    /// Every action uploaded or injected, as JSON objects.
    package var actions: [[String: Any]] { lock.withLock { actionLog.map(\.action) } }

    package var down: Bool {
        get { lock.withLock { _down } }
        set { lock.withLock { _down = newValue } }
    }

    /// How many of the next requests are refused with 429 and `Retry-After: 2`.
    package var rateLimited: Int {
        get { lock.withLock { _rateLimited } }
        set { lock.withLock { _rateLimited = newValue } }
    }

    package var answersHTML: Bool {
        get { lock.withLock { _answersHTML } }
        set { lock.withLock { _answersHTML = newValue } }
    }

    package init(username: String = "listener", password: String = "s3cret pass:word") throws {
        self.username = username
        self.password = password
        http = try TestHTTPServer { [unowned self] request in self.answer(request) }
    }

    deinit { http?.stop() }

    package func stop() { http.stop() }

    /// Adds actions as another client uploaded them, unchecked (a broken client's too).
    package func inject(_ actions: [[String: Any]]) {
        lock.withLock {
            clock += 1
            for action in actions { actionLog.append((clock, action)) }
        }
    }

    /// Adds a subscription as another device did.
    package func subscribe(_ url: String) {
        lock.withLock {
            clock += 1
            subscriptionLog.append((clock, url, true))
        }
    }

    // MARK: - The API

    private func answer(_ request: TestHTTPServer.Request) -> TestHTTPServer.Response {
        if down { return .complete(status: 503, contentType: "text/plain", body: Data("down for maintenance".utf8)) }
        let limited: Bool = lock.withLock {
            guard _rateLimited > 0 else { return false }
            _rateLimited -= 1
            return true
        }
        if limited {
            return .complete(status: 429, contentType: "text/plain", body: Data("slow down".utf8), headers: [("Retry-After", "2")])
        }
        if answersHTML { return .complete(contentType: "text/html", body: Data("<html><body>Sign in to the Wi-Fi</body></html>".utf8)) }
        let parts = request.path.split(separator: "/").map(String.init)
        guard parts.count >= 4, parts[0] == "api", parts[1] == "2" else { return status(404) }
        guard authorized(request) else {
            return .complete(status: 401, contentType: "text/plain", body: Data("unauthorized".utf8), headers: [("WWW-Authenticate", "Basic realm=\"gpodder\"")])
        }
        let resource = parts[2]
        let rest = Array(parts[3...])
        let user = rest[0].replacingOccurrences(of: ".json", with: "")
        guard user == username else { return status(400) }
        switch (request.method, resource, rest.count) {
        case ("POST", "auth", 2) where rest[1] == "login.json":
            return .complete(contentType: "application/json", body: Data("{}".utf8))
        case ("POST", "devices", 2):
            guard let body = json(request.body) as? [String: Any] else { return status(400) }
            let device = rest[1].replacingOccurrences(of: ".json", with: "")
            lock.withLock { _devices[device] = body["caption"] as? String ?? "" }
            return .complete(contentType: "application/json", body: Data("{}".utf8))
        case ("GET", "subscriptions", 2):
            return subscriptionChanges(since: since(request))
        case ("POST", "subscriptions", 2):
            return uploadSubscriptions(request.body)
        case ("GET", "episodes", 1):
            return episodeActions(since: since(request))
        case ("POST", "episodes", 1):
            return uploadActions(request.body)
        default:
            return status(404)
        }
    }

    private func authorized(_ request: TestHTTPServer.Request) -> Bool {
        guard let header = request.header("Authorization"), header.hasPrefix("Basic "),
            let decoded = Data(base64Encoded: String(header.dropFirst(6))).flatMap({ String(data: $0, encoding: .utf8) })
        else { return false }
        return decoded == "\(username):\(password)"
    }

    private func since(_ request: TestHTTPServer.Request) -> Int64 {
        let query = request.uri.split(separator: "?", maxSplits: 1).dropFirst().first ?? ""
        for pair in query.split(separator: "&") where pair.hasPrefix("since=") { return Int64(pair.dropFirst(6)) ?? 0 }
        return 0
    }

    private func subscriptionChanges(since: Int64) -> TestHTTPServer.Response {
        let (add, remove, now): ([String], [String], Int64) = lock.withLock {
            var last: [String: Bool] = [:]
            var order: [String] = []
            for change in subscriptionLog where change.at > since {
                if last[change.url] == nil { order.append(change.url) }
                last[change.url] = change.added
            }
            return (order.filter { last[$0] == true }, order.filter { last[$0] == false }, clock)
        }
        return ok(["add": add, "remove": remove, "timestamp": now])
    }

    private func uploadSubscriptions(_ body: Data) -> TestHTTPServer.Response {
        guard let object = json(body) as? [String: Any], let add = object["add"] as? [String], let remove = object["remove"] as? [String],
            Set(add).isDisjoint(with: remove)
        else { return status(400) }
        let now: Int64 = lock.withLock {
            clock += 1
            for url in add { subscriptionLog.append((clock, url, true)) }
            for url in remove { subscriptionLog.append((clock, url, false)) }
            return clock
        }
        return ok(["timestamp": now, "update_urls": [[String]]()])
    }

    private func episodeActions(since: Int64) -> TestHTTPServer.Response {
        let (actions, now): ([[String: Any]], Int64) = lock.withLock { (actionLog.filter { $0.at > since }.map(\.action), clock) }
        return ok(["actions": actions, "timestamp": now])
    }

    private func uploadActions(_ body: Data) -> TestHTTPServer.Response {
        guard let list = json(body) as? [[String: Any]] else { return status(400) }
        for action in list {
            guard action["podcast"] is String, action["episode"] is String, action["timestamp"] is String,
                let name = action["action"] as? String, ["download", "delete", "play", "new", "flattr"].contains(name.lowercased())
            else { return status(400) }
            for key in ["started", "position", "total"] where action[key] != nil {
                guard action[key] is NSNumber else { return status(400) }
            }
        }
        let now: Int64 = lock.withLock {
            clock += 1
            for action in list { actionLog.append((clock, action)) }
            return clock
        }
        return ok(["timestamp": now, "update_urls": [[String]]()])
    }

    // MARK: - Helpers

    private func json(_ data: Data) -> Any? { try? JSONSerialization.jsonObject(with: data) }

    private func ok(_ object: [String: Any]) -> TestHTTPServer.Response {
        .complete(contentType: "application/json", body: (try? JSONSerialization.data(withJSONObject: object)) ?? Data("{}".utf8))
    }

    private func status(_ code: Int) -> TestHTTPServer.Response {
        .complete(status: code, contentType: "text/plain", body: Data("\(code)".utf8))
    }
}
