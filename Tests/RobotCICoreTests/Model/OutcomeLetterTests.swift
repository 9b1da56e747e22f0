import RobotCICore
import Testing

@Suite struct OutcomeLetterTests {
    @Test func eachOutcomeHasItsOwnLetterAndReadsBack() {
        let letters = Outcome.allCases.map(\.letter)
        #expect(String(letters) == "PFKSTCQN", "history.json's letters must not change")
        for outcome in Outcome.allCases { #expect(Outcome(letter: outcome.letter) == outcome) }
        #expect(Outcome(letter: "-") == nil)
    }
}
