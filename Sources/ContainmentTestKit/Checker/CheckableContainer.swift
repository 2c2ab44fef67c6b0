import Containment

/// A custom container as the ``ContainerChecker`` sees it: a fresh instance
/// made by your factory, shown in its window, and the controllers whose hooks
/// the checker watches.
///
/// A fixture is a plain value you define: typically the window, the
/// container and its children, so that your operations can reach them.
///
/// ```swift
/// struct TabsFixture: CheckableContainer {
///   let window: Window
///   let tabs: MyTabs
///   let first: Page, second: Page
///   var controllers: [any ViewController] { [tabs, first, second] }
/// }
/// ```
///
/// The checker makes two fixtures at a time (the one the concurrent
/// operations run on, and one it replays them on, one at a time) and matches
/// their controllers by their position in ``controllers``: list the same
/// controllers in the same order every time. An operation should use only
/// these controllers; a controller it creates on the fly is not watched, and
/// events that name it read as `"?"`.
public protocol CheckableContainer: Sendable {
  /// The window showing the container. The checker tears it down at the end
  /// of each epoch and then expects everything to be released.
  var window: Window { get }

  /// Every controller the checker watches, in a fixed order: the container,
  /// its children, anything the operations present. Their names
  /// (`node.name`) appear in findings and should be distinct.
  var controllers: [any ViewController] { get }
}
