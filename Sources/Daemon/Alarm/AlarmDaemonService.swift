import AudioEngine
import Foundation
import Library
import LibraryKit
import Logging
import PlayerCore
import PlayerKit
import Synchronization

/// The alarms `tonearm alarm` hands to the daemon, sounded on its own player and output: read
/// from the alarms' file when the daemon starts and again whenever a command rewrites it, each
/// run by an `AlarmRunner` until it is removed or the daemon stops. What an alarm tells goes to
/// the daemon's log (the journal under systemd).
package final class AlarmDaemonService: DaemonService {
    private let alarms = Mutex<[Int: AlarmRunner]>([:])
    private let watch = Mutex<AlarmFileWatch?>(nil)
    private let reloads: AsyncStream<Void>.Continuation
    private let reloadRequests: AsyncStream<Void>
    private let file: AlarmFile

    package init(file: AlarmFile = AlarmFile()) {
        self.file = file
        (reloadRequests, reloads) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    package var name: String { "alarm" }

    package func start(_ context: DaemonContext) async throws(PlaybackError) -> [DaemonEndpoint] {
        let logger = context.logger
        let wall = AlarmWallClock.fromEnvironment() ?? {
            logger.error("\(AlarmWallClock.testNowVariable) is not an ISO 8601 instant; the system clock is used")
            return .system
        }()
        let host = DaemonAlarmHost(audioPlayer: context.player, library: context.library)
        let reloads = self.reloads
        watch.withLock { $0 = AlarmFileWatch(directory: file.directory, name: AlarmFile.fileName) { reloads.yield() } }
        if watch.withLock({ $0 == nil }) { logger.warning("alarms: the file cannot be watched; changes apply when the daemon restarts") }
        await reload(host: host, wall: wall, logger: logger)
        let requests = reloadRequests
        // Reloads one at a time, in order; a burst of changes is read once.
        Task { [weak self] in
            for await _ in requests { await self?.reload(host: host, wall: wall, logger: logger) }
        }
        return []
    }

    package func observe(_ update: PlayerUpdate) {
        for runner in alarms.withLock({ Array($0.values) }) { runner.post(update) }
    }

    package func stop() async {
        watch.withLock { $0?.stop() }
        reloads.finish()
        let runners = alarms.withLock { all in
            defer { all = [:] }
            return Array(all.values)
        }
        for runner in runners { await runner.cancel() }
    }

    /// Brings the running alarms in line with the file: removed or changed ones are cancelled,
    /// new ones start waiting.
    private func reload(host: DaemonAlarmHost, wall: AlarmWallClock, logger: Logger) async {
        let list: AlarmList
        do throws(PlaybackError) {
            list = try file.read()
        } catch {
            var metadata: Logger.Metadata = [:]
            for (key, value) in LogFields.error(error) { metadata[key] = .string(value) }
            logger.error("alarms: the file cannot be read", metadata: metadata)
            return
        }
        let wanted = Dictionary(list.alarms.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let running = alarms.withLock { $0 }
        for (id, runner) in running where await runner.alarm != wanted[id] {
            await runner.cancel()
            alarms.withLock { $0[id] = nil }
        }
        for (id, alarm) in wanted.sorted(by: { $0.key < $1.key }) where alarms.withLock({ $0[id] == nil }) {
            let runner = AlarmRunner(alarm: alarm, timeZone: .current, host: host, wall: wall, logger: logger) { _ in }
            alarms.withLock { $0[id] = runner }
            await runner.start()
        }
        logger.notice("alarms loaded", metadata: ["count": "\(wanted.count)"])
    }
}

/// The daemon's player and library, for its alarms.
private struct DaemonAlarmHost: AlarmHost {
    let audioPlayer: AudioPlayer
    let library: LibraryContext

    func player() async throws(PlaybackError) -> AudioPlayer { audioPlayer }

    func replacement(for source: Alarm.Source) async throws(PlaybackError) -> PlayerEvent.Replacement {
        try library.alarmReplacement(for: source)
    }
}
