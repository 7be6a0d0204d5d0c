import Foundation

extension PlaybackError {
    /// Converts any thrown error into a typed one: `PlaybackError` passes through; cancellation,
    /// POSIX errno values (also inside `NSError`), Foundation file and URL-loading errors and
    /// `DecodingError` map to their codes; anything else is `unknown` with its text kept for logs.
    public static func from(_ error: any Error) -> PlaybackError {
        if let typed = error as? PlaybackError { return typed }
        if error is CancellationError { return PlaybackError(.cancelled) }
        if error is DecodingError { return PlaybackError(.malformedData, underlying: String(describing: error)) }
        if let posix = error as? POSIXError { return from(errno: posix.code.rawValue, underlying: String(describing: error)) }
        let ns = error as NSError
        if let mapped = from(domain: ns.domain, code: ns.code, underlying: String(describing: error)) { return mapped }
        return PlaybackError(.unknown, underlying: String(describing: error))
    }

    /// Maps an errno value (as returned by open(2), connect(2), read(2)...).
    public static func from(errno code: Int32, underlying: String? = nil) -> PlaybackError {
        let log = underlying ?? "errno \(code)"
        switch code {
        case ENOENT, ENOTDIR, EISDIR: return PlaybackError(.fileNotFound, underlying: log)
        case EACCES, EPERM, EROFS: return PlaybackError(.permissionDenied, underlying: log)
        case ECONNREFUSED, EHOSTDOWN, EADDRNOTAVAIL: return PlaybackError(.connectionFailed, underlying: log)
        case ETIMEDOUT: return PlaybackError(.connectionTimeout, underlying: log)
        case ECONNRESET, ECONNABORTED, EPIPE, ENOTCONN, ESHUTDOWN: return PlaybackError(.connectionLost, underlying: log)
        case ENETUNREACH, ENETDOWN, EHOSTUNREACH: return PlaybackError(.offline, underlying: log)
        case EIO, EILSEQ: return PlaybackError(.corruptData, underlying: log)
        case ENOSPC, EDQUOT, EFBIG: return PlaybackError(.diskFull, underlying: log)
        case ECANCELED, EINTR: return PlaybackError(.cancelled, underlying: log)
        default: return PlaybackError(.unknown, underlying: log)
        }
    }

    /// Maps an HTTP status that ended a request: 401/403 authorization, 404/410 not found,
    /// 408/429/5xx retryable (with the server's `Retry-After`), any other 4xx a final client error.
    /// Returns nil for 1xx-3xx, which are not failures.
    public static func from(httpStatus status: Int, retryAfter: RetryAfter? = nil) -> PlaybackError? {
        switch status {
        case 401, 403: return PlaybackError(.httpUnauthorized, httpStatus: status)
        case 404, 410: return PlaybackError(.httpNotFound, httpStatus: status)
        case 408, 429, 500...599: return PlaybackError(.httpRetryable, httpStatus: status, retryAfter: retryAfter)
        case 400...499: return PlaybackError(.httpClientError, httpStatus: status)
        default: return nil
        }
    }

    /// The HTTP statuses worth retrying: timeout, too many requests and transient server errors.
    public static let retryableHTTPStatuses: Set<Int> = [408, 429, 500, 502, 503, 504]

    /// Foundation's error domains, by name so PlayerCore needs no networking module.
    private static func from(domain: String, code: Int, underlying: String) -> PlaybackError? {
        switch domain {
        case NSPOSIXErrorDomain:
            return from(errno: Int32(truncatingIfNeeded: code), underlying: underlying)
        case NSCocoaErrorDomain:
            switch code {
            case NSFileNoSuchFileError, NSFileReadNoSuchFileError: return PlaybackError(.fileNotFound, underlying: underlying)
            case NSFileReadNoPermissionError, NSFileWriteNoPermissionError: return PlaybackError(.permissionDenied, underlying: underlying)
            case NSFileReadCorruptFileError: return PlaybackError(.corruptData, underlying: underlying)
            case NSUserCancelledError: return PlaybackError(.cancelled, underlying: underlying)
            case NSCoderReadCorruptError, NSCoderValueNotFoundError: return PlaybackError(.malformedData, underlying: underlying)
            default: return nil
            }
        case "NSURLErrorDomain":
            // Codes from NSURLError.h (Foundation's URL loading system).
            switch code {
            case -1009, -1020: return PlaybackError(.offline, underlying: underlying)
            case -1001: return PlaybackError(.connectionTimeout, underlying: underlying)
            case -1003, -1006: return PlaybackError(.dnsFailure, underlying: underlying)
            case -1004: return PlaybackError(.connectionFailed, underlying: underlying)
            case -1005: return PlaybackError(.connectionLost, underlying: underlying)
            case -1200, -1201, -1202, -1203, -1204, -1205, -1206: return PlaybackError(.tlsFailure, underlying: underlying)
            case -999: return PlaybackError(.cancelled, underlying: underlying)
            case -1100: return PlaybackError(.fileNotFound, underlying: underlying)
            case -1102: return PlaybackError(.permissionDenied, underlying: underlying)
            case -1011, -1015, -1016, -1017: return PlaybackError(.malformedData, underlying: underlying)
            default: return nil
            }
        default:
            return nil
        }
    }
}
