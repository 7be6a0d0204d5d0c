import Testing
@Test func y() {}
