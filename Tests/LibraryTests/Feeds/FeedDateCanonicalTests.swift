import Foundation
import Testing

@testable import Library

/// The byte-level reader of `Tue, 10 Jun 2003 04:00:00 GMT` must read exactly what the general
/// RFC 822 reader reads, and leave everything else (and every impossible date) to it.
@Suite("Feed dates: the canonical RFC 822 shape")
struct FeedDateCanonicalTests {
    static let zones = ["GMT", "gmt", "UT", "UTC", "Z", "+0000", "-0500", "+0530", "+1400", "-1200", "+1500", "+0060", "EST", "+05:30"]

    @Test(arguments: zones)
    func readsWhatTheGeneralReaderReads(zone: String) {
        var read = 0
        for year in [1899, 1900, 1970, 2000, 2003, 2024, 2100, 9999] {
            for (month, name) in ["Jan", "feb", "FEB", "Mar", "Jun", "Sep", "Dec", "Sept"].enumerated() {
                for day in ["1", "01", "10", "28", "29", "30", "31", "00", "123"] {
                    for clock in ["04:00:00", "23:59:59", "24:00:00", "12:30:60", "25:00:00", "04:61:00", "4:00:00"] {
                        for weekday in ["", "Tue, ", "Tues, ", "Dienstag, "] {
                            let text = "\(weekday)\(day) \(name) \(year) \(clock) \(zone)"
                            guard let canonical = FeedDate.parseCanonicalRFC822(text) else { continue }
                            read += 1
                            #expect(canonical == FeedDate.parseRFC822(text), "\(text), month \(month + 1)")
                        }
                    }
                }
            }
        }
        // The shapes it takes are read by it, not all left to the general reader.
        let takes = !["EST", "+05:30", "+1500", "+0060"].contains(zone)
        #expect((read > 0) == takes)
    }

    @Test(arguments: [
        "Tue, 10 Jun 2003 04:00:00 GMT (UTC)", "Tue, 10 Jun 2003 04:00 GMT", "Tue,10 Jun 2003 04:00:00 GMT", "Tue, 10 Jun 03 04:00:00 GMT",
        "Tue, 10 June 2003 04:00:00 GMT", "Tue, 10  Jun 2003 04:00:00 GMT", "Tue, 10 Jun 2003 04:00:00", "Tue, 10 Jun 2003 04:00:00 GMT+0200",
    ])
    func leavesOtherShapesToTheGeneralReader(text: String) {
        #expect(FeedDate.parseCanonicalRFC822(text) == nil)
    }
}
