import Foundation
import PlayerKit

/// The gpodder.net API v2 addresses Tonearm uses, under the server's address (which may itself
/// have a path, for a server that lives under one): the user's and the device's names go into the
/// paths percent-encoded, `since` into the query.
struct GpodderEndpoints: Sendable {
    let server: URL
    let username: String
    let device: String

    /// `POST /api/2/auth/USER/login.json`: checks the credentials.
    var login: URL { address("auth/\(user)/login.json") }
    /// `POST /api/2/devices/USER/DEVICE.json`: registers (or renames) this device.
    var deviceRegistration: URL { address("devices/\(user)/\(deviceName).json") }
    /// `GET /api/2/devices/USER.json`: the account's devices.
    var devices: URL { address("devices/\(user).json") }
    /// `GET` and `POST /api/2/sync-devices/USER.json`: which devices share their subscriptions.
    var syncGroups: URL { address("sync-devices/\(user).json") }
    /// `GET /api/2/subscriptions/USER/DEVICE.json?since=T`.
    func subscriptions(since: Int64) -> URL { address("subscriptions/\(user)/\(deviceName).json", since: since) }
    /// `POST /api/2/subscriptions/USER/DEVICE.json`.
    var subscriptionUpload: URL { address("subscriptions/\(user)/\(deviceName).json") }
    /// `GET /api/2/episodes/USER.json?since=T`.
    func episodeActions(since: Int64) -> URL { address("episodes/\(user).json", since: since) }
    /// `POST /api/2/episodes/USER.json`.
    var episodeUpload: URL { address("episodes/\(user).json") }

    private var user: String { Self.segment(username) }
    private var deviceName: String { Self.segment(device) }

    private func address(_ path: String, since: Int64? = nil) -> URL {
        var components = URLComponents(url: server, resolvingAgainstBaseURL: false) ?? URLComponents()
        let base = components.percentEncodedPath.hasSuffix("/") ? String(components.percentEncodedPath.dropLast()) : components.percentEncodedPath
        components.percentEncodedPath = base + "/api/2/" + path
        components.percentEncodedQuery = since.map { "since=\($0)" }
        return components.url ?? server
    }

    private static func segment(_ name: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: ".-_")
        return name.addingPercentEncoding(withAllowedCharacters: allowed) ?? name
    }
}
