import Foundation
import PlayerCore
import TestProcesses
import Testing

@testable import AudioEngine

/// The listener's volume measured in what the engine writes, not trusted from the state.
@Suite("Volume in the rendered mix", .blocking)
struct VolumeRenderTests {
    /// Renders `file` to a float WAV at `volume`; its left channel.
    private func render(_ file: URL, volume: Volume, fixtures: AudioFixtures, name: String) async throws -> [Float] {
        let out = fixtures.url(name).path
        let configuration = PlayerStateMachine.Configuration(fadeOutAtEnd: false, volume: volume)
        let player = AudioPlayer(
            output: WAVFileSink(path: out, encoding: .float32), options: .init(configuration: configuration, mode: .asFastAsPossible))
        _ = try await player.renderToTheEnd(PlayRequest(track: track(file)))
        return try WAVReader.read(path: out).channel(0)
    }

    @Test func halfVolumeIsSixDecibelsDown() async throws {
        let fixtures = try AudioFixtures()
        let tone = try fixtures.sine(.flac, sampleRate: 48_000, seconds: 3, frequency: 1_000, name: "tone.flac")
        let full = try await render(tone, volume: .full, fixtures: fixtures, name: "full.wav")
        let half = try await render(tone, volume: Volume(0.5), fixtures: fixtures, name: "half.wav")
        // One second from the middle, clear of the start ramp.
        let change = SignalMetrics.decibels(SignalMetrics.rms(half[48_000..<96_000]), relativeTo: SignalMetrics.rms(full[48_000..<96_000]))
        #expect(abs(change - -6.0) <= 0.2, "50 % is \(change) dB")
    }

    /// A volume above 100 % boosts: 150 % is +3.5 dB.
    @Test func aBoostRaisesTheLevel() async throws {
        let fixtures = try AudioFixtures()
        let tone = try fixtures.sine(.flac, sampleRate: 48_000, seconds: 2, frequency: 1_000, amplitude: 0.25, name: "quiet.flac")
        let full = try await render(tone, volume: .full, fixtures: fixtures, name: "full.wav")
        let boosted = try await render(tone, volume: Volume(1.5), fixtures: fixtures, name: "boost.wav")
        let change = SignalMetrics.decibels(SignalMetrics.rms(boosted[48_000..<72_000]), relativeTo: SignalMetrics.rms(full[48_000..<72_000]))
        #expect(abs(change - 20 * log10(1.5)) <= 0.2, "150 % is \(change) dB")
    }
}
