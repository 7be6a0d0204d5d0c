import ArgumentParser
import AudioEngine
import Foundation
import PlayerCore
import PlayerKit

/// Options of `tonearm play` for network sources: how to treat a URL, where titles and artwork
/// come from.
struct StreamOptions: ParsableArguments {
    @Flag(help: "Treat http(s) sources as finite files, like episodes (end = finished), instead of live streams (end = connection lost).")
    var finite = false

    @Option(help: "A title that means the station itself (a jingle): shown with the station logo. Repeatable; the stream's icy-name always counts.")
    var identity: [String] = []

    @Option(help: "A status API asked for the title and artwork whenever the stream announces a new title: an Icecast /status-json.xsl URL or a radio.co-style status URL.")
    var statusURL: String?

    @Option(help: "The kind of --status-url: icecast (give --status-mount too) or radioco.")
    var statusAPI: StatusAPI = .icecast

    @Option(help: "The Icecast mount whose title --status-url reports, e.g. /live.mp3.")
    var statusMount: String?

    @Option(help: "The station's logo image URL (shown when the title is the station's identity).")
    var stationLogo: String?

    @Flag(help: "Allow artwork, episode chapters and transcripts from loopback and private addresses (refused by default).")
    var allowPrivateArtwork = false

    @Option(help: "Seconds of a stream's audio held before it sounds, 1-30 (default 1). More rides out longer outages, such as a server restart, unheard; it starts that much later.")
    var buffer: Double?

    enum StatusAPI: String, ExpressibleByArgument { case icecast, radioco }

    func validate() throws {
        if let buffer, !NetworkBuffering.listenerRange.contains(buffer) {
            throw ValidationError("--buffer must be between 1 and 30 seconds")
        }
        for (name, value) in [("--status-url", statusURL), ("--station-logo", stationLogo)] {
            guard let value else { continue }
            guard WebAddress.parse(value) != nil else {
                throw ValidationError("\(name) must be an http(s) URL")
            }
        }
    }

    /// The services for these options.
    func services(for tracks: [Track]) -> TonearmPlayer.Services {
        var services = TonearmPlayer.Services.forStreams(
            tracks, identities: identity, status: statusURL.flatMap(URL.init(string:)).map {
                statusAPI == .radioco ? .radioCo($0) : .icecast($0, mount: statusMount ?? "/")
            }, stationLogo: stationLogo.flatMap(URL.init(string:)), allowPrivateArtwork: allowPrivateArtwork)
        if let buffer { services.buffering = .holding(buffer) }
        return services
    }
}
