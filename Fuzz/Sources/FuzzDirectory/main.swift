import Foundation
import FuzzSupport
import PlayerCore
import Services

// The station directory's JSON: a search's answer (radio-browser's station objects) and the list
// of its servers. Input: one byte choosing which (even: a search's answer, odd: the server
// list), then the JSON.
//
// Contract: stations with distinct ids, clean names, tags and countries, an http(s) stream, a
// homepage and favicon that are http(s) when given, a bitrate above 0 when given, counts of 0 or
// more; servers that are https addresses with a host, each once; or `.malformedData`.
@_cdecl("LLVMFuzzerTestOneInput")
package func fuzzDirectory(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let (header, body) = fuzzSplit(fuzzBytes(data, size), header: 1)
    do {
        if header[0] & 1 == 0 {
            let stations = try StationDirectory.stations(fromSearch: Data(body))
            fuzzCheck(Set(stations.map(\.id)).count == stations.count, "a station listed twice")
            for station in stations {
                fuzzCheckClean(station.name)
                fuzzCheck(!station.name.isEmpty, "a station without a name")
                fuzzCheckWebURL(station.streamURL)
                if let homepage = station.homepage { fuzzCheckWebURL(homepage) }
                if let favicon = station.favicon { fuzzCheckWebURL(favicon) }
                station.tags.forEach { fuzzCheckClean($0) }
                station.languages.forEach { fuzzCheckClean($0) }
                fuzzCheckClean(station.country)
                fuzzCheck(station.bitrate.map { $0 > 0 } ?? true, "bitrate \(String(describing: station.bitrate))")
                fuzzCheck(station.votes >= 0 && station.clicks >= 0, "votes \(station.votes), clicks \(station.clicks)")
                _ = station.summary
            }
        } else {
            let servers = try StationDirectory.servers(fromList: Data(body))
            fuzzCheck(Set(servers).count == servers.count, "a server listed twice")
            for server in servers { fuzzCheck(server.scheme == "https" && server.host?.isEmpty == false, "server \(server)") }
        }
    } catch {
        fuzzCheck(error, isOneOf: [.malformedData])
    }
    return 0
}

runLibFuzzer(fuzzDirectory)
