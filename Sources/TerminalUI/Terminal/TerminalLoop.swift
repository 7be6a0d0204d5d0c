/// The one loop every terminal screen runs on the thread that owns the display: read a key
/// (waiting at most the display's input timeout), redraw when the content changed, the terminal
/// was resized, or something moves on its own (a spinner, a countdown). So a screen draws at
/// most once per timeout (20 times a second) and not at all while nothing changes.
package enum TerminalLoop {
    /// What the screen's content looks like now: `version` changes with every change; `moving`
    /// asks for a redraw on each tick anyway.
    package struct Status: Sendable {
        package var version: Int
        package var moving: Bool

        package init(version: Int, moving: Bool) {
            self.version = version
            self.moving = moving
        }
    }

    /// Runs until `shouldQuit` says so. `clipboard` gives text to copy (OSC 52), asked after
    /// each key and frame.
    package static func run(
        _ display: TerminalDisplay, shouldQuit: () -> Bool, onKey: (Key) -> Void, status: () -> Status,
        clipboard: () -> String? = { nil }, frame: (_ tick: Int, _ width: Int, _ height: Int) -> Canvas
    ) {
        var drawn: Int?
        var tick = 0
        var lastSize = display.size
        while !shouldQuit() {
            switch display.read() {
            case .key(let key): onKey(key)
            case .resize:
                display.invalidate()
                drawn = nil
            case nil: break
            }
            let now = status()
            let size = display.size
            if size != lastSize {
                lastSize = size
                display.invalidate()
                drawn = nil
            }
            if now.version != drawn || now.moving {
                drawn = now.version
                tick += 1
                display.draw(frame(tick, size.width, size.height))
            }
            if let text = clipboard() { display.copyToClipboard(text) }
        }
    }
}
