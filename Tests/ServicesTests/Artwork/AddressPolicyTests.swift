import Foundation
import PlayerCore
import Testing

@testable import Services

/// Literal addresses only (`numericOnly`): these tests never query DNS or touch the network.
@Suite struct AddressPolicyTests {
    @Test(arguments: [
        "http://127.0.0.1/cover.png", "http://127.8.9.10:8080/a.png", "http://10.1.2.3/a.png", "http://[::1]/a.png",
        "http://192.168.1.20/a.png", "http://172.16.5.4/a.png", "http://172.31.255.1/a.png", "http://169.254.169.254/latest",
        "http://0.0.0.0/a.png", "http://[fe80::1]/a.png", "http://[fd12:3456::1]/a.png", "http://[fc00::1]/a.png",
        "http://[::ffff:127.0.0.1]/a.png", "http://[::ffff:10.0.0.1]/a.png", "http://[::]/a.png", "http://100.64.0.1/a.png",
        "http://224.0.0.1/a.png", "http://255.255.255.255/a.png",
    ])
    func nonPublicAddressesAreRefused(_ text: String) async throws {
        let url = try #require(URL(string: text))
        await #expect(throws: PlaybackError.self) { try await AddressPolicy().check(url, numericOnly: true) }
        do {
            try await AddressPolicy().check(url, numericOnly: true)
        } catch {
            #expect(error.code == .permissionDenied)
        }
    }

    @Test(arguments: [
        "http://93.184.216.34/cover.png", "https://1.1.1.1/a.jpg", "http://172.32.0.1/a.png", "http://192.169.0.1/a.png",
        "http://[2606:2800:220:1:248:1893:25c8:1946]/a.png",
    ])
    func publicAddressesAreAllowed(_ text: String) async throws {
        let url = try #require(URL(string: text))
        try await AddressPolicy().check(url, numericOnly: true)
    }

    @Test func privateAddressesAllowedWhenConfigured() async throws {
        try await AddressPolicy(allowPrivateAddresses: true).check(#require(URL(string: "http://127.0.0.1:9/a.png")))
        try await AddressPolicy(allowPrivateAddresses: true).check(#require(URL(string: "http://[::1]:9/a.png")))
    }

    @Test(arguments: ["file:///etc/passwd", "ftp://93.184.216.34/a.png", "data:image/png;base64,AAAA", "javascript:alert(1)"])
    func onlyHTTPSchemes(_ text: String) async throws {
        let url = try #require(URL(string: text))
        do {
            try await AddressPolicy(allowPrivateAddresses: true).check(url)
            Issue.record("\(text) was allowed")
        } catch {
            #expect(error.code == .streamUnavailable)
        }
    }

    @Test func rawAddressClassification() {
        #expect(AddressPolicy.isRefused([127, 0, 0, 1]))
        #expect(AddressPolicy.isRefused([192, 168, 0, 1]))
        #expect(!AddressPolicy.isRefused([93, 184, 216, 34]))
        #expect(AddressPolicy.isRefused([UInt8](repeating: 0, count: 15) + [1]))
        #expect(AddressPolicy.isRefused([1, 2, 3]))
    }
}
