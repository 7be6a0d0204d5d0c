import Foundation
import MPDProtocol
import PlayerCore

/// MPD's database commands as pure functions over the indexed songs: `list` with groups,
/// `find`/`search` with sort and window, `count` with a group, `listall`/`listallinfo`.
/// Answers follow mpd 0.23's: a song without the listed tag gives an empty value, groups nest
/// with the last one named outermost, values come sorted.
package enum MPDDatabaseQueries {
    /// `list TAG [FILTER] [group G]...`.
    package static func list(_ request: MPDListRequest, in songs: [MPDDatabaseSong]) -> MPDResponse {
        let matching = request.filter.map { filter in songs.filter(MPDFilterMatcher(filter).matches) } ?? songs
        // Outermost first: mpd nests by the last group named.
        let levels = Array(request.groups.reversed()) + [request.tag]
        var tree = ListNode()
        for song in matching {
            tree.insert(levels.map { values(of: $0, song: song) }[...])
        }
        var r = MPDResponse()
        tree.print(names: levels[...], into: &r)
        return r
    }

    /// The values a song gives `list` for `tag`: its values, or one empty one (`file` is the URI).
    private static func values(of tag: String, song: MPDDatabaseSong) -> [String] {
        if tag == "file" { return [song.uri] }
        let values = song.values(ofTag: tag)
        return values.isEmpty ? [""] : values
    }

    /// A level of `list`'s nesting: each value and what lies under it, sorted by byte order as
    /// mpd's `std::set<std::string>` sorts.
    private struct ListNode {
        var children: [String: ListNode] = [:]

        mutating func insert(_ levels: ArraySlice<[String]>) {
            guard let values = levels.first else { return }
            for value in values {
                children[value, default: ListNode()].insert(levels.dropFirst())
            }
        }

        func print(names: ArraySlice<String>, into r: inout MPDResponse) {
            guard let name = names.first else { return }
            for key in children.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                if name == "file" {
                    if !key.isEmpty { r.append("file", key) }
                } else {
                    r.append(name, key)
                }
                children[key]?.print(names: names.dropFirst(), into: &r)
            }
        }
    }

    /// How `find` and `search` may order and cut their answer.
    package struct Window: Sendable, Equatable {
        /// The tag to sort by (a leading `-` descends), or `Last-Modified`/`Added`.
        package var sort: String?
        package var range: Range<Int>?

        package init(sort: String? = nil, range: Range<Int>? = nil) {
            self.sort = sort
            self.range = range
        }
    }

    /// `find`/`search`: the songs that match, in index order, sorted and cut as asked.
    package static func find(_ filter: MPDFilter, window: Window = Window(), in songs: [MPDDatabaseSong]) -> [MPDDatabaseSong] {
        let matcher = MPDFilterMatcher(filter)
        var found = songs.filter(matcher.matches)
        if let sort = window.sort {
            let descending = sort.hasPrefix("-")
            let key = descending ? String(sort.dropFirst()) : sort
            found = stableSorted(found) { a, b in
                let (x, y) = (sortKey(key, a), sortKey(key, b))
                return descending ? y < x : x < y
            }
        }
        if let range = window.range {
            let clipped = range.clamped(to: 0..<found.count)
            found = Array(found[clipped])
        }
        return found
    }

    private static func sortKey(_ key: String, _ song: MPDDatabaseSong) -> String {
        switch key {
        case "Last-Modified": String(format: "%020lld", song.modified ?? 0)
        case "Added": String(format: "%020lld", song.added ?? 0)
        default: song.values(ofTag: key).first ?? ""
        }
    }

    private static func stableSorted(_ songs: [MPDDatabaseSong], by less: (MPDDatabaseSong, MPDDatabaseSong) -> Bool) -> [MPDDatabaseSong] {
        songs.enumerated().sorted { a, b in
            if less(a.element, b.element) { return true }
            if less(b.element, a.element) { return false }
            return a.offset < b.offset
        }.map(\.element)
    }

    /// `count FILTER [group TAG]`: songs and whole seconds of playtime, per group value (sorted)
    /// when grouped.
    package static func count(_ filter: MPDFilter?, group: String?, in songs: [MPDDatabaseSong]) -> MPDResponse {
        let matching = filter.map { filter in songs.filter(MPDFilterMatcher(filter).matches) } ?? songs
        var r = MPDResponse()
        func totals(_ songs: [MPDDatabaseSong]) {
            r.append("songs", String(songs.count))
            r.append("playtime", String(Int(songs.compactMap(\.record.tags.audio.duration).reduce(0, +).rounded(.down))))
        }
        guard let group else {
            totals(matching)
            return r
        }
        var byValue: [String: [MPDDatabaseSong]] = [:]
        for song in matching {
            for value in values(of: group, song: song) { byValue[value, default: []].append(song) }
        }
        for value in byValue.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            r.append(group, value)
            totals(byValue[value] ?? [])
        }
        return r
    }

    /// The folders of songs under `directory` ("" for the top), each with the folders between.
    package static func directories(of songs: [MPDDatabaseSong], under directory: String) -> [String] {
        var all = Set<String>()
        for song in songs {
            var path = Substring(song.record.directory)
            while !path.isEmpty, all.insert(String(path)).inserted {
                guard let slash = path.lastIndex(of: "/") else { break }
                path = path[..<slash]
            }
        }
        let prefix = directory.isEmpty ? "" : directory + "/"
        return all.filter { $0.hasPrefix(prefix) && $0 != directory }.sorted()
    }
}
