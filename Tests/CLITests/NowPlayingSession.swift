import Foundation
import TestProcesses

extension TmuxSession {
    /// `tonearm play FILE --output null` on Now Playing in an 80x24 tmux terminal, with its own
    /// library in `data` and, given a bus, MPRIS on it.
    static func nowPlaying(_ file: URL, data: URL, bus: DBusSession? = nil) throws -> TmuxSession {
        var environment = ["TERM": "xterm-256color", "LANG": "C.UTF-8", "XDG_DATA_HOME": data.path]
        if let bus { environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address }
        return try TmuxSession([CLITests.binary.path, "play", file.path, "--output", "null"], environment: environment)
    }
}
