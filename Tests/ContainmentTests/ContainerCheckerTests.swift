import Containment
import ContainmentTestKit
import Testing

/// The container checker of the test kit, applied to the two-tab container
/// of §9 and to a broken copy of it.
@Suite(.timeLimit(.minutes(2)))
struct ContainerCheckerTests {
  @Test func theTwoTabContainerHoldsTheContract() async {
    var configuration = CheckConfiguration(length: .operations(300), seed: 0x7AB)
    configuration.reducesFailures = false
    let report = await TwoTabFixture.checker.run(configuration)
    print(report)
    #expect(report.findings == [])
    #expect(report.operations == 300)
  }

  @Test func theBrokenTwoTabContainerIsCaughtAndReduced() async throws {
    let report = await TwoTabFixture.brokenChecker.run(CheckConfiguration(length: .operations(300), seed: 0x7AB))
    print(report)
    #expect(!report.findings.isEmpty)
    let reproduction = try #require(report.reproduction)
    #expect(reproduction.schedule.operationCount <= 3)
  }
}
