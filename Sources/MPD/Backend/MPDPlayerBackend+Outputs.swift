import AudioEngine
import MPDProtocol

/// The outputs as MPD clients see them: the main one (`--output`) and the one beside it
/// (`--also-output`), each turned off and on by `disableoutput`, `enableoutput` and
/// `toggleoutput` while the player plays. Off, an output is closed and gets nothing; the main
/// one's pace is kept by a stand-in, so playback goes on (as mpd plays on with every output
/// disabled). A change fires `idle output`; a command that leaves an output as it was fires
/// nothing, as mpd's does. Neither output has attributes to set (`outputset`), like MPD's own null
/// and PulseAudio outputs. The choice lasts while the daemon runs: `tonearm serve` starts with
/// every output on.
extension MPDPlayerBackend {
    static let outputCommands: [MPDCommandEntry] = [
        MPDCommandEntry("outputs", 0...0, .read) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            var r = MPDResponse()
            for (i, output) in b.outputs.enumerated() {
                r.append("outputid", String(i))
                r.append("outputname", output.name)
                r.append("plugin", "tonearm")
                r.append("outputenabled", output.isOn ? "1" : "0")
            }
            return r
        },
        MPDCommandEntry("enableoutput", 1...1, .admin) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            b.turn(try b.output(a.command.arguments[0]), on: true)
            return .empty
        },
        MPDCommandEntry("disableoutput", 1...1, .admin) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            b.turn(try b.output(a.command.arguments[0]), on: false)
            return .empty
        },
        MPDCommandEntry("toggleoutput", 1...1, .admin) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            let output = try b.output(a.command.arguments[0])
            b.turn(output, on: !output.isOn)
            return .empty
        },
        MPDCommandEntry("outputset", 3...3, .admin) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            _ = try b.output(a.command.arguments[0])
            let name = a.command.arguments[1]
            guard !name.isEmpty, name.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") })
            else { throw MPDAck(.argument, "Illegal attribute name") }
            throw MPDAck(.argument, "Unsupported attribute")
        },
    ]

    /// The output a client named by its number, refused as MPD refuses an unknown one.
    func output(_ text: String) throws(MPDAck) -> OutputSwitch {
        let index = try MPDArgumentParser.unsigned(text)
        guard outputs.indices.contains(index) else { throw MPDAck(.noExist, "No such audio output") }
        return outputs[index]
    }

    /// Turns `output` on or off; clients in `idle output` hear of it when that changed it.
    func turn(_ output: OutputSwitch, on: Bool) {
        guard output.set(on) else { return }
        logger.info("MPD output switched", metadata: ["output": "\(outputs.firstIndex { $0 === output } ?? -1)", "on": "\(on)"])
        changed([.output])
    }
}
