import Foundation
import PlayerCore
import PlayerKit
import Testing

@Suite struct RuntimeDirectoryTests {
    @Test func runtimeDirectoryComesFromXDGRuntimeDirElseTmpPerUser() {
        #expect(DaemonRuntimeDirectory.resolve(environment: ["XDG_RUNTIME_DIR": "/run/user/1000"], uid: 1000).url.path == "/run/user/1000/tonearm")
        #expect(DaemonRuntimeDirectory.resolve(environment: [:], uid: 1000).url.path == "/tmp/tonearm-1000")
        // A relative or empty value is ignored, as the XDG specification says.
        #expect(DaemonRuntimeDirectory.resolve(environment: ["XDG_RUNTIME_DIR": "run/user"], uid: 7).url.path == "/tmp/tonearm-7")
        #expect(DaemonRuntimeDirectory.resolve(environment: ["XDG_RUNTIME_DIR": ""], uid: 7).url.path == "/tmp/tonearm-7")
    }

    @Test func aFolderMustBeADirectoryOfOursClosedToOthers() {
        #expect(DaemonRuntimeDirectory.check(isDirectory: true, owner: 5, mode: 0o40700, uid: 5) == nil)
        #expect(DaemonRuntimeDirectory.check(isDirectory: false, owner: 5, mode: 0o700, uid: 5) == .notADirectory)
        #expect(DaemonRuntimeDirectory.check(isDirectory: true, owner: 6, mode: 0o700, uid: 5) == .ownedByAnother(uid: 6))
        #expect(DaemonRuntimeDirectory.check(isDirectory: true, owner: 5, mode: 0o755, uid: 5) == .openToOthers(mode: 0o755))
        #expect(DaemonRuntimeDirectory.check(isDirectory: true, owner: 5, mode: 0o710, uid: 5) == .openToOthers(mode: 0o710))
    }

    @Test func prepareMakesAPrivateFolderAndRefusesALinkOrAnOpenOne() throws {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-rt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: parent) }
        let directory = DaemonRuntimeDirectory.resolve(environment: ["XDG_RUNTIME_DIR": parent.path])
        try directory.prepare()
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: directory.url.path)[.posixPermissions] as? Int)
        #expect(mode == 0o700)

        let open = DaemonRuntimeDirectory(url: parent.appendingPathComponent("open"))
        try FileManager.default.createDirectory(at: open.url, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o777])
        #expect(throws: PlaybackError.self) { try open.prepare() }

        let link = DaemonRuntimeDirectory(url: parent.appendingPathComponent("link"))
        try FileManager.default.createSymbolicLink(at: link.url, withDestinationURL: directory.url)
        #expect(throws: PlaybackError.self) { try link.prepare() }
    }

    @Test func theReachHintNamesThePidAndTheMPDAddress() {
        #expect(DaemonInfo(pid: 42, output: "null").reachHint == "pid 42; stop it with `systemctl --user stop tonearm` (or `kill 42`)")
        let socket = DaemonInfo(pid: 42, output: "null", endpoints: [.init(service: "mpd", address: "/run/user/1/tonearm/mpd.sock")])
        #expect(socket.reachHint.contains("control it with `mpc -h /run/user/1/tonearm/mpd.sock`"))
        #expect(DaemonEndpoint(service: "mpd", address: "127.0.0.1:6600").mpcCommand == "mpc -h 127.0.0.1 -p 6600")
        #expect(DaemonEndpoint(service: "mpd", address: "[::1]:6601").mpcCommand == "mpc -h ::1 -p 6601")
    }
}
