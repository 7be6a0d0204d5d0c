import Foundation
import LibraryKit
import PlayerCore
import PlayerKit

/// What `tonearm session add` does once its arguments are parsed.
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
}
