import Foundation
import LibraryKit
import PlayerCore
import PlayerKit
import Presentation

/// What `tonearm session add`, `list` and `remove` do once their arguments are parsed.
package enum SessionCommands {
    /// Checks the session file and keeps it in the library under `name`, else its "name", else
    /// its file name; a file that is not a valid session ends the command with what is wrong.
    package static func add(file: String, name: String?, library: LibraryContext) async {
        let url = URL(fileURLWithPath: file).standardizedFileURL
        let (session, json): (SessionFile, String)
        do throws(PlaybackError) {
            (session, json) = try SessionLoader.check(url)
        } catch {
            CommandFailure.exit(error, detail: error.underlying)
        }
        let record = await library.attempt("addSession") { () throws(PlaybackError) in
            try library.store.addSession(name: name ?? session.name ?? url.deletingPathExtension().lastPathComponent, path: url.path, json: json)
        }
        print("Added \(record.name) (session \(record.id), \(record.stageCount) stages). Play it with: tonearm play --session \"\(record.name)\"")
    }

    /// Every kept session, as text or as a JSON array (stable ids) for scripts.
    package static func list(json: Bool, library: LibraryContext) async {
        let sessions = await library.attempt("listSessions") { () throws(PlaybackError) in try library.store.sessions() }
        json ? JSONOutput.print(sessions) : print(LibraryListing.sessions(sessions))
    }

    /// Forgets the session `name` names (its name or id); its file stays.
    package static func remove(_ name: String, library: LibraryContext) async {
        await library.attempt("removeSession") { () throws(PlaybackError) in try library.store.removeSession(named: name) }
        print("Removed \(TextSanitizer.singleLine(name, maxLength: 120))")
    }
}
