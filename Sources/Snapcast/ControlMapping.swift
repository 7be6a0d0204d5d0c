import MPDProtocol

/// What a request from the Snapcast server asks of the player, decided without I/O.
public enum ControlAction: Sendable, Equatable {
    /// Send these commands to MPD (in order), then answer "ok".
    case run([MPDCommand])
    /// Answer with the current properties.
    case answerProperties
    /// Answer with an error.
    case fail(RPCMessage.ErrorCode, String)
}

/// Maps Snapcast's `Plugin.Stream.Player.*` requests onto MPD commands.
public enum ControlMapping {
    /// The action for `request`, given what the player does now (`playPause` depends on it).
    public static func action(for request: RPCRequest, current: PlayerSnapshot) -> ControlAction {
        switch request.method {
        case "Plugin.Stream.Player.Control": control(request.params, current: current)
        case "Plugin.Stream.Player.SetProperty": setProperty(request.params)
        case "Plugin.Stream.Player.GetProperties": .answerProperties
        default: .fail(.methodNotFound, "Method not found: \(request.method)")
        }
    }

    static func control(_ params: JSONValue, current: PlayerSnapshot) -> ControlAction {
        guard let command = params["command"]?.stringValue else { return .fail(.invalidParams, "Control needs a command") }
        let arguments = params["params"] ?? .null
        switch command.lowercased() {
        case "play": return .run([MPDCommand("play")])
        case "pause": return .run([MPDCommand("pause", ["1"])])
        case "playpause": return .run([current.isPlaying ? MPDCommand("pause", ["1"]) : MPDCommand("play")])
        case "stop": return .run([MPDCommand("stop")])
        case "next": return .run([MPDCommand("next")])
        case "previous": return .run([MPDCommand("previous")])
        case "seek":
            guard let offset = (arguments["offset"] ?? arguments["Offset"])?.doubleValue else {
                return .fail(.invalidParams, "seek needs an offset in seconds")
            }
            return .run([MPDCommand("seekcur", [(offset >= 0 ? "+" : "-") + decimal(abs(offset))])])
        case "setposition":
            guard let position = (arguments["position"] ?? arguments["Position"])?.doubleValue, position >= 0 else {
                return .fail(.invalidParams, "setPosition needs a position in seconds")
            }
            return .run([MPDCommand("seekcur", [decimal(position)])])
        default:
            return .fail(.invalidParams, "Unknown command: \(command)")
        }
    }

    static func setProperty(_ params: JSONValue) -> ControlAction {
        guard case .object(let properties) = params, !properties.isEmpty else { return .fail(.invalidParams, "SetProperty needs a property") }
        var commands: [MPDCommand] = []
        for (name, value) in properties.sorted(by: { $0.key < $1.key }) {
            switch name {
            case "volume":
                guard let volume = value.doubleValue else { return .fail(.invalidParams, "volume must be a number") }
                commands.append(MPDCommand("setvol", [String(Int(min(max(volume, 0), 100).rounded()))]))
            case "mute":
                // MPD has no mute: muting is volume 0; unmuting cannot know the old volume.
                guard let mute = value.boolValue else { return .fail(.invalidParams, "mute must be a bool") }
                if mute { commands.append(MPDCommand("setvol", ["0"])) }
            case "shuffle":
                guard let shuffle = value.boolValue else { return .fail(.invalidParams, "shuffle must be a bool") }
                commands.append(MPDCommand("random", [shuffle ? "1" : "0"]))
            case "loopStatus":
                switch value.stringValue {
                case "none": commands += [MPDCommand("repeat", ["0"]), MPDCommand("single", ["0"])]
                case "track": commands += [MPDCommand("repeat", ["1"]), MPDCommand("single", ["1"])]
                case "playlist": commands += [MPDCommand("repeat", ["1"]), MPDCommand("single", ["0"])]
                default: return .fail(.invalidParams, "loopStatus must be none, track or playlist")
                }
            default:
                return .fail(.invalidParams, "Property not supported: \(name)")
            }
        }
        return .run(commands)
    }

    /// Seconds as MPD takes them: up to three decimals, no exponent.
    static func decimal(_ seconds: Double) -> String {
        let millis = Int((seconds * 1000).rounded())
        let whole = millis / 1000, fraction = millis % 1000
        if fraction == 0 { return String(whole) }
        var text = String(fraction)
        while text.count < 3 { text = "0" + text }
        while text.hasSuffix("0") { text.removeLast() }
        return "\(whole).\(text)"
    }
}
