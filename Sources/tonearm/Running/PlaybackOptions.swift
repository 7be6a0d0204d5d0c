import ArgumentParser
import Foundation
import PlayerCore
import PlayerKit
import TerminalApp

/// Options shared by `play`, `session`, `demo` and `render`.
struct PlaybackOptions: ParsableArguments {
    @Option(help: "Crossfade between items in seconds, 0-30 (0 = gapless). Sessions set their own per stage.")
    var crossfade: Double?

    @Option(help: "Crossfade curve: equal-power, linear, raised-cosine or log.")
    var curve: FadeCurve = .equalPower

    @Option(help: "Where sound goes: pulse, wav:PATH (16-bit), wav-float:PATH (32-bit float), null, snapcast:tcp://HOST:PORT, snapcast:pipe:PATH or fifo:PATH (raw PCM for a visualiser). Default: PulseAudio when a server answers.")
    var output: OutputChoice?

    @Option(help: "A second output beside the main one, best-effort: fifo:PATH (raw 16-bit 48 kHz stereo for a visualiser such as cava).")
    var alsoOutput: OutputChoice?

    @Option(help: "Machine-readable events on stdout: jsonl (one JSON object per line).")
    var events: EventFormat?

    @Flag(help: "Render as fast as possible instead of in real time (needs a wav or null output).")
    var fast = false

    @Option(help: "Volume for this run, 0-150%: 0.5 or 50%. Default: the volume last set with the keys, stdin or MPRIS (100% at first).")
    var volume: Volume?

    @Option(help: "Speed of files and episodes with the pitch kept, 0.5-3.0 (1.5, 1.5x or 150%). Default: the speed last set (per podcast for episodes). Live streams play at 1x.")
    var speed: PlaybackSpeed?

    @Flag(help: "Shorten silences longer than 0.5 s to 0.25 s (speech). Episodes also follow their podcast's setting (`tonearm podcast trim-silence`).")
    var trimSilence = false

    @Option(help: "Loudness levelling: off, track (each item to the target) or session (a session as a whole, its stages keeping their relative loudness). Default: the one last set (off at first).")
    var loudness: LoudnessMode?

    @Option(help: "Target loudness of levelling in LUFS, -31 to -5 (default -16).")
    var loudnessTarget: Double?

    @Option(help: "A sleep timer: 30m, 90s, 1h, or 'end' (the end of the current item). Playback then fades out and ends.")
    var sleep: SleepRequest?

    @Option(help: "The sleep timer's fade-out in seconds, 1-60.")
    var sleepFade: Double = 10

    @Option(help: "Stop's fade-out in seconds, 0.3-1.0.")
    var fadeOut: Double = 0.5

    @Option(help: "Seconds of failed reconnect attempts before giving up with a Retry (default 120).")
    var giveUpAfter: Double?

    @Flag(help: "Never open the terminal screen: print state changes as lines (as when stdout is not a terminal).")
    var noTui = false

    @Flag(help: "Line mode for screen readers: each state change is announced as sentences (also chosen when TERM=dumb).")
    var plain = false

    /// What the command line asked of the playback.
    var settings: CommandPlayback.Settings {
        var settings = CommandPlayback.Settings(
            output: output, fast: fast, jsonEvents: events == .jsonl, plain: plain, noScreen: noTui, volumeGiven: volume != nil,
            speedGiven: speed != nil, loudnessGiven: loudness != nil || loudnessTarget != nil)
        settings.alsoOutput = alsoOutput
        return settings
    }

    enum EventFormat: String, ExpressibleByArgument { case jsonl }

    func configuration() -> PlayerStateMachine.Configuration {
        PlayerStateMachine.Configuration(
            defaultCrossfade: CrossfadeSpec(duration: crossfade ?? 0, curve: curve),
            skipCrossfade: CrossfadeSpec(duration: min(crossfade ?? 2, 2), curve: curve),
            fadeOutDuration: fadeOut,
            reconnectGiveUpAfter: giveUpAfter ?? ResilienceDefaults.reconnectGiveUpAfter, volume: volume ?? .full, sleep: sleep,
            sleepFadeDuration: sleepFade, speed: speed ?? .normal, trimsSilence: trimSilence,
            loudness: LoudnessLevelling(
                mode: loudness ?? (loudnessTarget != nil ? .track : .off), target: loudnessTarget ?? LoudnessLevelling.defaultTarget))
    }

    func validate() throws {
        if let crossfade, !(0...CrossfadeSpec.maximumDuration).contains(crossfade) {
            throw ValidationError("--crossfade must be between 0 and 30 seconds")
        }
        if !(PlayerStateMachine.Configuration.fadeOutRange).contains(fadeOut) {
            throw ValidationError("--fade-out must be between 0.3 and 1.0 seconds")
        }
        if !PlayerStateMachine.Configuration.sleepFadeRange.contains(sleepFade) {
            throw ValidationError("--sleep-fade must be between 1 and 60 seconds")
        }
        if let loudnessTarget, !LoudnessLevelling.targetRange.contains(loudnessTarget) {
            throw ValidationError("--loudness-target must be between -31 and -5 LUFS")
        }
        if let sleep, case .extend = sleep { throw ValidationError("--sleep takes a time (30m, 90s, 1h) or 'end'") }
        if let giveUpAfter, !(1...3600).contains(giveUpAfter) {
            throw ValidationError("--give-up-after must be between 1 and 3600 seconds")
        }
        if fast, let output, !output.canRenderFast { throw ValidationError("--fast needs --output wav:PATH or --output null") }
        if let alsoOutput {
            guard case .fifo = alsoOutput else { throw ValidationError("--also-output takes fifo:PATH") }
        }
    }
}

extension FadeCurve: ExpressibleByArgument {}

extension SleepRequest: ExpressibleByArgument {
    public init?(argument: String) {
        guard let request = SleepRequest.parse(argument), request != .cancel else { return nil }
        self = request
    }
}

extension PlaybackSpeed: ExpressibleByArgument {
    public init?(argument: String) {
        guard let speed = PlaybackSpeed.parse(argument) else { return nil }
        self = speed
    }
}

extension Volume: ExpressibleByArgument {
    public init?(argument: String) {
        guard let volume = Volume.parse(argument) else { return nil }
        self = volume
    }
}

extension LoudnessMode: ExpressibleByArgument {}
