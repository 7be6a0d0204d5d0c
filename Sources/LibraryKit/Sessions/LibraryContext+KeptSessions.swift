import Foundation
import Library
import PlayerCore
import PlayerKit

extension LibraryContext {
    /// The folder beside the library where sessions Tonearm made (a timer kept with `--save`) are
    /// written: the library names a session by its file, as `session add` names a listener's own.
    package var keptSessionsDirectory: URL {
        store.databaseURL.deletingLastPathComponent().appendingPathComponent("sessions", isDirectory: true)
    }

    /// Keeps `session` in the library under `name`: its JSON (exactly what plays) is written to a
    /// file of its own in `keptSessionsDirectory`, and the library names that file, so it plays
    /// with `play --session NAME` and from the Sessions tab. A name the library has already is
    /// refused (`.alreadyInLibrary`) and leaves no file behind.
    package func keepSession(_ session: SessionFile, name: String) throws(PlaybackError) -> SessionRecord {
        let folder = keptSessionsDirectory
        let json = TimerSession.json(session)
        let file: URL
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            file = Self.freeFile(for: name, in: folder)
            // withoutOverwriting: a file that appeared since the check is never replaced.
            try json.write(to: file, options: [.withoutOverwriting])
        } catch {
            throw PlaybackError.from(error)
        }
        do throws(PlaybackError) {
            return try store.addSession(name: name, path: file.path, json: String(decoding: json, as: UTF8.self))
        } catch {
            try? FileManager.default.removeItem(at: file)
            throw error
        }
    }

    /// `morning-sit.json`, or `morning-sit-2.json` when that is taken (a session the library forgot
    /// keeps its file): letters, digits, `-` and `_` of the name, lowercased.
    static func freeFile(for name: String, in folder: URL) -> URL {
        let safe = name.lowercased().unicodeScalars.map { scalar -> Character in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || scalar == "-" || scalar == "_") ? Character(scalar) : "-"
        }
        var stem = String(String(safe).split(separator: "-", omittingEmptySubsequences: true).joined(separator: "-").prefix(60))
        if stem.isEmpty { stem = "session" }
        var candidate = folder.appendingPathComponent("\(stem).json")
        var n = 2
        while FileManager.default.fileExists(atPath: candidate.path) {
            candidate = folder.appendingPathComponent("\(stem)-\(n).json")
            n += 1
        }
        return candidate
    }
}
