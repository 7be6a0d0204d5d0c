import PlayerCore
import Presentation

/// The library: Stations, Podcasts (with a podcast's Episodes), Sessions, Diagnostics and Music
/// (artists, an artist's albums, an album's songs, or the songs a search found), each
/// list in its states (skeleton rows while loading, error with Try Again, empty with its
/// action, loaded with `/` search), the mini player and the key hints at the bottom, the offline
/// banner on top, and the error alert over everything when an operation failed.
package struct LibraryScreen: Sendable {
    package typealias Tab = LibraryTab
    package typealias Row = LibraryRow

    package var tab: Tab
    package var list: ListScreenState<Row>
    /// The podcast whose episodes are listed (Podcasts tab), nil for the podcast list itself.
    package var episodesOf: String?
    /// The directory search whose results are listed (Stations tab), nil for the library's stations.
    package var directoryQuery: String?
    /// The library search whose hits are listed (Podcasts tab), nil for the podcasts themselves.
    package var libraryQuery: String?
    package var selection: Int
    /// The `/` search being typed or applied; nil when not searching.
    package var search: String?
    package var diagnostics: ErrorAnalyticsSummary?
    /// How retries fared per operation (the library's persistent retry statistics).
    package var retries: RetryStatisticsSummary?
    package var miniPlayer: MiniPlayerViewState?
    package var connectivity: Connectivity
    package var alert: ErrorAlertViewState?
    /// A one-line text field (adding a station or a feed): its prompt and what is typed so far.
    package var prompt: (label: String, text: String)?
    /// A question waiting for y or n before something is removed.
    package var confirmation: String?
    /// The name of what was removed last and can still be brought back.
    package var undo: String?
    /// The Music tab's level: the artist opened, then the album (empty for the artists).
    package var musicPath: [String]
    /// An update of the music index under way, shown on the Music tab.
    package var musicIndexing: MusicIndexProgress?
    /// The music folder looked for, when it is not there (the empty Music tab names it).
    package var missingMusicFolder: String?
    /// A one-line note over the hints (what `a` queued).
    package var notice: String?
    package var language: Language
    package var bindings: KeyBindings
    package var spinnerTick: Int

    package init(
        tab: Tab, list: ListScreenState<Row> = .initial, episodesOf: String? = nil, directoryQuery: String? = nil,
        libraryQuery: String? = nil, selection: Int = 0,
        search: String? = nil,
        diagnostics: ErrorAnalyticsSummary? = nil, retries: RetryStatisticsSummary? = nil, miniPlayer: MiniPlayerViewState? = nil,
        connectivity: Connectivity = .unknown,
        alert: ErrorAlertViewState? = nil, prompt: (label: String, text: String)? = nil, confirmation: String? = nil,
        undo: String? = nil, musicPath: [String] = [], musicIndexing: MusicIndexProgress? = nil, missingMusicFolder: String? = nil,
        notice: String? = nil, language: Language, bindings: KeyBindings = .standard, spinnerTick: Int = 0
    ) {
        self.musicPath = musicPath
        self.musicIndexing = musicIndexing
        self.missingMusicFolder = missingMusicFolder
        self.notice = notice
        self.confirmation = confirmation
        self.undo = undo
        self.tab = tab
        self.list = list
        self.episodesOf = episodesOf
        self.directoryQuery = directoryQuery
        self.libraryQuery = libraryQuery
        self.selection = selection
        self.search = search
        self.diagnostics = diagnostics
        self.retries = retries
        self.miniPlayer = miniPlayer
        self.connectivity = connectivity
        self.alert = alert
        self.prompt = prompt
        self.language = language
        self.bindings = bindings
        self.spinnerTick = spinnerTick
    }

    /// The rows the list shows: all of them, or those matching the search.
    package var visibleItems: [Row] { LibraryRow.visible(in: list, search: search) }

    package func render(width: Int, height: Int) -> Canvas {
        var canvas = Canvas(width: width, height: height)
        drawTabs(&canvas)
        let body = 3..<(height - 4)
        if tab == .diagnostics {
            drawDiagnostics(&canvas, rows: body)
        } else {
            drawList(&canvas, rows: body)
        }
        if let confirmation {
            canvas.put("\(confirmation) y / n", row: height - 4, column: 2, style: CellStyle(bold: true, reverse: true), maxWidth: width - 4)
        } else if let prompt {
            canvas.put("\(prompt.label): \(prompt.text)█", row: height - 4, column: 2, style: .bold, maxWidth: width - 4)
        } else if let search {
            canvas.put("/\(search)", row: height - 4, column: 2, style: .bold, maxWidth: width - 4)
        } else if let inline = list.inlineError(in: language) {
            canvas.put("\(inline.icon.glyph) \(inline.message)", row: height - 4, column: 2, style: CellStyle(foreground: .indexed(208)),
                       maxWidth: width - 4)
        } else if tab == .music, let musicIndexing {
            // The index's update runs beside the list: how far it is, as the indexer reports it.
            canvas.put("\(Spinner.frame(spinnerTick)) \(musicIndexing.text(in: language))", row: height - 4, column: 2, style: .dim,
                       maxWidth: width - 4)
        } else if case .loading(let existing) = list, !existing.isEmpty {
            // A reload over rows already shown (refreshing every podcast) keeps them, and says so here.
            canvas.put("\(Spinner.frame(spinnerTick)) \(UIStrings.text(.loading, in: language))", row: height - 4, column: 2, style: .dim,
                       maxWidth: width - 4)
        } else if let notice {
            canvas.put(notice, row: height - 4, column: 2, style: .bold, maxWidth: width - 4)
        }
        canvas.put(String(repeating: "─", count: width), row: height - 3, column: 0, style: .dim)
        if let miniPlayer {
            MiniPlayerBar.draw(miniPlayer, on: &canvas, row: height - 2)
        } else {
            canvas.put("  \(UIStrings.text(.nothingPlaying, in: language))", row: height - 2, column: 0, style: .dim)
        }
        drawHints(&canvas, row: height - 1)
        if let alert { drawAlert(alert, on: &canvas) }
        return canvas
    }

    private func drawTabs(_ canvas: inout Canvas) {
        let banner = ConnectivityBannerState(connectivity: connectivity, language: language)
        if banner.isVisible {
            let text = " \(banner.icon.glyph) \(banner.text)"
            canvas.put(text.padding(toLength: canvas.width, withPad: " ", startingAt: 0), row: 0, column: 0,
                       style: CellStyle(foreground: .indexed(231), background: .indexed(160), bold: true))
        } else {
            canvas.put(" Tonearm", row: 0, column: 0, style: CellStyle(foreground: .indexed(39), bold: true))
        }
        // Every tab padded when they fit; on a narrow terminal only the current one is, so all
        // stay in sight.
        let names = Tab.allCases.map { ($0, TerminalStrings.tab($0, in: language)) }
        let padded = names.reduce(1) { $0 + $1.1.count + 3 } <= canvas.width
        var column = 1
        for (each, name) in names {
            let label = padded || each == tab ? " \(name) " : name
            column += canvas.put(label, row: 1, column: column, style: each == tab ? CellStyle(bold: true, reverse: true) : .dim) + 1
        }
    }

    private func drawList(_ canvas: inout Canvas, rows: Range<Int>) {
        var top = rows.lowerBound
        let music = tab == .music && !musicPath.isEmpty && libraryQuery == nil ? musicPath.joined(separator: " › ") : nil
        let heading = episodesOf ?? directoryQuery.map { TerminalStrings.directoryHeading($0, in: language) }
            ?? libraryQuery.map { TerminalStrings.searchHeading($0, in: language) } ?? music
        if let heading {
            canvas.put("◂ \(heading)", row: top, column: 2, style: .bold, maxWidth: canvas.width - 4)
            top += 1
        }
        let area = top..<rows.upperBound
        if let error = list.errorState(in: language) {
            let key = bindings.primaryKey(.retry).map { "[\($0)] " } ?? ""
            centred(&canvas, area, [
                (error.icon.glyph, CellStyle(foreground: .indexed(196), bold: true)), ("", .plain), (error.title, .bold),
                (error.message, .plain), (error.recoverySuggestion, .dim), ("", .plain),
                ("\(key)\(error.retryIcon.glyph) \(error.retryTitle)", CellStyle(bold: true, reverse: true)),
            ])
            return
        }
        if case .empty = list {
            if tab == .music, libraryQuery == nil {
                drawEmptyMusic(on: &canvas, area)
            } else {
                drawEmpty(EmptyStateViewState(emptyPreset, in: language), on: &canvas, area)
            }
            return
        }
        if case .loading(let existing) = list, existing.isEmpty {
            for (offset, row) in list.visibleRows().enumerated() where area.lowerBound + offset < area.upperBound {
                guard case .skeleton(let index) = row else { continue }
                let width = 18 + (index * 7) % 20
                canvas.put(String(repeating: "░", count: width), row: area.lowerBound + offset, column: 4, style: .dim)
                canvas.put(String(repeating: "░", count: 8), row: area.lowerBound + offset, column: canvas.width - 12, style: .dim)
            }
            canvas.put("\(Spinner.frame(spinnerTick)) \(UIStrings.text(.loading, in: language))", row: area.upperBound - 1, column: 4, style: .dim)
            return
        }
        let items = visibleItems
        if items.isEmpty, let search {
            drawEmpty(EmptyStateViewState(.noSearchResults(query: search), in: language), on: &canvas, area)
            return
        }
        // Scroll so the selection stays in view.
        let first = max(0, min(selection - area.count + 1, items.count - area.count))
        for (offset, item) in items.dropFirst(first).prefix(area.count).enumerated() {
            let index = first + offset
            let row = area.lowerBound + offset
            let selected = index == selection
            let style = selected ? CellStyle(bold: true, reverse: true) : .plain
            canvas.put(String(repeating: " ", count: canvas.width - 2), row: row, column: 1, style: style)
            let detailWidth = min(item.detail?.count ?? 0, canvas.width / 3)
            canvas.put("\(selected ? "▸" : " ") \(item.title)", row: row, column: 2, style: style, maxWidth: canvas.width - detailWidth - 6)
            if let detail = item.detail {
                canvas.put(detail, row: row, column: canvas.width - detailWidth - 2, style: selected ? style : .dim, maxWidth: detailWidth)
            }
        }
    }

    private var emptyPreset: EmptyStateViewState.Preset {
        switch tab {
        case .stations: directoryQuery.map { .noSearchResults(query: $0) } ?? .stations
        case .podcasts: libraryQuery.map { .noSearchResults(query: $0) } ?? (episodesOf == nil ? .podcasts : .episodes)
        case .sessions, .diagnostics: .sessions
        case .history: .history
        case .favourites: .favourites
        case .queue: .queue
        case .music: libraryQuery.map { .noSearchResults(query: $0) } ?? .noSearchResults(query: "")
        }
    }

    /// The Music tab with nothing to list: no folder (named, with how to give another), or
    /// nothing indexed yet (the key that reads it, and the command); while an update runs, how
    /// far it is instead of the key.
    private func drawEmptyMusic(on canvas: inout Canvas, _ area: Range<Int>) {
        let title: String
        let message: String
        if let missingMusicFolder {
            title = UIStrings.text(.noMusicFolderTitle, in: language)
            message = UIStrings.format(.noMusicFolderMessage, in: language, TextSanitizer.singleLine(missingMusicFolder, maxLength: 120))
        } else {
            title = UIStrings.text(.emptyMusicTitle, in: language)
            message = UIStrings.text(.emptyMusicMessage, in: language)
        }
        var lines: [(String, CellStyle)] = [(Icon.music.glyph, CellStyle(foreground: .indexed(39), bold: true)), ("", .plain), (title, .bold)]
        lines += TextWrap.lines(message, width: max(20, canvas.width - 12)).map { ($0, CellStyle.dim) }
        if let musicIndexing {
            lines += [("", .plain), ("\(Spinner.frame(spinnerTick)) \(musicIndexing.text(in: language))", .dim)]
        } else if let key = bindings.primaryKey(.refreshAll) {
            lines += [("", .plain), ("[\(key)] \(UIStrings.text(.emptyMusicAction, in: language))", CellStyle(bold: true, reverse: true))]
        }
        centred(&canvas, area, lines)
    }

    private func drawEmpty(_ empty: EmptyStateViewState, on canvas: inout Canvas, _ area: Range<Int>) {
        var lines: [(String, CellStyle)] = [(empty.icon.glyph, CellStyle(foreground: .indexed(39), bold: true)), ("", .plain), (empty.title, .bold), (empty.message, .dim)]
        if let action = empty.actionTitle, let key = bindings.primaryKey(.add) {
            lines += [("", .plain), ("[\(key)] \(action)", CellStyle(bold: true, reverse: true))]
        }
        // An empty station list also offers the directory: a new listener need not know an address.
        if tab == .stations, directoryQuery == nil, let key = bindings.primaryKey(.directory) {
            lines += [("", .plain), ("[\(key)] \(TerminalStrings.text(.find, in: language))", CellStyle(bold: true, reverse: true))]
        }
        centred(&canvas, area, lines)
    }

    /// The error analytics summary: totals, rates, and a bar chart of the top error types.
    private func drawDiagnostics(_ canvas: inout Canvas, rows: Range<Int>) {
        guard let summary = diagnostics else {
            canvas.put("\(Spinner.frame(spinnerTick)) \(UIStrings.text(.loading, in: language))", row: rows.lowerBound, column: 4, style: .dim)
            return
        }
        var row = rows.lowerBound
        func line(_ text: String, _ style: CellStyle = .plain) {
            guard row < rows.upperBound else { return }
            canvas.put(text, row: row, column: 4, style: style, maxWidth: canvas.width - 8)
            row += 1
        }
        let label = { (key: TerminalStrings.Diagnostics) in TerminalStrings.diagnostics(key, in: self.language) }
        line("\(label(.total)): \(summary.totalErrors)    \(label(.last24Hours)): \(summary.errorsLast24Hours)    \(label(.last7Days)): \(summary.errorsLast7Days)", .bold)
        line("\(label(.retryable)): \(Int(summary.retryableErrorsPercentage.rounded()))%    \(label(.resolvedByRetry)): \(Int((summary.successRate * 100).rounded()))%")
        // The real retry success rate: of the operations that retried, how many then succeeded.
        let retried = retries?.retriedRuns ?? 0
        if let rate = retries?.retrySuccessRate {
            line("\(label(.successRate)): \(Self.percent(rate))    (\(TerminalStrings.retriedOperations(retried, in: language)))")
        } else {
            line("\(label(.successRate)): —    (\(label(.nothingRetried)))", .dim)
        }
        row += 1
        line(label(.topTypes), .bold)
        let most = max(1, summary.topErrorTypes.map(\.count).max() ?? 1)
        let nameWidth = min(28, summary.topErrorTypes.map(\.type.count).max() ?? 0)
        let barWidth = max(4, min(40, canvas.width - nameWidth - 20))
        for entry in summary.topErrorTypes {
            let bar = Bars.gain(Double(entry.count) / Double(most), width: barWidth)
            line("\(entry.type.padding(toLength: nameWidth, withPad: " ", startingAt: 0))  \(bar) \(entry.count)", CellStyle(foreground: .indexed(208)))
        }
        if summary.topErrorTypes.isEmpty { line("—", .dim) }
        row += 1
        line(label(.topOperations), .bold)
        for entry in summary.topErrorOperations { line("\(entry.operation): \(entry.errorCount)", .dim) }
        let retriedOperations = retries?.operations.filter { $0.retriedRuns > 0 } ?? []
        guard !retriedOperations.isEmpty else { return }
        row += 1
        line(label(.retriesByOperation), .bold)
        for entry in retriedOperations {
            let rate = entry.retrySuccessRate.map(Self.percent) ?? "—"
            line("\(entry.operation): \(entry.successesAfterRetry)/\(entry.retriedRuns)  \(rate)", .dim)
        }
    }

    private static func percent(_ fraction: Double) -> String { "\(Int((fraction * 100).rounded()))%" }

    private func drawAlert(_ alert: ErrorAlertViewState, on canvas: inout Canvas) {
        let width = min(60, canvas.width - 4)
        let text = TextWrap.lines(alert.message, width: width - 4) + TextWrap.lines(alert.recoverySuggestion, width: width - 4)
        let height = text.count + 6
        let top = max(0, (canvas.height - height) / 2)
        let left = (canvas.width - width) / 2
        let frame = CellStyle(foreground: .indexed(196), bold: true)
        canvas.put("┌" + String(repeating: "─", count: width - 2) + "┐", row: top, column: left, style: frame)
        for y in 1..<(height - 1) {
            canvas.put("│" + String(repeating: " ", count: width - 2) + "│", row: top + y, column: left, style: frame)
        }
        canvas.put("└" + String(repeating: "─", count: width - 2) + "┘", row: top + height - 1, column: left, style: frame)
        let inside = (left + 2)..<(left + width - 2)
        canvas.putCentered("\(alert.icon.glyph) \(alert.title)", row: top + 1, style: .bold, in: inside)
        for (offset, line) in text.enumerated() { canvas.putCentered(line, row: top + 3 + offset, in: inside) }
        canvas.putCentered("[Enter] \(alert.dismissTitle)", row: top + height - 2, style: CellStyle(bold: true, reverse: true), in: inside)
    }

    private func centred(_ canvas: inout Canvas, _ area: Range<Int>, _ lines: [(String, CellStyle)]) {
        let top = area.lowerBound + max(0, (area.count - lines.count) / 2)
        for (offset, (text, style)) in lines.enumerated() where top + offset < area.upperBound {
            canvas.putCentered(text, row: top + offset, style: style, in: 2..<(canvas.width - 2))
        }
    }

    private func drawHints(_ canvas: inout Canvas, row: Int) {
        var hints: [String] = []
        func hint(_ action: KeyAction, _ text: String) {
            if let key = bindings.primaryKey(action) { hints.append("\(key) \(text)") }
        }
        if alert != nil {
            hints.append("Enter \(UIStrings.text(.ok, in: language))")
        } else if confirmation != nil {
            hints.append("y \(TerminalStrings.text(.yes, in: language))")
            hints.append("n \(TerminalStrings.text(.no, in: language))")
        } else {
            if let undo { hint(.undo, TerminalStrings.undoRemoval(undo, in: language)) }
            let move = [bindings.primaryKey(.up), bindings.primaryKey(.down)].compactMap { $0?.description }.joined()
            hints.append("\(move) \(TerminalStrings.text(.move, in: language))")
            hints.append("Tab \(TerminalStrings.text(.nextTab, in: language))")
            if [.stations, .podcasts, .queue, .sessions, .music].contains(tab), !visibleItems.isEmpty { hint(.play, TerminalStrings.text(.open, in: language)) }
            if tab == .music, !visibleItems.isEmpty { hint(.add, TerminalStrings.text(.enqueue, in: language)) }
            if tab == .music, musicIndexing == nil { hint(.refreshAll, TerminalStrings.text(.updateIndex, in: language)) }
            if [.history, .favourites].contains(tab), !visibleItems.isEmpty { hint(.like, TerminalStrings.text(.like, in: language)) }
            if directoryQuery != nil {
                hint(.add, TerminalStrings.text(.addToLibrary, in: language))
            } else if tab == .stations || (tab == .podcasts && episodesOf == nil && libraryQuery == nil) {
                hint(.add, TerminalStrings.text(.add, in: language))
            } else if tab == .sessions {
                hint(.add, TerminalStrings.text(.timer, in: language))
            }
            if tab == .stations { hint(.directory, TerminalStrings.text(.find, in: language)) }
            if tab == .podcasts, episodesOf != nil, !visibleItems.isEmpty { hint(.download, TerminalStrings.text(.download, in: language)) }
            if [.stations, .sessions].contains(tab) || (tab == .podcasts && episodesOf != nil), directoryQuery == nil, !visibleItems.isEmpty {
                hint(.enqueue, TerminalStrings.text(.enqueue, in: language))
            }
            if tab == .queue, !visibleItems.isEmpty { hint(.remove, TerminalStrings.text(.takeOff, in: language)) }
            if list.error != nil { hint(.retry, UIStrings.text(.tryAgain, in: language)) }
            if tab != .diagnostics { hint(.search, TerminalStrings.text(.search, in: language)) }
            if let control = miniPlayer?.primaryControl, control.isEnabled {
                hint(control.action == .retry ? .retry : .pauseResume, control.title)
            }
            hint(.help, TerminalStrings.text(.help, in: language))
            hint(.quit, TerminalStrings.text(.quit, in: language))
        }
        let text = " " + hints.joined(separator: "  ")
        canvas.put(text.padding(toLength: max(text.count, canvas.width), withPad: " ", startingAt: 0), row: row, column: 0, style: .reverse)
    }
}
