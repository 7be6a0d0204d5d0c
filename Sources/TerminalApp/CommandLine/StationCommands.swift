import Foundation
import Library
import LibraryKit
import PlayerCore
import Presentation

/// What `tonearm station add`, `list` and `remove` do once their arguments are parsed.
package enum StationCommands {
    /// Keeps the station `url` under `name` and says how to play it.
    package static func add(name: String, url: URL, genre: String?, library: LibraryContext) async {
        let station = await library.attempt("addStation") { () throws(PlaybackError) in try library.store.addStation(name: name, url: url, genre: genre) }
        print("Added \(station.name) (station \(station.id)). Play it with: tonearm play --station \"\(station.name)\"")
    }

    /// Every station, as text or as a JSON array (stable ids) for scripts.
    package static func list(json: Bool, library: LibraryContext) async {
        let stations = await library.attempt("listStations") { () throws(PlaybackError) in try library.store.stations() }
        json ? JSONOutput.print(stations) : print(LibraryListing.stations(stations))
    }

    /// Removes the station `name` names (its name or id).
    package static func remove(_ name: String, library: LibraryContext) async {
        await library.attempt("removeStation") { () throws(PlaybackError) in try library.store.removeStation(named: name) }
        print("Removed \(TextSanitizer.singleLine(name, maxLength: 120))")
    }
}
