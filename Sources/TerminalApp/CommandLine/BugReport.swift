import Foundation
import Library
import LibraryKit
import Media
import PlayerCore
import PlayerKit
import Presentation

/// `tonearm report`: one archive a listener can attach to a bug report, and the list of what is in
/// it, shown before it is written. Every text in it goes through a `ReportScrubber` built from the
/// library (its stations' and feeds' hosts), the configuration's secrets, the home directory and
/// the user name, so nothing in it points at the listener.
package struct BugReport: Sendable {
    /// One file of the archive.
    package struct Part: Sendable {
        package var name: String
        /// What it holds, in a line, for the list the listener sees first.
        package var about: String
        package var text: String
    }

    /// The log's last hours that go in.
    package static let logHours: Double = 24

    package var parts: [Part]

    /// Gathers every part.
    package static func gather(
        library: LibraryContext, environment: [String: String] = ProcessInfo.processInfo.environment, now: Date = Date()
    ) async -> BugReport {
        let configFile = TerminalConfig.file(environment: environment)
        let configText = try? String(contentsOf: configFile, encoding: .utf8)
        let scrubber = ReportScrubber(
            secrets: secrets(in: configText ?? "", environment: environment), hosts: hosts(in: library.store),
            home: environment["HOME"], user: environment["USER"] ?? environment["LOGNAME"])
        var parts: [Part] = []
        parts.append(Part(name: "versions.txt", about: "versions of Tonearm, its libraries and the system", text: versions()))
        parts.append(Part(name: "audio.txt", about: "the sound server and its outputs (pactl)", text: audio(environment: environment)))
        parts.append(Part(name: "analytics.json", about: "the error summary of `tonearm errors --json` (no titles, no addresses)", text: await analytics(library)))
        parts.append(
            Part(
                name: "config.toml", about: "your configuration, secrets removed",
                text: configText.map(ReportScrubber.configuration) ?? "(no configuration file)\n"))
        let timeline = FailureTimeline.read(from: FailureTimeline.defaultURL(environment: environment))
        parts.append(
            Part(
                name: "last-failure.json", about: "the states before the last playback failure",
                text: timeline.map(encodeTimeline) ?? "(no playback has failed)\n"))
        let log = LogFileLocation.defaultURL(environment: environment)
        parts.append(Part(name: "tonearm.log", about: "the log of the last \(Int(logHours)) hours", text: recentLog(log, since: now - logHours * 3_600)))
        return BugReport(parts: parts.map { part in
            var part = part
            part.text = scrubber.scrub(part.text)
            return part
        })
    }

    /// The list the listener sees before the archive is written.
    package var contents: String {
        let rows = parts.map { [$0.name, "\($0.text.utf8.count) bytes", $0.about] }
        return TextTable.render(header: ["FILE", "SIZE", "WHAT"], rows: rows)
    }

    /// Writes the parts as a gzip-compressed tar archive at `file` (GNU tar does the format).
    package func write(to file: URL) throws(PlaybackError) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-report-\(UUID().uuidString)")
        let inside = folder.appendingPathComponent("tonearm-report")
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            try FileManager.default.createDirectory(at: inside, withIntermediateDirectories: true)
            for part in parts { try Data(part.text.utf8).write(to: inside.appendingPathComponent(part.name)) }
        } catch {
            throw PlaybackError(.permissionDenied, underlying: "cannot write the report's files")
        }
        let tar = Process()
        tar.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        tar.arguments = ["tar", "-czf", file.path, "-C", folder.path, "tonearm-report"]
        do {
            try tar.run()
            tar.waitUntilExit()
        } catch {
            throw PlaybackError(.fileNotFound, underlying: "tar cannot be started")
        }
        guard tar.terminationStatus == 0 else { throw PlaybackError(.permissionDenied, underlying: "tar could not write the archive") }
    }

    // MARK: - Parts

    static func versions() -> String {
        var lines = ["Tonearm \(TonearmVersion.current)", "FFmpeg: \(FFmpegProbe.loaded)"]
        if let release = try? String(contentsOfFile: "/etc/os-release", encoding: .utf8),
            let pretty = release.split(separator: "\n").first(where: { $0.hasPrefix("PRETTY_NAME=") })
        {
            lines.append("System: " + pretty.dropFirst("PRETTY_NAME=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\"")))
        }
        if let kernel = try? String(contentsOfFile: "/proc/sys/kernel/osrelease", encoding: .utf8) {
            lines.append("Kernel: " + kernel.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func audio(environment: [String: String]) -> String {
        let info = run(["pactl", "info"], environment: environment)
        let sinks = run(["pactl", "list", "short", "sinks"], environment: environment)
        guard let info else { return "No sound server answered (pactl info failed or is not installed).\n" }
        return info + "\nOutputs:\n" + (sinks ?? "(none listed)\n")
    }

    static func analytics(_ library: LibraryContext) async -> String {
        do {
            let summary = try await library.analytics.summary()
            let retries = try await library.retryStatistics.persistedSummary()
            let rule = TerminalConfig.learnedRetries().rule
            let learned = try LearnedRetryRows.load(store: library.store, rule: rule)
            let data = try ErrorReport.json(summary, retries: retries, learned: ReachabilityReport.jsonObject(learned.rows, endings: learned.endings))
            return String(decoding: data, as: UTF8.self) + "\n"
        } catch {
            return "(the analytics could not be read: \(PlaybackError.from(error).code.typeName))\n"
        }
    }

    static func encodeTimeline(_ entries: [FailureTimeline.Entry]) -> String {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return ((try? encoder.encode(entries)).map { String(decoding: $0, as: UTF8.self) } ?? "[]") + "\n"
    }

    /// The log's lines since `since` (each begins with its ISO 8601 time), the rotated file first.
    static func recentLog(_ file: URL, since: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let files = [file.appendingPathExtension("1"), file]
        var kept: [Substring] = []
        for file in files {
            guard let text = try? String(contentsOf: file, encoding: .utf8) else { continue }
            for line in text.split(separator: "\n") {
                guard let stamp = line.split(separator: " ", maxSplits: 1).first, let date = formatter.date(from: String(stamp)) else {
                    if !kept.isEmpty { kept.append(line) }  // a record's continuation
                    continue
                }
                if date >= since { kept.append(line) }
            }
        }
        return kept.isEmpty ? "(nothing logged in the last \(Int(logHours)) hours)\n" : kept.joined(separator: "\n") + "\n"
    }

    /// Every secret the configuration or the environment holds: values of keys that name one.
    static func secrets(in config: String, environment: [String: String]) -> [String] {
        var found = environment.filter { key, _ in ["PASSWORD", "TOKEN", "SECRET"].contains(where: key.uppercased().contains) }.map(\.value)
        for line in config.split(separator: "\n") {
            let pair = line.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, ["password", "token", "secret", "salt"].contains(where: pair[0].lowercased().contains) else { continue }
            found.append(pair[1].trimmingCharacters(in: CharacterSet(charactersIn: " \t\"'")))
        }
        return found.filter { !$0.isEmpty }
    }

    /// The hosts of the library's stations and feeds, and of their episodes' files.
    static func hosts(in store: LibraryStore) -> [String] {
        var hosts = Set<String>()
        for station in (try? store.stations()) ?? [] { station.url.host.map { _ = hosts.insert($0) } }
        for podcast in (try? store.podcasts()) ?? [] {
            podcast.feedURL.host.map { _ = hosts.insert($0) }
            for episode in (try? store.episodes(podcastID: podcast.id)) ?? [] { episode.audioURL?.host.map { _ = hosts.insert($0) } }
        }
        return Array(hosts)
    }

    private static func run(_ arguments: [String], environment: [String: String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? String(decoding: data, as: UTF8.self) : nil
    }
}
