import Foundation
import Library
import PlayerCore
import PlayerKit
import Streaming

/// Setting a library up on an account: on gpodder.net and the servers that follow its API, each
/// device keeps its own subscription list until devices are linked (the Device Synchronization
/// API), so a second computer that only registered a new device would see none of the account's
/// podcasts. Set-up therefore reads the account's devices first and links this library with them
/// (or has it join one as the same device), then runs the first sync, which is a full one.
extension PodcastSync {
    /// How a new library shares the account's subscriptions.
    package enum Linking: Sendable, Equatable {
        /// Linked with every device the account has (the default for a second library).
        case all
        /// Linked with these devices.
        case only([String])
        /// Its own subscription list; episode positions are shared all the same.
        case none
        /// This library becomes that device: same id, same subscriptions.
        case join(String)
    }

    /// What set-up did.
    package struct SetUpReport: Sendable, Equatable {
        /// This library's device id on the server.
        package var device: String
        /// The account's other devices, or nil for a server that keeps no device list
        /// (Nextcloud GPodder Sync shares everything between its devices).
        package var devices: [GpodderWire.Device]?
        package var joined: String?
        /// The devices now linked with this library.
        package var linked: [String]
        /// The first sync, a full one.
        package var firstSync: Report
    }

    /// Checks the account on `server` (a wrong password is `httpUnauthorized` here, not at the
    /// first sync) and lists its devices: nil for a server without a device list.
    package func accountDevices(server: URL, username: String) async throws(PlaybackError) -> [GpodderWire.Device]? {
        try Self.checkServer(server)
        try Self.checkName(username, what: "user name")
        let api = GpodderEndpoints(server: server, username: username, device: "")
        _ = try await send(api.login, body: Data(), operation: "syncLogin", username: username)
        do throws(PlaybackError) {
            let answer = try await send(api.devices, body: nil, operation: "syncDevices", username: username)
            let list: GpodderWire.Devices = try decode(answer.body)
            return list.devices
        } catch where error.code == .httpNotFound {
            return nil
        }
    }

    /// Sets the library up as `device` (or, with `.join`, as that device), links it as
    /// `linking` says, keeps the account and runs the first, full sync.
    /// - Throws: `streamUnavailable` for a plain-http server that is not on this machine (the
    ///   password would cross the network in the clear); `notInLibrary` when `.join` or `.only`
    ///   names a device the account does not have.
    @discardableResult
    package func setUp(
        server: URL, username: String, device: String, linking: Linking = .all
    ) async throws(PlaybackError) -> SetUpReport {
        try Self.checkName(device, what: "device id")
        let devices = try await accountDevices(server: server, username: username)
        let known = Set(devices?.map(\.id) ?? [])
        var me = device
        var joined: String?
        var others: [String] = []
        switch linking {
        case .join(let existing):
            guard devices == nil || known.contains(existing) else {
                throw PlaybackError(.notInLibrary, underlying: "the account has no device with that id")
            }
            me = existing
            joined = existing
        case .all:
            others = (devices ?? []).map(\.id).filter { $0 != device }
        case .only(let ids):
            if let unknown = ids.first(where: { !known.contains($0) }), devices != nil {
                throw PlaybackError(.notInLibrary, underlying: "the account has no device '\(TextSanitizer.singleLine(unknown, maxLength: 64))'")
            }
            others = ids.filter { $0 != device }
        case .none:
            break
        }
        let api = GpodderEndpoints(server: server, username: username, device: me)
        // A joined device keeps the caption its owner gave it.
        if joined == nil { try await registerDevice(api, username: username) }
        try store.setUpSync(server: server, username: username, device: me)
        try store.markSyncDeviceRegistered()
        // A server with no device list has no sync groups either: its devices share everything.
        if !others.isEmpty, devices != nil {
            let update = GpodderWire.SyncGroupsUpdate(synchronize: [others + [me]])
            let answer = try await send(api.syncGroups, body: try encode(update), operation: "syncLink", username: username)
            // The first sync reads the groups again and keeps them.
            let _: GpodderWire.SyncGroups = try decode(answer.body)
        }
        logger.info(
            "sync set up",
            metadata: [
                "host": .string(LogRedaction.host(server) ?? "?"), "devices": "\(devices?.count ?? -1)", "linking": "\(others.count)",
                "joined": "\(joined != nil)",
            ])
        let report = try await syncNow(full: true)
        return SetUpReport(
            device: me, devices: devices?.filter { $0.id != me }, joined: joined, linked: report.linkedDevices, firstSync: report)
    }

    /// The account's sync groups, or nil for a server without the Device Synchronization API.
    func syncGroups(_ api: GpodderEndpoints, username: String) async throws(PlaybackError) -> GpodderWire.SyncGroups? {
        do throws(PlaybackError) {
            let answer = try await send(api.syncGroups, body: nil, operation: "syncGroups", username: username)
            return try decode(answer.body)
        } catch where error.code == .httpNotFound {
            return nil
        }
    }
}
