import Foundation
import PlayerCore
import TestProcesses
import Testing

/// `tonearm timer` end to end: the real binary renders a short timer, its bells are told at their
/// session times and heard in the WAV, it ends by itself; a kept timer plays again from the library;
/// a length it cannot read is refused with what to write instead.
@Suite("tonearm timer", .serialized, .blocking)
struct TimerCommandTests {
    /// A bell file: 0.3 s of a loud 750 Hz square wave, then nothing.
    static func bell(in directory: URL) throws -> URL {
        let file = directory.appendingPathComponent("bell.wav")
        let loud = 14_400
        try PCMWAV.data(frames: loud, left: { $0 / 32 % 2 == 0 ? 12_000 : -12_000 }, right: { $0 / 32 % 2 == 0 ? 12_000 : -12_000 })
            .write(to: file)
        return file
    }

    static func directory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-timer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    static func bells(_ events: [[String: Any]]) -> [[String: Any]] {
        events.filter { $0["event"] as? String == "notice" && $0["notice"] as? String == "bell" }
    }

    /// The RMS of a 16-bit stereo WAV's samples from `start` to `end` seconds (48 kHz).
    static func rms(_ wav: Data, from start: Double, to end: Double) -> Double {
        guard let data = wav.range(of: Data("data".utf8)) else { return .nan }
        let samples = wav[(data.upperBound + 4)...].withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        let first = Int(start * 48_000) * 2
        let last = min(samples.count, Int(end * 48_000) * 2)
        guard last > first else { return .nan }
        let sum = samples[first..<last].reduce(0.0) { $0 + Double($1) * Double($1) }
        return (sum / Double(last - first)).squareRoot() / 32_768
    }

    @Test func aShortTimerRingsEachBellAtItsTimeAndEnds() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bell = try Self.bell(in: dir)
        let wav = dir.appendingPathComponent("timer.wav")
        let r = try PlaybackCommandTests.run([
            "timer", "6s", "--bell", bell.path, "--bells-at", "0,2s,4", "--bell-volume", "1", "--output", "wav:\(wav.path)", "--fast",
            "--events", "jsonl",
        ])
        #expect(r.status == 0, "stderr: \(r.err)")
        // A start bell, the listed ones, and the end bell at the length: each told once, at its time
        // on the session's clock.
        let bells = Self.bells(r.events)
        #expect(bells.compactMap { $0["at"] as? Double } == [0, 2, 4, 6], "\(bells)")
        #expect(bells.compactMap { $0["kind"] as? String } == ["start", "interval", "interval", "end"])
        #expect(bells.allSatisfy { $0["skipped"] as? Bool == false && $0["strike"] as? Int == 1 })
        for bell in bells {
            let at = bell["at"] as? Double ?? -1
            #expect(abs((bell["sessionTime"] as? Double ?? -1) - at) < 0.01, "\(bell)")
        }
        // The silent stage ends at the length, the last bell rings out, and the timer is over.
        #expect(PlaybackCommandTests.stateNames(r.events).suffix(3) == ["playing", "fadingOut", "finished"])
        let playing = try #require(r.events.first { $0["state"] as? String == "playing" })
        let layers = try #require(playing["layers"] as? [String: Any])
        #expect(layers["length"] as? Double == 6)
        #expect((playing["track"] as? [String: Any])?["title"] as? String == "Timer 0:06")
        let last = try #require(r.events.last { $0["event"] as? String == "layers" })
        #expect(last["elapsed"] is NSNull, "the session's layers end with it: \(last)")
        // Heard where told: each bell sounds from its time, and the silence between is silent.
        let audio = try Data(contentsOf: wav)
        for at in [0.0, 2, 4, 6] {
            #expect(Self.rms(audio, from: at, to: at + 0.25) > 0.1, "no bell at \(at) s")
            if at < 6 { #expect(Self.rms(audio, from: at + 0.5, to: at + 1.8) < 0.001, "sound between the bells after \(at) s") }
        }
    }

    @Test func aKeptTimerPlaysAgainFromTheLibrary() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bell = try Self.bell(in: dir)
        let data = ["XDG_DATA_HOME": dir.appendingPathComponent("data").path]
        let first = try PlaybackCommandTests.run(
            ["timer", "3s", "--bell", bell.path, "--save", "Short sit", "--output", "null", "--fast", "--events", "jsonl"], environment: data)
        #expect(first.status == 0, "stderr: \(first.err)")
        #expect(first.err.contains("Kept as Short sit"))
        let again = try PlaybackCommandTests.run(["play", "--session", "Short sit", "--output", "null", "--fast", "--events", "jsonl"], environment: data)
        #expect(again.status == 0, "stderr: \(again.err)")
        #expect(Self.bells(again.events).compactMap { $0["at"] as? Double } == Self.bells(first.events).compactMap { $0["at"] as? Double })
        #expect(Self.bells(again.events).compactMap { $0["at"] as? Double } == [0, 3])
        let taken = try PlaybackCommandTests.run(["timer", "3s", "--save", "short SIT", "--output", "null", "--fast"], environment: data)
        #expect(taken.status == 1, "a name the library has is refused before anything plays")
    }

    @Test func whatItCannotReadIsRefusedWithWhatToWrite() throws {
        let bad = try CLITests.run(["timer", "20x", "--output", "null"])
        #expect(bad.status != 0)
        #expect(bad.err.contains("“20x” is not a duration: write 20m, 90s, 1h30m, 1:30:00 or seconds."), "\(bad.err)")
        let late = try CLITests.run(["timer", "20m", "--bells-at", "0,25m", "--output", "null"])
        #expect(late.status != 0)
        #expect(late.err.contains("A bell at 25:00 comes after the timer ends at 20:00"), "\(late.err)")
        let missing = try CLITests.run(["timer", "20m", "--bed", "/no/such/rain.flac", "--output", "null"])
        #expect(missing.err.contains("There is no bed file at /no/such/rain.flac."), "\(missing.err)")
        let endless = try CLITests.run(["timer", "--interval", "5m", "--output", "null", "--fast"])
        #expect(endless.status != 0 && endless.err.contains("never ends"), "\(endless.err)")
    }
}
