import Foundation
import Testing

@Test func `raw identifier name Fails`() {
    #expect(Bool(false), "a raw-identifier test that fails")
}

@Test func `raw identifier name Passes`() {}

@Suite struct Overloads {
    @Test(arguments: [1, 2]) func overload(_ value: Int) {
        #expect(value > 0)
    }

    @Test(arguments: ["a", ""]) func overload(_ value: String) {
        // Same name, other overload: a failing one would be a separate test; this one fails.
        #expect(!value.isEmpty, "the String overload fails for an empty string")
    }
}

@Suite struct Outer {
    @Suite struct Inner {
        @Test func nestedPasses() {}
    }
}

@Suite struct Extended {}

extension Extended {
    @Test func inExtensionFails() {
        #expect(1 == 2, "a test declared in an extension")
    }
}

@Suite struct Display {
    @Test("this display name failed with 3 issues, but Passes") func displayNameLooksFailedPasses() {}

    @Test func cancelledSkipped() throws {
        try Test.cancel("cancelled on purpose")
    }
}
