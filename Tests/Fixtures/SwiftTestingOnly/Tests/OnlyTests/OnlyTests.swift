import Testing

@Test func one() { #expect(1 + 1 == 2) }
@Test(arguments: ["a", "bb"]) func lengths(text: String) { #expect(!text.isEmpty) }
