import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import PlayerCore

extension NetworkClient {
    /// One try of a whole-document request: the GET (`GETRequest`), its redirects when they are
    /// followed here, and the bounded body, all within `options.timeout` on the injected clock.
    struct Exchange: Sendable {
        let http: HTTPClient
        let options: Options
        /// What the time limit runs on (`NetworkClient.timeoutClock`).
        let clock: any Clock<Duration>
        /// The wall clock an HTTP-date `Retry-After` is read against.
        let now: @Sendable () -> Date

        /// The statuses that send a GET elsewhere (the ones the client itself follows); 304 is an answer.
        static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]
        /// Moved for good (RFC 9110 15.4.2, RFC 9110 15.4.9).
        static let permanentRedirectStatuses: Set<Int> = [301, 308]

        /// One attempt: with `checkTarget` or `tracksRedirects`, redirects are followed here (each
        /// hop checked), noting whether all of them were permanent.
        func fetchOnce(_ url: URL) async throws -> NetworkResponse {
            guard options.followsRedirectsHere else { return try await request(url) }
            var target = url
            var allPermanent = true
            for hop in 0...StreamingLimits.maxRedirects {
                try await options.checkTarget?(target)
                let response = try await request(target)
                guard Self.redirectStatuses.contains(response.status) else {
                    guard hop > 0, allPermanent else { return response }
                    return NetworkResponse(
                        url: response.url, status: response.status, headers: response.headers, body: response.body, permanentURL: target)
                }
                allPermanent = allPermanent && Self.permanentRedirectStatuses.contains(response.status)
                guard let location = response.headers["location"], let next = URL(string: location, relativeTo: target)?.absoluteURL,
                    ["http", "https"].contains(next.scheme?.lowercased() ?? "")
                else {
                    throw PlaybackError(.streamUnavailable, httpStatus: response.status, underlying: "a redirect without a usable Location")
                }
                target = next
            }
            throw PlaybackError(.streamUnavailable, underlying: "more than \(StreamingLimits.maxRedirects) redirects")
        }

        /// AsyncHTTPClient's deadline ends at the response head: a server that sends its headers and
        /// then holds the body would keep this call waiting for ever. So the whole exchange races
        /// the time limit on the injected clock, which alone decides (the client is given no
        /// deadline of its own).
        private func request(_ url: URL) async throws -> NetworkResponse {
            try await TimeLimit.race(
                { try await exchange(url) }, within: .seconds(options.timeout), on: clock,
                expired: PlaybackError(.connectionTimeout, underlying: "no complete answer within \(options.timeout) s"))
        }

        private func exchange(_ url: URL) async throws -> NetworkResponse {
            var request = GETRequest(url, accept: options.accept, headers: options.headers).clientRequest()
            if let post = options.post {
                request.method = .POST
                request.headers.replaceOrAdd(name: "Content-Type", value: post.contentType)
                request.body = .bytes(ByteBuffer(bytes: post.data))
            }
            let response: HTTPClientResponse
            do {
                response = try await http.execute(request, deadline: .distantFuture)
            } catch {
                throw HTTPErrorMapping.map(error)
            }
            let status = Int(response.status.code)
            if options.followsRedirectsHere, Self.redirectStatuses.contains(status) {
                // Followed by `fetchOnce`, after checking where it leads.
                return NetworkResponse(url: url, status: status, headers: Self.headerMap(response.headers), body: Data())
            }
            if status == 304, options.isConditional {
                return NetworkResponse(url: url, status: status, headers: Self.headerMap(response.headers), body: Data())
            }
            guard (200...299).contains(status) else {
                throw HTTPRefusal.error(status: status, retryAfter: response.headers.first(name: "Retry-After"), now: now())
            }
            let headers = Self.headerMap(response.headers)
            if let length = headers["content-length"].flatMap(Int.init), length > options.maxBytes {
                throw PlaybackError(.documentTooLarge, underlying: "response of \(length) bytes is over the \(options.maxBytes)-byte cap")
            }
            var body = Data()
            do {
                for try await chunk in response.body {
                    guard body.count + chunk.readableBytes <= options.maxBytes else {
                        throw PlaybackError(.documentTooLarge, underlying: "response is over the \(options.maxBytes)-byte cap")
                    }
                    body.append(contentsOf: chunk.readableBytesView)
                }
            } catch {
                throw HTTPErrorMapping.map(error)
            }
            return NetworkResponse(url: url, status: status, headers: headers, body: body)
        }

        /// The first value of each header, by lower-cased name.
        static func headerMap(_ headers: HTTPHeaders) -> [String: String] {
            var map: [String: String] = [:]
            for header in headers where map[header.name.lowercased()] == nil { map[header.name.lowercased()] = header.value }
            return map
        }
    }
}
