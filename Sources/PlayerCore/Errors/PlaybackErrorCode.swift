extension PlaybackError {
    /// Stable numeric codes; never renumber one, only add. Thousands give the group (Media3 style):
    /// 1xxx general, 2xxx network and I/O, 3xxx parsing, 4xxx decoding, 5xxx audio output.
    public enum Code: Int, Sendable, Hashable, Codable, CaseIterable {
        // General
        case unknown = 1000
        case invalidTransition = 1001
        case cancelled = 1002
        case missingAudioURL = 1003
        /// No podcast, episode, station or session in the library matches what was asked for.
        case notInLibrary = 1004
        /// The library already has an item with that name or feed address.
        case alreadyInLibrary = 1005
        /// An alarm was found past its time by more than its grace (the machine was asleep or
        /// off): it was not played late, and this says so.
        case alarmMissed = 1006
        /// An episode whose feed names no transcript Tonearm can read.
        case noTranscript = 1007
        // Network and I/O
        case offline = 2001
        case connectionFailed = 2002
        case connectionTimeout = 2003
        case connectionLost = 2004
        case dnsFailure = 2005
        case tlsFailure = 2006
        case httpUnauthorized = 2007
        case httpNotFound = 2008
        case httpRetryable = 2009
        case httpClientError = 2010
        case fileNotFound = 2011
        case permissionDenied = 2012
        case streamUnavailable = 2013
        case bufferingTimeout = 2014
        case stalled = 2015
        case wrongContentType = 2016
        /// The library's database file was damaged: it was kept aside and a new one made.
        case libraryCorrupt = 2017
        /// The library's database cannot be opened or written (permissions, a full disk).
        case libraryUnavailable = 2018
        /// An episode's file changed on the server while it played (a new size or ETag): the rest
        /// cannot be joined to what was already heard without damaging the audio.
        case sourceChanged = 2019
        /// The host failed too often in a row, so its circuit breaker refuses calls for a while:
        /// the call was never made. The error names the host and when it is tried again.
        case circuitOpen = 2020
        /// A jump within a network item could not be made (the server refused the range, or the
        /// data at the target did not come): playback goes on from where it was.
        case seekFailed = 2021
        /// The disk (or the storage cap's folder) has no room for a file being written, such as
        /// an episode being kept: what was written so far stays aside, never named as complete.
        case diskFull = 2022
        // Parsing
        case malformedData = 3001
        case unsupportedFormat = 3002
        /// An HLS playlist (#EXT-X-): not supported yet, said plainly rather than failing oddly.
        case hlsNotSupported = 3003
        /// A podcast feed that is neither RSS nor Atom (not XML, or XML without a channel or feed).
        case invalidFeed = 3004
        /// A document (feed, OPML file) over the size Tonearm accepts.
        case documentTooLarge = 3005
        // Decoding
        case corruptData = 4001
        /// The source plays but nothing is heard: its audio stays under the silence threshold
        /// (a stream fed with silence).
        case sourceSilent = 4002
        // Audio output
        case audioOutputUnavailable = 5001
        case audioOutputLost = 5002
        /// A `tonearm serve` of the same user is playing: a second player does not open a second
        /// output beside it.
        case daemonRunning = 5003

        public var group: Group {
            switch rawValue / 1000 {
            case 2: return .networkIO
            case 3: return .parsing
            case 4: return .decoding
            case 5: return .audioOutput
            default: return .general
            }
        }

        public var category: Category {
            switch self {
            case .offline, .connectionFailed, .connectionTimeout, .connectionLost, .dnsFailure, .tlsFailure,
                .httpRetryable, .httpClientError, .bufferingTimeout, .stalled, .circuitOpen, .seekFailed:
                return .network
            case .httpUnauthorized, .permissionDenied:
                return .authorization
            case .libraryCorrupt, .libraryUnavailable, .diskFull:
                return .system
            case .notInLibrary, .invalidFeed, .documentTooLarge, .noTranscript:
                return .resource
            case .alreadyInLibrary, .alarmMissed:
                return .operation
            case .httpNotFound, .fileNotFound, .streamUnavailable, .wrongContentType, .malformedData, .sourceChanged,
                .unsupportedFormat, .hlsNotSupported, .corruptData, .missingAudioURL, .sourceSilent:
                return .resource
            case .invalidTransition, .cancelled:
                return .operation
            case .audioOutputUnavailable, .audioOutputLost, .daemonRunning, .unknown:
                return .system
            }
        }

        /// The part of `errorType` after the category.
        public var typeName: String {
            switch self {
            case .connectionTimeout: return "timeout"
            case .httpUnauthorized: return "denied"
            case .httpNotFound: return "notFound"
            case .httpRetryable: return "serverUnavailable"
            default: return String(describing: self)
            }
        }

        public var disposition: Disposition {
            switch self {
            case .offline, .connectionFailed, .connectionTimeout, .connectionLost, .dnsFailure, .httpRetryable,
                .streamUnavailable, .bufferingTimeout, .stalled, .audioOutputLost:
                return .automatic
            // Automatic, with `retryAfter` set to the end of the breaker's cool-down: a reconnect
            // policy that honours Retry-After waits exactly until the half-open probe may run.
            case .circuitOpen:
                return .automatic
            case .httpNotFound, .tlsFailure, .audioOutputUnavailable, .daemonRunning, .cancelled, .unknown, .wrongContentType,
                .libraryCorrupt, .sourceChanged, .seekFailed, .diskFull, .sourceSilent:
                return .userRetry
            case .missingAudioURL, .invalidTransition, .httpUnauthorized, .httpClientError, .fileNotFound,
                .permissionDenied, .malformedData, .unsupportedFormat, .hlsNotSupported, .corruptData, .notInLibrary,
                .alreadyInLibrary, .libraryUnavailable, .invalidFeed, .documentTooLarge, .alarmMissed, .noTranscript:
                return .final
            }
        }
    }
}
