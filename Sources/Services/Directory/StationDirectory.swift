import Digests
import Foundation
import Logging
import PlayerCore
import Streaming

/// The community station directory (radio-browser.info): search it, and tell it when a listener
/// starts one of its stations.
///
/// Etiquette, as the directory asks of its clients:
/// - No fixed server: the published list (`/json/servers` of `all.api.radio-browser.info`) is read,
///   shuffled, and tried in turn; a server that fails is left for the next one. Configured
///   `servers` (a mirror, or the tests' local servers) replace discovery entirely.
/// - A descriptive User-Agent (the shared client's, which names Tonearm and its version).
/// - A click is counted (`/json/url/{id}`) each time a station from the directory is played.
/// - Answers are cached for `cacheLifetime` (an hour), in memory and on disk, so browsing back and
///   forth, or a script that runs `station search` in a loop, asks the directory once.
///
/// Everything the directory says is cleaned as it is decoded (`DirectoryStation`). The search text
/// is the listener's: it is never logged, only which criteria were used and how many stations came.
package actor StationDirectory {
    package struct Configuration: Sendable {
        /// The servers to ask, in order (scheme, host, port; a path is kept as a prefix); empty:
        /// discover them.
        package var servers: [URL]
        /// Where the list of servers is published.
        package var serversURL = URL(string: "https://all.api.radio-browser.info/json/servers")!
        /// Asked when the list itself cannot be had: the name resolves to every server.
        package var fallbackServer = URL(string: "https://all.api.radio-browser.info")!
        package var cacheLifetime: Double = 3600
        /// Where answers are kept between runs; nil keeps them in memory only.
        package var cacheDirectory: URL?

        package init(servers: [URL] = [], cacheDirectory: URL? = CacheHome.directory("directory")) {
            self.servers = servers
            self.cacheDirectory = cacheDirectory
        }
    }

    private let configuration: Configuration
    private let network: NetworkClient
    private let now: @Sendable () -> Date
    private var random: SeededRandom
    private let logger: Logger
    /// The servers in the order they are tried; the one that answered last goes first.
    private var servers: [URL]?
    private var memory: [String: CachedAnswer] = [:]

    struct CachedAnswer: Codable {
        var savedAt: Date
        var stations: [DirectoryStation]
    }

    /// - Parameters:
    ///   - network: the program's client (its breakers, retry budget and logger apply).
    ///   - now: the wall clock the cache's hour is measured on.
    ///   - seed: fixes the shuffle of the servers (tests); nil seeds it from the system.
    package init(
        configuration: Configuration = Configuration(), network: NetworkClient = .shared,
        now: @escaping @Sendable () -> Date = Date.init, seed: UInt64? = nil,
        logger: Logger = Logger(label: "tonearm.directory", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.configuration = configuration
        self.network = network
        self.now = now
        self.random = seed.map(SeededRandom.init(seed:)) ?? .systemSeeded()
        self.logger = logger
    }

    /// The stations matching `query`, best first, from the cache when it is younger than an hour.
    /// - Throws: the last server's error when none answered (`offline`, `dnsFailure`, `httpRetryable`,
    ///   ...); `malformedData` when the answer is not the directory's JSON.
    package func search(_ query: StationQuery) async throws(PlaybackError) -> [DirectoryStation] {
        let key = cacheKey(query)
        if let cached = cached(key) {
            logger.debug("directory search answered from the cache", metadata: Self.fields(query, count: cached.count))
            return cached
        }
        let (server, rows) = try await firstAnswer("directorySearch") { server throws(PlaybackError) in
            guard var components = URLComponents(url: server.appendingPathComponent("json/stations/search"), resolvingAgainstBaseURL: false) else {
                throw PlaybackError(.streamUnavailable, underlying: "unusable directory address")
            }
            components.queryItems = query.queryItems
            // URLComponents leaves "+" as it is, which servers read as a space ("c++", "drum+bass").
            components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
            guard let url = components.url else { throw PlaybackError(.streamUnavailable, underlying: "unusable directory query") }
            return try await network.fetch(
                [Lenient<DirectoryStationJSON>].self, from: url, operation: "directorySearch",
                options: .init(timeout: 15, maxBytes: ServiceLimits.maxDirectoryBytes, policy: policy))
        }
        let stations = Self.stations(fromSearch: rows)
        store(key, stations)
        logger.debug("directory search", metadata: Self.fields(query, count: stations.count).merging(["server": .string(server.host ?? "?")]) { a, _ in a })
        return stations
    }

    /// Tells the directory a listener started the station `id` (its click count, which orders
    /// searches). Best effort: a failure is logged, never shown; playing does not wait for it.
    package func countClick(id: String) async {
        guard let id = DirectoryStationJSON.identifier(id) else { return }
        do throws(PlaybackError) {
            _ = try await firstAnswer("directoryClick") { server throws(PlaybackError) in
                try await network.data(
                    from: server.appendingPathComponent("json/url").appendingPathComponent(id), operation: "directoryClick",
                    options: .init(timeout: 10, maxBytes: 64 * 1024, policy: .once, accept: "application/json"))
            }
            logger.debug("directory click counted")
        } catch {
            logger.mappedError(error, level: .notice, "directory click not counted")
        }
    }

    // MARK: Servers

    /// Asks each server in turn until one answers; the one that did is asked first from then on.
    private func firstAnswer<T: Sendable>(
        _ operation: String, _ ask: (URL) async throws(PlaybackError) -> T
    ) async throws(PlaybackError) -> (URL, T) {
        let candidates = await serverList()
        var lastError = PlaybackError(.streamUnavailable, underlying: "no directory server")
        for server in candidates {
            do throws(PlaybackError) {
                let answer = try await ask(server)
                servers = [server] + (servers ?? []).filter { $0 != server }
                return (server, answer)
            } catch {
                if error.code == .cancelled { throw error }
                lastError = error
                logger.mappedError(error, level: .notice, "directory server did not answer", fields: ["server": server.host ?? "?", "operation": operation])
            }
        }
        throw lastError
    }

    /// Each try of one server is quick when others can be tried next; a single server gets the
    /// usual retries.
    private var policy: BackoffPolicy { (servers?.count ?? 1) > 1 ? .once : .quick }

    /// The configured server, or the published list shuffled (fetched once per process), or the
    /// round-robin name when the list cannot be had.
    private func serverList() async -> [URL] {
        if let servers { return servers }
        if !configuration.servers.isEmpty {
            servers = configuration.servers
            return configuration.servers
        }
        do throws(PlaybackError) {
            let listed = try await network.data(
                from: configuration.serversURL, operation: "directoryServers",
                options: .init(timeout: 10, maxBytes: 256 * 1024, policy: .quick, accept: "application/json"))
            var found = try Self.servers(fromList: listed.body)
            found.shuffle(using: &random)
            // The round-robin name stays as a last resort behind the listed servers.
            servers = found + [configuration.fallbackServer]
            logger.debug("directory servers", metadata: ["count": .string(String(found.count))])
        } catch {
            logger.mappedError(error, level: .notice, "directory server list unavailable; using the round-robin name")
            servers = [configuration.fallbackServer]
        }
        return servers ?? [configuration.fallbackServer]
    }

    /// The stations of a search's answer (a JSON array of radio-browser's station objects): each
    /// usable row once (by id), in the answer's order; a row that does not decode is left out.
    package static func stations(fromSearch data: Data) throws(PlaybackError) -> [DirectoryStation] {
        do {
            return stations(fromSearch: try JSONDecoder().decode([Lenient<DirectoryStationJSON>].self, from: data))
        } catch {
            throw PlaybackError(.malformedData, underlying: "directory answer: \(error)")
        }
    }

    static func stations(fromSearch rows: [Lenient<DirectoryStationJSON>]) -> [DirectoryStation] {
        var seen = Set<String>()
        return rows.compactMap(\.value?.station).filter { seen.insert($0.id).inserted }
    }

    /// The https servers a published list names (`[{"name": "de1.api.radio-browser.info", ...}]`),
    /// each once, in the list's order; names that could not be a host are left out.
    package static func servers(fromList data: Data) throws(PlaybackError) -> [URL] {
        let listed: [Lenient<ServerJSON>]
        do {
            listed = try JSONDecoder().decode([Lenient<ServerJSON>].self, from: data)
        } catch {
            throw PlaybackError(.malformedData, underlying: "directory server list: \(error)")
        }
        var names = Set<String>()
        return listed.compactMap { $0.value?.name.flatMap(serverName) }.filter { names.insert($0).inserted }
            .compactMap { URL(string: "https://\($0)") }
    }

    /// A host name from the list, or nil: letters, digits, dots and hyphens only (it becomes a URL).
    static func serverName(_ text: String) -> String? {
        let name = text.lowercased()
        guard (4...253).contains(name.count), name.contains("."),
            name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") })
        else { return nil }
        return name
    }

    struct ServerJSON: Decodable, Sendable {
        var name: String?
    }

    // MARK: Cache

    private func cached(_ key: String) -> [DirectoryStation]? {
        let answer = memory[key] ?? readDisk(key)
        guard let answer else { return nil }
        let age = now().timeIntervalSince(answer.savedAt)
        guard age >= 0, age < configuration.cacheLifetime else {
            memory[key] = nil
            return nil
        }
        memory[key] = answer
        return answer.stations
    }

    private func store(_ key: String, _ stations: [DirectoryStation]) {
        let answer = CachedAnswer(savedAt: now(), stations: stations)
        if memory.count >= ServiceLimits.directoryMemoryEntries, let oldest = memory.min(by: { $0.value.savedAt < $1.value.savedAt })?.key {
            memory[oldest] = nil
        }
        memory[key] = answer
        guard let directory = configuration.cacheDirectory, let data = try? JSONEncoder().encode(answer) else { return }
        // A cache that cannot be written costs a request next time, nothing more.
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try? data.write(to: directory.appendingPathComponent(key + ".json"), options: .atomic)
        removeExpired(in: directory)
    }

    /// Answers past their hour are of no use, and together they would tell what was searched for:
    /// they go whenever a new one is kept.
    /// Each file says when it was kept (on this directory's clock); one that cannot say is removed.
    private func removeExpired(in directory: URL) {
        let files = (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? []
        for file in files where file.pathExtension == "json" {
            let data = (try? Data(contentsOf: file)).flatMap { $0.count <= ServiceLimits.maxDirectoryBytes ? $0 : nil }
            let savedAt = data.flatMap { try? JSONDecoder().decode(CachedAnswer.self, from: $0) }?.savedAt
            if let savedAt, now().timeIntervalSince(savedAt) < configuration.cacheLifetime { continue }
            try? FileManager.default.removeItem(at: file)
        }
    }

    /// A kept answer is a file like any other: its stations pass the same checks again as they
    /// are read (a damaged or edited file cannot bring in another scheme or control characters).
    private func readDisk(_ key: String) -> CachedAnswer? {
        guard let file = configuration.cacheDirectory?.appendingPathComponent(key + ".json"),
            let data = try? Data(contentsOf: file), data.count <= ServiceLimits.maxDirectoryBytes,
            let answer = try? JSONDecoder().decode(CachedAnswer.self, from: data)
        else { return nil }
        return CachedAnswer(savedAt: answer.savedAt, stations: answer.stations.compactMap(\.checkedAgain))
    }

    /// A hash of the query and of where it goes (a configured mirror has answers of its own).
    private func cacheKey(_ query: StationQuery) -> String {
        let text = configuration.servers.map(\.absoluteString).joined(separator: ",") + "?"
            + query.queryItems.map { "\($0.name)=\($0.value ?? "")" }.joined(separator: "&")
        return SHA2.sha256.hash(Array(text.utf8)).prefix(16).lowercaseHexadecimal
    }

    private static func fields(_ query: StationQuery, count: Int) -> Logger.Metadata {
        let used = [("name", query.name), ("tag", query.tag), ("country", query.country), ("language", query.language)]
            .compactMap { $0.1 == nil ? nil : $0.0 }
        return ["criteria": .string(used.joined(separator: ",")), "order": .string(query.order.rawValue), "count": .string(String(count))]
    }
}

/// One element of a JSON array, or nil when it does not decode: one odd station never fails a search.
struct Lenient<Value: Decodable & Sendable>: Decodable, Sendable {
    let value: Value?

    init(from decoder: any Decoder) throws {
        value = try? Value(from: decoder)
    }
}
