import AudioEngine
import Foundation
import Library
import LibraryKit
import PlayerCore
import PlayerKit
import Synchronization

/// What `tonearm queue ...` does once its arguments are parsed: the listener's "up next" queue,
/// kept in the library.
package enum QueueCommands {
    /// The queue as a table (or JSON), first entry first.
    package static func list(json: Bool, library: LibraryContext) async {
        let entries = await library.attempt("listQueue") { () throws(PlaybackError) in try library.store.queue() }
        json ? JSONOutput.print(entries) : print(LibraryListing.queue(entries))
    }

    /// Adds an episode (by id), a station or a session (by name or id) at `position` (1 is the
    /// front; the end when nil).
    package static func add(episode: Int64?, station: String?, session: String?, position: Int?, library: LibraryContext) async {
        let entry = await library.attempt("enqueue") { () throws(PlaybackError) -> QueueEntryRecord in
            let target: QueueTarget
            if let episode {
                target = .episode(try library.store.episode(id: episode).id)
            } else if let station {
                target = .station(try library.store.station(named: station).id)
            } else {
                target = .session(try library.store.session(named: session ?? "").id)
            }
            return try library.store.enqueue(target, at: position.map { $0 - 1 })
        }
        print("Queued \(entry.title) at \(entry.index + 1) (entry \(entry.id))")
    }

    package static func remove(entryID: Int64, library: LibraryContext) async {
        await library.attempt("dequeue") { () throws(PlaybackError) in try library.store.removeFromQueue(entryID: entryID) }
        print("Removed entry \(entryID) from the queue")
    }

    /// Moves an entry to `position` (1 is the front).
    package static func move(entryID: Int64, to position: Int, library: LibraryContext) async {
        await library.attempt("moveInQueue") { () throws(PlaybackError) in
            try library.store.moveInQueue(entryID: entryID, to: position - 1)
        }
        await list(json: false, library: library)
    }

    package static func clear(library: LibraryContext) async {
        await library.attempt("clearQueue") { () throws(PlaybackError) in try library.store.clearQueue() }
        print("The queue is empty")
    }
}

extension CommandPlayback {
    /// Plays the queue in order; what ends or is moved past leaves it, each episode's place is
    /// kept. Entries that cannot play are told and left in the queue.
    package static func playQueue(
        settings: Settings, services: @Sendable ([Track]) -> TonearmPlayer.Services, configuration: PlayerStateMachine.Configuration
    ) async {
        let library = await LibraryContext.openForCommand()
        let plan = await library.attempt("playQueue") { () throws(PlaybackError) in try library.queueToPlay() }
        for (entry, error) in plan.skipped { CommandFailure.warn(error, about: entry.title) }
        guard let request = plan.request else {
            print("The queue is empty. Add to it with: tonearm queue add --episode ID")
            return
        }
        let player = Mutex<AudioPlayer?>(nil)
        let assembly = LibraryPlayerAssembly(library: library, logger: CommandLog.logger)
        let queue = QueuePlayback(
            library: library, plan: plan, places: assembly.observers.places, logger: CommandLog.logger,
            start: { request in
                guard let player = player.withLock({ $0 }) else { return }
                do throws(PlaybackError) { try await assembly.replace(with: .play(request), on: player) } catch {
                    CommandFailure.warn(error, about: request.items.first?.track.title ?? "the queue")
                }
            },
            skipped: { entry, error in CommandFailure.warn(error, about: entry.title) })
        // The services for every part's tracks (a station in a later part needs the network's).
        var tracks = request.items.map(\.track)
        var seen: Set<Int64> = []
        var from = plan.continuesFrom
        while let next = from, seen.insert(next).inserted, let later = try? library.queueToPlay(from: next) {
            tracks += later.request?.items.map(\.track) ?? []
            from = later.continuesFrom
        }
        var playback = CommandPlayback(settings, services: services(tracks), library: library, assembly: assembly, observer: { queue.observe($0) })
        playback.continues = { queue.continuesAfterFinish() }
        playback.opened = { opened in player.withLock { $0 = opened } }
        await playback.run(.play(request), configuration: configuration)
    }
}
