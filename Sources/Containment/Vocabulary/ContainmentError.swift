/// Every misuse the runtime detects (§8).
///
/// Each is thrown *before* anything changes: when a call throws one of these,
/// the tree is exactly as it was.
public enum ContainmentError: Error, Sendable, Hashable, CustomStringConvertible {
  /// `addChild` was asked to add a controller to itself.
  case cannotAddSelfAsChild(ControllerID)
  /// `addChild` would create a cycle: the child is an ancestor of the parent.
  case wouldCreateCycle(child: ControllerID, parent: ControllerID)
  /// The controller is already a child of this parent.
  case alreadyChild(child: ControllerID, parent: ControllerID)
  /// The controller is a child of a container, so it cannot be a window's root.
  case hasParent(ControllerID)
  /// The controller is already the root of another window.
  case alreadyInWindow(ControllerID)
  /// `removeFromParent` on a controller that has no parent.
  case noParent(ControllerID)
  /// The controller is being moved between containers by another request.
  case childInFlight(ControllerID)
  /// A verb called from a transaction's body (a
  /// ``ViewController/withTransaction(_:)`` scope, a commit's animations)
  /// would link in the tree rooted at this controller while another
  /// transaction runs or waits in it. The body's verbs run as part of its
  /// transaction and cannot wait for that tree (it could be waiting for
  /// them); request it outside the transaction, which waits for the tree.
  case treeBusy(ControllerID)
  /// The operation names a controller that is not a child of this container.
  case notAChild(child: ControllerID, parent: ControllerID)
  /// `transition(from:to:)`: the outgoing child's view is not installed.
  case viewNotInstalled(ControllerID)
  /// `transition(from:to:)`: the incoming child's view is already installed.
  case viewAlreadyInstalled(ControllerID)
  /// The same controller was named twice where two different ones are needed.
  case sameController(ControllerID)
  /// A controller that is already on a navigation stack (this or another) was pushed.
  case alreadyOnStack(ControllerID)
  /// The root of a navigation stack cannot be popped.
  case cannotPopRoot
  /// `popTo` named a controller that is not on the stack.
  case notOnStack(ControllerID)
  /// A stack operation needs a non-empty stack.
  case emptyStack
  /// A tab index outside `0..<count`.
  case tabIndexOutOfRange(index: Int, count: Int)
  /// A view operation that would create a cycle in the view hierarchy.
  case viewHierarchyCycle
  /// A window's own view (``Window/rootView``) was to be added to another
  /// view: it is the root of its window's view hierarchy, never a subview.
  case windowRootView
  /// The view belongs to a controller that is not a child of this container.
  case foreignView
  /// The controller (or its tree) was torn down; it accepts no more work.
  case tornDown(ControllerID)
  /// The window was torn down; it accepts no more work.
  case windowTornDown
  /// `commit(_:)` of an ``AppearanceBatch`` on a container that forwards
  /// appearance automatically: batches belong to manual forwarding (A6,
  /// A7); the container's automatic forwarding already decides its
  /// children's appearance.
  case batchNeedsManualForwarding(ControllerID)
  /// `present(_:style:animated:)` was asked to present the presenter itself.
  case cannotPresentSelf(ControllerID)
  /// The controller is already presented (or is a window's root).
  case alreadyPresented(ControllerID)
  /// The presenter's view is not in a window: nothing could show what it presents.
  case presenterNotInWindow(ControllerID)
  /// The presenter already presents a controller (UIKit allows one at a time).
  case alreadyPresenting(presenter: ControllerID, presented: ControllerID)
  /// An interactive dismissal needs a controller presented as a sheet
  /// (``PresentationStyle/pageSheet`` or ``PresentationStyle/formSheet``)
  /// that presents nothing itself.
  case notADismissibleSheet(ControllerID)
  /// Awaiting the outcome of a request from inside the transaction it is queued
  /// behind would wait forever; the runtime refuses instead (R2).
  case awaitingOwnTransaction(TransactionID)
  /// The runtime stopped waiting for the controller's code named `call` (a
  /// transaction scope's body): it ran past its environment's
  /// ``ContainmentEnvironment/hookDeadline`` or a teardown abandoned it, or
  /// the controller was already faulted and its code is no longer called
  /// (V1, V3). The controller is faulted.
  case userCodeAbandoned(ControllerID, call: String)
  /// ``ViewController/waitUntil(_:)-(AppearanceState)`` waited for an
  /// appearance state that the controller's stream can no longer report: the
  /// controller is faulted (V1), its hooks are skipped, so the state its
  /// stream last reported is final. Thrown when the wait starts on a faulted
  /// controller, or when the controller is faulted while the wait is pending.
  case faulted(ControllerID)

  /// A readable description.
  public var description: String {
    switch self {
    case .cannotAddSelfAsChild(let id): "cannot add \(id) as a child of itself"
    case .wouldCreateCycle(let child, let parent):
      "adding \(child) to \(parent) would create a cycle: \(child) is an ancestor of \(parent)"
    case .alreadyChild(let child, let parent): "\(child) is already a child of \(parent)"
    case .hasParent(let id): "\(id) is a child of a container"
    case .alreadyInWindow(let id): "\(id) is already the root of another window"
    case .noParent(let id): "\(id) has no parent"
    case .childInFlight(let id): "\(id) is being moved between containers by another request"
    case .treeBusy(let id):
      "a transaction runs or waits in the tree of \(id): the transaction's body that would link it in cannot wait for it"
    case .notAChild(let child, let parent): "\(child) is not a child of \(parent)"
    case .viewNotInstalled(let id): "the view of \(id) is not installed"
    case .viewAlreadyInstalled(let id): "the view of \(id) is already installed"
    case .sameController(let id): "\(id) was named twice"
    case .alreadyOnStack(let id): "\(id) is already on a navigation stack"
    case .cannotPopRoot: "the root of a navigation stack cannot be popped"
    case .notOnStack(let id): "\(id) is not on the stack"
    case .emptyStack: "the navigation stack is empty"
    case .tabIndexOutOfRange(let index, let count): "tab index \(index) is outside 0..<\(count)"
    case .viewHierarchyCycle: "the view would become its own ancestor"
    case .windowRootView: "a window's own view is the root of its view hierarchy and cannot be added to another view"
    case .foreignView: "the view belongs to a controller that is not a child of this container"
    case .tornDown(let id): "\(id) was torn down"
    case .windowTornDown: "the window was torn down"
    case .batchNeedsManualForwarding(let id):
      "\(id) forwards appearance automatically; appearance batches need manual forwarding"
    case .cannotPresentSelf(let id): "\(id) cannot present itself"
    case .alreadyPresented(let id): "\(id) is already presented or shown as a window's root"
    case .presenterNotInWindow(let id): "\(id) is not in a window, so it cannot present"
    case .alreadyPresenting(let presenter, let presented): "\(presenter) already presents \(presented)"
    case .notADismissibleSheet(let id): "\(id) is not a sheet on top of its presentation chain"
    case .awaitingOwnTransaction(let id):
      "awaiting transaction \(id) from inside the transaction it is queued behind would never finish"
    case .userCodeAbandoned(let id, let call): "\(call) of \(id) was abandoned: the controller is faulted"
    case .faulted(let id): "\(id) is faulted: its stream reports no more appearance changes"
    }
  }
}
