import MPDProtocol
import Testing

@testable import Snapcast

/// Snapcast's requests as MPD commands, and MPD's answers as Snapcast's properties.
@Suite("Snapcast control mapping")
struct ControlMappingTests {
    let playing = PlayerSnapshot(
        status: [("volume", "80"), ("repeat", "1"), ("random", "0"), ("single", "1"), ("state", "play"), ("elapsed", "12.345"),
                 ("duration", "200.5"), ("playlistlength", "2")],
        song: [("file", "a.flac"), ("Title", "First Tone"), ("Artist", "One"), ("Artist", "Two"), ("Album", "Tones"), ("Id", "7")])
    let stopped = PlayerSnapshot(status: [("state", "stop"), ("volume", "-1"), ("playlistlength", "0")], song: [])

    func control(_ command: String, _ params: JSONValue = .null, current: PlayerSnapshot? = nil) -> ControlAction {
        var fields: [String: JSONValue] = ["command": .string(command)]
        if params != .null { fields["params"] = params }
        return ControlMapping.action(
            for: RPCRequest(id: .number(1), method: "Plugin.Stream.Player.Control", params: .object(fields)), current: current ?? playing)
    }

    @Test func controlsBecomeTheMPDCommandsMpcSends() {
        #expect(control("play") == .run([MPDCommand("play")]))
        #expect(control("pause") == .run([MPDCommand("pause", ["1"])]))
        #expect(control("stop") == .run([MPDCommand("stop")]))
        #expect(control("next") == .run([MPDCommand("next")]))
        #expect(control("previous") == .run([MPDCommand("previous")]))
        #expect(control("playPause", current: playing) == .run([MPDCommand("pause", ["1"])]))
        #expect(control("playPause", current: stopped) == .run([MPDCommand("play")]))
        #expect(control("seek", .object(["offset": .number(-5.5)])) == .run([MPDCommand("seekcur", ["-5.5"])]))
        #expect(control("seek", .object(["offset": .number(30)])) == .run([MPDCommand("seekcur", ["+30"])]))
        #expect(control("setPosition", .object(["position": .number(61.25)])) == .run([MPDCommand("seekcur", ["61.25"])]))
    }

    @Test func wrongRequestsAreErrorsNotGuesses() {
        guard case .fail(.invalidParams, _) = control("seek") else { Issue.record("seek without an offset"); return }
        guard case .fail(.invalidParams, _) = control("setPosition", .object(["position": .number(-1)])) else {
            Issue.record("a negative position")
            return
        }
        guard case .fail(.invalidParams, _) = control("rewind") else { Issue.record("an unknown command"); return }
        let unknown = ControlMapping.action(for: RPCRequest(id: .number(2), method: "Plugin.Stream.Player.Dance"), current: playing)
        guard case .fail(.methodNotFound, _) = unknown else { Issue.record("an unknown method"); return }
    }

    @Test func propertiesSetAsMPDCanSetThem() {
        func set(_ fields: [String: JSONValue]) -> ControlAction {
            ControlMapping.action(for: RPCRequest(id: .number(3), method: "Plugin.Stream.Player.SetProperty", params: .object(fields)), current: playing)
        }
        #expect(set(["volume": .number(42)]) == .run([MPDCommand("setvol", ["42"])]))
        #expect(set(["volume": .number(140)]) == .run([MPDCommand("setvol", ["100"])]))
        #expect(set(["shuffle": .bool(true)]) == .run([MPDCommand("random", ["1"])]))
        #expect(set(["loopStatus": .string("track")]) == .run([MPDCommand("repeat", ["1"]), MPDCommand("single", ["1"])]))
        #expect(set(["loopStatus": .string("none")]) == .run([MPDCommand("repeat", ["0"]), MPDCommand("single", ["0"])]))
        #expect(set(["mute": .bool(true)]) == .run([MPDCommand("setvol", ["0"])]))
        guard case .fail(.invalidParams, _) = set(["rate": .number(2)]) else { Issue.record("rate is not settable"); return }
    }

    @Test func mpdStatusBecomesSnapcastProperties() {
        let properties = StreamProperties.of(playing)
        #expect(properties["playbackStatus"] == .string("playing"))
        #expect(properties["loopStatus"] == .string("track"))
        #expect(properties["shuffle"] == .bool(false))
        #expect(properties["volume"] == .number(80))
        #expect(properties["position"] == .number(12.345))
        #expect(properties["canSeek"] == .bool(true))
        #expect(properties["canGoNext"] == .bool(true))
        let metadata = properties["metadata"]
        #expect(metadata?["title"] == .string("First Tone"))
        #expect(metadata?["artist"] == .array([.string("One"), .string("Two")]))
        #expect(metadata?["album"] == .string("Tones"))
        #expect(metadata?["duration"] == .number(200.5))

        let nothing = StreamProperties.of(stopped)
        #expect(nothing["playbackStatus"] == .string("stopped"))
        #expect(nothing["volume"] == nil)
        #expect(nothing["canPlay"] == .bool(false))
        #expect(nothing["metadata"] == nil)
    }

    @Test func aStationWithoutATitleShowsItsName() {
        let radio = PlayerSnapshot(status: [("state", "play")], song: [("file", "http://radio.example/live"), ("Name", "Test Radio")])
        let properties = StreamProperties.of(radio)
        #expect(properties["metadata"]?["title"] == .string("Test Radio"))
        // A live stream has no duration: nothing to seek in.
        #expect(properties["canSeek"] == .bool(false))
    }

    @Test func linesAreTheJSONRPCSnapserverReads() {
        #expect(RPCMessage.ready == #"{"jsonrpc":"2.0","method":"Plugin.Stream.Ready"}"#)
        #expect(RPCMessage.result(id: .number(4), .string("ok")) == #"{"id":4,"jsonrpc":"2.0","result":"ok"}"#)
        let request = RPCRequest(line: #"{"id":1,"jsonrpc":"2.0","method":"Plugin.Stream.Player.GetProperties"}"#)
        #expect(request == RPCRequest(id: .number(1), method: "Plugin.Stream.Player.GetProperties"))
        #expect(RPCRequest(line: "not json") == nil)
    }
}
