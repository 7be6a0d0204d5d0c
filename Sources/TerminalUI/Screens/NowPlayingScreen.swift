import PlayerCore
import Presentation

/// The now-playing screen and its error view, laid out on a canvas. Everything it
/// shows comes from `NowPlayingViewState`; this type only places it (no decisions of its own).
///
/// Layout, top to bottom: the connectivity banner while offline (else a title line), artwork on
/// the left with the track, status, crossfade or reconnect details and progress on the right, the
/// controls, an inline error line, and the key-hint bar. While failed, the artwork and controls
/// give way to the centred error view.
package struct NowPlayingScreen: Sendable {
    package var view: NowPlayingViewState
    /// The picture the artwork service found; nil draws the default placeholder.
    package var artwork: ArtworkPixels?
    /// The accent: the artwork's average colour when there is one.
    package var accent: TerminalColor
    package var inlineError: InlineErrorViewState?
    package var language: Language
    package var bindings: KeyBindings
    /// Advances the spinner; the caller bumps it on each redraw tick while loading.
    package var spinnerTick: Int
    /// "Volume 80%", under the progress; nil hides it.
    package var volumeText: String?
    /// "Sleep in 29:41", beside the volume; nil hides it.
    package var sleepText: String?
    /// "Speed 1.5×", beside the volume; nil hides it.
    package var speedText: String?
    /// "Level track −4.5 dB", on a line of its own under the volume; nil hides it.
    package var loudnessText: String?
    /// "♥ Liked" once the listener liked the song playing.
    package var likedText: String?
    /// The share line last given, with its label ("Copied: …").
    package var sharedText: String?
    /// Advice about the stream (it keeps dropping, and what to do), under the connection.
    package var adviceText: String?
    /// A live stream's connection ("Connection: good · 128 kbit/s · 4.1 s buffered") and its
    /// rating, which colours the dot before it; nil hides it.
    package var connection: (text: String, rating: ConnectionQuality.Rating)?
    /// The chapter playing, under the subtitle, and the list `c` opens; nil for an item without.
    package var chapters: ChapterViewState?
    /// The list of chapters is open: drawn in a box over the screen.
    package var showsChapterList: Bool
    /// The transcript pane (`t`), drawn over the screen when open; nil hides it.
    package var transcript: TranscriptViewState?
    /// The level meter (`v`), under the details; nil hides it.
    package var levelMeter: LevelMeterViewState?
    /// A session's layers (its clock and remaining time, the next bell, the bed), under the
    /// progress; nil for anything else.
    package var layers: SessionLayersViewState?

    package init(
        view: NowPlayingViewState, artwork: ArtworkPixels? = nil, accent: TerminalColor = .indexed(39),
        inlineError: InlineErrorViewState? = nil, language: Language, bindings: KeyBindings = .standard, spinnerTick: Int = 0,
        volumeText: String? = nil, sleepText: String? = nil, speedText: String? = nil, loudnessText: String? = nil,
        likedText: String? = nil, connection: (text: String, rating: ConnectionQuality.Rating)? = nil,
        chapters: ChapterViewState? = nil, showsChapterList: Bool = false, layers: SessionLayersViewState? = nil
    ) {
        self.layers = layers
        self.chapters = chapters
        self.showsChapterList = showsChapterList
        self.connection = connection
        self.loudnessText = loudnessText
        self.likedText = likedText
        self.speedText = speedText
        self.volumeText = volumeText
        self.sleepText = sleepText
        self.view = view
        self.artwork = artwork
        self.accent = accent
        self.inlineError = inlineError
        self.language = language
        self.bindings = bindings
        self.spinnerTick = spinnerTick
    }

    /// The screen at `width` x `height` (at least 80 x 24 is designed for; smaller clips).
    package func render(width: Int, height: Int) -> Canvas {
        var canvas = Canvas(width: width, height: height)
        drawHeader(&canvas)
        if let error = view.errorView {
            drawErrorView(error, on: &canvas, rows: 2..<(height - 3))
        } else {
            let artRows = max(4, min(height - 10, 20))
            let artColumns = min(artRows * 2, width / 4)
            canvas.drawArtwork(artwork, row: 2, column: 2, columns: artColumns, rows: artRows, accent: accent)
            drawDetails(&canvas, column: artColumns + 5, width: width - artColumns - 7)
            drawControls(&canvas, row: height - 4)
        }
        if let inlineError {
            // The way to dismiss it always shows; a long message is shortened instead.
            var suffix = ""
            if let dismiss = inlineError.dismissTitle, let key = bindings.primaryKey(.dismiss) { suffix = "  [\(key)] \(dismiss)" }
            let used = canvas.put("\(inlineError.icon.glyph) \(inlineError.message)", row: height - 3, column: 2,
                                  style: CellStyle(foreground: .indexed(208)), maxWidth: width - 4 - suffix.count)
            canvas.put(suffix, row: height - 3, column: 2 + used, style: CellStyle(foreground: .indexed(208), bold: true))
        }
        drawHints(&canvas, row: height - 1)
        if showsChapterList, let chapters, view.errorView == nil { drawChapterList(chapters, on: &canvas) }
        if let transcript, view.errorView == nil { drawTranscript(transcript, on: &canvas) }
        return canvas
    }

    /// The transcript in a box over the screen: each line with its time and speaker, wrapped to
    /// the box; the line spoken marked ▶ in the accent, the one the listener chose in reverse;
    /// scrolled so that the focused line sits a third of the way down.
    private func drawTranscript(_ transcript: TranscriptViewState, on canvas: inout Canvas) {
        let width = min(100, canvas.width - 4)
        let height = canvas.height - 4
        guard width > 20, height > 5 else { return }
        let top = 2
        let left = max(0, (canvas.width - width) / 2)
        drawBox(on: &canvas, top: top, left: left, width: width, height: height)
        canvas.putCentered(transcript.heading, row: top + 1, style: .bold, in: left..<(left + width))
        if let note = transcript.note { canvas.putCentered(note, row: top + 2, style: .dim, in: left..<(left + width)) }
        let startWidth = transcript.rows.compactMap { $0.start?.count }.max() ?? 0
        let textWidth = max(8, width - 8 - (startWidth > 0 ? startWidth + 2 : 0))
        // Every row's wrapped lines, in order, with the row they belong to.
        var lines: [(row: Int, text: String)] = []
        var firstLine: [Int] = []
        for (index, row) in transcript.rows.enumerated() {
            firstLine.append(lines.count)
            let said = (row.speaker.map { "\($0): " } ?? "") + row.text
            for (n, piece) in TextWrap.lines(said, width: textWidth).enumerated() {
                let time = startWidth == 0 ? "" : (n == 0 ? String(repeating: " ", count: startWidth - (row.start?.count ?? 0)) + (row.start ?? "") : String(repeating: " ", count: startWidth)) + "  "
                let marker = n == 0 && row.isCurrent ? "▶ " : "  "
                lines.append((index, marker + time + piece))
            }
        }
        let visible = height - 4
        let focus = transcript.focusIndex.map { firstLine[$0] } ?? 0
        let first = max(0, min(focus - visible / 3, lines.count - visible))
        for (offset, line) in lines.dropFirst(first).prefix(visible).enumerated() {
            let row = transcript.rows[line.row]
            let style =
                row.isSelected ? CellStyle(foreground: .indexed(16), background: accent, bold: true)
                : row.isCurrent ? CellStyle(foreground: accent, bold: true) : CellStyle.plain
            canvas.put(line.text, row: top + 3 + offset, column: left + 2, style: style, maxWidth: width - 4)
        }
    }

    /// An empty box in the accent colour, over what is drawn below it.
    private func drawBox(on canvas: inout Canvas, top: Int, left: Int, width: Int, height: Int) {
        let frame = CellStyle(foreground: accent, bold: true)
        canvas.put("┌" + String(repeating: "─", count: width - 2) + "┐", row: top, column: left, style: frame)
        for y in 1..<(height - 1) {
            canvas.put("│" + String(repeating: " ", count: width - 2) + "│", row: top + y, column: left, style: frame)
        }
        canvas.put("└" + String(repeating: "─", count: width - 2) + "┘", row: top + height - 1, column: left, style: frame)
    }

    /// The list of chapters in a box over the screen, scrolled so the playing one (marked ▶)
    /// shows.
    private func drawChapterList(_ chapters: ChapterViewState, on canvas: inout Canvas) {
        let width = min(64, canvas.width - 4)
        let height = min(chapters.rows.count + 4, canvas.height - 2)
        guard width > 10, height > 4 else { return }
        let top = max(0, (canvas.height - height) / 2)
        let left = max(0, (canvas.width - width) / 2)
        drawBox(on: &canvas, top: top, left: left, width: width, height: height)
        canvas.putCentered(chapters.heading, row: top + 1, style: .bold, in: left..<(left + width))
        let visible = height - 4
        let first = max(0, min((chapters.currentIndex ?? 0) - visible / 2, chapters.rows.count - visible))
        let numberWidth = String(chapters.rows.count).count
        let startWidth = chapters.rows.map(\.start.count).max() ?? 0
        for (offset, row) in chapters.rows.dropFirst(first).prefix(visible).enumerated() {
            let marker = row.isCurrent ? "▶" : " "
            let number = String(repeating: " ", count: max(0, numberWidth - row.number.count)) + row.number
            let start = String(repeating: " ", count: max(0, startWidth - row.start.count)) + row.start
            let style = row.isCurrent ? CellStyle(foreground: accent, bold: true) : CellStyle.plain
            canvas.put("\(marker) \(number)  \(start)  \(row.title)", row: top + 3 + offset, column: left + 2, style: style, maxWidth: width - 4)
        }
    }

    private func drawHeader(_ canvas: inout Canvas) {
        if view.connectivityBanner.isVisible {
            let banner = " \(view.connectivityBanner.icon.glyph) \(view.connectivityBanner.text)"
            canvas.put(banner.padding(toLength: canvas.width, withPad: " ", startingAt: 0), row: 0, column: 0,
                       style: CellStyle(foreground: .indexed(231), background: .indexed(160), bold: true))
        } else {
            canvas.put(" Tonearm · \(TerminalStrings.text(.nowPlaying, in: language))", row: 0, column: 0, style: CellStyle(foreground: accent, bold: true))
        }
    }

    private func drawDetails(_ canvas: inout Canvas, column: Int, width: Int) {
        var row = 3
        func line(_ text: String, _ style: CellStyle = .plain, gap: Int = 1) {
            canvas.put(text, row: row, column: column, style: style, maxWidth: width)
            row += gap
        }
        line(view.title, CellStyle(bold: true))
        if let subtitle = view.subtitle { line(subtitle, CellStyle(foreground: accent)) }
        if let chapter = chapters?.currentText { line(chapter, CellStyle(foreground: accent)) }
        row += 1
        // A crossfade says what it is doing in full ("Transitioning to X (47%)"); other states
        // use the short status.
        let statusText = view.crossfade?.text ?? view.statusText
        let status = view.showsSpinner ? "\(Spinner.frame(spinnerTick)) \(statusText)" : "● \(statusText)"
        line(status, CellStyle(foreground: TerminalColor(view.indicatorColor), bold: true))
        if let still = view.stillConnectingText { line(still, .dim) }
        if let reconnect = view.reconnect {
            line(reconnect.causeMessage, .dim)
        }
        if let next = view.nextText { line(next, .dim) }
        if let crossfade = view.crossfade {
            row += 1
            let barWidth = max(4, min(30, width - 18))
            let labelWidth = max(crossfade.outgoingLabel.count, crossfade.incomingLabel.count)
            for (label, gain) in [(crossfade.outgoingLabel, crossfade.outgoingGain), (crossfade.incomingLabel, crossfade.incomingGain)] {
                let percent = Int((gain * 100).rounded())
                line("\(label.padding(toLength: labelWidth, withPad: " ", startingAt: 0)) \(Bars.gain(gain, width: barWidth)) \(percent)%",
                     CellStyle(foreground: TerminalColor(view.indicatorColor)))
            }
        }
        if let progress = view.progress {
            row += 1
            if progress.isLive {
                var text = progress.liveLabel.map { "● \($0)" } ?? ""
                if let buffer = progress.bufferText { text += "  \(buffer)" }
                line(text, CellStyle(foreground: .indexed(196), bold: true))
                if let fill = progress.bufferFill {
                    line(Bars.progress(fraction: fill, width: max(4, width - 2)), CellStyle(foreground: accent))
                }
            } else {
                line(Bars.progress(fraction: progress.fraction, buffered: progress.bufferFill, width: max(4, width - 2)), CellStyle(foreground: accent))
                var text = progress.timeText ?? ""
                if let buffer = progress.bufferText { text += text.isEmpty ? buffer : "  \(buffer)" }
                if !text.isEmpty { line(text, .dim) }
            }
        }
        if let layers {
            line(layers.clockText, CellStyle(foreground: accent, bold: true))
            if let detail = layers.detailText { line(detail, CellStyle(foreground: accent)) }
        }
        let settings = [volumeText, speedText, sleepText].compactMap { $0 }
        if !settings.isEmpty { line(settings.joined(separator: "   "), .dim) }
        if let loudnessText { line(loudnessText, .dim) }
        if let connection {
            let colour: UInt8 = switch connection.rating {
            case .good: 34
            case .fair: 214
            case .poor: 196
            }
            line("● " + connection.text, CellStyle(foreground: .indexed(colour)))
        }
        if let adviceText { line(adviceText, CellStyle(foreground: .indexed(214))) }
        if let likedText { line(likedText, CellStyle(foreground: .indexed(205), bold: true)) }
        if let sharedText { line(sharedText, .dim) }
        if let levelMeter {
            LevelMeterBars.draw(levelMeter, on: &canvas, row: row + 1, column: column, width: min(width, 60))
        }
    }

    private func drawControls(_ canvas: inout Canvas, row: Int) {
        var column = 2
        for control in view.controls where !control.control.isContextual || control.isEnabled {
            let key = key(for: control).map { "[\($0)] " } ?? ""
            let text = "\(key)\(control.icon.glyph) \(control.title)"
            let style = control.isEnabled ? CellStyle(bold: true) : CellStyle.dim
            guard column + text.count < canvas.width - 1 else { break }
            column += canvas.put(text, row: row, column: column, style: style) + 3
        }
    }

    /// The error view, centred: glyph, title, message, suggestion, Retry (only when
    /// recoverable) and the context lines.
    private func drawErrorView(_ error: PlaybackErrorViewState, on canvas: inout Canvas, rows: Range<Int>) {
        let textWidth = min(64, canvas.width - 6)
        var lines: [(String, CellStyle)] = [
            (error.icon.glyph, CellStyle(foreground: .indexed(196), bold: true)),
            ("", .plain),
            (error.title, CellStyle(bold: true)),
            ("", .plain),
        ]
        lines += TextWrap.lines(error.message, width: textWidth).map { ($0, .plain) }
        lines += TextWrap.lines(error.recoverySuggestion, width: textWidth).map { ($0, .dim) }
        lines.append(("", .plain))
        if let retry = error.retry {
            let key = bindings.primaryKey(.retry).map { "[\($0)] " } ?? ""
            lines.append(("\(key)\(retry.icon.glyph) \(retry.label)", CellStyle(foreground: accent, bold: true, reverse: true)))
            if let resume = retry.resumeText { lines.append((resume, .dim)) }
            lines.append(("", .plain))
        }
        for context in error.context { lines.append((context.value, context.kind == .episode || context.kind == .track ? .bold : .dim)) }
        let top = rows.lowerBound + max(0, (rows.count - lines.count) / 2)
        for (offset, (text, style)) in lines.enumerated() where top + offset < rows.upperBound {
            canvas.putCentered(text, row: top + offset, style: style, in: 2..<(canvas.width - 2))
        }
    }

    private func key(for control: ControlViewState) -> Key? {
        switch control.control {
        case .playPause: bindings.primaryKey(control.action == .play ? .play : .pauseResume)
        case .stop: bindings.primaryKey(.stop)
        // Cancelling a countdown dismisses it (into the failure with its Retry), so it is on the
        // dismiss key; stop keeps its own.
        case .cancelRetry: bindings.primaryKey(.dismiss)
        case .skip: bindings.primaryKey(.next)
        case .seekBackward: bindings.primaryKey(.seekBackward)
        case .seekForward: bindings.primaryKey(.seekForward)
        case .retry, .retryNow: bindings.primaryKey(.retry)
        case .reset: nil
        }
    }

    /// The keys that do something now: the enabled controls, dismiss when there is an inline
    /// error, help and quit.
    private func drawHints(_ canvas: inout Canvas, row: Int) {
        var hints: [String] = []
        for control in view.controls where control.isEnabled {
            if let key = key(for: control) { hints.append("\(key) \(control.title)") }
        }
        if let retry = view.errorView?.retry, let key = bindings.primaryKey(.retry) { hints.append("\(key) \(retry.label)") }
        if inlineError?.isDismissable == true, let key = bindings.primaryKey(.dismiss) {
            hints.append("\(key) \(TerminalStrings.text(.dismiss, in: language))")
        }
        if let key = bindings.primaryKey(.help) { hints.append("\(key) \(TerminalStrings.text(.help, in: language))") }
        if let key = bindings.primaryKey(.quit) { hints.append("\(key) \(TerminalStrings.text(.quit, in: language))") }
        // Last: on a narrow terminal it is the one cut, never quit.
        if let chapters, let key = bindings.primaryKey(.chapters) { hints.append("\(key) \(chapters.heading)") }
        let text = " " + hints.joined(separator: "  ")
        canvas.put(text.padding(toLength: max(text.count, canvas.width), withPad: " ", startingAt: 0), row: row, column: 0, style: .reverse)
    }
}
