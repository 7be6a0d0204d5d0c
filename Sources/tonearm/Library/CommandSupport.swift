import ArgumentParser
import Foundation
import Library
import PlayerCore
import Services

/// The http(s) URL given for `what` on the command line, or a usage error.
func webURL(_ text: String, what: String) throws -> URL {
    guard let url = WebAddress.parse(text) else { throw ValidationError("\(what) must be an http(s) URL") }
    return url
}

extension StationQuery.Order: ExpressibleByArgument {}
extension EpisodeOrder: ExpressibleByArgument {}
