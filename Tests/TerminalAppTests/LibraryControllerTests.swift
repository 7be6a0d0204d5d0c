import Foundation
import Library
import LibraryKit
import Logging
import PlayerCore
import PlayerKit
import Services
import Streaming
import Clocks
import Synchronization
import TerminalUI
import TestProcesses
import Testing

@testable import TerminalApp

/// The library screen's controller driven as a terminal would drive it, keys in and frames out,
/// with no terminal: a real library in a temporary directory, a real player on the null output.
/// One suite per feature, nested here so they run one at a time.
@Suite("Library controller", .serialized, .blocking)
struct LibraryControllerTests {
    /// A library in a directory of its own, with two 20 s sessions of a quiet tone.
    final class Fixture {
        let directory: URL
        let library: LibraryContext
        let controller: LibraryController
        /// Every state the player published, in order.
        let states = StateLog()

        init(directory stationDirectory: StationDirectory? = nil, syncPassword: String? = nil) async throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-controller-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            library = try await LibraryContext.open(directory: directory.appendingPathComponent("data"), logger: Logger(label: "test"))
            let states = self.states
            controller = LibraryController(
                library: library, output: .null, language: .english, bindings: .standard, logger: Logger(label: "test"),
                observer: { update in
                    if case .state(let state, _, _) = update { states.names.withLock { $0.append(state.name) } }
                }, directory: stationDirectory, syncPassword: { syncPassword })
        }

        /// A session file playing a 20 s tone, kept in the library under `name`.
        func addSession(_ name: String) throws {
            let audio = directory.appendingPathComponent("\(name).wav")
            let tone = { (i: Int) in Int16(2_000 * sin(Double(i) * 2 * .pi * 440 / 48_000)) }
            try PCMWAV.data(frames: 48_000 * 20, left: tone, right: tone).write(to: audio)
            let json = #"{"name": "\#(name)", "stages": [{"source": "\#(audio.path)", "title": "\#(name) stage"}]}"#
            let file = directory.appendingPathComponent("\(name).json")
            try Data(json.utf8).write(to: file)
            _ = try library.store.addSession(name: name, path: file.path, json: json)
        }

        func press(_ keys: Key...) { keys.forEach(controller.handle) }

        func type(_ text: String) { text.forEach { controller.handle(.character($0)) } }

        var screen: String { controller.frame(tick: 0, width: 100, height: 30).text }

        var playerState: PlayerState { model { $0.player.state } }

        /// Reads or changes the screen's model under its lock, as the terminal thread does.
        func model<T: Sendable>(_ body: (inout LibraryModel) -> T) -> T { controller.machine.withLock { body(&$0.model) } }

        /// Waits (without a clock assertion) until `condition` holds, up to a generous limit.
        func until(_ what: String, _ condition: () -> Bool) async throws {
            guard await eventually(timeout: 20, condition) else { throw Failure(what) }
        }

        deinit { try? FileManager.default.removeItem(at: directory) }
    }

    final class StateLog: Sendable {
        let names = Mutex<[PlayerState.Name]>([])
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ what: String) { description = "never happened: \(what)" }
    }
}

/// Holds a test server's answers until the test opens it (or a deadline passes, so a broken test
/// fails instead of hanging).
final class Gate: @unchecked Sendable {
    private let condition = NSCondition()
    private var isOpen = false

    func open() {
        condition.lock()
        isOpen = true
        condition.broadcast()
        condition.unlock()
    }

    func wait(deadline seconds: Double = 20) {
        condition.lock()
        defer { condition.unlock() }
        let until = Date(timeIntervalSinceNow: seconds)
        while !isOpen, condition.wait(until: until) {}
    }
}
