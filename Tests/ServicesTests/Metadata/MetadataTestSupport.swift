import Foundation
import Synchronization
import TestProcesses

/// Realistic Icecast 2.4.4 `/status-json.xsl` documents (captured shapes: `source` absent, an
/// object, an array; numbers unquoted, `dummy: null`, a numeric-looking title written as a number).
enum IcecastFixtures {
    static let header = """
        "admin":"icemaster@localhost","host":"localhost","location":"Earth","server_id":"Icecast 2.4.4",\
        "server_start":"Sat, 21 Nov 2026 13:00:00 +0000","server_start_iso8601":"2026-11-21T13:00:00+0000"
        """

    static let jazz = """
        {"audio_info":"channels=2;samplerate=44100;bitrate=128","bitrate":128,"channels":2,"genre":"Jazz",\
        "listener_peak":4,"listeners":2,"listenurl":"http://localhost:8000/jazz","samplerate":44100,\
        "server_description":"Smooth jazz all day","server_name":"Jazz FM","server_type":"audio/mpeg",\
        "server_url":"http://jazz.example","stream_start":"Sat, 21 Nov 2026 13:01:02 +0000",\
        "stream_start_iso8601":"2026-11-21T13:01:02+0000","title":"Miles Davis - So What","dummy":null}
        """

    static let rock = """
        {"artist":"Prince","audio_bitrate":192000,"audio_channels":2,"audio_info":"ice-samplerate=44100;ice-bitrate=192;ice-channels=2",\
        "audio_samplerate":44100,"bitrate":"192","genre":"Rock","ice-bitrate":192,"ice-channels":2,"ice-samplerate":44100,\
        "listener_peak":1,"listeners":0,"listenurl":"http://localhost:8000/rock.ogg","server_description":"Unspecified description",\
        "server_name":"Rock Radio","server_type":"application/ogg","stream_start":"Sat, 21 Nov 2026 13:02:00 +0000",\
        "stream_start_iso8601":"2026-11-21T13:02:00+0000","subtype":"Vorbis","title":1999,"dummy":null}
        """

    static let noSource = #"{"icestats":{\#(header),"dummy":null}}"#
    static let oneSource = #"{"icestats":{\#(header),"source":\#(jazz)}}"#
    static let twoSources = #"{"icestats":{\#(header),"source":[\#(jazz),\#(rock)]}}"#
}

/// A radio.co-style status answer.
func radioStatusJSON(title: String, artwork: String? = "https://cdn.example/covers/large.jpg") -> Data {
    var track: [String: Any] = ["title": title, "start_time": "2026-11-21T13:00:00+00:00"]
    if let artwork {
        track["artwork_url"] = "https://cdn.example/covers/small.jpg"
        track["artwork_url_large"] = artwork
    }
    let document: [String: Any] = [
        "status": "online", "source": ["type": "automated", "collaborator": NSNull(), "relay": NSNull()],
        "collaborators": [Any](), "relays": [Any](), "current_track": track,
        "history": [["title": "Earlier Artist - Earlier Song"]], "logo_url": "https://cdn.example/logo.png",
    ]
    return (try? JSONSerialization.data(withJSONObject: document)) ?? Data()
}

extension TestHTTPServer.Response {
    static func json(_ data: Data, status: Int = 200) -> Self {
        .complete(status: status, contentType: "application/json", body: data)
    }

    static func json(_ text: String) -> Self { json(Data(text.utf8)) }
}

/// A thread-safe count of calls, for scripted "fail first, then answer" routes.
final class CallCounter: Sendable {
    private let count = Mutex(0)

    /// Returns the number of this call, starting at 1.
    func next() -> Int {
        count.withLock { value in
            value += 1
            return value
        }
    }
}
