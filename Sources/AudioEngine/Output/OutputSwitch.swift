import Synchronization

/// Whether one output is on: turned off and on by a client (MPD's `disableoutput`,
/// `enableoutput`, `toggleoutput`) while the render thread reads it before every write. The
/// output itself is opened and closed by the render thread alone (`SwitchedSink`), so a switch is
/// only a wish the next write fulfils; an output that fails to come back turns its switch off
/// again, so what a client reads is what plays.
public final class OutputSwitch: Sendable {
    /// How clients name the output ("PulseAudio", "fifo:/tmp/snapfifo").
    public let name: String
    private let on: Atomic<Bool>

    public init(name: String, on: Bool = true) {
        self.name = name
        self.on = Atomic(on)
    }

    public var isOn: Bool { on.load(ordering: .acquiring) }

    /// Turns the output on or off; true when that changed something.
    @discardableResult
    public func set(_ wanted: Bool) -> Bool {
        on.exchange(wanted, ordering: .acquiringAndReleasing) != wanted
    }
}
