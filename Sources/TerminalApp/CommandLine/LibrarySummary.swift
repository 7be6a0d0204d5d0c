import LibraryKit

/// What `tonearm library` prints where there is no terminal to show the screens on.
package enum LibrarySummary {
    /// How many stations, podcasts and sessions the library holds, and where the commands are. A
    /// list that cannot be read counts as empty: the summary is a hint, not a report.
    package static func print(_ library: LibraryContext) {
        let stations = (try? library.store.stations().count) ?? 0
        let podcasts = (try? library.store.podcasts().count) ?? 0
        let sessions = (try? library.store.sessions().count) ?? 0
        Swift.print("Library: \(stations) stations, \(podcasts) podcasts, \(sessions) sessions. See `tonearm --help` for the commands.")
    }
}
