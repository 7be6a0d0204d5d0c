import Foundation

/// A multi-stage session (such as a 3-stage meditation), as a JSON file:
///
/// ```json
/// {
///   "name": "Morning meditation",
///   "crossfade": 10,
///   "stages": [
///     { "title": "Arrival", "source": "arrival.ogg", "loops": 2, "crossfade": 8, "curve": "equal-power", "volume": 0.9 },
///     { "title": "Breath",  "source": "breath.opus", "duration": 600 },
///     { "title": "Return",  "source": "https://example.org/return.mp3" }
///   ]
/// }
/// ```
///
/// Per stage: `source` (a path relative to the session file, an absolute path, or an http(s) URL;
/// required); `title`; either `loops` (play the source n times back to back, default 1) or
/// `duration` (seconds: the source repeats as often as needed and the stage hands over at that
/// point); `crossfade` (seconds into the next stage, 0-30, 0 = gapless; default the session's
/// `crossfade`, else 0); `loopCrossfade` (seconds between repeats of the same source, default 0);
/// `curve` (`equal-power`, `linear`, `raised-cosine`, `log`; default the session's, else
/// equal-power); `volume` (0-1, default 1); `voice` (true for guidance: a bed ducks under it).
/// Beside the stages, a session may have layers that play through it: a `bed` and `bells` (see
/// `SessionFile.Bed`, `SessionFile.Bells`). Unknown keys are an error, so a typo is not ignored.
///
/// A stage with `loops` or `duration` plays as one track (see `SessionPlanner`): its repeats are
/// joined inside the deck, and the player crossfades only between stages.
public struct SessionFile: Sendable, Hashable, Codable {
    public struct Stage: Sendable, Hashable, Codable {
        public var title: String?
        public var source: String
        public var loops: Int?
        public var duration: Double?
        public var crossfade: Double?
        public var loopCrossfade: Double?
        public var curve: FadeCurve?
        public var volume: Float?
        /// Guidance (a voice): the bed ducks under it.
        public var voice: Bool?

        public init(
            title: String? = nil, source: String, loops: Int? = nil, duration: Double? = nil, crossfade: Double? = nil,
            loopCrossfade: Double? = nil, curve: FadeCurve? = nil, volume: Float? = nil, voice: Bool? = nil
        ) {
            self.title = title
            self.source = source
            self.loops = loops
            self.duration = duration
            self.crossfade = crossfade
            self.loopCrossfade = loopCrossfade
            self.curve = curve
            self.volume = volume
            self.voice = voice
        }
    }

    public var name: String?
    public var crossfade: Double?
    public var curve: FadeCurve?
    public var stages: [Stage]
    /// An ambient bed under the whole session.
    public var bed: Bed?
    /// Bells at chosen moments of the session.
    public var bells: Bells?

    public init(
        name: String? = nil, crossfade: Double? = nil, curve: FadeCurve? = nil, stages: [Stage], bed: Bed? = nil, bells: Bells? = nil
    ) {
        self.name = name
        self.crossfade = crossfade
        self.curve = curve
        self.stages = stages
        self.bed = bed
        self.bells = bells
    }

    /// Longest stage list accepted (a bound against malicious files).
    public static let maximumStages = 1_000
    /// Most `loops` one stage may ask for.
    public static let maximumRepeats = 10_000

    /// Reads and validates a session file. Errors are typed: missing file, unreadable, or
    /// `malformedData` with what is wrong in the log text.
    public static func load(from url: URL) throws(PlaybackError) -> SessionFile {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw PlaybackError.from(error)
        }
        return try decode(data)
    }

    public static func decode(_ data: Data) throws(PlaybackError) -> SessionFile {
        let file: SessionFile
        do {
            file = try JSONDecoder().decode(StrictSession.self, from: data).session
        } catch let error as PlaybackError {
            throw error
        } catch {
            throw PlaybackError(.malformedData, underlying: "session file: \(error)")
        }
        try file.validate()
        return file
    }

    func validate() throws(PlaybackError) {
        func bad(_ why: String) -> PlaybackError { PlaybackError(.malformedData, underlying: "session file: \(why)") }
        guard !stages.isEmpty else { throw bad("no stages") }
        guard stages.count <= Self.maximumStages else { throw bad("more than \(Self.maximumStages) stages") }
        for (i, stage) in stages.enumerated() {
            if stage.source.trimmingCharacters(in: .whitespaces).isEmpty { throw bad("stage \(i + 1) has no source") }
            if let loops = stage.loops, !(1...Self.maximumRepeats).contains(loops) { throw bad("stage \(i + 1): loops must be 1...\(Self.maximumRepeats)") }
            if let d = stage.duration, !(d.isFinite && d > 0) { throw bad("stage \(i + 1): duration must be positive") }
            if stage.loops != nil && stage.duration != nil { throw bad("stage \(i + 1): give loops or duration, not both") }
            for (name, value) in [("crossfade", stage.crossfade), ("loopCrossfade", stage.loopCrossfade)] {
                if let v = value, !(0...CrossfadeSpec.maximumDuration).contains(v) { throw bad("stage \(i + 1): \(name) must be 0...30 s") }
            }
            if let v = stage.volume, !(0...1).contains(v) { throw bad("stage \(i + 1): volume must be 0...1") }
        }
        if let c = crossfade, !(0...CrossfadeSpec.maximumDuration).contains(c) { throw bad("crossfade must be 0...30 s") }
        try validateLayers()
    }
}

/// Decodes a session rejecting unknown keys (a misspelt "crossfade" must not silently do nothing).
private struct StrictSession: Decodable {
    let session: SessionFile

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    static let sessionKeys: Set<String> = ["name", "crossfade", "curve", "stages", "bed", "bells"]
    static let stageKeys: Set<String> = ["title", "source", "loops", "duration", "crossfade", "loopCrossfade", "curve", "volume", "voice"]
    static let bedKeys: Set<String> = ["source", "level", "fadeIn", "fadeOut", "loopCrossfade", "duck", "attack", "release"]
    static let bellsKeys: Set<String> = ["sound", "level", "at", "interval", "start", "end", "strikes", "strikeSpacing"]

    init(from decoder: any Decoder) throws {
        let root = try decoder.container(keyedBy: AnyKey.self)
        let keys = root.allKeys.map(\.stringValue)
        if let unknown = keys.first(where: { !Self.sessionKeys.contains($0) }) {
            throw PlaybackError(.malformedData, underlying: "session file: unknown key \"\(TextSanitizer.singleLine(unknown, maxLength: 40))\"")
        }
        for (section, allowed) in [("bed", Self.bedKeys), ("bells", Self.bellsKeys)] where keys.contains(section) {
            let sectionKeys = try root.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey(stringValue: section)).allKeys.map(\.stringValue)
            if let unknown = sectionKeys.first(where: { !allowed.contains($0) }) {
                throw PlaybackError(
                    .malformedData, underlying: "session file: \(section): unknown key \"\(TextSanitizer.singleLine(unknown, maxLength: 40))\"")
            }
        }
        var stagesContainer = try decoder.container(keyedBy: AnyKey.self).nestedUnkeyedContainer(forKey: AnyKey(stringValue: "stages"))
        var index = 1
        while !stagesContainer.isAtEnd {
            let stageKeys = try stagesContainer.nestedContainer(keyedBy: AnyKey.self).allKeys.map(\.stringValue)
            if let unknown = stageKeys.first(where: { !Self.stageKeys.contains($0) }) {
                throw PlaybackError(.malformedData, underlying: "session file: stage \(index): unknown key \"\(TextSanitizer.singleLine(unknown, maxLength: 40))\"")
            }
            index += 1
        }
        session = try SessionFile(from: decoder)
    }
}
