import Containment
import ContainmentTestKit

/// A navigation stack on screen with its root, a detail page to push and a
/// sheet to present, as the checker sees it: the built-in containers hold
/// the contract under the same checks as a custom one.
struct NavigationFixture: CheckableContainer {
  let window: Window
  let navigation: NavigationController
  let root: TabPage
  let detail: TabPage
  let sheet: TabPage
  var controllers: [any ViewController] { [navigation, root, detail, sheet] }

  init(environment: ContainmentEnvironment) async throws {
    root = TabPage("root")
    detail = TabPage("detail")
    sheet = TabPage("sheet")
    navigation = NavigationController(name: "Nav")
    window = Window(environment: environment)
    try await window.setRootViewController(navigation)
    try await navigation.setViewControllers([root], animated: false)
  }

  static let checker = ContainerChecker<NavigationFixture>(
    "Navigation", reference: "NavigationFixture.checker",
    operations: [
      ContainerOperation("push detail", weight: 2) { fixture, animated in
        _ = try await fixture.navigation.push(fixture.detail, animated: animated).value
      },
      ContainerOperation("pop", weight: 2) { fixture, animated in
        _ = try await fixture.navigation.pop(animated: animated).value
      },
      ContainerOperation("present sheet") { fixture, animated in
        _ = try await fixture.root.present(fixture.sheet, style: .pageSheet, animated: animated).value
      },
      ContainerOperation("present full screen") { fixture, animated in
        _ = try await fixture.root.present(fixture.sheet, style: .fullScreen, animated: animated).value
      },
      ContainerOperation("dismiss") { fixture, animated in
        _ = try await fixture.root.dismiss(animated: animated).value
      },
    ]
  ) { environment in
    try await NavigationFixture(environment: environment)
  }
}
