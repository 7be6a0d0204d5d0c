import Digests
import Foundation
import Media

/// One cached picture: its bytes and what decoding them found, so the average colour is computed
/// once per image, not once per display.
struct CachedImage: Sendable, Equatable {
    let data: Data
    let image: DecodedImage
}

/// The name a URL is cached under: SHA-256 hex of the URL without its `nocache` query item.
/// Hashed, not slugged, so a name never carries a path separator, a `..` or any part of the URL
/// (which can hold tokens) into the file system.
enum ArtworkCacheKey {
    static func key(for url: URL) -> String {
        var canonical = url.absoluteString
        if var components = URLComponents(url: url, resolvingAgainstBaseURL: false) {
            let items = (components.queryItems ?? []).filter { $0.name != "nocache" }
            components.queryItems = items.isEmpty ? nil : items
            components.fragment = nil
            canonical = components.url?.absoluteString ?? canonical
        }
        return SHA2.sha256.hash(Array(canonical.utf8)).lowercaseHexadecimal
    }
}

/// The in-memory half: the most recently used pictures, at most `capacity`
/// (`ServiceLimits.artworkMemoryEntries`). A value owned by the service actor.
struct ArtworkMemoryCache {
    let capacity: Int
    private var entries: [String: CachedImage] = [:]
    /// Keys from least to most recently used.
    private var order: [String] = []

    init(capacity: Int) { self.capacity = max(1, capacity) }

    var count: Int { entries.count }

    mutating func get(_ key: String) -> CachedImage? {
        guard let entry = entries[key] else { return nil }
        touch(key)
        return entry
    }

    mutating func put(_ key: String, _ entry: CachedImage) {
        entries[key] = entry
        touch(key)
        while order.count > capacity {
            entries[order.removeFirst()] = nil
        }
    }

    private mutating func touch(_ key: String) {
        if let index = order.firstIndex(of: key) { order.remove(at: index) }
        order.append(key)
    }
}

/// The on-disk half: one file per picture under `$XDG_CACHE_HOME/tonearm/artwork` (or
/// `~/.cache/tonearm/artwork`), named by `ArtworkCacheKey`. A file holds a small header with the
/// decoded facts (kind, size, average colour) and then the image bytes, so a picture read back
/// needs no decoding at all.
///
/// Writes are atomic (a temporary file renamed into place), so a crash leaves the old file or the
/// new one, never half of one. A file that does not parse, whose bytes are not the image its
/// header names, or that is over the size cap is treated as absent, deleted, and replaced by the
/// next fetch. Files are not expired: an artwork URL names one picture, and the cache-busting
/// query only keeps caches *between* us and the server from answering.
struct ArtworkDiskCache: Sendable {
    let directory: URL
    let maxBytes: Int

    private static let magic = Data("TNA1".utf8)
    private static let maxHeaderBytes = 4096

    private struct Header: Codable {
        var kind: ImageKind
        var width: Int
        var height: Int
        var averageColor: RGBColor
    }

    /// `$XDG_CACHE_HOME/tonearm/artwork` when XDG_CACHE_HOME is an absolute path (the XDG base
    /// directory spec ignores relative ones), otherwise `~/.cache/tonearm/artwork`.
    static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        CacheHome.directory("artwork", environment: environment)
    }

    func fileURL(for key: String) -> URL {
        directory.appendingPathComponent(key, isDirectory: false)
    }

    /// The cached picture, or nil when there is none or it is damaged (then it is deleted).
    func read(_ key: String) -> CachedImage? {
        let file = fileURL(for: key)
        guard let contents = try? Data(contentsOf: file) else { return nil }
        guard let entry = Self.parse(contents, maxBytes: maxBytes) else {
            try? FileManager.default.removeItem(at: file)
            return nil
        }
        return entry
    }

    /// Stores `entry`; failures (a full disk, a read-only home) only cost a later re-fetch.
    func write(_ key: String, _ entry: CachedImage) {
        let header = Header(
            kind: entry.image.kind, width: entry.image.width, height: entry.image.height, averageColor: entry.image.averageColor)
        guard let json = try? JSONEncoder().encode(header) else { return }
        var contents = Self.magic
        var length = UInt32(json.count).bigEndian
        contents.append(Data(bytes: &length, count: 4))
        contents.append(json)
        contents.append(entry.data)
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try contents.write(to: fileURL(for: key), options: .atomic)
        } catch {
            return
        }
    }

    static func parse(_ contents: Data, maxBytes: Int) -> CachedImage? {
        let bytes = [UInt8](contents.prefix(8))
        guard bytes.count == 8, Data(bytes[0..<4]) == magic else { return nil }
        let length = Int(bytes[4]) << 24 | Int(bytes[5]) << 16 | Int(bytes[6]) << 8 | Int(bytes[7])
        let start = contents.startIndex + 8
        guard length > 0, length <= maxHeaderBytes, contents.count > 8 + length else { return nil }
        guard let header = try? JSONDecoder().decode(Header.self, from: contents[start..<(start + length)]) else { return nil }
        let data = Data(contents[(start + length)...])
        guard data.count <= maxBytes, ImageKind.detect(data) == header.kind, header.width > 0, header.height > 0 else { return nil }
        let image = DecodedImage(kind: header.kind, width: header.width, height: header.height, averageColor: header.averageColor)
        return CachedImage(data: data, image: image)
    }
}
