import Foundation
import LibraryKit
import PlayerCore
import PlayerKit
import Services

/// `tonearm station search`: asks the station directory and prints what it found (a table, or
/// JSON for scripts), or keeps one of the results in the library (`--add N`).
package enum StationSearch {
    package static func run(_ query: StationQuery, json: Bool, add: Int?, directoryURL: String?) async {
        let library = await LibraryContext.openForCommand()
        // A directory address that is not http(s) is the listener's setting: name it.
        let directory: StationDirectory
        do throws(PlaybackError) {
            directory = try DirectorySettings.directory(option: directoryURL, network: library.network, logger: CommandLog.logger)
        } catch {
            CommandFailure.exit(error, detail: error.underlying)
        }
        let found = await library.attempt("directorySearch") { () async throws(PlaybackError) in try await directory.search(query) }
        guard let add else {
            return json ? JSONOutput.print(found) : print(LibraryListing.directory(found))
        }
        guard found.indices.contains(add - 1) else {
            CommandFailure.exit(PlaybackError(.notInLibrary), detail: "--add \(add): the search found \(found.count) stations")
        }
        let record = await library.attempt("addStation") { () throws(PlaybackError) in try library.addStation(from: found[add - 1]) }
        print("Added \(record.name) (station \(record.id)). Play it with: tonearm play --station \"\(record.name)\"")
    }
}
