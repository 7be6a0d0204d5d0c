import MPDProtocol

/// The outputs as MPD clients see them: the main one (`--output`) and the one beside it
/// (`--also-output`), both on for as long as the daemon runs. Tonearm's player writes every
/// block to both and can turn neither off while it plays (the main one paces playback), so
/// turning one off is refused in plain words rather than pretended; turning on one that is on
/// changes nothing, which MPD answers with `OK` and no `idle output` either. Neither output has
/// attributes to set (`outputset`), like MPD's own null and PulseAudio outputs.
extension MPDPlayerBackend {
    static let outputCommands: [MPDCommandEntry] = [
        MPDCommandEntry("outputs", 0...0, .read) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            var r = MPDResponse()
            for (i, name) in b.outputNames.enumerated() {
                r.append("outputid", String(i))
                r.append("outputname", name)
                r.append("plugin", "tonearm")
                r.append("outputenabled", "1")
            }
            return r
        },
        MPDCommandEntry("enableoutput", 1...1, .admin) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            _ = try b.output(a.command.arguments[0])
            return .empty
        },
        MPDCommandEntry("disableoutput", 1...1, .admin) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            throw b.cannotDisable(try b.output(a.command.arguments[0]))
        },
        // Every output is on, so toggling one would turn it off.
        MPDCommandEntry("toggleoutput", 1...1, .admin) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            throw b.cannotDisable(try b.output(a.command.arguments[0]))
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
    func output(_ text: String) throws(MPDAck) -> Int {
        let index = try MPDArgumentParser.unsigned(text)
        guard outputNames.indices.contains(index) else { throw MPDAck(.noExist, "No such audio output") }
        return index
    }

    /// Why an output cannot be turned off: what plays goes to each output for as long as the
    /// daemon runs.
    func cannotDisable(_ index: Int) -> MPDAck {
        MPDAck(.system, "Tonearm's outputs are set when it starts (--output, --also-output); \(outputNames[index]) cannot be turned off")
    }
}
