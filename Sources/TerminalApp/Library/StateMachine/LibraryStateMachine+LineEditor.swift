import Foundation
import Library
import LibraryKit
import PlayerCore
import Presentation
import TerminalUI

extension LibraryStateMachine {
    /// Typing into the search line or the prompt: Enter ends it, Esc cancels, Backspace deletes.
    mutating func edit(_ key: Key) -> [LibraryEffect] {
        var effects: [LibraryEffect] = []
        switch key {
        case .enter:
            if let prompt = model.prompt {
                model.prompt = nil
                if model.promptPurpose == .findStations {
                    model.promptPurpose = .add
                    model.typingSearch = false
                    return findStations(prompt.text)
                }
                effects = submit(prompt.text)
            } else if model.tab == .podcasts && model.episodesOf == nil || model.tab == .music, let words = model.search,
                SearchQuery(words) != nil
            {
                // On the podcast list, the words typed are looked for in the whole library; on
                // the Music tab, in the music index (the songs it finds are listed).
                model.libraryQuery = words
                model.search = nil
                model.selection = 0
                model.list = .initial
                effects = [.reload]
            }
            model.typingSearch = false
        case .escape:
            model.prompt = nil
            model.promptPurpose = .add
            model.typingSearch = false
            model.search = nil
        case .backspace:
            if let prompt = model.prompt {
                model.prompt = (prompt.label, String(prompt.text.dropLast()))
            } else {
                model.search = String((model.search ?? "").dropLast())
            }
        case .character(let c):
            if model.prompt != nil {
                model.prompt?.text.append(c)
            } else {
                // A new search starts at its first match.
                model.search = (model.search ?? "") + String(c)
                model.selection = 0
            }
        default:
            return []
        }
        model.changed()
        return effects
    }

    /// What the listener typed into the add or rename prompt.
    private mutating func submit(_ text: String) -> [LibraryEffect] {
        if case .rename(let station) = model.promptPurpose {
            model.promptPurpose = .add
            return [.change(.renameStation(id: station, name: text))]
        }
        switch model.tab {
        case .stations:
            // A station is a name, then its http(s) address.
            let words = text.split(separator: " ").map(String.init)
            guard let last = words.last, let url = WebAddress.parse(last), words.count >= 2 else {
                let error = PlaybackError(.streamUnavailable, underlying: "expected a name and an http(s) URL")
                alert(error, operation: .playback)
                return [.record(error, operation: "addStation")]
            }
            return [.change(.addStation(name: words.dropLast().joined(separator: " "), url: url))]
        case .podcasts:
            // A feed is fetched from the network: the screen goes on while it loads.
            guard let url = URL(string: text.trimmingCharacters(in: .whitespaces)) else {
                alert(PlaybackError(.invalidFeed), operation: .feed)
                return []
            }
            return [.addFeed(url)]
        case .sessions:
            return startTimer(text)
        default:
            return []
        }
    }

    /// A timer of the length typed (nothing: counting up until stopped), with a bowl at its start
    /// and at its end. A length Tonearm cannot read keeps the prompt open, saying why.
    private mutating func startTimer(_ text: String) -> [LibraryEffect] {
        let typed = text.trimmingCharacters(in: .whitespaces)
        let timer: TimerSession
        do throws(TimerSessionError) {
            timer = try TimerSession(length: typed.isEmpty ? nil : typed)
        } catch {
            model.prompt = (error.message(in: language), text)
            return []
        }
        let title = TimerTexts.title(length: timer.length, in: language)
        let request: PlayRequest
        do throws(PlaybackError) {
            // Built-in sounds only: nothing to resolve against a folder, no length to probe.
            request = try SessionPlanner.plan(timer.session(name: title, title: title), base: URL(fileURLWithPath: "/"), probe: { _ in nil })
        } catch {
            return fail(error, operation: "playTimer")
        }
        return play(Playback(replacement: .play(request), operation: "playTimer"))
    }
}
