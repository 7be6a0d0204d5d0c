import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import PlayerCore

/// Maps what AsyncHTTPClient and SwiftNIO throw to Tonearm's typed errors. Explicit, because
/// `PlaybackError.from(_:)` only knows Foundation and POSIX errors and would call these `unknown`.
///
/// | Thrown | Code |
/// |---|---|
/// | `HTTPClientError.connectTimeout`, `.readTimeout`, `.writeTimeout`, `.deadlineExceeded`, `.getConnectionFromPoolTimeout`, `.tlsHandshakeTimeout`, `.httpProxyHandshakeTimeout`, `.socksHandshakeTimeout`, `ChannelError.connectTimeout` | `connectionTimeout` |
/// | `HTTPClientError.remoteConnectionClosed`, `ChannelError.eof`/`.ioOnClosedChannel`/`.alreadyClosed`/`.inputClosed`/`.outputClosed`, `HTTPClientError.bodyLengthMismatch` | `connectionLost` |
/// | `NIOConnectionError` whose DNS lookups both failed and no address was tried | `dnsFailure` |
/// | `NIOConnectionError` with connection attempts (refused, unreachable: their errno decides, refused = `connectionFailed`) | from the first attempt's error |
/// | `IOError` (a failed syscall) | by errno (`PlaybackError.from(errno:)`) |
/// | `HTTPClientError.cancelled`, `CancellationError` | `cancelled` |
/// | `HTTPClientError.redirectLimitReached`, `.redirectCycleDetected` | `streamUnavailable` |
/// | `HTTPClientError.invalidURL`, `.emptyHost`, `.emptyScheme`, `.unsupportedScheme` | `streamUnavailable` |
/// | `HTTPParserError.invalidEOFState` (the connection closed inside a body) | `connectionLost` |
/// | other `HTTPParserError`s and `HTTPClientError`s (malformed response) | `malformedData` |
/// | anything else | `PlaybackError.from(_:)` (POSIX/Foundation/unknown) |
enum HTTPErrorMapping {
    static func map(_ error: any Error) -> PlaybackError {
        if let typed = error as? PlaybackError { return typed }
        let text = String(describing: error)
        if error is CancellationError { return PlaybackError(.cancelled, underlying: text) }
        if let client = error as? HTTPClientError { return map(client, text: text) }
        if let channel = error as? ChannelError {
            switch channel {
            case .connectTimeout: return PlaybackError(.connectionTimeout, underlying: text)
            case .eof, .ioOnClosedChannel, .alreadyClosed, .inputClosed, .outputClosed:
                return PlaybackError(.connectionLost, underlying: text)
            default: return PlaybackError(.connectionFailed, underlying: text)
            }
        }
        if let connection = error as? NIOConnectionError {
            if let first = connection.connectionErrors.first {
                let mapped = map(first.error)
                // A failed attempt we cannot classify is still a failed connection.
                return mapped.code == .unknown ? PlaybackError(.connectionFailed, underlying: text) : PlaybackError(mapped.code, underlying: text)
            }
            if connection.dnsAError != nil || connection.dnsAAAAError != nil {
                return PlaybackError(.dnsFailure, underlying: text)
            }
            return PlaybackError(.connectionFailed, underlying: text)
        }
        if let io = error as? IOError { return PlaybackError.from(errno: io.errnoCode, underlying: text) }
        if error is SocketAddressError { return PlaybackError(.dnsFailure, underlying: text) }
        if let parser = error as? HTTPParserError {
            // The connection closed in the middle of a body (a chunked stream cut off): a drop.
            if parser == .invalidEOFState { return PlaybackError(.connectionLost, underlying: text) }
            if parser == .invalidConstant {
                // What a SHOUTcast v1 server's "ICY 200 OK" looks like to an HTTP parser, which
                // AsyncHTTPClient cannot be told to accept.
                return PlaybackError(.malformedData, underlying: "not an HTTP status line (a legacy 'ICY 200 OK' server?): \(text)")
            }
            return PlaybackError(.malformedData, underlying: text)
        }
        return PlaybackError.from(error)
    }

    private static func map(_ error: HTTPClientError, text: String) -> PlaybackError {
        switch error {
        case .connectTimeout, .readTimeout, .writeTimeout, .deadlineExceeded, .getConnectionFromPoolTimeout,
            .tlsHandshakeTimeout, .httpProxyHandshakeTimeout, .socksHandshakeTimeout:
            return PlaybackError(.connectionTimeout, underlying: text)
        case .remoteConnectionClosed, .bodyLengthMismatch:
            return PlaybackError(.connectionLost, underlying: text)
        case .cancelled:
            return PlaybackError(.cancelled, underlying: text)
        case .redirectLimitReached, .redirectCycleDetected, .invalidURL, .emptyHost, .emptyScheme:
            return PlaybackError(.streamUnavailable, underlying: text)
        default:
            if text.contains("unsupportedScheme") { return PlaybackError(.streamUnavailable, underlying: text) }
            return PlaybackError(.malformedData, underlying: text)
        }
    }
}
