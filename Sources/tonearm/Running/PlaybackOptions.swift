import ArgumentParser
import PlayerCore

/// Options shared by `play`, `session`, `demo` and `render`.
struct PlaybackOptions: ParsableArguments {
    @Option(help: "Crossfade between items in seconds, 0-30 (0 = gapless). Sessions set their own per stage.")
    var crossfade: Double?

    @Option(help: "Crossfade curve: equal-power, linear, raised-cosine or log.")
    var curve: FadeCurve = .equalPower

    @Option(help: "Where sound goes: pulse, wav:PATH (16-bit), wav-float:PATH (32-bit float) or null. Default: PulseAudio when a server answers.")
    var output: OutputSpec?

    @Option(help: "Machine-readable events on stdout: jsonl (one JSON object per line).")
    var events: EventFormat?

    @Flag(help: "Render as fast as possible instead of in real time (needs a wav or null output).")
    var fast = false

    @Option(help: "Stop's fade-out in seconds, 0.3-1.0.")
    var fadeOut: Double = 0.5

    enum EventFormat: String, ExpressibleByArgument { case jsonl }

    func configuration() -> PlayerStateMachine.Configuration {
        PlayerStateMachine.Configuration(
            defaultCrossfade: CrossfadeSpec(duration: crossfade ?? 0, curve: curve),
            skipCrossfade: CrossfadeSpec(duration: min(crossfade ?? 2, 2), curve: curve),
            fadeOutDuration: fadeOut)
    }

    func validate() throws {
        if let crossfade, !(0...CrossfadeSpec.maximumDuration).contains(crossfade) {
            throw ValidationError("--crossfade must be between 0 and 30 seconds")
        }
        if !(PlayerStateMachine.Configuration.fadeOutRange).contains(fadeOut) {
            throw ValidationError("--fade-out must be between 0.3 and 1.0 seconds")
        }
        if fast, output == .pulse { throw ValidationError("--fast needs --output wav:PATH or --output null") }
    }
}

extension FadeCurve: ExpressibleByArgument {}
